"""Nessie dashboard: play whole games against automatic opponents with your exact odds beside you.

Left: the table (the row, every player's cards and score, Reveal / Stop and take N / New game,
and a log of what happened). Right: the live odds panel of the human player (seat 1) from the
cards they have not seen, the advice of two players, and the exact chance of sinking within k
more reveals for k = 1..10.

The odds table and the look-ahead player's advice are those of `nessie_play.choice`: treasure
points gained minus lost, plus `nessie_play.LETTER_VALUE` (10/6) per Nessie card kept, looking
one card ahead. The take slider starts at the best take under that same scoring
(`nessie_play.best_take`), which is what the automatic players take too.

The optimal player's advice is `nessie_optimal.optimal_choice`: the exact expected *treasure
taken this turn* if it stops now or reveals and then plays on optimally (letters count only
through sinking and discards), and its take is `best_take(..., letter_value=0)`. Solving a turn
can take seconds (about 20 s for the first turn of a game, on a fresh deck), so it runs in one
background daemon thread (`LatestJob`) while the page stays usable: the panel says "thinking…"
until the answer arrives. Each request carries a ticket; a move or a new game takes a new one, so
an answer for a table that has changed since is dropped, never shown. A failure in the thread is
shown in the panel.
"""

from __future__ import annotations

import html
import threading
from collections import Counter
from fractions import Fraction
from functools import partial

import altair as alt
import ipywidgets as widgets
import numpy as np
import polars as pl

from nessus.apps.base import Dashboard
from nessus.apps.common import LatestJob, TableHTML
from nessus.games import nessie_play
from nessus.games.nessie_engine import Game, Hand, neighbours, take
from nessus.games.nessie_odds import Card, Situation, is_treasure, p_sink_within
from nessus.games.nessie_optimal import OptimalChoice, optimal_choice
from nessus.numbers import number_html

HUMAN = 0
HORIZON = 10  # the chart shows P(sunk within k more reveals) for k = 1..HORIZON
LOG_LINES = 8
STRATEGIES = {
    "stop at 2": lambda: nessie_play.stop_at(2),
    "risk > 30%": lambda: nessie_play.stop_when_risky(Fraction(3, 10)),
    "look-ahead": lambda: nessie_play.lookahead(),
}
OPPONENTS = (1, 2, 3, 4, 5)
TEAL, GOLD = "#1f8a8a", "#e6b422"


# -- cards ------------------------------------------------------------------------------
def _coins_svg(value: int, size: int) -> str:
    """`value` gold coins stacked in a little pyramid."""
    r = size * (0.2 if value < 3 else 0.17)
    spots = {1: [(0.5, 0.5)], 2: [(0.5, 0.3), (0.5, 0.7)], 3: [(0.5, 0.22), (0.28, 0.68), (0.72, 0.68)]}[value]
    coins = "".join(
        f'<circle cx="{x * size:.1f}" cy="{y * size:.1f}" r="{r:.1f}" fill="#ffd54f" stroke="#8a6d00" stroke-width="1.5"/>'
        f'<circle cx="{x * size:.1f}" cy="{y * size:.1f}" r="{r * 0.55:.1f}" fill="none" stroke="#b8860b" stroke-width="1"/>'
        for x, y in spots
    )
    return f'<svg width="{size}" height="{size}" viewBox="0 0 {size} {size}" aria-hidden="true">{coins}</svg>'


def _wave_svg(width: int) -> str:
    """Nessie's humps above a wave, in white."""
    h = width * 0.45
    return (
        f'<svg width="{width}" height="{h:.0f}" viewBox="0 0 40 18" aria-hidden="true">'
        '<path d="M4 14 Q8 4 12 14 M16 14 Q20 6 24 14 M27 14 L29 6 Q31 2 34 4 L33 7 Q31 6 30 8 L29 14" '
        'fill="none" stroke="#e8fffb" stroke-width="2" stroke-linecap="round"/>'
        '<path d="M1 16 Q5 13 9 16 T17 16 T25 16 T33 16 T40 16" fill="none" stroke="#bdf3ec" stroke-width="1.5"/></svg>'
    )


def card_html(card: Card, small: bool = False, chosen: bool = False) -> str:
    """One card as inline HTML: a gold treasure card with 1, 2 or 3 coins, or a blue-green
    Nessie card with its letter. `chosen` outlines it (the cards a stop would take)."""
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
        inner = (
            f"{_coins_svg(value, int(w * 0.8))}"
            f"<b style='font-size:{w // 3}px;line-height:1'>{value}</b>"
        )
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


# -- the optimal player, in the background ------------------------------------------------
def optimal_div(ticket: int, state: str, body: str, move: str = "") -> str:
    """The optimal player's line in the advice box; `data-ticket` says which request it answers."""
    who = "<b>Optimal player</b> <small>(most treasure this turn, exact)</small>: "
    color = ";color:#b00020" if state == "error" else ""
    return (f"<div class='optimal-advice' data-ticket='{ticket}' data-state='{state}' data-move='{move}' "
            f"style='margin-top:2px{color}'>{who}{body}</div>")


def thinking_html(ticket: int) -> str:
    """The optimal player's line while the worker thread solves the turn."""
    return optimal_div(ticket, "thinking", "<i>thinking…</i> <small style='color:#555'>(it solves your whole turn: up to "
                                           "half a minute at the start of a game, usually under a second)</small>")


def optimal_html(ticket: int, c: OptimalChoice, n: int, compulsory: bool) -> str:
    """The optimal player's move (it would take the last `n` cards on stopping) and the exact
    values of stopping and of revealing, in treasure taken this turn."""
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


class NessieDashboard(Dashboard):
    """The widgets of the Nessie page and the game they play (the human is seat 1)."""

    notebook, title = "nessie.ipynb", "Nessie"
    sentence = ("Reveal cards onto the row, then stop and take a run ending at the last one — but six coins in the "
                "row, or three of one letter with yours, sink you. You are player 1; the others play by themselves. "
                "Beside (below on a phone): your exact odds from the cards you have not seen.")

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed)
        self.opponents = widgets.Dropdown(options=OPPONENTS, value=2, description="opponents",
                                          layout=widgets.Layout(width="170px"), style={"description_width": "80px"})
        self.strategy = widgets.Dropdown(options=list(STRATEGIES), value="risk > 30%", description="they play",
                                         layout=widgets.Layout(width="230px"), style={"description_width": "80px"})
        self.strategy.add_class("nessie-strategy")
        self.reveal_button = widgets.Button(description="Reveal", button_style="primary", icon="eye")
        self.reveal_button.add_class("reveal-button")
        self.take = widgets.IntSlider(value=0, min=0, max=0, description="take", continuous_update=True,
                                      layout=widgets.Layout(width="230px"), style={"description_width": "40px"})
        self.take.add_class("take-slider")
        self.stop_button = widgets.Button(description="Stop and take 0", button_style="success", icon="hand-paper")
        self.stop_button.add_class("stop-button")
        self.new_button = widgets.Button(description="New game")
        self.new_button.add_class("new-game-button")
        self.row = widgets.HTML()
        self.take_note = widgets.HTML()
        self.log = widgets.HTML()
        self.players = TableHTML(name="nessie-players")
        self.odds = TableHTML(name="nessie-odds")
        self.advice = widgets.HTML()
        self.odds_note = widgets.HTML()
        self.chart = self.chart_pane("320px", "sinking")
        self.events: list[str] = []
        self._quiet = False
        self.worker = LatestJob("nessie-optimal-player")
        self._lock = threading.Lock()  # guards the ticket and the advice lines (the worker writes them too)
        self._ticket = 0
        self._lookahead_line = self._optimal_line = ""

        guard = self.guard
        self.reveal_button.on_click(guard(lambda _: self.reveal()))
        self.stop_button.on_click(guard(lambda _: self.stop()))
        self.new_button.on_click(guard(lambda _: self.new_game()))
        self.take.observe(guard(lambda _: None if self._quiet else self.draw_take()), names="value")
        self.opponents.observe(guard(lambda _: self.new_game()), names="value")
        self.strategy.observe(guard(lambda _: self.say(f"Opponents now play “{self.strategy.value}”.")), names="value")

        self.page([
            widgets.HTML("<b>The row</b> <small style='color:#555'>(last revealed on the right; "
                         "<span style='color:#d62728'>dashed</span>: the cards a stop would take)</small>"),
            self.row, widgets.HBox([self.reveal_button, self.take, self.stop_button]),
            self.take_note, self.messages.widget, self.log, self.players,
            widgets.HBox([self.opponents, self.strategy, self.new_button]),
        ], [self.odds, self.advice, self.odds_note, self.chart.widget], left_width="600px")
        self.new_game()

    # -- moves --------------------------------------------------------------------------
    def new_game(self) -> None:
        """A new shuffled deck, 1 + opponents players, you first."""
        self.game = Game.new(1 + self.opponents.value, self.rng)
        self._invalidate()
        k = self.opponents.value
        self.events = [f"New game: you and {k} opponent{'s' if k > 1 else ''}. Your turn: reveal a card."]
        self.messages.clear()
        self.draw()

    def _your_turn(self) -> None:
        if self.game.over:
            raise ValueError("the game is over: press New game")
        if self.game.current != HUMAN:
            raise ValueError("it is not your turn")

    def reveal(self) -> None:
        """You reveal one card; if you sink, the opponents play."""
        self._your_turn()
        mark = len(self.game.events)
        self.game.reveal()
        self._invalidate()
        self.messages.clear()
        self._narrate(mark)
        self.play_opponents()
        self.draw()

    def stop(self) -> None:
        """You stop and take the last N row cards; then the opponents play."""
        self._your_turn()
        n = self.take.value
        mark = len(self.game.events)
        before = sum(self.game.hands[HUMAN].treasures)
        discards = self.game.stop(n)
        self._invalidate()
        self.messages.clear()
        self._narrate(mark)
        hand = self.game.hands[HUMAN]
        lost = [c for c in discards if not is_treasure(c)]
        coins = [c for c in discards if is_treasure(c)]
        if lost:
            paid = f", and with them your lowest treasure each time ({', '.join(coins)})" if coins else ""
            self.events.append(f"You could not keep {', '.join(lost)}: discarded{paid}.")
        self.events.append(f"Your score: {sum(hand.treasures)} (was {before}); letters {''.join(sorted(hand.letters)) or 'none'}.")
        self.play_opponents()
        self.draw()

    def play_opponents(self) -> None:
        """Each opponent plays a whole turn (nessie_play.play_turn) until it is your turn or the game ends."""
        g = self.game
        strategy = STRATEGIES[self.strategy.value]()
        while not g.over and g.current != HUMAN:
            mark = len(g.events)
            nessie_play.play_turn(g, strategy)
            self._narrate(mark)
        if g.over:
            self.events.append(self._result())

    # -- the log --------------------------------------------------------------------------
    def _name(self, seat: int) -> str:
        return "You" if seat == HUMAN else f"Player {seat + 1}"

    def _narrate(self, mark: int) -> None:
        """Turn the engine's events since `mark` into sentences (an opponent's reveals are told
        together with how their turn ended)."""
        g = self.game
        revealed: dict[int, list[str]] = {}
        for e in g.events[mark:]:
            cards = revealed.setdefault(e.player, [])
            if e.kind == "reveal":
                if e.player == HUMAN:
                    self.events.append(f"You reveal {e.cards[0]}.")
                cards.append(e.cards[0])
            elif e.kind == "stop":
                took = ", ".join(e.cards) or "nothing"
                if e.player == HUMAN:
                    self.events.append(f"You stop and take {took}.")
                else:
                    self.events.append(f"Player {e.player + 1} ({self.strategy.value}) reveals {', '.join(cards)}, then stops and "
                                       f"takes {took} → score {g.scores()[e.player]}.")
                cards.clear()
            elif e.kind == "sink":
                if e.player == HUMAN:
                    self.events.append(f"You reveal {e.cards[0]} and sink! The row is discarded.")
                else:
                    self.events.append(f"Player {e.player + 1} ({self.strategy.value}) reveals {', '.join(cards + [e.cards[0]])} "
                                       "and sinks: the row is discarded.")
                cards.clear()
            elif e.kind == "sink_at_start":
                verb = "sink" if e.player == HUMAN else "sinks"
                self.events.append(f"{self._name(e.player)} {verb} at the start of the turn (three of a letter with the row): "
                                   "the row is discarded.")

    def say(self, text: str) -> None:
        self.events.append(text)
        self.draw_log()

    def _result(self) -> str:
        g = self.game
        winners = g.winners()
        names = " and ".join(self._name(w) for w in winners)
        verb = "win" if winners == [HUMAN] else ("share the win" if len(winners) > 1 else "wins")
        return f"Game over: {self._name(g.finisher)} completed Nessie (+10). {names} {verb} with {max(g.scores())} points."

    # -- drawing ------------------------------------------------------------------------------
    def draw(self) -> None:
        g = self.game
        playing = not g.over and g.current == HUMAN
        self.reveal_button.disabled = self.stop_button.disabled = self.take.disabled = not playing
        self.choice = nessie_play.choice(g.situation(), g.hand) if playing else None
        self._quiet = True
        try:
            self.take.max = len(g.row)
            self.take.value = self.choice.stop_take if self.choice and g.revealed else 0  # no stop before a reveal
        finally:
            self._quiet = False
        self.draw_take()
        self.draw_log()
        self.draw_players()
        self.draw_odds()
        self.draw_chart()
        self.ask_optimal()

    def draw_take(self) -> None:
        """The row with the cards to take outlined, the Stop button's label and what the take does."""
        g, n = self.game, self.take.value
        self.row.value = (f"<div class='nessie-row' style='min-height:78px;padding:4px 0'>"
                          f"{cards_html(g.row, chosen_from=len(g.row) - n if n else None, empty='The row is empty.')}</div>")
        self.stop_button.description = f"Stop and take {n}"
        if g.over or g.current != HUMAN:
            self.take_note.value = ""
            return
        if g.revealed == 0:
            self.take_note.value = "<small class='take-note'>Reveal at least one card before you stop.</small>"
            return
        taken = g.row[len(g.row) - n:][::-1] if n else []
        hand = g.hands[HUMAN]
        after, discards = take(hand, taken, neighbours(g.adjacency))
        gain = sum(after.treasures) - sum(hand.treasures)
        kept = [c for c in after.letters if c not in hand.letters]
        lost = [c for c in discards if not is_treasure(c)]
        parts = [f"{gain:+d} treasure"]
        if kept:
            parts.append(f"keeps {', '.join(kept)}")
        if lost:
            parts.append(f"discards {', '.join(lost)} (cannot keep)")
        best = " — the best take" if self.choice and n == self.choice.stop_take else ""
        self.take_note.value = f"<small class='take-note'>Taking {n}: {'; '.join(parts)}{best}.</small>"

    def draw_log(self) -> None:
        lines = self.events[-LOG_LINES:]
        items = "".join(
            f"<div style='{'font-weight:bold' if i == len(lines) - 1 else 'color:#444'}'>{html.escape(t)}</div>"
            for i, t in enumerate(lines)
        )
        self.log.value = (f"<div class='nessie-log' style='border-left:3px solid {TEAL};padding:2px 8px;margin:6px 0;"
                          f"font-size:13px;line-height:1.5'>{items}</div>")

    def draw_players(self) -> None:
        g = self.game
        scores = g.scores()
        rows = []
        for seat, hand in enumerate(g.hands):
            who = "You (player 1)" if seat == HUMAN else f"Player {seat + 1} <small>({html.escape(self.strategy.value)})</small>"
            turn = " ◀ to play" if seat == g.current and not g.over else ""
            cards = [str(v) for v in sorted(hand.treasures)] + sorted(hand.letters)
            rows.append(
                f"<tr class='nessie-player' data-seat='{seat + 1}' style='border-top:1px solid #ddd'>"
                f"<td style='white-space:nowrap;vertical-align:top;width:190px;line-height:1.5'><b>{who}</b>{turn}<br>"
                f"score <b class='nessie-score'>{scores[seat]}</b></td>"
                f"<td style='text-align:left;line-height:1'>{cards_html(cards, small=True, empty='no cards yet')}</td></tr>"
            )
        self.players.value = (
            "<table class='nessie-players' style='border-collapse:collapse;width:100%' cellpadding='3'>"
            f"{''.join(rows)}</table><small style='color:#555'>Draw pile {len(g.draw)} cards · "
            f"discards {len(g.discard)} · turn {g.turns + 1}</small>"
        )

    def draw_odds(self) -> None:
        """The odds table, the look-ahead player's advice (the optimal player's is on its way)."""
        g, c = self.game, self.choice
        if c is None:
            self.odds.value = (f"<div class='odds-panel'><h4 style='margin:4px 0'>Your odds</h4>"
                               f"<p>{html.escape(self._result() if g.over else 'Waiting for your turn.')}</p></div>")
            self.odds_note.value = ""
            self._set_advice("")
            return
        s = g.situation()
        who = f"<b>Look-ahead player</b> <small>(one card ahead, letters worth {nessie_play.LETTER_VALUE})</small>: "
        if g.revealed == 0:
            stop_row = "<td>not allowed yet: reveal at least one card first</td>"
            lookahead = f"{who}<b>reveal</b> (compulsory)."
        else:
            stop_row = f"<td>{number_html(c.stop_value, 'value')} <small>(taking {c.stop_take})</small></td>"
            lookahead = who + ("<b>reveal</b> one more card." if c.reveal else f"<b>stop and take {c.stop_take}</b>.")
        rows = [
            ("P(sink on the next card)", f"<td>{number_html(c.p_sink_next)}</td>"),
            ("P(sink within 3 cards)", f"<td>{number_html(c.p_sink_within_3)}</td>"),
            ("value of stopping now", stop_row),
            ("value of revealing one more, then stopping", f"<td>{number_html(c.reveal_one_value, 'value')}</td>"),
        ]
        body = "".join(f"<tr><td>{a}</td>{b}</tr>" for a, b in rows)
        self.odds.value = (
            "<div class='odds-panel' style='max-width:520px'><h4 style='margin:4px 0'>Your odds now</h4>"
            f"<table class='figures' cellpadding='3' style='line-height:1.4'>{body}</table></div>"
        )
        self.odds_note.value = (
            f"<div style='max-width:520px;color:#555;font-size:12px;line-height:1.4'>Exact, from the {s.pool_size} cards "
            "you have not seen (the draw pile: you remember every discard). Table values in points: treasure gained minus "
            f"treasure lost, plus {nessie_play.LETTER_VALUE} per Nessie card kept (the +10 for all six letters, spread over "
            "them). The optimal player plans your whole turn and counts treasure only: letters matter to it only "
            "through sinking and discards.</div>"
        )
        self._set_advice(f"<div class='lookahead-advice'>{lookahead}</div>", thinking=True)

    def _set_advice(self, lookahead: str, thinking: bool = False) -> None:
        """The look-ahead line, and the optimal player's line: thinking about the current ticket, or none."""
        with self._lock:
            self._lookahead_line = lookahead
            self._optimal_line = thinking_html(self._ticket) if thinking else ""
            self._show_advice()

    def _show_advice(self) -> None:
        """The advice box from its two lines (the caller holds the lock)."""
        lines = self._lookahead_line + self._optimal_line
        self.advice.value = (
            f"<div class='nessie-advice' style='max-width:520px;margin:6px 0;padding:4px 8px;background:#e6f4f1;"
            f"border-radius:4px;line-height:1.5'>{lines}</div>" if lines else ""
        )

    # -- the optimal player -----------------------------------------------------------------
    def _invalidate(self) -> None:
        """The table has changed (called after every move): answers to earlier requests are stale."""
        with self._lock:
            self._ticket += 1

    def ask_optimal(self) -> None:
        """On your turn, have the worker thread solve it (the answer replaces "thinking…")."""
        g = self.game
        if g.over or g.current != HUMAN:
            return
        with self._lock:
            ticket = self._ticket
        hand = Hand(list(g.hand.treasures), list(g.hand.letters))
        self.worker.submit(partial(self._solve, ticket, g.situation(), hand, g.adjacency, g.revealed == 0))

    def _solve(self, ticket: int, s: Situation, hand: Hand, adjacency: tuple[tuple[str, str], ...], compulsory: bool) -> None:
        """In the worker thread: the optimal player's choice, shown only if `ticket` is still current."""
        try:
            n = nessie_play.best_take(hand, s.row, adjacency, letter_value=0)[0]
            line = optimal_html(ticket, optimal_choice(s, hand, adjacency), n, compulsory)
        except Exception as e:  # shown in the page: a failure in the thread must not pass unseen
            line = optimal_div(ticket, "error", f"⚠ could not finish: {html.escape(type(e).__name__)}: {html.escape(str(e))}")
        with self._lock:
            if ticket == self._ticket:
                self._optimal_line = line
                self._show_advice()

    def draw_chart(self) -> None:
        """P(sunk within k more reveals) for you, from the table as it is (even between turns)."""
        g = self.game
        s = Situation(dict(Counter(g.draw)), tuple(g.row), frozenset(g.hands[HUMAN].letters))
        ps = [p_sink_within(s, k) for k in range(1, HORIZON + 1)]
        frame = pl.DataFrame({
            "k": list(range(1, HORIZON + 1)),
            "p": [float(p) for p in ps],
            "exact": [f"{p.numerator}/{p.denominator}" if len(str(p.denominator)) <= 12 else f"≈ {float(p):.10f}" for p in ps],
        })
        row = " ".join(s.row) or "empty"
        over = "game over · " if g.over else ""
        title = alt.Title("P(you sink within k more reveals)", subtitle=f"{over}row: {row} · {s.pool_size} cards unseen")
        base = alt.Chart(frame, title=title).encode(x=alt.X("k:O", title="k more reveals", axis=alt.Axis(labelAngle=0)))
        bars = base.mark_bar(color=TEAL).encode(
            y=alt.Y("p:Q", title="P(sunk)", scale=alt.Scale(domain=[0, 1])),
            tooltip=["k", alt.Tooltip("p:Q", format=".6f", title="P(sunk)"), "exact"],
        )
        labels = base.mark_text(dy=-6, fontSize=11, color="#333").encode(y="p:Q", text=alt.Text("p:Q", format=".2f"))
        self.chart.show(alt.layer(bars, labels).properties(width=420, height=230))


def app(seed: int | None = None) -> widgets.Widget:
    """The Nessie dashboard as one widget."""
    return NessieDashboard(seed).view
