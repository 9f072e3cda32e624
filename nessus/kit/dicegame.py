"""Widgets for dice games played with a hint: clickable dice, a roll counter, the hint panel
(every legal action with its exact value) and a chart comparing two policies.

Generic: an action is whatever the game module uses (e.g. "roll", "stop", the dice to hold);
the dashboard passes a `label(action) -> html` that names it in the game's words.
"""

from __future__ import annotations

import base64
import html
from collections.abc import Callable, Hashable, Sequence
from fractions import Fraction
from typing import Any

import altair as alt
import ipywidgets as widgets
import polars as pl

from nessus.dist import Dist
from nessus.kit.base import Dashboard
from nessus.kit.common import PIPS, ParamField, TableHTML
from nessus.numbers import Kind, d3_format, number_html, number_text
from nessus.rules import Param
from nessus.solver import Hint

ALONE, GAME = "Alone", "Against the machine"
HELD = "#f58518"
OPTIMAL, HEURISTIC = "#4c78a8", "#f58518"
DIE = 54


def face_svg(face: int, size: int = DIE, fill: str = "#ffffff", pip: str = "#222222", stroke: str = "#333333") -> str:
    """One die face as SVG (any colours)."""
    step = size / 4
    dots = "".join(
        f'<circle cx="{step * (c + 1):.1f}" cy="{step * (r + 1):.1f}" r="{size / 11:.1f}" fill="{pip}"/>'
        for r, c in PIPS[face]
    )
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{size}" height="{size}" viewBox="0 0 {size} {size}">'
        f'<rect x="2" y="2" width="{size - 4}" height="{size - 4}" rx="{size / 6:.1f}" fill="{fill}" stroke="{stroke}" '
        'stroke-width="2"/>'
        f"{dots}</svg>"
    )


def mini_dice(faces: Sequence[int], size: int = 20, held: bool = False) -> str:
    """A row of small dice, inline in a sentence or a table cell."""
    fill = "#ffe3c2" if held else "#ffffff"
    return "".join(
        f'<span class="mini-die" data-face="{f}" title="{f}" style="display:inline-block;vertical-align:middle;'
        'margin-right:2px">'
        f"{face_svg(f, size, fill)}</span>"
        for f in faces
    )


def _data_uri(svg: str) -> str:
    return "data:image/svg+xml;base64," + base64.b64encode(svg.encode()).decode()


def _tray_css() -> str:
    faces = "".join(
        f".nessus-tray .nessus-die.face-{f}{{background-image:url({_data_uri(face_svg(f))})}}"
        f".nessus-tray .nessus-die.held.face-{f}"
        f"{{background-image:url({_data_uri(face_svg(f, fill='#ffe3c2', stroke=HELD))})}}"
        for f in range(1, 7)
    )
    return (
        "<style>"
        f".nessus-tray .nessus-die.jupyter-button{{width:{DIE}px;height:{DIE}px;padding:0;margin:0;border:none;"
        "background-color:transparent;background-size:100% 100%;box-shadow:none;cursor:pointer;"
        "transition:transform .1s}"
        f".nessus-tray .nessus-die.held{{transform:translateY(-7px);filter:drop-shadow(0 3px 2px rgba(0,0,0,.3))}}"
        ".nessus-tray .nessus-die.jupyter-button:disabled{opacity:1;cursor:default}"
        ".nessus-tray .nessus-die.jupyter-button:hover,.nessus-tray .nessus-die.jupyter-button:focus"
        "{background-color:transparent;box-shadow:none;outline:none}"
        ".nessus-tray .nessus-die.jupyter-button:focus-visible{outline:2px dotted #4c78a8;outline-offset:2px}"
        f".nessus-tray .die-note,.nessus-tray .die-note .widget-html-content{{color:{HELD};font-weight:bold;"
        "font-size:12px;"
        "text-align:center;line-height:16px;height:16px;margin:0}"
        f"{faces}</style>"
    )


class DiceTray:
    """A row of dice you click to hold (or keep) and release; held dice are lifted, tinted
    orange and labelled. Locked dice are held for good (e.g. sticky holds); an inactive tray
    only shows the dice."""

    def __init__(self, size: int, word: str = "held", on_change: Callable[[], None] | None = None) -> None:
        self.word = word
        self.on_change = on_change
        self.faces: list[int] = []
        self.held: list[bool] = []
        self.locked: list[bool] = []
        self.active = False
        self.buttons: list[widgets.Button] = []
        self.notes: list[widgets.HTML] = []
        self.slots: list[widgets.VBox] = []
        for i in range(size):
            b = widgets.Button(description="", layout=widgets.Layout(width=f"{DIE}px", height=f"{DIE}px"))
            b.add_class("nessus-die")
            b.on_click(lambda _, i=i: self.click(i))
            note = widgets.HTML("", layout=widgets.Layout(margin="2px 0 0 0", height="16px"))
            note.add_class("die-note")
            self.buttons.append(b)
            self.notes.append(note)
            self.slots.append(
                widgets.VBox(
                    [b, note], layout=widgets.Layout(align_items="center", margin="10px 4px 0 4px", overflow="visible")
                )
            )
        self.empty = widgets.HTML()
        self.widget = widgets.HBox(
            [widgets.HTML(_tray_css()), *self.slots, self.empty],
            layout=widgets.Layout(min_height=f"{DIE + 30}px", align_items="flex-end", overflow="visible"),
        )
        self.widget.add_class("nessus-tray")
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
        self.empty.value = (
            f"<span style='color:#777;line-height:{DIE}px'>{html.escape(empty)}</span>" if not faces else ""
        )
        self._draw()

    def _draw(self) -> None:
        for i, (b, note, slot) in enumerate(zip(self.buttons, self.notes, self.slots)):
            if i >= len(self.faces):
                slot.layout.display = "none"
                continue
            slot.layout.display = None
            held = self.held[i]
            b._dom_classes = (
                "nessus-die",
                *self._classes(i),
                *(("held",) if held else ()),
                *(("locked",) if self.locked[i] else ()),
            )
            b.disabled = not self.active or self.locked[i]
            verb = "release" if held else "hold" if self.word == "held" else "keep"
            b.tooltip = self._describe(i) + (f": click to {verb} it" if not b.disabled else "")
            note.value = self.word if held else "&nbsp;"

    def _classes(self, i: int) -> tuple[str, ...]:
        """Die i's CSS classes besides `nessus-die`, `held` and `locked` (its face)."""
        return (f"face-{self.faces[i]}",)

    def _describe(self, i: int) -> str:
        """Die i in words, for its tooltip."""
        return f"die showing {self.faces[i]}"

    def click(self, i: int) -> None:
        """Hold or release die i (nothing for a locked die or an inactive tray)."""
        if not self.active or self.locked[i] or i >= len(self.faces):
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
    """Who plays: alone, or a game against machine players, with the number of players, your
    seat and how the machines play. CSS classes `<game>-mode`, `<game>-seat`, `<game>-machine`.

    `on_mode()` runs when the mode changes, `on_table()` when the players, seat or machine
    change (a new game is due); both go through `guard`, so a bad entry is a message.
    """

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
        self.mode.add_class(f"{game}-mode")
        self.players = ParamField(players, width="150px")
        narrow = {"description_width": "65px"}
        self.seat = widgets.Dropdown(
            options=[1], value=1, description="your seat", style=narrow, layout=widgets.Layout(width="130px")
        )
        self.seat.add_class(f"{game}-seat")
        self.machine = widgets.Dropdown(
            options=list(machines),
            value=machines[0],
            description="they play",
            style=narrow,
            layout=widgets.Layout(width="250px"),
        )
        self.machine.add_class(f"{game}-machine")
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


def move_buttons(roll: str, stop: str, new: str) -> tuple[widgets.Button, widgets.Button, widgets.Button]:
    """The Roll, Stop and New buttons (CSS classes roll-button, stop-button, new-button)."""
    buttons = (
        widgets.Button(description=roll, button_style="primary", icon="refresh"),
        widgets.Button(description=stop, button_style="success", icon="hand-paper-o"),
        widgets.Button(description=new),
    )
    for b, css in zip(buttons, ("roll-button", "stop-button", "new-button")):
        b.add_class(css)
    return buttons


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
        """The Roll, Stop and New buttons, each running its handler (a ValueError: a message)."""
        buttons = move_buttons(*labels)
        for b, handler in zip(buttons, handlers):
            b.on_click(self.guard(lambda _, handler=handler: handler()))
        self.actions = list(buttons)
        return buttons

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


def kind_of(unit: str) -> Kind:
    """A hint's values are probabilities when its unit says so ("probability", "P(win)")."""
    return "probability" if "prob" in unit.lower() or unit.startswith("P(") else "value"


def hint_table(
    hint: Hint,
    chosen: Hashable | None,
    label: Callable[[Hashable], str],
    fmt: Callable[[Fraction | int | float], str] | None = None,
    unit: str = "value",
    method: str = "exact",
) -> str:
    """Every legal action with its value (found by `method`: "exact", or e.g. "≈, value
    iteration"), best first: the optimal action highlighted, the player's `chosen` one marked,
    and what it costs against the best (`fmt` writes a value; by default the page's number format)."""
    if fmt is None:
        kind = kind_of(unit)

        def fmt(v: Fraction | int | float) -> str:
            return number_html(v, kind)

    best = hint.values[hint.best]
    order = sorted(hint.values.items(), key=lambda kv: -kv[1] if hint.maximise else kv[1])
    top = max((abs(Fraction(v)) for v in hint.values.values()), default=Fraction(0)) or 1
    rows = []
    for action, v in order:
        is_best, is_chosen = action == hint.best, action == chosen
        style = f"outline:2px dashed {HELD};outline-offset:-2px" if is_chosen else ""
        good = " good" if not is_best and hint.cost(action) == 0 else ""
        tag = "best" if is_best else "as good" if hint.cost(action) == 0 else ""
        mine = f"<span style='color:{HELD}'>◀ your choice</span>" if is_chosen else ""
        bar = (
            f"<span style='display:inline-block;height:9px;width:{max(1, round(70 * abs(float(v)) / float(top)))}px;"
            "background:#4c78a8'></span>"
        )
        rows.append(
            f"<tr class='hint-row{' best' if is_best else ''}{good}{' chosen' if is_chosen else ''}' style='{style}'>"
            f"<td>{label(action)}</td><td style='white-space:nowrap'>{fmt(v)}</td><td>{bar}</td>"
            f"<td style='white-space:nowrap;font-size:12px'>{tag} {mine}</td></tr>"
        )
    if chosen is None:
        verdict = ""
    elif chosen not in hint.values:
        verdict = (
            f"<div class='hint-verdict' style='color:#b00020'>Your choice ({label(chosen)}) is not allowed here.</div>"
        )
    elif hint.cost(chosen) == 0:
        verdict = f"<div class='hint-verdict' style='color:#2e7d32'>Your choice ({label(chosen)}) is optimal.</div>"
    else:
        verdict = (
            f"<div class='hint-verdict'>Your choice ({label(chosen)}) costs <b>{fmt(hint.cost(chosen))}</b> "
            f"of {html.escape(unit)} against the best.</div>"
        )
    return (
        f"<div class='hint-best' style='margin:2px 0'>Best: <b>{label(hint.best)}</b>, {html.escape(unit)} {fmt(best)}"
        f"</div>{verdict}"
        "<div class='nessus-wide' style='border:1px solid rgba(128,128,128,.35);margin-top:4px'>"
        "<table class='hint-table' cellpadding='3' style='border-collapse:collapse;width:100%;font-size:13px'>"
        f"<tr><th align='left'>action</th><th align='left'>{html.escape(unit)} ({html.escape(method)})</th><th></th>"
        "<th></th></tr>"
        f"{''.join(rows)}</table></div>"
    )


class HintPanel:
    """A Hint toggle and, when on, the hint table for the current choice (`offer`: what pressing
    Hint will show, in games with chances to show but no move to weigh)."""

    def __init__(self, offer: str = "the exact value of every move you can make") -> None:
        self.offer = offer
        self.toggle = widgets.ToggleButton(
            value=False, description="Hint", icon="lightbulb-o", tooltip="show the value of every move"
        )
        self.toggle.add_class("hint-toggle")
        self.widget = TableHTML(name="hint")
        self._compute: Callable[[], str] | None = None
        self._idle = ""
        self.toggle.observe(lambda _: self._draw(), names="value")

    def show(self, compute: Callable[[], str] | None, idle: str = "") -> None:
        """What the panel shows when on: `compute()` (called only then), or the `idle` text."""
        self._compute, self._idle = compute, idle
        self._draw()

    def _draw(self) -> None:
        if not self.toggle.value:
            self.widget.value = f"<small style='color:#666'>Press <b>Hint</b> to see {self.offer}.</small>"
        elif self._compute is None:
            self.widget.value = f"<div class='hint-panel'><small style='color:#666'>{self._idle}</small></div>"
        else:
            self.widget.value = f"<div class='hint-panel' style='max-width:620px'>{self._compute()}</div>"


def policy_frame(dists: dict[str, Dist], order: Sequence[Hashable], name: Callable[[Any], Any] = str) -> pl.DataFrame:
    """Two or more policies' exact distributions over the same outcomes, as one long frame:
    `value` (`name(outcome)`: its label, or a number for a numeric axis), `policy`,
    `probability`, `exact`."""
    rows: dict[str, list[Any]] = {"value": [], "policy": [], "probability": [], "exact": []}
    for policy, d in dists.items():
        for x in order:
            p = d[x] if x in d.outcomes else Fraction(0)
            rows["value"].append(name(x))
            rows["policy"].append(policy)
            rows["probability"].append(float(p))
            rows["exact"].append(number_text(p))
    return pl.DataFrame(rows)


def policy_bars(
    frame: pl.DataFrame, title: str | alt.Title, x_title: str, order: Sequence[str], width: int = 440, height: int = 210
) -> alt.Chart:
    """Side-by-side bars of each policy's probabilities (from `policy_frame`)."""
    policies = frame["policy"].unique(maintain_order=True).to_list()
    return (
        alt.Chart(frame, title=title)
        .mark_bar()
        .encode(
            x=alt.X("value:N", title=x_title, sort=list(order), axis=alt.Axis(labelAngle=0, labelOverlap=False)),
            xOffset=alt.XOffset("policy:N", sort=policies),
            y=alt.Y("probability:Q", title="probability"),
            color=alt.Color(
                "policy:N",
                sort=policies,
                scale=alt.Scale(range=[OPTIMAL, HEURISTIC]),
                legend=alt.Legend(orient="top", title=None),
            ),
            tooltip=["policy", "value", alt.Tooltip("probability:Q", format=d3_format("probability")), "exact"],
        )
        .properties(width=width, height=height)
    )


def probability_bars(
    frame: pl.DataFrame, title: str | alt.Title, x_title: str, order: Sequence[str], width: int = 440, height: int = 150
) -> alt.LayerChart:
    """Bars of one exact distribution (`value`, `probability`, `exact`) labelled with their values."""
    base = alt.Chart(frame, title=title).encode(
        x=alt.X("value:N", title=x_title, sort=list(order), axis=alt.Axis(labelAngle=0))
    )
    bars = base.mark_bar(color=OPTIMAL).encode(
        y=alt.Y("probability:Q", title="probability"),
        tooltip=["value", alt.Tooltip("probability:Q", format=d3_format("probability")), "exact"],
    )
    text = base.mark_text(dy=-6, fontSize=11, color="#333").encode(
        y="probability:Q", text=alt.Text("probability:Q", format=d3_format("probability"))
    )
    return alt.layer(bars, text).properties(width=width, height=height)
