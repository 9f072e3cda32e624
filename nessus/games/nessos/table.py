"""The Nessos table in pictures (strings only: no widgets, no charts): the cards, every player's
side, the round's offers, what you must do now, and their CSS.

Hidden information stays hidden: only `HUMAN`'s hand and the cards face up show their faces;
another hand is a row of backs with its count, an offered card a back with its announcement
(your own offered card shows its face, as you know it). `who` names every seat ("you",
"player 2 (naive)").
"""

from __future__ import annotations

import html
from collections.abc import Sequence

from nessus.games.nessos.deck import CHARON, Card, card_text
from nessus.games.nessos.state import NINE, State

HUMAN = 0
"""Your seat (player 1)."""
CHARON_RED = "#b3261e"

CARD_CSS = (
    "<style>"
    ".nessos-card{display:inline-flex;align-items:center;justify-content:center;box-sizing:border-box;"
    "width:34px;height:48px;border-radius:5px;border:1px solid #555;background:#fffdf5;color:#222;"
    "font:bold 17px/1 sans-serif;margin:1px 2px;vertical-align:middle;box-shadow:1px 1px 2px rgba(0,0,0,.25)}"
    ".nessos-card.charon{background:#2b2b2b;color:#ff8a80;border-color:#000}"
    ".nessos-card.back{background:repeating-linear-gradient(45deg,#1f4e79 0 4px,#2f6ea5 4px 8px);"
    "border-color:#123;color:transparent}"
    ".nessos-card.small{width:22px;height:31px;font-size:12px;border-radius:3px;margin:1px}"
    ".nessos-count{font-size:12px;color:#555;margin-left:4px}"
    ".nessos-table td{padding:3px 4px;vertical-align:middle;border-top:1px solid rgba(128,128,128,.25)}"
    ".nessos-table{border-collapse:collapse;width:100%;font-size:13px}"
    ".nessos-offer{display:inline-flex;flex-direction:column;align-items:center;margin:2px 6px;font-size:12px}"
    ".nessos-log{font-size:12px;max-height:150px;overflow-y:auto;border-top:1px solid rgba(128,128,128,.3);"
    "margin-top:4px;padding-top:2px}"
    ".nessos-panel table{border-collapse:collapse;font-size:13px}"
    ".nessos-panel td,.nessos-panel th{padding:2px 6px;text-align:left}"
    "</style>"
)


def note(text: str) -> str:
    """A line in small grey type."""
    return f"<div style='font-size:12px;color:#555'>{text}</div>"


# -- cards ----------------------------------------------------------------------------------------
def card_html(card: Card | None, small: bool = False) -> str:
    """A card face up (its value, or "C" on black for Charon), or face down (None: its back)."""
    size = " small" if small else ""
    if card is None:
        return f"<span class='nessos-card back{size}' title='face down'>?</span>"
    kind, title = (" charon", "Charon") if card == CHARON else ("", f"creature {card}")
    return f"<span class='nessos-card{kind}{size}' title='{title}'>{html.escape(card_text(card))}</span>"


def cards_html(cards: Sequence[Card], small: bool = False, empty: str = "—") -> str:
    """A row of cards face up."""
    return "".join(card_html(c, small) for c in cards) or f"<span style='color:#888'>{empty}</span>"


def backs_html(n: int) -> str:
    """A hidden hand: small backs (up to 6 drawn) and its count."""
    if not n:
        return "<span style='color:#888'>no cards</span>"
    return card_html(None, True) * min(n, 6) + f"<span class='nessos-count'>{n} card{'s' if n > 1 else ''}</span>"


# -- the table ------------------------------------------------------------------------------------
def table_html(s: State, who: Sequence[str]) -> str:
    """Every player: points, Charon in front, the cards in front (face up), the hand (yours face
    up, the others as backs with their count), the first-player token."""
    rows = []
    for p in range(s.players):
        token = " <span title='first-player token'>●</span>" if p == s.token and not s.ended else ""
        hand = cards_html(s.hand(p), empty="empty") if p == HUMAN else backs_html(sum(s.hands[p]))
        if s.out[p]:
            hand = "<b style='color:#b00020'>eliminated</b>"
        charon = s.charon_in_front(p)
        rows.append(
            f"<tr class='nessos-player'><td><b>{html.escape(who[p][0].upper() + who[p][1:])}</b>{token}</td>"
            f"<td align='center'><b>{s.scores[p]}</b></td>"
            f"<td align='center' style='color:{CHARON_RED if charon else '#888'}'>{charon}/3</td>"
            f"<td>{cards_html(s.front(p), small=True)}</td></tr>"
            f"<tr><td colspan='4' class='nessos-hand'>{'your hand ' if p == HUMAN else 'hand '}{hand}</td></tr>"
        )
    return note(
        f"Round {s.rounds + 1} · first to {s.rules.goal} points · draw pile {s.pile_size} · Charon face up "
        f"{s.charon_face_up} of {NINE}"
    ) + (
        "<table class='nessos-table'><tr><th align='left'>player</th><th>points</th><th>Charon</th>"
        f"<th align='left'>face up in front</th></tr>{''.join(rows)}</table>"
    )


def chain_html(s: State) -> str:
    """The round's offered cards: backs with their announcement and who offered them to whom
    (your own card with its face: you know it)."""
    if not s.chain:
        return ""

    def who(p: int) -> str:
        return "you" if p == HUMAN else f"P{p + 1}"

    items = "".join(
        f"<span class='nessos-offer'>{card_html(o.card if o.sender == HUMAN else None)}<span>“{o.announced}”</span>"
        f"<span>{who(o.sender)} → {who(o.receiver)}</span></span>"
        for o in s.chain
    )
    return f"<div class='nessos-chain'><b>Offered this round</b> (face down):<br>{items}</div>"


def prompt_html(s: State, made: int) -> str:
    """What you must do now (`State.prompt`; `made`: the moves you have made, for a test to wait on)."""
    head, choices = s.prompt(HUMAN)
    text = f"<b>{head}</b> {choices}" if head else "" if s.ended else "<i>The others are playing…</i>"
    return f"<div class='nessos-prompt' data-made='{made}' style='margin:4px 0'>{text}</div>"
