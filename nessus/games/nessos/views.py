"""The Nessos dashboard's pictures, pure functions of the game: cards drawn as cards (faces for
your hand and the cards face up, backs for every hidden card), the table, the round's offers,
the log lines, the live Bayes panel for an offer you receive, and the charts (the posterior
against the bluffer's q, a tournament's win shares with their intervals).

Hidden information stays hidden: only `HUMAN`'s hand and the cards face up are drawn with their
faces; another hand is a row of backs with its count, an offered card a back with its
announcement (your own offered card shows its face, as you know it).
"""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence
from fractions import Fraction

import altair as alt
import polars as pl

from nessus.games.nessos.deck import CHARON, Card, card_text
from nessus.games.nessos.odds import Chain, Sender, posterior_by_bluff
from nessus.games.nessos.state import (
    ACCEPT,
    ELIMINATION,
    NINE,
    NINE_CHARON,
    NO_CARDS,
    REFUSE,
    TARGET,
    Answer,
    Draw,
    Offer,
    Pass,
    State,
)
from nessus.kit.common import wrap_lines
from nessus.kit.match import seat_name, winners_text
from nessus.numbers import d3_format, decimal_text, number_html
from nessus.solver import Hint

HUMAN = 0
"""Your seat (player 1)."""
BOTS = ("naive", "bluffer", "bayes")
"""The opponents you can choose."""
MIXED = "one of each"
OPPONENTS = (*BOTS, MIXED)
CHARON_RED = "#b3261e"
SUBTITLE_CHARS = 44
"""Characters per subtitle line (a phone's chart is about 340 px wide)."""
Q_STEPS = 20
"""The posterior chart's q from 0 to 1 in this many steps."""

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


# -- cards ----------------------------------------------------------------------------------------
def card_html(card: Card, small: bool = False) -> str:
    """A card face up: its value, or "C" on black for Charon."""
    classes = "nessos-card" + (" charon" if card == CHARON else "") + (" small" if small else "")
    title = "Charon" if card == CHARON else f"creature {card}"
    return f"<span class='{classes}' title='{title}'>{html.escape(card_text(card))}</span>"


def back_html(small: bool = False) -> str:
    """A card face down (its back, never its face)."""
    return f"<span class='nessos-card back{' small' if small else ''}' title='face down'>?</span>"


def cards_html(cards: Sequence[Card], small: bool = False, empty: str = "—") -> str:
    """A row of cards face up."""
    if not cards:
        return f"<span style='color:#888'>{empty}</span>"
    return "".join(card_html(c, small) for c in cards)


def backs_html(n: int, small: bool = True) -> str:
    """A hidden hand: backs (up to 6 drawn) and its count."""
    if not n:
        return "<span style='color:#888'>no cards</span>"
    return back_html(small) * min(n, 6) + f"<span class='nessos-count'>{n} card{'s' if n > 1 else ''}</span>"


def player_name(p: int, bots: Sequence[str]) -> str:
    """ "You" for seat 1, else "Player k (bot)" (`kit.match.seat_name`, capitalised)."""
    name = seat_name(p, bots, HUMAN)
    return name[0].upper() + name[1:]


def seat_bots(opponents: str, players: int) -> tuple[str, ...]:
    """The bot in each seat ("you" in seat 1): one kind, or naive, bluffer, bayes in turn."""
    names = BOTS if opponents == MIXED else (opponents,)
    return ("you", *(names[i % len(names)] for i in range(players - 1)))


def table_html(s: State, bots: Sequence[str]) -> str:
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
            f"<tr class='nessos-player'><td><b>{html.escape(player_name(p, bots))}</b>{token}</td>"
            f"<td align='center'><b>{s.scores[p]}</b></td>"
            f"<td align='center' style='color:{CHARON_RED if charon else '#888'}'>{charon}/3</td>"
            f"<td>{cards_html(s.front(p), small=True)}</td></tr>"
            f"<tr><td colspan='4' class='nessos-hand'>{'your hand ' if p == HUMAN else 'hand '}{hand}</td></tr>"
        )
    return (
        f"<div style='font-size:12px;color:#555'>Round {s.rounds + 1} · first to {s.rules.goal} points · "
        f"draw pile {s.pile_size} · Charon face up {s.charon_face_up} of {NINE}</div>"
        "<table class='nessos-table'><tr><th align='left'>player</th><th>points</th><th>Charon</th>"
        f"<th align='left'>face up in front</th></tr>{''.join(rows)}</table>"
    )


def chain_html(s: State) -> str:
    """The round's offered cards: backs with their announcement and who offered them to whom
    (your own card with its face: you know it)."""
    if not s.chain:
        return ""
    items = []
    for o in s.chain:
        face = card_html(o.card) if o.sender == HUMAN else back_html()
        who = "you" if o.sender == HUMAN else f"P{o.sender + 1}"
        to = "you" if o.receiver == HUMAN else f"P{o.receiver + 1}"
        items.append(f"<span class='nessos-offer'>{face}<span>“{o.announced}”</span><span>{who} → {to}</span></span>")
    return f"<div class='nessos-chain'><b>Offered this round</b> (face down):<br>{''.join(items)}</div>"


def prompt_html(s: State) -> str:
    """What you must do now."""
    if s.ended:
        return ""
    if s.current_player() != HUMAN:
        return "<i>The others are playing…</i>"
    if not s.chain:
        return "<b>Your turn to offer:</b> pick a card of your hand, a player and the value you announce."
    last = s.chain[-1]
    if len(s.chain) > 1:
        said = ", ".join(str(o.announced) for o in s.chain)
        return (
            f"<b>Player {last.sender + 1} passes you {len(s.chain)} cards, announced {said}.</b> Accept them (face "
            f"up in front of you), refuse them (in front of player {last.sender + 1}, the last to offer)"
            + (" or add a card and pass them on." if len(s.chain) < 3 else ".")
        )
    return (
        f"<b>Player {last.sender + 1} offers you a card announced {last.announced}.</b> "
        "Accept it (face up in front of you), refuse it (in front of the sender) or add a card and pass them on."
    )


# -- the log --------------------------------------------------------------------------------------
def move_text(s: State, action: object, bots: Sequence[str]) -> str | None:
    """A log line for a move (None for a card drawn): the faces are told only once turned up."""
    if isinstance(action, Draw):
        return None
    me = s.current_player()
    verb = "" if me == HUMAN else "s"
    name = player_name(me, bots)

    def whom(p: int) -> str:
        return "you" if p == HUMAN else f"player {p + 1}"

    if isinstance(action, (Offer, Pass)):
        card = f"a card (your {card_text(action.card)})" if me == HUMAN else "a card"
        did = f"offer{verb} {card}" if isinstance(action, Offer) else f"add{verb} {card} and pass{verb and 'es'}"
        return f"{name} {did} to {whom(action.to)}, announced {action.announced}."
    if isinstance(action, Answer):
        taker = s.chain[-1].receiver if action.accept else s.chain[-1].sender
        faces = " ".join(card_text(o.card) for o in s.chain)
        out = " — a third Charon: out" if s.charon_in_front(taker) + s.offered.count(CHARON) >= 3 else ""
        said = ("accept" if action.accept else "refuse") + verb
        return f"{name} {said}: {faces} face up in front of {whom(taker)}{out}."
    return str(action)


def result_text(s: State, bots: Sequence[str]) -> str:
    """How the game ended and who won."""
    how = {
        TARGET: "the target reached",
        ELIMINATION: "one player left",
        NINE_CHARON: "9 Charon face up",
        NO_CARDS: "no cards left",
    }[s.ended]
    return f"Game over ({how}): {winners_text(s.returns(), bots, HUMAN)}, {' – '.join(map(str, s.scores))} points."


# -- the Bayes panel ------------------------------------------------------------------------------
def panel_html(
    s: State,
    chain: Chain,
    table: pl.DataFrame,
    hint: Hint,
    sender: Sender,
    pool_size: int,
    pool_charon: int,
) -> str:
    """Your offer: P(each offered card is Charon), the Bayes table of the last one, and the
    expected points of accept / refuse / pass (the `hint`: the best card to pass), the best marked."""
    cards = "".join(
        f"<tr><td>card {i + 1}, announced {o.announced} by player {o.sender + 1}</td><td>{number_html(p)}</td></tr>"
        for i, (o, p) in enumerate(zip(s.chain, chain.each))
    )
    if len(s.chain) > 1:
        cards += f"<tr><td>at least one is Charon</td><td>{number_html(chain.at_least_one)}</td></tr>"
    head = "".join(f"<th>{h}</th>" for h in ("hypothesis", "prior", "likelihood", "prior × likelihood", "posterior"))
    rows = "".join(
        f"<tr><td><b>{r['hypothesis']}</b></td>"
        + "".join(
            f"<td>{number_html(Fraction(r[c + '_exact']))}</td>"
            for c in ("prior", "likelihood", "unnormalised", "posterior")
        )
        + "</tr>"
        for r in table.iter_rows(named=True)
    )
    choices = [("accept", hint.values[ACCEPT]), ("refuse", hint.values[REFUSE])]
    passes = [(a.card, v) for a, v in hint.values.items() if isinstance(a, Pass)]
    if passes:
        top = max(v for _, v in passes)
        card = next(c for c, v in passes if v == top)  # the lowest card among equals
        choices.append((f"add your {card_text(card)} and pass", top))
    best = max(v for _, v in choices)
    answers = "".join(
        f"<tr class='hint-row{' best' if v == best else ''}'><td>{html.escape(name)}</td>"
        f"<td>{number_html(v, 'value')}</td></tr>"
        for name, v in choices
    )
    last = s.chain[-1]
    alone = (
        "<div style='font-size:12px;color:#555'>Taken on its own, its sender's hand drawn from every card you "
        "have not seen; the P(Charon) above weighs the whole chain (the senders' hands never share a card).</div>"
        if len(s.chain) > 1
        else ""
    )
    return (
        f"<div class='nessos-panel'><h4 style='margin:4px 0'>Is it Charon? ({html.escape(str(sender))})</h4>"
        f"<div style='font-size:12px;color:#555'>What you have not seen: {pool_size} cards, {pool_charon} of them "
        "Charon (the deck minus your hand and every card face up). Each sender's hand is drawn from them; "
        "a Charon is announced as any value of the deck.</div>"
        f"<table class='nessos-posterior'><tr><th>offered card</th><th>P(Charon)</th></tr>{cards}</table>"
        f"<h4 style='margin:6px 0 2px'>Bayes table of the last card (announced {last.announced})</h4>"
        f"{alone}"
        f"<div class='nessus-wide'><table class='nessos-bayes hint-table'><tr>{head}</tr>{rows}</table></div>"
        f"<h4 style='margin:6px 0 2px'>Expected points of each answer</h4>"
        f"<table class='nessos-values hint-table'><tr><th>answer</th><th>expected points</th></tr>{answers}</table>"
        "<div style='font-size:12px;color:#555'>A creature is worth its value (the {1,2,3} bonus counted), a "
        f"Charon costs target/3 = {Fraction(s.rules.goal, 3)} points (a third Charon: −{s.rules.goal}), refusing 0; "
        "passed cards come back (refused) with probability 1/2.</div></div>"
    )


def note_html(text: str, heading: str = "Is it Charon?") -> str:
    """The panel with no offer to judge: a `heading` (none if empty) and a note in italics."""
    head = f"<h4 style='margin:4px 0'>{html.escape(heading)}</h4>" if heading else ""
    return f"<div class='nessos-panel'>{head}<i>{text}</i></div>"


def impossible_html(reason: str, sender: Sender) -> str:
    """The panel when the offer cannot happen under the chosen sender model."""
    why = f"This model cannot explain the offer ({html.escape(reason)}): try another q or the naive sender."
    return note_html(why, f"Is it Charon? ({sender})")


def waiting_panel_html(s: State) -> str:
    """The panel when no offer is waiting for you."""
    if s.ended:
        return note_html("The game is over: press New game.", "")
    return note_html(
        "When a card is offered to you, the exact posterior that it is Charon, its Bayes table and the expected "
        "points of accepting, refusing and passing appear here."
    )


# -- charts ---------------------------------------------------------------------------------------
def posterior_frame(pool: Mapping[Card, int], values: Sequence[int], hand_size: int, highlight: int) -> pl.DataFrame:
    """`odds.posterior_by_bluff` as a frame, `highlight` marking the value to stress (the offer's)."""
    rows = [
        {"q": float(q), "announced": str(v), "posterior": float(p), "exact": str(p), "this": v == highlight}
        for v, q, p in posterior_by_bluff(pool, values, hand_size, Q_STEPS)
    ]
    return pl.DataFrame(rows)


def posterior_chart(
    pool: Mapping[Card, int], values: Sequence[int], hand_size: int, highlight: int, q: Fraction, naive: Fraction
) -> alt.LayerChart:
    """The posterior that a card announced v is Charon against the bluffer's q, one line per v
    (the offer's value thick), a rule at the chosen q and the naive sender's posterior."""
    frame = posterior_frame(pool, values, hand_size, highlight)
    base = alt.Chart(
        frame,
        title=alt.Title(
            "P(Charon | announced v) by the bluffer's q",
            subtitle=wrap_lines(
                f"from the {sum(pool.values())} cards you have not seen; thick: announced {highlight}; "
                f"dashed: a naive sender ({decimal_text(naive)}); grey rule: q = {q}",
                SUBTITLE_CHARS,
            ),
        ),
    )
    lines = base.mark_line().encode(
        x=alt.X("q:Q", title="bluffer's q (P(offers a Charon it holds))"),
        y=alt.Y("posterior:Q", title="P(Charon)", scale=alt.Scale(domain=[0, 1])),
        color=alt.Color(
            "announced:N",
            sort=[str(v) for v in values],
            legend=alt.Legend(title="announced", orient="bottom", columns=5),
        ),
        strokeWidth=alt.condition("datum.this", alt.value(4), alt.value(1.2)),
        tooltip=[
            "announced",
            alt.Tooltip("q:Q", title="bluffer's q"),
            alt.Tooltip("posterior:Q", title="P(Charon)", format=d3_format("probability")),
            "exact",
        ],
    )
    rule = alt.Chart(pl.DataFrame({"q": [float(q)]})).mark_rule(color="#888").encode(x="q:Q")
    flat = (
        alt.Chart(pl.DataFrame({"naive": [float(naive)]}))
        .mark_rule(color=CHARON_RED, strokeDash=[5, 4])
        .encode(y="naive:Q")
    )
    return alt.layer(lines, rule, flat).properties(width=430, height=230)


def tournament_chart(table: pl.DataFrame, games: int) -> alt.LayerChart:
    """Each seat's win share over `games` games with its 95% Wilson interval."""
    frame = table.with_columns(
        (pl.col("seat") + 1).cast(pl.Utf8).alias("seat label"),
    ).with_columns((pl.lit("seat ") + pl.col("seat label") + pl.lit(": ") + pl.col("policy")).alias("player"))
    order = frame["player"].to_list()
    base = alt.Chart(
        frame,
        title=alt.Title(
            f"Win share over {games} games",
            subtitle=wrap_lines(
                "95% Wilson intervals; a shared win counts its share; seat 1: a Bayes bot with your sender model", 34
            ),
        ),
    )
    bars = base.mark_bar(color="#2f6ea5").encode(
        y=alt.Y("player:N", sort=order, title=None),
        x=alt.X("win_share:Q", title="win share", scale=alt.Scale(domain=[0, 1])),
        tooltip=[
            "player",
            alt.Tooltip("win_share:Q", title="win share", format=d3_format("probability")),
            alt.Tooltip("low:Q", title="95% interval from", format=d3_format("probability")),
            alt.Tooltip("high:Q", title="to", format=d3_format("probability")),
        ],
    )
    errors = base.mark_errorbar(color="#222", ticks=True).encode(
        y=alt.Y("player:N", sort=order), x=alt.X("low:Q", title="win share"), x2="high:Q"
    )
    fair = (
        alt.Chart(pl.DataFrame({"fair": [1 / table.height]}))
        .mark_rule(strokeDash=[4, 3], color="#888")
        .encode(x="fair:Q")
    )
    return alt.layer(bars, errors, fair).properties(width=430, height=30 * table.height + 20)
