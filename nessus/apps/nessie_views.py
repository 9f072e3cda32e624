"""Nessie dashboard, what has no widget in it: the cards, the row, the players' table, the log,
the odds table and the two players' advice as HTML, the chart of sinking within k reveals, the
opponents' strategies and the optimal player's answer, all pure functions of the game's state
(`nessie.State`)."""

from __future__ import annotations

import html
from collections.abc import Callable, Sequence
from fractions import Fraction

import altair as alt
import polars as pl

from nessus.games.nessie import CARD_KINDS, REVEAL, State, Stop
from nessus.games.nessie import play as nessie_play
from nessus.games.nessie.engine import CHAIN, Event, Hand, neighbours, take
from nessus.games.nessie.odds import Card, Situation, is_treasure, p_sink_within
from nessus.games.nessie.optimal import OptimalChoice, optimal_choice
from nessus.numbers import number_html

HUMAN = 0
HORIZON = 10  # the chart shows P(sunk within k more reveals) for k = 1..HORIZON
LOG_LINES = 8
STRATEGIES: dict[str, Callable[[], nessie_play.Rule]] = {
    "stop at 2": lambda: nessie_play.stop_at(2),
    "risk > 30%": lambda: nessie_play.stop_when_risky(Fraction(3, 10)),
    "look-ahead": lambda: nessie_play.lookahead(),
}
OPPONENTS = (1, 2, 3, 4, 5)
TEAL = "#1f8a8a"
BOX = "max-width:520px"


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
        value = int(card)
        style = base + "background:linear-gradient(160deg,#fff6c4,#e6b422);border:2px solid #9c7a00;color:#5c4300;"
        inner = f"{_coins_svg(value, int(w * 0.8))}<b style='font-size:{w // 3}px;line-height:1'>{value}</b>"
        kind, title = "treasure", f"treasure worth {value}"
    else:
        style = base + "background:linear-gradient(160deg,#4fd1c5,#0f6e6e);border:2px solid #0b4f4f;color:#fff;"
        inner = f"<b style='font-size:{int(w * 0.6)}px;line-height:1'>{label}</b>{_wave_svg(int(w * 0.8))}"
        kind, title = "nessie", f"Nessie card {label}"
    extra = " to-take" if chosen else ""
    return f'<span class="nessie-card {kind}{extra}" data-card="{label}" title="{title}" style="{style}">{inner}</span>'


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
    taken = list(g.row[len(g.row) - n :][::-1]) if n else []
    hand = g.hand(HUMAN)
    after, discards = take(hand, taken, neighbours(CHAIN))
    kept = [c for c in after.letters if c not in hand.letters]
    lost = [c for c in discards if not is_treasure(c)]
    parts = [
        f"{sum(after.treasures) - sum(hand.treasures):+d} treasure",
        *([f"keeps {', '.join(kept)}"] if kept else []),
        *([f"discards {', '.join(lost)} (cannot keep)"] if lost else []),
    ]
    note = " — the best take" if n == best else ""
    return f"<small class='take-note'>Taking {n}: {'; '.join(parts)}{note}.</small>"


# -- players and the log ----------------------------------------------------------------
def name(seat: int) -> str:
    """A seat's name in the log: "You" or "Player N"."""
    return "You" if seat == HUMAN else f"Player {seat + 1}"


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


def log_html(events: list[str]) -> str:
    """The last LOG_LINES sentences of the log, the newest in bold."""
    lines = events[-LOG_LINES:]
    items = "".join(
        f"<div style='{'font-weight:bold' if i == len(lines) - 1 else 'color:#444'}'>{html.escape(t)}</div>"
        for i, t in enumerate(lines)
    )
    return (
        f"<div class='nessie-log' style='border-left:3px solid {TEAL};padding:2px 8px;margin:6px 0;"
        f"font-size:13px;line-height:1.5'>{items}</div>"
    )


def narrate(events: Sequence[tuple[Event, Sequence[int]]], strategy: str) -> list[str]:
    """Events (`State.last` of each move, with the scores after it) as sentences (an opponent's
    reveals told with how their turn ended)."""
    out: list[str] = []
    revealed: dict[int, list[str]] = {}
    for e, scores in events:
        cards = revealed.setdefault(e.player, [])
        them = f"Player {e.player + 1} ({strategy})"
        if e.kind == "reveal":
            if e.player == HUMAN:
                out.append(f"You reveal {e.cards[0]}.")
            cards.append(e.cards[0])
        elif e.kind == "stop":
            took = ", ".join(e.cards) or "nothing"
            out.append(
                f"You stop and take {took}."
                if e.player == HUMAN
                else f"{them} reveals {', '.join(cards)}, then stops and takes {took} → score {scores[e.player]}."
            )
            cards.clear()
        elif e.kind == "sink":
            out.append(
                f"You reveal {e.cards[0]} and sink! The row is discarded."
                if e.player == HUMAN
                else f"{them} reveals {', '.join(cards + [e.cards[0]])} and sinks: the row is discarded."
            )
            cards.clear()
        elif e.kind == "sink_at_start":
            verb = "sink" if e.player == HUMAN else "sinks"
            out.append(
                f"{name(e.player)} {verb} at the start of the turn (three of a letter with the row): "
                "the row is discarded."
            )
    return out


def stop_lines(hand: Hand, before: int, discards: list[Card]) -> list[str]:
    """What your stop cost you (letters you could not keep) and your score and letters after it."""
    lost, coins = [c for c in discards if not is_treasure(c)], [c for c in discards if is_treasure(c)]
    paid = f", and with them your lowest treasure each time ({', '.join(coins)})" if coins else ""
    score = f"Your score: {sum(hand.treasures)} (was {before}); letters {''.join(sorted(hand.letters)) or 'none'}."
    return [f"You could not keep {', '.join(lost)}: discarded{paid}.", score] if lost else [score]


def result_text(g: State) -> str:
    """Who finished the game and who won, with how many points."""
    winners = g.winners()
    names = " and ".join(name(w) for w in winners)
    verb = "win" if winners == [HUMAN] else ("share the win" if len(winners) > 1 else "wins")
    how = f"{name(g.finisher)} completed Nessie (+10)" if g.finisher is not None else f"{g.turns} turns played"
    return f"Game over: {how}. {names} {verb} with {max(g.scores())} points."


# -- the odds and the advice --------------------------------------------------------------
def waiting_html(g: State) -> str:
    """The odds panel when it is not your turn: the result, or "Waiting for your turn."."""
    text = result_text(g) if g.is_terminal() else "Waiting for your turn."
    return f"<div class='odds-panel'><h4 style='margin:4px 0'>Your odds</h4><p>{html.escape(text)}</p></div>"


def odds_of(state: State) -> nessie_play.Choice:
    """The odds panel's numbers on your turn: P(sink) on the next card and within 3 from the
    cards you have not seen, and the values of stopping (the best take) and of revealing one
    more from the state's hint (`State.hint()`, the look-ahead player's values)."""
    hint = state.hint()
    s = state.situation()
    stops = {a.take: value for a, value in hint.values.items() if isinstance(a, Stop)}
    take_n = max(stops, key=lambda n: (stops[n], -n)) if stops else 0  # the shortest best run
    reveal = Fraction(hint.values.get(REVEAL, 0))
    return nessie_play.Choice(p_sink_within(s, 1), p_sink_within(s, 3), Fraction(stops.get(take_n, 0)), take_n, reveal)


def odds_html(c: nessie_play.Choice, revealed: int) -> str:
    """The odds table: P(sink) on the next card and within 3, the values of stopping and of revealing one more."""
    stop = (
        "<td>not allowed yet: reveal at least one card first</td>"
        if revealed == 0
        else f"<td>{number_html(c.stop_value, 'value')} <small>(taking {c.stop_take})</small></td>"
    )
    rows = [
        ("P(sink on the next card)", f"<td>{number_html(c.p_sink_next)}</td>"),
        ("P(sink within 3 cards)", f"<td>{number_html(c.p_sink_within_3)}</td>"),
        ("value of stopping now", stop),
        ("value of revealing one more, then stopping", f"<td>{number_html(c.reveal_one_value, 'value')}</td>"),
    ]
    body = "".join(f"<tr><td>{a}</td>{b}</tr>" for a, b in rows)
    return (
        f"<div class='odds-panel' style='{BOX}'><h4 style='margin:4px 0'>Your odds now</h4>"
        f"<table class='figures' cellpadding='3' style='line-height:1.4'>{body}</table></div>"
    )


def odds_note_html(pool_size: int) -> str:
    """Where the odds come from and what the two players count."""
    return (
        f"<div style='{BOX};color:#555;font-size:12px;line-height:1.4'>Exact, from the {pool_size} cards "
        "you have not seen (the draw pile: you remember every discard). Table values in points: treasure gained minus "
        f"treasure lost, plus {nessie_play.LETTER_VALUE} per Nessie card kept (the +10 for all six letters, spread "
        "over "
        "them). The optimal player plans your whole turn and counts treasure only: letters matter to it only "
        "through sinking and discards.</div>"
    )


def lookahead_html(c: nessie_play.Choice, revealed: int) -> str:
    """The look-ahead player's line in the advice box."""
    who = f"<b>Look-ahead player</b> <small>(one card ahead, letters worth {nessie_play.LETTER_VALUE})</small>: "
    move = (
        "<b>reveal</b> (compulsory)."
        if revealed == 0
        else "<b>reveal</b> one more card."
        if c.reveal
        else f"<b>stop and take {c.stop_take}</b>."
    )
    return f"<div class='lookahead-advice'>{who}{move}</div>"


def advice_html(lines: str) -> str:
    """The advice box around its lines ("" when there are none)."""
    return (
        f"<div class='nessie-advice' style='{BOX};margin:6px 0;padding:4px 8px;background:#e6f4f1;"
        f"border-radius:4px;line-height:1.5'>{lines}</div>"
        if lines
        else ""
    )


def optimal_div(ticket: int, state: str, body: str, move: str = "") -> str:
    """The optimal player's line in the advice box; `data-ticket` says which request it answers."""
    who = "<b>Optimal player</b> <small>(most treasure this turn, exact)</small>: "
    color = ";color:#b00020" if state == "error" else ""
    return (
        f"<div class='optimal-advice' data-ticket='{ticket}' data-state='{state}' data-move='{move}' "
        f"style='margin-top:2px{color}'>{who}{body}</div>"
    )


def thinking_html(ticket: int) -> str:
    """The optimal player's line while the worker thread solves the turn."""
    return optimal_div(
        ticket,
        "thinking",
        "<i>thinking…</i> <small style='color:#555'>(it solves your whole turn: "
        "a game's first turn is read from stored values in under a second, "
        "a later one can take a few seconds)</small>",
    )


def optimal_html(ticket: int, c: OptimalChoice, n: int, compulsory: bool) -> str:
    """The optimal player's move (taking the last `n` cards if it stops) and its exact values, in treasure this turn."""
    took = "nothing" if n == 0 else f"{n} card{'s' if n > 1 else ''}"
    stop = f"if it stops now, taking {took}: {number_html(c.stop_value, 'value')} treasure"
    if c.reveal_value is None:
        move, why = f"stop and take {n}", f"no unseen card is left to reveal; {stop}."
    else:
        reveal = f"if it reveals, then plays on optimally: {number_html(c.reveal_value, 'value')} treasure on average"
        if compulsory:
            move = "reveal (compulsory)"
            why = f"your whole turn, played optimally: {number_html(c.reveal_value, 'value')} treasure on average."
        elif c.reveal:
            move, why = "reveal", f"{reveal}; {stop}."
        else:
            move, why = f"stop and take {n}", f"{stop}; {reveal}."
    return optimal_div(ticket, "ready", f"<b>{move}</b> — {why}", "reveal" if move.startswith("reveal") else "stop")


def solve_optimal(
    ticket: int, s: Situation, hand: Hand, adjacency: tuple[tuple[str, str], ...], compulsory: bool
) -> str:
    """The optimal player's line for a turn, solved (seconds, in a worker thread), or its failure."""
    try:
        n = nessie_play.best_take(hand, s.row, adjacency, letter_value=Fraction(0))[0]
        return optimal_html(ticket, optimal_choice(s, hand, adjacency), n, compulsory)
    except Exception as e:  # shown in the page: a failure in the thread must not pass unseen
        return optimal_div(
            ticket, "error", f"⚠ could not finish: {html.escape(type(e).__name__)}: {html.escape(str(e))}"
        )


# -- the chart ------------------------------------------------------------------------------
def sink_frame(s: Situation) -> pl.DataFrame:
    """P(you sink within k more reveals) for k = 1..HORIZON: k, p (float), exact (text)."""
    ps = [p_sink_within(s, k) for k in range(1, HORIZON + 1)]
    return pl.DataFrame(
        {
            "k": list(range(1, HORIZON + 1)),
            "p": [float(p) for p in ps],
            "exact": [
                f"{p.numerator}/{p.denominator}" if len(str(p.denominator)) <= 12 else f"≈ {float(p):.10f}" for p in ps
            ],
        }
    )


def sink_chart(g: State) -> alt.LayerChart:
    """Bars of P(you sink within k more reveals), labelled, for the table as you see it (even between turns)."""
    pool = {c: n for c, n in zip(CARD_KINDS, g.draw) if n}
    s = Situation(pool, g.row, frozenset(g.hands[HUMAN].letters))
    row = " ".join(s.row) or "empty"
    over = "game over · " if g.is_terminal() else ""
    title = alt.Title("P(you sink within k more reveals)", subtitle=f"{over}row: {row} · {s.pool_size} cards unseen")
    base = alt.Chart(sink_frame(s), title=title).encode(
        x=alt.X("k:O", title="k more reveals", axis=alt.Axis(labelAngle=0))
    )
    bars = base.mark_bar(color=TEAL).encode(
        y=alt.Y("p:Q", title="P(sunk)", scale=alt.Scale(domain=[0, 1])),
        tooltip=["k", alt.Tooltip("p:Q", format=".6f", title="P(sunk)"), "exact"],
    )
    labels = base.mark_text(dy=-6, fontSize=11, color="#333").encode(y="p:Q", text=alt.Text("p:Q", format=".2f"))
    return alt.layer(bars, labels).properties(width=420, height=230)
