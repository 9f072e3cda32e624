"""Nessie dashboard: play whole games against automatic opponents with your exact odds beside you.

Left: the table (the row, every player's cards and score, Reveal / Stop and take N / New game,
and a log of what happened). Right: the live odds panel of the human player (seat 1) from the
cards they have not seen, the advice of two players, and the exact chance of sinking within k
more reveals for k = 1..10. The HTML, the chart and the optimal player's answer are pure
functions in `views` and `advice`; this module holds the widgets and the flow of play.

The game is the protocol's `nessie.State`, played as the kit's `Match`: the opponents play
through `nessus.play.play` with the chosen rule (a `nessie.policies.Rule`, itself a policy). The
odds table's values and the look-ahead player's advice are the state's hint
(`nessie.policies.advice`, from the values of `nessie.odds.choice`): treasure points gained minus
lost, plus `nessie.odds.LETTER_VALUE` (10/6) per Nessie card kept, looking one card ahead. The take
slider starts at the best take under that same scoring (`nessie.odds.best_take`), which is what
the automatic players take too.

The optimal player's advice is `nessie.optimal.optimal_choice`: the exact expected *treasure
taken this turn* if it stops now or reveals and then plays on optimally (letters count only
through sinking and discards), and its take is `best_take(..., letter_value=0)`. A game's first
turn (a fresh deck) is read from stored values (data/nessie-opening.parquet) in under a second;
a later turn can take seconds to solve, so every turn is solved in one background daemon thread
(`LatestJob`) while the page stays usable: the panel says "thinking…" until the answer arrives.
Each request carries a ticket; a move or a new game takes a new one, so an answer for a table
that has changed since is dropped, never shown. A failure in the thread is shown in the panel.
"""

from __future__ import annotations

import threading
from functools import partial

import ipywidgets as widgets

from nessus.game import Action
from nessus.game import State as AnyState
from nessus.games.nessie import GAME
from nessus.games.nessie import advice as a
from nessus.games.nessie import views as v
from nessus.games.nessie.cards import CHAIN, Hand, Situation
from nessus.games.nessie.policies import advice
from nessus.games.nessie.rules import Rules
from nessus.games.nessie.state import REVEAL, State, Stop, initial_state
from nessus.kit.base import Dashboard
from nessus.kit.common import LatestJob, TableHTML
from nessus.kit.match import Match

HUMAN = v.HUMAN


class Game(Match):
    """A Nessie match on the page: each move told by `views.narrate` (an opponent's turn in one
    sentence when it ends), the end by `views.result_text`."""

    def tell(self, state: AnyState, action: Action) -> None:
        assert isinstance(state, State)
        self.lines += v.narrate(state, action, self.names[-1])


class NessieDashboard(Dashboard):
    """The widgets of the Nessie page and the game they play (the human is seat 1)."""

    game = GAME
    sentence = (
        "Reveal cards onto the row, then stop and take a run ending at the last one — but six coins in the "
        "row, or three of one letter with yours, sink you. You are player 1; the others play by themselves. "
        "Beside (below on a phone): your exact odds from the cards you have not seen."
    )

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed)
        self.opponents = widgets.Dropdown(
            options=v.OPPONENTS,
            value=2,
            description="opponents",
            layout=widgets.Layout(width="170px"),
            style={"description_width": "80px"},
        )
        self.strategy = widgets.Dropdown(
            options=list(v.STRATEGIES),
            value="risk > 30%",
            description="they play",
            layout=widgets.Layout(width="230px"),
            style={"description_width": "80px"},
        )
        self.strategy.add_class("nessie-strategy")
        self.reveal_button = widgets.Button(description="Reveal", button_style="primary", icon="eye")
        self.reveal_button.add_class("reveal-button")
        self.take = widgets.IntSlider(
            value=0,
            min=0,
            max=0,
            description="take",
            continuous_update=True,
            layout=widgets.Layout(width="230px"),
            style={"description_width": "40px"},
        )
        self.take.add_class("take-slider")
        self.stop_button = widgets.Button(description="Stop and take 0", button_style="success", icon="hand-paper")
        self.stop_button.add_class("stop-button")
        self.new_button = widgets.Button(description="New game")
        self.new_button.add_class("new-game-button")
        self.row, self.take_note, self.log = widgets.HTML(), widgets.HTML(), widgets.HTML()
        self.players = TableHTML(name="nessie-players")
        self.odds = TableHTML(name="nessie-odds")
        self.advice, self.odds_note = widgets.HTML(), widgets.HTML()
        self.chart = self.chart_pane("320px", "sinking")
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
        self.strategy.observe(guard(lambda _: self.new_strategy()), names="value")

        self.page(
            [
                widgets.HTML(
                    "<b>The row</b> <small style='color:#555'>(last revealed on the right; "
                    "<span style='color:#d62728'>dashed</span>: the cards a stop would take)</small>"
                ),
                self.row,
                widgets.HBox([self.reveal_button, self.take, self.stop_button]),
                self.take_note,
                self.messages.widget,
                self.log,
                self.players,
                widgets.HBox([self.opponents, self.strategy, self.new_button]),
            ],
            [self.odds, self.advice, self.odds_note, self.chart.widget],
            left_width="600px",
        )
        self.new_game()

    # -- moves --------------------------------------------------------------------------
    @property
    def state(self) -> State:
        state = self.match.state
        assert isinstance(state, State)
        return state

    def new_game(self) -> None:
        """A new game (a full deck), 1 + opponents players, you first."""
        k = self.opponents.value
        self.match = Game(initial_state(Rules(players=1 + k)), {}, self.rng, you=HUMAN)
        self.match.result = lambda end: v.result_text(end, self.strategy.value)
        self.seat_opponents()
        self.match.lines.append(f"New game: you and {k} opponent{'s' if k > 1 else ''}. Your turn: reveal a card.")
        self._invalidate()
        self.messages.clear()
        self.draw()

    def seat_opponents(self) -> None:
        """Every other seat plays the chosen rule (named so in the log)."""
        policy = v.STRATEGIES[self.strategy.value]()
        self.match.seats = {seat: policy for seat in range(1, self.state.players)}
        self.match.names = ["you"] + [self.strategy.value] * (self.state.players - 1)

    def new_strategy(self) -> None:
        """The opponents play another rule from their next move on."""
        self.seat_opponents()
        self.say(f"Opponents now play “{self.strategy.value}”.")

    def play(self, action: Action) -> None:
        """Your move, then the opponents' until it is your turn or the game ends (told in the log)."""
        self.match.move(action)
        self._invalidate()
        self.messages.clear()
        self.draw()

    def reveal(self) -> None:
        """You reveal one card (drawn from the pile); if you sink, the opponents play."""
        self.play(REVEAL)

    def stop(self) -> None:
        """You stop and take the last N row cards; then the opponents play."""
        if self.match.your_move() and self.state.revealed == 0:
            raise ValueError("reveal at least one card before stopping")
        self.play(Stop(self.take.value))

    def say(self, text: str) -> None:
        """A line in the log."""
        self.match.lines.append(text)
        self.draw_log()

    # -- drawing ------------------------------------------------------------------------------
    def draw(self) -> None:
        """Redraw the whole page from the game, and ask the optimal player on your turn."""
        s = self.state
        playing = not s.is_terminal() and s.current == HUMAN
        self.reveal_button.disabled = self.stop_button.disabled = self.take.disabled = not playing
        self.choice = advice(s) if playing else None
        self._quiet = True
        try:
            self.take.max = len(s.row)
            self.take.value = self.choice.stop_take if self.choice and s.revealed else 0  # no stop before a reveal
        finally:
            self._quiet = False
        self.draw_take()
        self.draw_log()
        self.players.value = v.players_html(s, self.strategy.value)
        self.draw_odds()
        self.chart.show(v.sink_chart(s))
        self.ask_optimal()

    def draw_take(self) -> None:
        """The row with the cards to take outlined, the Stop button's label and what the take does."""
        n = self.take.value
        self.row.value = v.row_html(list(self.state.row), n)
        self.stop_button.description = f"Stop and take {n}"
        self.take_note.value = v.take_note_html(self.state, n, self.choice.stop_take if self.choice else None)

    def draw_log(self) -> None:
        """The last lines of the log."""
        self.log.value = v.log_html(self.match.lines)

    def draw_odds(self) -> None:
        """The odds table, the look-ahead player's advice (the optimal player's is on its way)."""
        s, c = self.state, self.choice
        if c is None:
            self.odds.value, self.odds_note.value = v.waiting_html(s, self.strategy.value), ""
            self._set_advice("")
            return
        self.odds.value = v.odds_html(c, s.revealed)
        self.odds_note.value = v.odds_note_html(s.situation().pool_size)
        self._set_advice(a.lookahead_html(c, s.revealed), thinking=True)

    def _set_advice(self, lookahead: str, thinking: bool = False) -> None:
        """The look-ahead line, and the optimal player's line: thinking about the current ticket, or none."""
        with self._lock:
            self._lookahead_line = lookahead
            self._optimal_line = a.thinking_html(self._ticket) if thinking else ""
            self.advice.value = a.advice_html(self._lookahead_line + self._optimal_line)

    # -- the optimal player -----------------------------------------------------------------
    def _invalidate(self) -> None:
        """The table has changed (called after every move): answers to earlier requests are stale."""
        with self._lock:
            self._ticket += 1

    def ask_optimal(self) -> None:
        """On your turn, have the worker thread solve it (the answer replaces "thinking…")."""
        s = self.state
        if s.is_terminal() or s.current != HUMAN:
            return
        with self._lock:
            ticket = self._ticket
        self.worker.submit(partial(self._solve, ticket, s.situation(), s.hand(), CHAIN, s.revealed == 0))

    def _solve(
        self, ticket: int, s: Situation, hand: Hand, adjacency: tuple[tuple[str, str], ...], compulsory: bool
    ) -> None:
        """In the worker thread: the optimal player's choice, shown only if `ticket` is still current."""
        line = a.solve_optimal(ticket, s, hand, adjacency, compulsory)
        with self._lock:
            if ticket == self._ticket:
                self._optimal_line = line
                self.advice.value = a.advice_html(self._lookahead_line + self._optimal_line)


def app(seed: int | None = None) -> widgets.Widget:
    """The Nessie dashboard as one widget."""
    return NessieDashboard(seed).view
