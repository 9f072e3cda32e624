"""La Tresse's page: watch (or throw) a game where five dice are passed around the table, with every
seat's exact chance of winning from the dice as they lie. No decisions: alone, you throw for every
seat; against the machine, the other seats throw when you press Play on (or at once)."""

from __future__ import annotations

from typing import cast

import ipywidgets as widgets

from nessus.games import tresse
from nessus.games.tresse import GAME, views
from nessus.kit.common import TableHTML
from nessus.kit.tablegame import ChanceTable
from nessus.play import play


class TresseDashboard(ChanceTable):
    """The widgets of the La Tresse page and the game they play."""

    game, roll_word, roll_verb = GAME, "turn", "Throw"
    sentence = (
        "Five dice go round the table. The player holding dice throws them all: each 1 goes to the centre, "
        "each 2 to the left neighbour, each 5 to the right one, and the rest are thrown again until the hand "
        "is empty; then the next player to the left with dice plays. Whoever puts the last die into the "
        "centre wins. No decisions: pure chance. Beside (below on a phone): each seat's exact chance at the "
        "start, and how it moves during your game."
    )

    def __init__(self, seed: int | None = None) -> None:
        offer = "every seat's exact chance of winning from the dice as they lie, and the throws left"
        super().__init__(seed, "tresse", tresse.PLAYERS, offer, ("Throw", "Play on", "New game", "they throw"))
        self.seats.machine.style.description_width = "72px"
        self.seats.machine.layout.width = "300px"
        self.dice = self.param_field(tresse.DICE, width="150px")
        self.seats.box.children = (*self.seats.box.children, self.dice.widget)

        self.picture = widgets.HTML()
        self.last = widgets.HTML()
        self.roll_button.layout.width, self.play_button.layout.width = "170px", "210px"
        self.result = widgets.HTML()
        self.hint.toggle.tooltip = "show every seat's exact chance of winning from here"
        self.start_pane = self.chart_pane("270px", "start")
        self.figures = TableHTML(name="la-tresse-figures")
        self.path_pane = self.chart_pane("270px", "this-game")

        self.dice.widget.observe(self.rules_guard(lambda _: self.restart()), names="value")

        table = widgets.HBox([self.picture, self.last], layout=widgets.Layout(align_items="center"))
        self.lay_out([], [table], [self.start_pane.widget, self.figures, self.path_pane.widget], [self.result])
        self.new_mode()

    # -- controls -----------------------------------------------------------------------------
    @property
    def over(self) -> bool:
        """Whether the game is over."""
        return self.state.is_terminal()

    def mine(self, state: tresse.State | None = None) -> bool:
        """The throw in `state` (default: the game's) is yours: alone, every throw; in a game, your seat's."""
        t = state or self.state
        return not self.seats.game or t.is_terminal() or t.current == self.you + 1

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
        self.start_pane.show(views.start_chart(rules, self.you, self.names))
        self.figures.value = views.figures_html(rules, self.you)
        self.go_on()

    def step(self) -> None:
        """One throw of the seat to play (yours, in a game against the machine)."""
        if not self.mine():
            raise ValueError(f"it is {self.names[(self.state.current or 1) - 1]}'s turn: press Play on")
        self.state = self.state.roll(self.rng)

    def play(self) -> None:
        """Chance throws (through the one play loop): in a game, until your throw; alone, until the
        seat to play has thrown its hand empty."""
        seat = self.state.current
        until = (lambda s: self.mine(s)) if self.seats.game else (lambda s: s.current != seat)
        self.state = cast(tresse.State, play(self.state, {}, self.rng, until=until))

    def draw_table(self) -> str:
        """The table, the last throw, the status, the result, the hint and this game's chart; the log's HTML."""
        t, names, you = self.state, self.names, self.you
        status = views.prompt(t, names, you, self.seats.game, self.mine())
        self.status.value, self.roll_button.description, self.play_button.description = status
        self.picture.value = views.table_svg(t, you, names)
        self.last.value = views.last_html(t, names)
        self.result.value = views.result_html(t, names)
        self.hint.show(lambda: views.hint_html(self.state, self.names, self.you))
        self.path_pane.show(views.path_chart(t, names, you))
        return views.log_html(t, names)


def app(seed: int | None = None) -> widgets.Widget:
    """The La Tresse dashboard as one widget."""
    return TresseDashboard(seed).view
