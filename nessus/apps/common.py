"""Widgets shared by the dashboards: validated parameter fields, dice, messages, chart panes."""

from __future__ import annotations

import functools
import html
import threading
import traceback
from collections.abc import Callable
from fractions import Fraction

import altair as alt
import ipywidgets as widgets
import scipy.stats  # noqa: F401 - confidence intervals; imported while a preheated kernel waits
from IPython.core.interactiveshell import InteractiveShell

from nessus.dist import exact_str
from nessus.rules import Param

PIPS = {
    1: [(1, 1)],
    2: [(0, 0), (2, 2)],
    3: [(0, 0), (1, 1), (2, 2)],
    4: [(0, 0), (0, 2), (2, 0), (2, 2)],
    5: [(0, 0), (0, 2), (1, 1), (2, 0), (2, 2)],
    6: [(0, 0), (0, 2), (1, 0), (1, 2), (2, 0), (2, 2)],
}


def setup() -> None:
    """Render altair charts with the vega bundled in Jupyter/Voila, offline, as SVG."""
    alt.renderers.enable("mimetype", embed_options={"renderer": "svg", "actions": False})


def die_svg(face: int, size: int = 46, stuck: bool = False) -> str:
    """One die drawn as SVG: white with black pips, or mud-brown when stuck."""
    fill, pip = ("#8d6e4c", "#f3e9dc") if stuck else ("#ffffff", "#222222")
    step = size / 4
    dots = "".join(
        f'<circle cx="{step * (c + 1):.1f}" cy="{step * (r + 1):.1f}" r="{size / 11:.1f}" fill="{pip}"/>'
        for r, c in PIPS[face]
    )
    return (
        f'<svg class="die" data-face="{face}" width="{size}" height="{size}" viewBox="0 0 {size} {size}" role="img" aria-label="die showing {face}">'
        f'<rect x="1" y="1" width="{size - 2}" height="{size - 2}" rx="{size / 6:.1f}" fill="{fill}" stroke="#333" stroke-width="2"/>{dots}</svg>'
    )


def dice_html(faces: tuple[int, ...], stuck: bool = False, empty: str = "") -> str:
    """A row of dice (or the `empty` text when there are none)."""
    if not faces:
        return f'<span style="color:#777">{html.escape(empty)}</span>'
    return '<span style="display:inline-flex;gap:6px">' + "".join(die_svg(f, stuck=stuck) for f in faces) + "</span>"


def fraction_html(p: Fraction, digits: int = 6) -> str:
    """An exact fraction with its decimal value; a long one named by its size, the fraction
    itself shown when the mouse is over it."""
    text = exact_str(p)
    if len(text) <= 24:
        return f"<code>{html.escape(text)}</code> ≈ {float(p):.{digits}g}"
    size = len(text.partition("/")[2])
    return (f"<code title='{text}' style='cursor:help'>(a fraction of {size}-digit denominator)</code> "
            f"≈ {float(p):.{digits}g}")


def exact_html(v: Fraction | int, digits: int = 6) -> str:
    """An exact value: a whole number as it is, a short fraction with its decimal value, a long
    one as its decimal value with the fraction itself on hover."""
    v = Fraction(v)
    if v.denominator == 1:
        return f"<code>{v.numerator}</code>"
    text = exact_str(v)
    if len(text) <= 24:
        return fraction_html(v, digits)
    return (f"<span class='exact' title='exact: {text}' style='border-bottom:1px dotted #666;cursor:help'>"
            f"≈ {float(v):.{digits}f}</span>")


class ParamField:
    """A text box for one rules parameter, parsed and checked by the Param itself."""

    def __init__(self, param: Param, width: str = "220px") -> None:
        self.param = param
        self.widget = widgets.Text(
            value=str(param.default),
            description=param.name,
            placeholder=f"{param.lo} to {param.hi}",
            tooltip=param.help,
            continuous_update=False,
            layout=widgets.Layout(width=width),
            style={"description_width": "70px"},
        )

    def value(self):
        """The parsed value, or a ValueError naming the parameter and its range."""
        return self.param.parse(self.widget.value)


class Messages:
    """A line in the page for problems with what the user typed (never a traceback)."""

    def __init__(self) -> None:
        self.widget = widgets.HTML(value="")

    def error(self, text: str) -> None:
        self.widget.value = f'<div class="nessus-error" style="color:#b00020;font-weight:bold">⚠ {html.escape(text)}</div>'

    def clear(self) -> None:
        self.widget.value = ""

    def guard(self, handler: Callable) -> Callable:
        """Wrap a widget callback: a ValueError becomes a message in the page."""

        @functools.wraps(handler)
        def wrapped(*args, **kwargs):
            try:
                result = handler(*args, **kwargs)
            except ValueError as e:
                self.error(str(e))
                return None
            return result

        return wrapped


class ChartPane:
    """An Output widget holding one altair chart, redrawn in place.

    The chart is put in the widget's `outputs` directly, not captured with `with widget:`:
    capture relies on the notebook runner routing each display message into the widget (Voila's
    nbclient, while the dashboard runs), which now and then left a page's charts empty, and it
    only works from the kernel's main thread. Setting the trait syncs the chart as widget state,
    from any thread."""

    def __init__(self, min_height: str = "300px") -> None:
        self.widget = widgets.Output(layout=widgets.Layout(min_height=min_height))

    def show(self, chart: alt.TopLevelMixin) -> None:
        """Replace the pane's chart (callable from any thread)."""
        data, metadata = InteractiveShell.instance().display_formatter.format(chart)
        self.widget.outputs = ({"output_type": "display_data", "data": data, "metadata": metadata},)


class LatestJob:
    """One daemon thread running submitted jobs one at a time; a job still waiting when a newer
    one is submitted is dropped (only the latest state of the page matters). Jobs report their
    own failures; anything escaping one is printed and the thread carries on. `idle` is set
    while no job runs or waits."""

    def __init__(self, name: str) -> None:
        self.name = name
        self._waiting = threading.Condition()
        self._job: Callable[[], None] | None = None
        self._thread: threading.Thread | None = None
        self.idle = threading.Event()
        self.idle.set()

    def submit(self, job: Callable[[], None]) -> None:
        """Run `job` next (replacing a job not started yet); starts the thread on first use."""
        with self._waiting:
            self._job = job
            self.idle.clear()
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name=self.name, daemon=True)
                self._thread.start()
            self._waiting.notify()

    def _run(self) -> None:
        while True:
            with self._waiting:
                while self._job is None:
                    self.idle.set()
                    self._waiting.wait()
                job, self._job = self._job, None
            try:
                job()
            except Exception:
                traceback.print_exc()

def header(title: str, sentence: str) -> widgets.HTML:
    """The dashboard's title and the one sentence that says what the page shows."""
    return widgets.HTML(f"<h2 style='margin-bottom:0'>{html.escape(title)}</h2><p style='margin-top:4px;color:#444'>{sentence}</p>")


def panel(*children: widgets.Widget, width: str | None = None) -> widgets.VBox:
    """A vertical group of widgets with a little padding."""
    if width:
        layout = widgets.Layout(padding="6px", width=width, min_width=width, flex="0 0 auto")
    else:
        layout = widgets.Layout(padding="6px", flex="1 1 auto")
    return widgets.VBox(list(children), layout=layout)
