"""The dashboard base every game's page builds on (`Dashboard`): the page's frame (links to the
gallery and the lesson, the number-format switch, projector mode), two columns that stack on a
phone, one stylesheet (dark theme included), messages, and parameter fields whose bad values
disable the actions they feed."""

from __future__ import annotations

import functools
import html
import os
import threading
import time
from collections.abc import Callable, Sequence
from contextvars import ContextVar
from urllib.parse import parse_qs

import ipywidgets as widgets
import numpy as np

from nessus import paths
from nessus.game import Game
from nessus.kit.common import MINI_DICE_CSS, ChartPane, Messages, ParamField, setup
from nessus.numbers import MODES, Mode
from nessus.rules import Param

FORMATS = (("fractions", "fraction"), ("decimals", "decimal"), ("percentages", "percent"))
LESSON_URL = "../../lessons/{lesson}.html"  # `nessus publish` writes site/<lesson>.html, served under /lessons/

_DARK = 'body[data-jp-theme-light="false"] .nessus-dash'
CSS = (
    "<style>"
    ".nessus-dash{max-width:100%;box-sizing:border-box;color:var(--jp-ui-font-color1)}"
    # Solara's page shell is a flex row whose item would grow to the page's widest content once
    # drawn wide: a phone then scrolled sideways after a resize
    ".v-application{min-width:0}"
    ".nessus-dash .widget-hbox{flex-wrap:wrap}"
    ".nessus-dash .nessus-columns{flex-wrap:wrap;gap:4px 12px;align-items:flex-start}"
    ".nessus-dash .nessus-columns>.widget-vbox{max-width:100%;min-width:0!important;box-sizing:border-box}"
    ".nessus-dash .nessus-columns>.nessus-right{flex:1 1 420px}"
    ".nessus-dash .widget-output,.nessus-dash .vega-embed{max-width:100%}"
    ".nessus-dash .vega-embed svg.marks{max-width:100%;height:auto}"
    ".nessus-dash .nessus-chart{width:100%}.nessus-dash .nessus-chart .vega-embed{width:100%;box-sizing:border-box}"
    ".nessus-dash .widget-html-content{max-width:100%;line-height:1.45;overflow-x:auto}"
    ".nessus-dash .widget-hbox>.widget-html>.widget-html-content{line-height:var(--jp-widgets-inline-height)}"
    ".nessus-dash .widget-text,.nessus-dash .widget-slider,.nessus-dash .widget-dropdown{max-width:100%}"
    ".nessus-dash table{max-width:100%}"
    ".nessus-dash .nessus-wide{overflow-x:auto;max-width:100%}"
    ".nessus-dash .num>span{display:none}"
    ".nessus-dash.fmt-fraction .num>.nf,.nessus-dash.fmt-decimal .num>.nd,"
    ".nessus-dash.fmt-percent .num>.np{display:inline}"
    ".nessus-dash details.nessus-exact{display:inline-block;vertical-align:baseline}"
    ".nessus-dash details.nessus-exact>summary{display:inline;cursor:pointer;text-decoration:underline dotted}"
    ".nessus-dash details.nessus-exact>summary::after{content:' ▸';font-size:80%}"
    ".nessus-dash details.nessus-exact[open]>summary::after{content:' ▾'}"
    ".nessus-dash details.nessus-exact>code{display:block;word-break:break-all;max-width:32em;font-size:11px}"
    ".nessus-dash .number-format .widget-toggle-button{padding:0 10px;min-width:64px}"
    ".nessus-dash .projector-toggle{width:auto;padding:0 12px}"
    ".nessus-dash .widget-button.roll-button,.nessus-dash .widget-button.stop-button,"
    ".nessus-dash .widget-button.new-button"
    "{width:auto;min-width:120px;max-width:100%;padding:0 12px;overflow:visible}"
    ".nessus-dash .nessus-bar{display:flex;flex-wrap:wrap;gap:4px 16px;align-items:center;font-size:13px}"
    ".nessus-dash .nessus-bar a,.nessus-dash a.nessus-csv{color:var(--jp-content-link-color,#1976d2)}"
    ".nessus-dash a.nessus-csv{font-size:12px;margin-right:10px}"
    ".nessus-dash .nessus-lead{margin:4px 0 2px;color:var(--jp-ui-font-color2)}"
    ".nessus-dash.projector{zoom:1.35}"
    ".nessus-dash .hint-row.best{background:rgba(92,184,92,.22);font-weight:bold}"
    ".nessus-dash .hint-row.good{background:rgba(92,184,92,.10)}"
    ".nessus-dash .hint-table th{background:rgba(128,128,128,.12)}"
    # dark theme: charts on a transparent background with light text, no light boxes under light text
    f"{_DARK} .vega-embed svg text{{fill:var(--jp-ui-font-color1)}}"
    f"{_DARK} .vega-embed svg .role-axis-domain path,{_DARK} .vega-embed svg .role-axis-tick path{{stroke:#aaa}}"
    f"{_DARK} .vega-embed svg .role-axis-grid path{{stroke:#444}}"
    f"{_DARK} .vega-embed svg rect.background,{_DARK} .vega-embed svg>rect:first-child{{fill:transparent}}"
    f"{_DARK} .vega-embed{{background:transparent}}"
    + ",".join(f"{_DARK} [style*='background:#{c}']" for c in "fed")
    + "{background:rgba(128,128,128,.2)!important}"
    + ",".join(f"{_DARK} [style*='color:#{c}']" for c in "01234567")
    + "{color:var(--jp-ui-font-color2)!important}"
    f"{_DARK} [style*='color:#2e7d32']{{color:#81c784!important}}"
    f"{_DARK} .nessus-error{{color:#ff8a80!important}}"
    "@media (max-width:600px){.nessus-dash h2{font-size:1.3em}"
    ".nessus-dash .nessus-columns>.widget-vbox{width:100%!important}}" + MINI_DICE_CSS + "</style>"
)


PAGE_QUERY: ContextVar[dict[str, str] | None] = ContextVar("PAGE_QUERY", default=None)
"""The query of the page being built, where one process builds many (set by nessus.solara_app)."""


def query() -> dict[str, str] | None:
    """The page's URL query, or None before a page has asked for this kernel (Voila sets
    QUERY_STRING at start, or in a preheated kernel once a page asks for it; Solara, PAGE_QUERY)."""
    if (asked := PAGE_QUERY.get()) is not None:
        return asked
    text = os.environ.get("QUERY_STRING")
    return None if text is None else {k: v[-1] for k, v in parse_qs(text).items()}


def when_asked(apply: Callable[[dict[str, str]], None]) -> None:
    """Call `apply(query)` once the page's query is known: at once, or from a thread watching for
    it, however long a preheated kernel waits in its pool."""
    q = query()
    if q is not None:
        apply(q)
        return

    def watch() -> None:
        while (q := query()) is None:
            time.sleep(0.2)
        apply(q)

    threading.Thread(target=watch, name="nessus-query", daemon=True).start()


class Dashboard:
    """A game's page: subclasses set `game` (the game's record: its dashboard notebook, title
    and lesson) and `sentence` (HTML), build their widgets in `__init__` after calling
    `super().__init__(seed)`, then call `page()`."""

    game: Game
    sentence = ""

    @property
    def slug(self) -> str:
        """The page's name: its dashboard notebook's, without .ipynb."""
        return (self.game.dashboard or "").removesuffix(".ipynb")

    @property
    def title(self) -> str:
        """The page's title."""
        return self.game.page_title

    def __init__(self, seed: int | None = None) -> None:
        setup()
        self.rng = np.random.default_rng(seed)
        self.messages = Messages()
        self.actions: list[widgets.Button] = []
        self._blocked: list[widgets.Button] = []
        self.number_format = widgets.ToggleButtons(
            options=FORMATS,
            value="fraction",
            tooltips=["exact fractions, with their decimals", "decimals", "percentages"],
            style={"button_width": "auto"},
        )
        self.number_format.add_class("number-format")
        self.projector = widgets.ToggleButton(
            value=False,
            description="Projector",
            icon="television",
            tooltip="larger type for a projector (or ?projector=1 in the address)",
        )
        self.projector.add_class("projector-toggle")
        self.view = widgets.VBox()
        self.view.add_class("nessus-dash")
        self.number_format.observe(lambda _: self._restyle(), names="value")
        self.projector.observe(lambda _: self._restyle(), names="value")
        self._restyle()
        when_asked(self.read_query)

    def read_query(self, q: dict[str, str]) -> None:
        """Settings from the page's address: ?projector=1, ?numbers=decimal|percent."""
        if q.get("projector", "0").lower() not in ("0", "", "false", "no"):
            self.projector.value = True
        if q.get("numbers") in MODES:
            self.number_format.value = q["numbers"]

    # -- widgets ---------------------------------------------------------------------------------
    def param_field(self, param: Param, width: str = "220px") -> ParamField:
        """A text box for a rules parameter."""
        return ParamField(param, width)

    def chart_pane(self, min_height: str = "300px", name: str = "chart") -> ChartPane:
        """A chart pane (SVG/PNG from the chart's menu, its data as CSV under it)."""
        return ChartPane(min_height, f"{self.slug}-{name}")

    def guard(self, handler: Callable) -> Callable:
        """Wrap an action's callback: a ValueError becomes a message in the page."""
        return self.messages.guard(handler)

    def button(self, description: str, click: Callable[[], object], css: str, **kwargs) -> widgets.Button:
        """A button with these CSS classes (space-separated) running `click` (a ValueError: a message)."""
        button = widgets.Button(description=description, _dom_classes=css.split(), **kwargs)
        button.on_click(self.guard(lambda _: click()))
        return button

    def rules_guard(self, handler: Callable) -> Callable:
        """Wrap the callback of a control the rules come from: a ValueError becomes a message and
        disables `self.actions` until a later change goes through."""

        @functools.wraps(handler)
        def wrapped(*args, **kwargs):
            for b in self._blocked:
                b.disabled = False
            self._blocked = []
            try:
                return handler(*args, **kwargs)
            except ValueError as e:
                self.messages.error(str(e))
                self._blocked = [b for b in self.actions if not b.disabled]
                for b in self._blocked:
                    b.disabled = True
                return None

        return wrapped

    @property
    def blocked(self) -> bool:
        """True while a bad value has disabled the actions."""
        return bool(self._blocked)

    # -- the page --------------------------------------------------------------------------------
    def links_html(self) -> str:
        """Back to the gallery, and the lesson behind the game."""
        lesson = self.game.lesson
        out = f"<a class='gallery-link' href='{paths.GALLERY}' target='_self'>← All games</a>"
        if lesson:
            number = lesson.split("-", 1)[0].lstrip("0")
            out += (
                f"<a class='lesson-link' href='{LESSON_URL.format(lesson=lesson)}' target='_blank'>"
                f"Lesson {html.escape(number)}: {html.escape(self.title)}</a>"
            )
        return f"<div class='nessus-bar'>{out}</div>"

    def page(
        self,
        left: Sequence[widgets.Widget],
        right: Sequence[widgets.Widget],
        below: Sequence[widgets.Widget] = (),
        left_width: str = "360px",
    ) -> widgets.VBox:
        """Lay out the page: the header, the controls (left) and the pictures (right) side by
        side on a wide screen and stacked on a narrow one, then `below`."""
        lhs = widgets.VBox(list(left), layout=widgets.Layout(padding="6px", width=left_width, flex="0 1 auto"))
        lhs.add_class("nessus-left")
        rhs = widgets.VBox(list(right), layout=widgets.Layout(padding="6px"))
        rhs.add_class("nessus-right")
        columns = widgets.HBox([lhs, rhs])
        columns.add_class("nessus-columns")
        bar = widgets.HBox(
            [widgets.HTML(self.links_html()), self.number_format, self.projector],
            layout=widgets.Layout(align_items="center"),
        )
        bar.add_class("nessus-top")
        head = widgets.HTML(
            f"<h2 style='margin:4px 0 0'>{html.escape(self.title)}</h2><p class='nessus-lead'>{self.sentence}</p>"
        )
        self.view.children = [widgets.HTML(CSS), bar, head, columns, *below]
        return self.view

    def _restyle(self) -> None:
        """The page's classes: the number format shown, projector mode."""
        mode: Mode = self.number_format.value if self.number_format.value in MODES else "fraction"
        classes = ["nessus-dash", f"fmt-{mode}", f"nessus-{self.slug or 'page'}"]
        if self.projector.value:
            classes.append("projector")
        self.view._dom_classes = tuple(classes)
