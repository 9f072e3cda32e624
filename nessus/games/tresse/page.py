"""La Tresse's page: watch (or throw) a game where five dice are passed around the table,
with every seat's exact chance of winning from the position on the table.

Left: the table seen from above (who holds how many dice, the centre), the last throw with
where each die went, Throw / Play on / New game, the hint panel (every seat's P(win) from
here and the expected throws left) and the log. Right: P(win) by seat at the start for the
chosen number of players, and how each seat's chance moved during this game.

There is no decision in La Tresse: alone, you throw for every seat in turn; against the
machine, you throw your own dice and the other seats throw when you press Play on (or at once).
"""

from __future__ import annotations

import html
from typing import cast

import ipywidgets as widgets

from nessus.game import Action, State
from nessus.games import tresse
from nessus.games.tresse import GAME, views
from nessus.games.tresse.state import dice_word, next_up, verb
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
        super().__init__(
            seed,
            "tresse",
            tresse.PLAYERS,
            MACHINES,
            "every seat's exact chance of winning from the dice as they lie, and the throws left",
        )
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
    def rules(self) -> tresse.Rules:
        """The rules in the controls, or a ValueError naming the bad one."""
        return tresse.Rules(players=self.seats.players.value(), dice=self.dice.value())

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

    def names(self) -> list[str]:
        """ "You" or "Player n" for each seat."""
        return [self.seats.name(i) for i in range(self.rules_now.players)]

    # -- the game ---------------------------------------------------------------------------------
    def restart(self) -> None:
        """A new game with the rules in the controls (the machines before you throw at once if so set)."""
        self.rules_now = self.rules()
        self.messages.clear()
        self.you = self.seats.you
        self.state = tresse.initial_state(self.rules_now)
        self.path = [tresse.chances_from(self.state)]
        self.lines: list[str] = []
        self.last_throw: tuple[int, tuple[int, ...]] | None = None
        if self.at_once:
            self.machines_roll()
        self.draw_start()
        self.draw_game()

    def one_roll(self) -> None:
        """The seat to throw throws every die in hand: the table, the log and the chances after it."""
        self.record(self.state, self.state.roll(self.rng))

    def record(self, before: tresse.State, after: tresse.State) -> None:
        """A throw made: the game moves on; its log line, last throw and chances after it."""
        self.state = after
        self.path.append(tresse.chances_from(after))
        seat, faces = after.history[-1]
        self.last_throw = (seat - 1, faces)
        self.lines.append(views.log_line(before, after, self.names()))

    def machines_roll(self) -> None:
        """The machine seats throw (through the one play loop) until it is your turn or the game is over."""
        play(
            self.state,
            {},
            self.rng,
            on_move=self.record_roll,
            until=lambda s: not self.machine_turn(cast(tresse.State, s)),
        )

    def record_roll(self, before: State, dice: Action) -> None:
        """`on_move` of the play loop: record the throw of `dice` from `before`."""
        assert isinstance(before, tresse.State)
        self.record(before, before.apply(dice))

    def roll(self) -> None:
        """Throw: one throw of the seat to play (yours, in a game against the machine)."""
        if self.state.is_terminal():
            raise ValueError("the game is over: press New game")
        if self.machine_turn() and self.state.current is not None:
            raise ValueError(f"it is {self.seats.name(self.state.current - 1)}'s turn: press Play on")
        self.one_roll()
        if self.at_once:
            self.machines_roll()
        self.messages.clear()
        self.draw_game()

    def play_on(self) -> None:
        """Play on: alone, the seat to play throws until its hand is empty; in a game, the machine
        seats throw until it is your turn."""
        if self.state.is_terminal():
            raise ValueError("the game is over: press New game")
        if self.seats.game:
            if not self.machine_turn():
                raise ValueError("it is your turn: press Throw")
            self.machines_roll()
        else:
            seat = self.state.current
            until = lambda s: cast(tresse.State, s).current != seat  # noqa: E731
            play(self.state, {}, self.rng, on_move=self.record_roll, until=until)
        self.messages.clear()
        self.draw_game()

    # -- drawing ---------------------------------------------------------------------------------
    def draw_game(self) -> None:
        """The table, the last throw, the buttons, the status, the hint, this game's chart and the log."""
        t, names, you = self.state, self.names(), self.you
        self.picture.value = views.table_svg(t, you, names)
        self.last.value = views.last_html(t, self.last_throw, names)
        mine = not self.machine_turn()
        self.roll_button.disabled = t.is_terminal() or not mine
        self.play_button.disabled = t.is_terminal() or (self.seats.game and mine)
        hand = dice_word(t.hand)
        if t.is_terminal() or (self.seats.game and not mine):
            self.roll_button.description, self.play_button.description = "Throw", "Play on"
        elif self.seats.game:
            self.roll_button.description, self.play_button.description = f"Throw your {hand}", "Play on"
        else:
            self.roll_button.description, self.play_button.description = f"Throw {hand}", "Play on: end of the turn"
        self.status.value = status_html(t, names, you, self.seats.game, mine)
        self.result.value = result_html(t, names)
        self.hint.show(lambda: views.hint_html(self.state, self.path[-1], self.names(), self.you))
        self.path_pane.show(views.path_chart(self.path, t, names, you))
        self.log.value = views.log_html(self.lines)  # last: the page is then up to date

    def draw_start(self) -> None:
        """P(win) by seat at the start for these rules, and the game's expected length."""
        self.start_pane.show(views.start_chart(self.rules_now, self.you, self.names()))
        self.figures.value = views.figures_html(self.rules_now, self.you)


def status_html(table: tresse.State, names: list[str], you: int, game: bool, mine: bool) -> str:
    """The status line: what to press next, or that the game is over."""
    if table.is_terminal():
        todo = f"<b>Game over</b> after {table.throws} throws."
    elif not game:
        todo = (
            f"{html.escape(next_up(table, names))}. You throw for every seat: <b>Throw</b> once, or "
            "<b>Play on</b> to the end of this turn."
        )
    elif mine:
        todo = f"<b>Your turn</b>: throw your {dice_word(table.hand)}."
    else:
        held = table.holdings[you]
        yours = f"you hold {dice_word(held)}" if held else "you hold no dice"
        todo = f"{html.escape(next_up(table, names))} ({yours}): press <b>Play on</b>."
    return f"<div class='tresse-status' style='font-size:15px'>{todo}</div>"


def result_html(table: tresse.State, names: list[str]) -> str:
    """Who won, once the game is over (else nothing)."""
    if table.winner is None:
        return ""
    winner = names[table.winner - 1]
    return (
        f"<div class='tresse-result' style='font-weight:bold;font-size:15px;color:#2e7d32'>"
        f"★ {html.escape(winner)} {verb(winner, 'win')}: the last die is in the centre.</div>"
    )


def app(seed: int | None = None) -> widgets.Widget:
    """The La Tresse dashboard as one widget."""
    return TresseDashboard(seed).view
