"""Nessie dashboard: play whole games against automatic opponents (the chosen rule, through a kit
`Match`) with your exact odds beside you (the state's hint: `nessie.policies.advice`), the advice
of two players, and the chance of sinking within k more reveals; the drawing is in `views` and
`advice`. The optimal player (`nessie.optimal`) solves your turn in a background thread (`LatestJob`):
each request carries a ticket, and a move or a new game takes a new one, so a stale answer is dropped."""

from __future__ import annotations

import threading
from functools import partial
from typing import cast

import ipywidgets as widgets

from nessus.game import Action
from nessus.game import State as AnyState
from nessus.games.nessie import GAME
from nessus.games.nessie import advice as a
from nessus.games.nessie import views as v
from nessus.games.nessie.odds import Choice
from nessus.games.nessie.policies import advice
from nessus.games.nessie.rules import Rules
from nessus.games.nessie.state import REVEAL, State, Stop, initial_state
from nessus.kit.base import Dashboard
from nessus.kit.common import TableHTML
from nessus.kit.jobs import LatestJob
from nessus.kit.match import Match

HUMAN = v.HUMAN


class Game(Match):
    """A Nessie match on the page: each move told by `State.describe` (an opponent's turn in one
    sentence when it ends), the end by `views.result_text`."""

    def tell(self, state: AnyState, action: Action) -> None:
        assert isinstance(state, State)
        self.lines += state.describe(action, self.names[-1], HUMAN)


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
        style = {"description_width": "80px"}
        self.opponents = widgets.Dropdown(options=v.OPPONENTS, value=2, description="opponents", style=style)
        self.opponents.layout.width = "170px"
        self.strategy = widgets.Dropdown(
            options=list(v.STRATEGIES), value="risk > 30%", description="they play", style=style
        )
        self.strategy.layout.width = "230px"
        self.strategy.add_class("nessie-strategy")
        self.reveal_button = widgets.Button(description="Reveal", button_style="primary", icon="eye")
        self.reveal_button.add_class("reveal-button")
        self.take = widgets.IntSlider(0, 0, 0, description="take", style={"description_width": "40px"})
        self.take.layout.width = "230px"
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
        self.worker = LatestJob("nessie-optimal-player")
        self._lock = threading.Lock()  # guards the ticket and the advice box (the worker writes it too)
        self._ticket = 0

        self.reveal_button.on_click(self.guard(lambda _: self.play(REVEAL)))
        self.stop_button.on_click(self.guard(lambda _: self.stop()))
        self.new_button.on_click(self.guard(lambda _: self.new_game()))
        self.take.observe(self.guard(lambda _: self.draw_take()), names="value")
        self.opponents.observe(self.guard(lambda _: self.new_game()), names="value")
        self.strategy.observe(self.guard(lambda _: self.new_strategy()), names="value")

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
        """The game being played."""
        return cast(State, self.match.state)

    def new_game(self) -> None:
        """A new game (a full deck), 1 + opponents players, you first."""
        k = self.opponents.value
        self.match = Game(initial_state(Rules(players=1 + k)), {}, self.rng, you=HUMAN)
        self.match.result = lambda end: v.result_text(end, self.strategy.value)
        self.seat_opponents()
        self.match.lines.append(f"New game: you and {k} opponent{'s' if k > 1 else ''}. Your turn: reveal a card.")
        self.messages.clear()
        self.draw()

    def seat_opponents(self) -> None:
        """Every other seat plays the chosen rule (named so in the log)."""
        self.match.seats = {seat: v.STRATEGIES[self.strategy.value] for seat in range(1, self.state.players)}
        self.match.names = ["you"] + [self.strategy.value] * (self.state.players - 1)

    def new_strategy(self) -> None:
        """The opponents play another rule from their next move on."""
        self.seat_opponents()
        self.match.lines.append(f"Opponents now play “{self.strategy.value}”.")
        self.log.value = v.log_html(self.match.lines)

    def play(self, action: Action) -> None:
        """Your move, then the opponents' until it is your turn or the game ends (told in the log)."""
        self.match.move(action)
        self.messages.clear()
        self.draw()

    def stop(self) -> None:
        """You stop and take the last N row cards; then the opponents play."""
        if self.match.your_move() and self.state.revealed == 0:
            raise ValueError("reveal at least one card before stopping")
        self.play(Stop(self.take.value))

    # -- drawing ------------------------------------------------------------------------------
    def draw(self) -> None:
        """Redraw the whole page from the game, and ask the optimal player on your turn."""
        s = self.state
        playing = not s.is_terminal() and s.current == HUMAN
        self.reveal_button.disabled = self.stop_button.disabled = self.take.disabled = not playing
        self.choice = advice(s) if playing else None
        self.take.max = len(s.row)
        self.take.value = self.choice.stop_take if self.choice and s.revealed else 0  # no stop before a reveal
        self.draw_take()
        self.log.value = v.log_html(self.match.lines)
        self.players.value = v.players_html(s, self.strategy.value)
        self.draw_odds()
        self.chart.show(v.sink_chart(s))

    def draw_take(self) -> None:
        """The row with the cards to take outlined, the Stop button's label and what the take does."""
        n = self.take.value
        self.row.value = v.row_html(list(self.state.row), n)
        self.stop_button.description = f"Stop and take {n}"
        self.take_note.value = v.take_note_html(self.state, n, self.choice.stop_take if self.choice else None)

    def draw_odds(self) -> None:
        """The odds table and the look-ahead player's advice; on your turn, the optimal player is asked (the
        table has changed: a new ticket, and answers to earlier requests are stale)."""
        s, c = self.state, self.choice
        with self._lock:
            self._ticket += 1
            ticket = self._ticket
            self.advice.value = a.advice_html(c, s.revealed, a.optimal_html(ticket, "thinking", a.THINKING))
        if c is None:
            self.odds.value, self.odds_note.value = v.waiting_html(s, self.strategy.value), ""
            return
        self.odds.value, self.odds_note.value = v.odds_html(c, s.revealed), v.odds_note_html(s.situation().pool_size)
        self.worker.submit(partial(self._solve, ticket, s, c))

    def _solve(self, ticket: int, s: State, c: Choice) -> None:
        """In the worker thread: the optimal player's line, shown only if `ticket` is still current."""
        line = a.optimal_line(ticket, s)
        with self._lock:
            if ticket == self._ticket:
                self.advice.value = a.advice_html(c, s.revealed, line)


def app(seed: int | None = None) -> widgets.Widget:
    """The Nessie dashboard as one widget."""
    return NessieDashboard(seed).view
