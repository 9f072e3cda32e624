"""La Tresse's page: watch (or throw) a game where five dice are passed around the table, with every
seat's exact chance of winning from the dice as they lie. No decisions: alone, you throw for every
seat; against the machine, the other seats throw when you press Play on (or at once)."""

from __future__ import annotations

from collections.abc import Callable
from typing import cast

import ipywidgets as widgets

from nessus.games import tresse
from nessus.games.tresse import GAME, views
from nessus.kit.common import TableHTML
from nessus.kit.dicegame import TableDashboard
from nessus.play import play

ON_CLICK, AT_ONCE = "when you press Play on", "at once"
MACHINES = (ON_CLICK, AT_ONCE)


class TresseDashboard(TableDashboard):
    """The widgets of the La Tresse page and the game they play."""

    game = GAME
    sentence = (
        "Five dice go round the table. The player holding dice throws them all: each 1 goes to the centre, "
        "each 2 to the left neighbour, each 5 to the right one, and the rest are thrown again until the hand "
        "is empty; then the next player to the left with dice plays. Whoever puts the last die into the "
        "centre wins. No decisions: pure chance. Beside (below on a phone): each seat's exact chance at the "
        "start, and how it moves during your game."
    )

    def __init__(self, seed: int | None = None) -> None:
        offer = "every seat's exact chance of winning from the dice as they lie, and the throws left"
        super().__init__(seed, "tresse", tresse.PLAYERS, MACHINES, offer)
        self.seats.machine.description = "they throw"
        self.seats.machine.style.description_width = "72px"
        self.seats.machine.layout.width = "300px"
        self.dice = self.param_field(tresse.DICE, width="150px")
        self.seats.box.children = (*self.seats.box.children, self.dice.widget)

        self.picture = widgets.HTML()
        self.last = widgets.HTML()
        self.roll_button, self.play_button, self.new_button = self.moves(
            ("Throw", "Play on", "New game"), (self.roll, self.play_on, self.restart)
        )
        self.roll_button.layout.width, self.play_button.layout.width = "170px", "210px"
        self.play_button.icon = "forward"
        self.play_button.add_class("play-button")
        self.result = widgets.HTML()
        self.hint.toggle.tooltip = "show every seat's exact chance of winning from here"
        self.log = widgets.HTML()
        self.start_pane = self.chart_pane("270px", "start")
        self.figures = TableHTML(name="la-tresse-figures")
        self.path_pane = self.chart_pane("270px", "this-game")

        self.dice.widget.observe(self.rules_guard(lambda _: self.restart()), names="value")

        self.page(
            [
                self.seats.mode,
                self.seats.box,
                self.messages.widget,
                widgets.HBox([self.picture, self.last], layout=widgets.Layout(align_items="center")),
                widgets.HBox([self.roll_button, self.play_button, self.new_button]),
                self.status,
                self.result,
                self.hint.toggle,
                self.hint.widget,
                self.log,
            ],
            [self.start_pane.widget, self.figures, self.path_pane.widget],
            left_width="620px",
        )
        self.new_mode()

    # -- controls -----------------------------------------------------------------------------
    @property
    def at_once(self) -> bool:
        """The machine seats throw as soon as it is their turn."""
        return self.seats.game and self.seats.machine.value == AT_ONCE

    def machine_turn(self, state: tresse.State | None = None) -> bool:
        """A machine seat is to throw (in a game against the machine) in `state` (default: the game's)."""
        t = state or self.state
        return self.seats.game and not t.is_terminal() and t.current != self.you + 1

    def new_mode(self) -> None:
        """Players, dice and your seat count in both modes; how the machines throw only in a game."""
        self.seats.box.layout.display = None
        self.seats.machine.layout.display = None if self.seats.game else "none"
        self.seats.new_players()

    # -- the game ---------------------------------------------------------------------------------
    def restart(self) -> None:
        """A new game with the rules in the controls (the machines before you throw at once if so set)."""
        rules = tresse.Rules(players=self.seats.players.value(), dice=self.dice.value())
        self.messages.clear()
        self.you = self.seats.you
        self.names = [self.seats.name(i) for i in range(rules.players)]
        self.state = tresse.initial_state(rules)
        if self.at_once:
            self.throw_until(lambda s: not self.machine_turn(s))
        self.start_pane.show(views.start_chart(rules, self.you, self.names))
        self.figures.value = views.figures_html(rules, self.you)
        self.draw_game()

    def throw_until(self, until: Callable[[tresse.State], bool]) -> None:
        """Chance throws (through the one play loop) until `until(state)` or the end of the game."""
        end = play(self.state, {}, self.rng, until=lambda s: until(cast(tresse.State, s)))
        self.state = cast(tresse.State, end)

    def roll(self) -> None:
        """Throw: one throw of the seat to play (yours, in a game against the machine)."""
        if self.state.is_terminal():
            raise ValueError("the game is over: press New game")
        if self.machine_turn() and self.state.current is not None:
            raise ValueError(f"it is {self.names[self.state.current - 1]}'s turn: press Play on")
        self.state = self.state.roll(self.rng)
        if self.at_once:
            self.throw_until(lambda s: not self.machine_turn(s))
        self.messages.clear()
        self.draw_game()

    def play_on(self) -> None:
        """Play on: alone, the seat to play throws until its hand is empty; in a game, the machine
        seats throw until it is your turn."""
        if self.state.is_terminal():
            raise ValueError("the game is over: press New game")
        if self.seats.game and not self.machine_turn():
            raise ValueError("it is your turn: press Throw")
        seat = self.state.current
        self.throw_until(lambda s: not self.machine_turn(s) if self.seats.game else s.current != seat)
        self.messages.clear()
        self.draw_game()

    def draw_game(self) -> None:
        """The table, the last throw, the buttons, the status, the hint, this game's chart and the log."""
        t, names, you, game = self.state, self.names, self.you, self.seats.game
        self.picture.value = views.table_svg(t, you, names)
        self.last.value = views.last_html(t, names)
        mine = not self.machine_turn()
        self.roll_button.disabled = t.is_terminal() or not mine
        self.play_button.disabled = t.is_terminal() or (game and mine)
        status = views.prompt(t, names, you, game, mine)
        self.status.value, self.roll_button.description, self.play_button.description = status
        self.result.value = views.result_html(t, names)
        self.hint.show(lambda: views.hint_html(self.state, self.names, self.you))
        self.path_pane.show(views.path_chart(t, names, you))
        self.log.value = views.log_html(t, names)  # last: the page is then up to date


def app(seed: int | None = None) -> widgets.Widget:
    """The La Tresse dashboard as one widget."""
    return TresseDashboard(seed).view
