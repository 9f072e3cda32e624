"""Nessie dashboard, what has no widget in it: the cards, the row, the players' table, the log,
the odds table and the chart of sinking within k reveals, as pure functions of the game's state
(`nessie.State`)."""

from __future__ import annotations

import html
from fractions import Fraction

import altair as alt
import polars as pl

from nessus.game import State as GameState
from nessus.games.nessie.advice import BOX
from nessus.games.nessie.cards import Card, Situation, is_treasure
from nessus.games.nessie.odds import LETTER_VALUE, Choice, p_sink_within
from nessus.games.nessie.policies import lookahead, stop_at, stop_when_risky
from nessus.games.nessie.state import State
from nessus.kit.match import log_html as kit_log
from nessus.kit.match import winners_text
from nessus.numbers import d3_format, decimal_text, number_html, number_text

HUMAN = 0
HORIZON = 10  # the chart shows P(sunk within k more reveals) for k = 1..HORIZON
LOG_LINES = 8
STRATEGIES = {"stop at 2": stop_at(2), "risk > 30%": stop_when_risky(Fraction(3, 10)), "look-ahead": lookahead()}
OPPONENTS = (1, 2, 3, 4, 5)
TEAL = "#1f8a8a"


# -- cards ------------------------------------------------------------------------------
def _coins_svg(value: int, size: int) -> str:
    """`value` gold coins stacked in a little pyramid, as SVG."""
    r = size * (0.2 if value < 3 else 0.17)
    spots = {1: [(0.5, 0.5)], 2: [(0.5, 0.3), (0.5, 0.7)], 3: [(0.5, 0.22), (0.28, 0.68), (0.72, 0.68)]}[value]
    coins = "".join(
        f'<circle cx="{x * size:.1f}" cy="{y * size:.1f}" r="{r:.1f}" fill="#ffd54f" stroke="#8a6d00" '
        'stroke-width="1.5"/>'
        f'<circle cx="{x * size:.1f}" cy="{y * size:.1f}" r="{r * 0.55:.1f}" fill="none" stroke="#b8860b" '
        'stroke-width="1"/>'
        for x, y in spots
    )
    return f'<svg width="{size}" height="{size}" viewBox="0 0 {size} {size}" aria-hidden="true">{coins}</svg>'


def _wave_svg(width: int) -> str:
    """Nessie's humps above a wave, in white, as SVG."""
    h = width * 0.45
    return (
        f'<svg width="{width}" height="{h:.0f}" viewBox="0 0 40 18" aria-hidden="true">'
        '<path d="M4 14 Q8 4 12 14 M16 14 Q20 6 24 14 M27 14 L29 6 Q31 2 34 4 L33 7 Q31 6 30 8 L29 14" '
        'fill="none" stroke="#e8fffb" stroke-width="2" stroke-linecap="round"/>'
        '<path d="M1 16 Q5 13 9 16 T17 16 T25 16 T33 16 T40 16" fill="none" stroke="#bdf3ec" stroke-width="1.5"/></svg>'
    )


def card_html(card: Card, small: bool = False, chosen: bool = False) -> str:
    """One card as HTML: gold with 1-3 coins, or blue-green with its letter; `chosen` outlines it (a stop takes it)."""
    w, h = (34, 48) if small else (48, 68)
    base = (
        f"display:inline-flex;flex-direction:column;align-items:center;justify-content:center;"
        f"width:{w}px;height:{h}px;border-radius:{w // 7}px;box-sizing:border-box;margin:2px;"
        f"box-shadow:1px 2px 3px rgba(0,0,0,.25);font-family:Georgia,serif;vertical-align:top;"
    )
    if chosen:
        base += "outline:3px dashed #d62728;outline-offset:2px;"
    label = html.escape(card)
    if is_treasure(card):
        style = base + "background:linear-gradient(160deg,#fff6c4,#e6b422);border:2px solid #9c7a00;color:#5c4300;"
        inner = f"{_coins_svg(int(card), int(w * 0.8))}<b style='font-size:{w // 3}px;line-height:1'>{label}</b>"
        kind, title = "treasure", f"treasure worth {label}"
    else:
        style = base + "background:linear-gradient(160deg,#4fd1c5,#0f6e6e);border:2px solid #0b4f4f;color:#fff;"
        inner = f"<b style='font-size:{int(w * 0.6)}px;line-height:1'>{label}</b>{_wave_svg(int(w * 0.8))}"
        kind, title = "nessie", f"Nessie card {label}"
    kind += " to-take" if chosen else ""
    return f'<span class="nessie-card {kind}" data-card="{label}" title="{title}" style="{style}">{inner}</span>'


def cards_html(cards: list[Card], small: bool = False, chosen_from: int | None = None, empty: str = "") -> str:
    """A row of cards; the cards from index `chosen_from` on are outlined."""
    if not cards:
        return f'<span style="color:#777;font-style:italic">{html.escape(empty)}</span>'
    return "".join(card_html(c, small, chosen_from is not None and i >= chosen_from) for i, c in enumerate(cards))


def row_html(row: list[Card], n: int) -> str:
    """The row, its last `n` cards (those a stop would take) outlined."""
    cards = cards_html(row, chosen_from=len(row) - n if n else None, empty="The row is empty.")
    return f"<div class='nessie-row' style='min-height:78px;padding:4px 0'>{cards}</div>"


def take_note_html(g: State, n: int, best: int | None) -> str:
    """What taking the last `n` row cards does to your hand ("" when it is not your turn)."""
    if g.is_terminal() or g.current != HUMAN:
        return ""
    if g.revealed == 0:
        return "<small class='take-note'>Reveal at least one card before you stop.</small>"
    note = " — the best take" if n == best else ""
    return f"<small class='take-note'>Taking {n}: {g.take_text(n)}{note}.</small>"


# -- players and the log ----------------------------------------------------------------
def players_html(g: State, strategy: str) -> str:
    """Every player's cards and score, whose turn it is, and the draw pile and discards."""
    scores = g.scores()
    rows = []
    for seat, hand in enumerate(g.hands):
        who = "You (player 1)" if seat == HUMAN else f"Player {seat + 1} <small>({html.escape(strategy)})</small>"
        turn = " ◀ to play" if seat == g.current and not g.is_terminal() else ""
        cards = [str(v) for v in sorted(hand.treasures)] + sorted(hand.letters)
        rows.append(
            f"<tr class='nessie-player' data-seat='{seat + 1}' style='border-top:1px solid #ddd'>"
            f"<td style='white-space:nowrap;vertical-align:top;width:190px;line-height:1.5'><b>{who}</b>{turn}<br>"
            f"score <b class='nessie-score'>{scores[seat]}</b></td>"
            f"<td style='text-align:left;line-height:1'>{cards_html(cards, small=True, empty='no cards yet')}</td></tr>"
        )
    return (
        "<table class='nessie-players' style='border-collapse:collapse;width:100%' cellpadding='3'>"
        f"{''.join(rows)}</table><small style='color:#555'>Draw pile {sum(g.draw)} cards · "
        f"discards {sum(g.discards)} · turn {g.turns + 1}</small>"
    )


def log_html(lines: list[str]) -> str:
    """The last LOG_LINES sentences of the log (the kit's log), the newest first and in bold."""
    style = f"border-left:3px solid {TEAL};padding:2px 8px;margin:6px 0;font-size:13px;line-height:1.5"
    return (
        "<style>.nessie-log div{color:#444}.nessie-log div:first-child{font-weight:bold;color:inherit}</style>"
        f"<div style='{style}'>{kit_log(lines, 'nessie-log', keep=LOG_LINES)}</div>"
    )


def result_text(g: GameState, strategy: str) -> str:
    """Who finished the game and who won (the kit's words), with how many points."""
    assert isinstance(g, State)
    who = winners_text(g.returns(), ["you"] + [strategy] * (g.players - 1), HUMAN)
    finisher = None if g.finisher is None else "You" if g.finisher == HUMAN else f"Player {g.finisher + 1}"
    how = f"{g.turns} turns played" if finisher is None else f"{finisher} completed Nessie (+10)"
    return f"Game over: {how}. {who[0].upper()}{who[1:]} with {max(g.scores())} points."


# -- the odds and the advice --------------------------------------------------------------
def waiting_html(g: State, strategy: str) -> str:
    """The odds panel when it is not your turn: the result, or "Waiting for your turn."."""
    text = result_text(g, strategy) if g.is_terminal() else "Waiting for your turn."
    return f"<div class='odds-panel'><h4 style='margin:4px 0'>Your odds</h4><p>{html.escape(text)}</p></div>"


def odds_html(c: Choice, revealed: int) -> str:
    """The odds table: P(sink) on the next card and within 3, the values of stopping and of revealing one more."""
    stop = f"{number_html(c.stop_value, 'value')} <small>(taking {c.stop_take})</small>"
    rows = [
        ("P(sink on the next card)", number_html(c.p_sink_next)),
        ("P(sink within 3 cards)", number_html(c.p_sink_within_3)),
        ("value of stopping now", stop if revealed else "not allowed yet: reveal at least one card first"),
        ("value of revealing one more, then stopping", number_html(c.reveal_one_value, "value")),
    ]
    body = "".join(f"<tr><td>{a}</td><td>{b}</td></tr>" for a, b in rows)
    return (
        f"<div class='odds-panel' style='{BOX}'><h4 style='margin:4px 0'>Your odds now</h4>"
        f"<table class='figures' cellpadding='3' style='line-height:1.4'>{body}</table></div>"
    )


def odds_note_html(pool_size: int) -> str:
    """Where the odds come from and what the two players count."""
    return (
        f"<div style='{BOX};color:#555;font-size:12px;line-height:1.4'>Exact, from the {pool_size} cards "
        "you have not seen (the draw pile: you remember every discard). Table values in points: treasure gained minus "
        f"treasure lost, plus {LETTER_VALUE} per Nessie card kept (the +10 for all six letters, spread over "
        "them). The optimal player plans your whole turn and counts treasure only: letters matter to it only "
        "through sinking and discards.</div>"
    )


# -- the chart ------------------------------------------------------------------------------
def sink_frame(s: Situation) -> pl.DataFrame:
    """P(you sink within k more reveals) for k = 1..HORIZON: k, p (float), exact and label (text)."""
    ks = list(range(1, HORIZON + 1))
    ps = [p_sink_within(s, k) for k in ks]
    exact, label = [number_text(p) for p in ps], [decimal_text(p, digits=2) for p in ps]
    return pl.DataFrame({"k": ks, "p": [float(p) for p in ps], "exact": exact, "label": label})


def sink_chart(g: State) -> alt.LayerChart:
    """Bars of P(you sink within k more reveals), labelled, for the table as you see it (even between turns)."""
    s = g.situation(HUMAN)
    row = " ".join(s.row) or "empty"
    over = "game over · " if g.is_terminal() else ""
    title = alt.Title("P(you sink within k more reveals)", subtitle=f"{over}row: {row} · {s.pool_size} cards unseen")
    base = alt.Chart(sink_frame(s), title=title).encode(
        x=alt.X("k:O", title="k more reveals", axis=alt.Axis(labelAngle=0))
    )
    bars = base.mark_bar(color=TEAL).encode(
        y=alt.Y("p:Q", title="P(sunk)", scale=alt.Scale(domain=[0, 1])),
        tooltip=[
            alt.Tooltip("k:O", title="k more reveals"),
            alt.Tooltip("p:Q", format=d3_format("probability"), title="P(sunk)"),
            alt.Tooltip("exact:N", title="exactly"),
        ],
    )
    labels = base.mark_text(dy=-6, fontSize=11, color="#333").encode(y="p:Q", text="label:N")
    return alt.layer(bars, labels).properties(width=420, height=230)
