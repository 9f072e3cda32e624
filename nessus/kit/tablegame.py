"""A table game with no decision on a page (La Tresse, Les Royaumes): alone, you roll for every
seat; against the machine, the machines roll when you press Play on (or at once). `ChanceTable`
holds the Roll / Play on / New buttons and their checks; `log_box` and `tinted` draw the
scrolling log and your seat's row."""

from __future__ import annotations

from collections.abc import Sequence

import ipywidgets as widgets

from nessus.kit.dicegame import TableDashboard
from nessus.kit.match import log_html
from nessus.rules import Param

Seq = Sequence[widgets.Widget]
ON_CLICK, AT_ONCE = "when you press Play on", "at once"
MACHINES = (ON_CLICK, AT_ONCE)


def tinted(mine: bool, border: str = "1px solid #ddd") -> str:
    """A seat's row style: yours is tinted."""
    return ("background:#fff4e5;" if mine else "") + f"border-top:{border}"


def log_box(lines: Sequence[str], game: str, keep: int, height: str, line_height: str) -> str:
    """The log's HTML `lines` in a box that scrolls, the latest first (CSS class `<game>-log`)."""
    return (
        f"<div style='font-size:13px;line-height:{line_height};max-height:{height};overflow-y:auto;"
        f"border-top:1px solid #ddd;margin-top:6px'>{log_html(lines, f'{game}-log', keep, escape=False)}</div>"
    )


class ChanceTable(TableDashboard):
    """A page of rolls with no decision: the Roll, Play on and New buttons (`roll-button`,
    `play-button`, `new-button`) with their checks, the machines rolling at once if so set, and
    the log, and the page's layout. Subclasses define `over`, `mine()`, `step()` (your roll),
    `play()` (the machines until your roll; alone, to the end of the turn), `draw_table()` and
    `new()` (default: a new game)."""

    unit, roll_word, roll_verb = "game", "roll", "Roll"
    """What New starts, your roll and the Roll button, as the errors name them."""

    def __init__(
        self, seed: int | None, game: str, players: Param, offer: str, labels: tuple[str, str, str, str]
    ) -> None:
        """`labels`: the Roll, Play on and New buttons' words, then the machines' menu's ("they roll")."""
        super().__init__(seed, game, players, MACHINES, offer)
        self.seats.machine.description = labels[3]
        self.roll_button, self.play_button, self.new_button = self.moves(
            labels[:3], (self.roll, self.play_on, self.new)
        )
        self.play_button.icon = "forward"
        self.play_button.add_class("play-button")
        self.log = widgets.HTML()

    def lay_out(self, controls: Seq, table: Seq, right: Seq, status: Seq = (), hint: Seq = ()) -> None:
        """The page: who plays and the `controls`, the messages, the `table`, the buttons, the status
        (`status` under it), the hint (`hint` under it) and the log; `right` beside."""
        self.page(
            [self.seats.mode, self.seats.box, *controls, self.messages.widget, *table, widgets.HBox(self.actions)]
            + [self.status, *status, self.hint.toggle, self.hint.widget, *hint, self.log],
            right,
            left_width="620px",
        )

    @property
    def at_once(self) -> bool:
        """The machines roll as soon as it is their turn (in a game against the machine)."""
        return self.seats.game and self.seats.machine.value == AT_ONCE

    @property
    def over(self) -> bool:
        """Whether the game (or round) is over."""
        raise NotImplementedError

    def mine(self) -> bool:
        """Whether the next roll is yours to make (alone, every roll is)."""
        raise NotImplementedError

    def step(self) -> None:
        """Make the next roll if it is yours (else a ValueError saying whose it is)."""
        raise NotImplementedError

    def play(self) -> None:
        """The machines roll until your roll (alone: to the end of the turn)."""
        raise NotImplementedError

    def draw_table(self) -> str:
        """Draw all but the buttons' state and the log (the status and buttons' words too); the log's HTML."""
        raise NotImplementedError

    def new(self) -> None:
        """The New button: by default, a new game."""
        self.restart()

    def check_open(self) -> None:
        """A ValueError if the game (or round) is over."""
        if self.over:
            raise ValueError(f"the {self.unit} is over: press New {self.unit}")

    def roll(self) -> None:
        """Roll: your roll (alone, whichever comes next), then the machines' at once if so set."""
        self.check_open()
        self.step()
        self.messages.clear()
        self.go_on()

    def play_on(self) -> None:
        """Play on: the machines roll until your roll (alone, to the end of the turn)."""
        self.check_open()
        if self.seats.game and self.mine():
            raise ValueError(f"it is your {self.roll_word}: press {self.roll_verb}")
        self.play()
        self.messages.clear()
        self.draw()

    def go_on(self) -> None:
        """After your roll (or at a new start): the machines at once if so set, then the page."""
        if self.at_once:
            self.play()
        self.draw()

    def draw(self) -> None:
        """The table, the buttons, the status and, last, the log (the page is then up to date)."""
        log = self.draw_table()
        over, mine = self.over, self.mine()
        self.roll_button.disabled = over or not mine
        self.play_button.disabled = over or (self.seats.game and mine)
        self.log.value = log
