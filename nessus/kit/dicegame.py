"""Widgets for dice games played with a hint: clickable dice, who plays (alone or against the
machine), the move buttons and the roll counter; the hint and the policies' charts are in
`hint` (and imported from here too)."""

from __future__ import annotations

import html
from collections.abc import Callable, Sequence
from pathlib import Path

import anywidget
import ipywidgets as widgets
import traitlets

from nessus.kit.base import Dashboard
from nessus.kit.common import DIE, ParamField, face_svg, mini_dice, svg_url  # noqa: F401 (mini_dice: the pages import it from here)
from nessus.kit.hint import (  # noqa: F401 (the pages import these from here too)
    HELD,
    HEURISTIC,
    OPTIMAL,
    HintPanel,
    hint_table,
    kind_of,
    policy_bars,
    policy_frame,
    probability_bars,
)
from nessus.rules import Param

ALONE, GAME = "Alone", "Against the machine"
MOVES = (("roll-button", "primary", "refresh"), ("stop-button", "success", "hand-paper-o"), ("new-button", "", ""))


def _tray_css() -> str:
    tinted = {f: face_svg(f, fill="#ffe3c2", stroke=HELD) for f in range(1, 7)}
    faces = "".join(
        f".nessus-tray .nessus-die.face-{f}{{background-image:{svg_url(face_svg(f))}}}"
        f".nessus-tray .nessus-die.held.face-{f}{{background-image:{svg_url(tinted[f])}}}"
        for f in range(1, 7)
    )
    return (
        f".nessus-tray .nessus-tray-row{{display:flex;flex-wrap:wrap;align-items:flex-end;min-height:{DIE + 30}px}}"
        ".nessus-tray .nessus-slot{display:flex;flex-direction:column;align-items:center;margin:10px 4px 0 4px}"
        f".nessus-tray .nessus-tray-empty{{color:#777;line-height:{DIE}px}}"
        f".nessus-tray .nessus-die.jupyter-button{{width:{DIE}px;height:{DIE}px;padding:0;margin:0;border:none;"
        "background-color:transparent;background-size:100% 100%;box-shadow:none;cursor:pointer;"
        "transition:transform .1s}"
        f".nessus-tray .nessus-die.held{{transform:translateY(-7px);filter:drop-shadow(0 3px 2px rgba(0,0,0,.3))}}"
        ".nessus-tray .nessus-die.jupyter-button:disabled{opacity:1;cursor:default}"
        ".nessus-tray .nessus-die.jupyter-button:hover,.nessus-tray .nessus-die.jupyter-button:focus"
        "{background-color:transparent;box-shadow:none;outline:none}"
        ".nessus-tray .nessus-die.jupyter-button:focus-visible{outline:2px dotted #4c78a8;outline-offset:2px}"
        f".nessus-tray .die-note{{color:{HELD};font-weight:bold;font-size:12px;text-align:center;line-height:16px;"
        "height:16px;margin:2px 0 0 0}"
        f"{faces}"
    )


class TrayView(anywidget.AnyWidget):
    """The tray's one widget (drawn by tray.js): a die is a dict of its CSS `classes`, whether
    it is `disabled`, its `title` (tooltip) and its `note` (HTML below it); `empty` is the HTML
    shown when there are none. A click on a die comes back as a message `{"click": i}`. One widget,
    where buttons, notes and boxes were 48 (each with its layout and style) for five dice."""

    _esm = Path(__file__).with_name("tray.js")
    _css = _tray_css()
    dice = traitlets.List(traitlets.Dict()).tag(sync=True)
    empty = traitlets.Unicode("").tag(sync=True)


class DiceTray:
    """A row of dice you click to hold (or keep) and release: held dice are lifted, tinted and
    labelled, locked dice held for good; an inactive tray only shows the dice."""

    def __init__(self, size: int, word: str = "held", on_change: Callable[[], None] | None = None) -> None:
        self.size = size
        self.word = word
        self.on_change = on_change
        self.faces: list[int] = []
        self.held: list[bool] = []
        self.locked: list[bool] = []
        self.active = False
        self.widget = TrayView()
        self.widget.add_class("nessus-tray")
        self.widget.on_msg(lambda _, content, buffers: self._clicked(content))
        self.show(())

    def show(
        self,
        faces: Sequence[int],
        held: Sequence[bool] | None = None,
        locked: Sequence[bool] | None = None,
        active: bool = True,
        empty: str = "",
    ) -> None:
        """Show these dice (`empty`: the text when there are none)."""
        n = len(faces)
        self.faces = list(faces)
        self.locked = list(locked) if locked is not None else [False] * n
        self.held = [h or k for h, k in zip(held if held is not None else [False] * n, self.locked)]
        self.active = active
        self.widget.empty = html.escape(empty) if not faces else ""
        self._draw()

    def _draw(self) -> None:
        dice = []
        for i in range(min(len(self.faces), self.size)):
            held = self.held[i]
            marks = [c for c, on in (("held", held), ("locked", self.locked[i])) if on]
            disabled = not self.active or self.locked[i]
            verb = "release" if held else "hold" if self.word == "held" else "keep"
            title = self._describe(i) + (f": click to {verb} it" if not disabled else "")
            classes = ["nessus-die", *self._classes(i), *marks]
            dice.append({"classes": classes, "disabled": disabled, "title": title, "note": self._note(i)})
        self.widget.dice = dice

    def _note(self, i: int) -> str:
        """The HTML below die i."""
        return self.word if self.held[i] else "&nbsp;"

    def _classes(self, i: int) -> tuple[str, ...]:
        """Die i's CSS classes besides `nessus-die`, `held` and `locked` (its face)."""
        return (f"face-{self.faces[i]}",)

    def _describe(self, i: int) -> str:
        """Die i in words, for its tooltip."""
        return f"die showing {self.faces[i]}"

    def _clicked(self, content: object) -> None:
        """A message from the page: `{"click": i}` clicks die i (anything else is ignored)."""
        i = content.get("click") if isinstance(content, dict) else None
        if isinstance(i, int) and not isinstance(i, bool):
            self.click(i)

    def click(self, i: int) -> None:
        """Hold or release die i (nothing for a locked die, an inactive tray or no such die)."""
        if not 0 <= i < min(len(self.faces), self.size) or not self.active or self.locked[i]:
            return
        self.held[i] = not self.held[i]
        self._draw()
        if self.on_change:
            self.on_change()

    @property
    def held_faces(self) -> tuple[int, ...]:
        """The held dice, sorted."""
        return tuple(sorted(f for f, h in zip(self.faces, self.held) if h))

    def reroll(self, new: Sequence[int]) -> None:
        """Put freshly rolled faces in the places of the dice not held (in order)."""
        it = iter(new)
        self.faces = [f if h else next(it) for f, h in zip(self.faces, self.held)]


class Table:
    """Who plays: alone, or a game against machines, with the number of players, your seat and
    how the machines play (CSS classes `<game>-mode`, `<game>-seat`, `<game>-machine`).
    `on_mode()` runs when the mode changes, `on_table()` when the players, seat or machine do
    (a new game is due); both through `guard`, so a bad entry is a message."""

    def __init__(
        self,
        game: str,
        players: Param,
        machines: Sequence[str],
        guard: Callable[[Callable], Callable],
        on_mode: Callable[[], None],
        on_table: Callable[[], None],
    ) -> None:
        self.mode = widgets.ToggleButtons(options=[ALONE, GAME], value=ALONE, style={"button_width": "150px"})
        self.players = ParamField(players, width="150px")
        narrow = {"description_width": "65px"}
        self.seat = widgets.Dropdown(options=[1], description="your seat", style=narrow, layout={"width": "130px"})
        self.machine = widgets.Dropdown(
            options=machines, description="they play", style=narrow, layout={"width": "250px"}
        )
        for widget, css in ((self.mode, "mode"), (self.seat, "seat"), (self.machine, "machine")):
            widget.add_class(f"{game}-{css}")
        self.box = widgets.HBox(
            [self.players.widget, self.seat, self.machine], layout=widgets.Layout(display="none", flex_flow="row wrap")
        )
        self._on_table = on_table
        self._quiet = False
        self.mode.observe(guard(lambda _: self._mode(on_mode)), names="value")
        self.players.widget.observe(guard(lambda _: self.new_players()), names="value")
        self.seat.observe(guard(lambda _: None if self._quiet else on_table()), names="value")
        self.machine.observe(guard(lambda _: on_table()), names="value")

    @property
    def game(self) -> bool:
        """True in a game against the machine, False alone."""
        return self.mode.value == GAME

    @property
    def you(self) -> int:
        """Your seat, from 0."""
        return self.seat.value - 1

    def _mode(self, on_mode: Callable[[], None]) -> None:
        self.box.layout.display = None if self.game else "none"
        on_mode()

    def new_players(self) -> None:
        """A new number of players: the seats to choose from (keeping yours if it still exists), and a new game."""
        n = self.players.value()
        seat = min(self.seat.value or 1, n)
        self._quiet = True
        try:
            self.seat.options = list(range(1, n + 1))
            self.seat.value = seat
        finally:
            self._quiet = False
        self._on_table()

    def name(self, seat: int) -> str:
        """ "You" or "Player n" (seats from 0)."""
        return "You" if seat == self.you else f"Player {seat + 1}"

    def who_html(self, seat: int) -> str:
        """A score sheet's first cell: "You", or "Player n (how the machines play)"."""
        return "You" if seat == self.you else f"Player {seat + 1} <small>({html.escape(self.machine.value)})</small>"

    def row_style(self, seat: int) -> str:
        """A score sheet row's style: yours is tinted."""
        return ("background:#fff4e5;" if seat == self.you else "") + "border-top:1px solid #ddd"


class TableDashboard(Dashboard):
    """A dice game's page: who plays (`self.seats`, alone or against the machine), the move
    buttons (the actions a bad value disables), the roll counter, a status line and the hint.
    Subclasses define `restart()` (a new turn or game) and `new_mode()` (alone <-> game)."""

    def __init__(
        self, seed: int | None, game: str, players: Param, machines: Sequence[str], offer: str | None = None
    ) -> None:
        super().__init__(seed)
        self.seats = Table(game, players, machines, self.rules_guard, lambda: self.new_mode(), lambda: self.restart())
        self.counter = widgets.HTML()
        self.status = widgets.HTML()
        self.hint = HintPanel(offer) if offer else HintPanel()

    def moves(
        self, labels: tuple[str, str, str], handlers: tuple[Callable[[], None], ...]
    ) -> tuple[widgets.Button, ...]:
        """The Roll, Stop and New buttons (`roll-button`, `stop-button`, `new-button`), each running
        its handler (a ValueError: a message)."""
        self.actions = []
        for label, handler, (css, style, icon) in zip(labels, handlers, MOVES):
            b = widgets.Button(description=label, button_style=style, icon=icon)
            b.add_class(css)
            b.on_click(self.guard(lambda _, handler=handler: handler()))
            self.actions.append(b)
        return tuple(self.actions)

    def restart(self) -> None:
        raise NotImplementedError

    def new_mode(self) -> None:
        """Alone <-> against the machine: by default, a fresh start."""
        self.restart()


def counter_html(made: int, total: int, over: bool = False, over_text: str = "Turn over") -> str:
    """The roll counter: "Roll 2 of 3" and a pip per roll (filled when made)."""
    pips = "".join(f"<span style='color:{'#4c78a8' if i < made else '#ccc'}'>●</span>" for i in range(total))
    if over:
        text = f"{over_text} after {made} roll{'' if made == 1 else 's'}"
    elif made == 0:
        text = f"{total} rolls to come"
    else:
        left = total - made
        text = f"Roll {made} of {total}" + (f" · {left} left" if left else "")
    return f"<span class='roll-counter' data-made='{made}' style='font-size:15px'>{pips} <b>{text}</b></span>"
