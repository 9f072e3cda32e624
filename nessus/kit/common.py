"""Widgets shared by the dashboards: validated parameter fields, dice, messages, chart panes,
tables with their CSV downloads, and a worker thread for the latest job."""

from __future__ import annotations

import base64
import csv
import functools
import html
import io
import re
from collections.abc import Callable, Iterable, Sequence
from html.parser import HTMLParser

import altair as alt
import ipywidgets as widgets
from traitlets import validate

from nessus import charts
from nessus.rules import Param

PIPS = {
    1: [(1, 1)],
    2: [(0, 0), (2, 2)],
    3: [(0, 0), (1, 1), (2, 2)],
    4: [(0, 0), (0, 2), (2, 0), (2, 2)],
    5: [(0, 0), (0, 2), (1, 1), (2, 0), (2, 2)],
    6: [(0, 0), (0, 2), (1, 0), (1, 2), (2, 0), (2, 2)],
}


DIE = 54  # a die's size in the tray
EMBED = {"renderer": "svg", "actions": {"export": True, "source": False, "compiled": False, "editor": False}}


def setup() -> None:
    """Render altair charts with the vega bundled in Jupyter/Voila, offline, as SVG, with a menu
    to save them as SVG or PNG."""
    alt.renderers.enable("mimetype", embed_options=EMBED)


def face_svg(
    face: int,
    size: int = DIE,
    fill: str = "#ffffff",
    pip: str = "#222222",
    stroke: str = "#333333",
    edge: int = 2,
    attrs: str = "",
) -> str:
    """One die face as SVG (any colours; `edge`: the margin of its outline; `attrs`: the svg's own)."""
    step = size / 4
    dots = "".join(
        f'<circle cx="{step * (c + 1):.1f}" cy="{step * (r + 1):.1f}" r="{size / 11:.1f}" fill="{pip}"/>'
        for r, c in PIPS[face]
    )
    return (
        f'<svg{attrs} xmlns="http://www.w3.org/2000/svg" width="{size}" height="{size}" viewBox="0 0 {size} {size}">'
        f'<rect x="{edge}" y="{edge}" width="{size - 2 * edge}" height="{size - 2 * edge}" rx="{size / 6:.1f}" '
        f'fill="{fill}" stroke="{stroke}" stroke-width="2"/>{dots}</svg>'
    )


def svg_url(svg: str) -> str:
    """An SVG image as a CSS `url(...)` (a data: URL: offline)."""
    return "url(data:image/svg+xml;base64," + base64.b64encode(svg.encode()).decode() + ")"


def mini_dice(faces: Sequence[int], size: int = 20, held: bool = False) -> str:
    """A row of small dice, inline in a sentence or a table cell: a bare span each, drawn by the
    page's stylesheet (`MINI_DICE_CSS`, in the kit's CSS), where an SVG each made a hint table of
    thirty rows some fifty kilobytes and a thousand elements to lay out."""
    held_class = " held" if held else ""
    return "".join(
        f'<span class="mini-die f{f}{held_class}" data-face="{f}" title="{f}" style="width:{size}px;height:{size}px">'
        "</span>"
        for f in faces
    )


MINI_DICE_CSS = ".mini-die{display:inline-block;vertical-align:middle;margin-right:2px;background-size:100%}"
MINI_DICE_CSS += "".join(
    f".mini-die.f{f}{{background-image:{svg_url(face_svg(f, 20))}}}"
    f".mini-die.held.f{f}{{background-image:{svg_url(face_svg(f, 20, '#ffe3c2'))}}}"
    for f in range(1, 7)
)
"""The small dice's faces, white or (held) tinted."""


def die_svg(face: int, size: int = 46, stuck: bool = False) -> str:
    """One die (`svg.die`) as SVG: white with black pips, or mud-brown when stuck."""
    fill, pip = ("#8d6e4c", "#f3e9dc") if stuck else ("#ffffff", "#222222")
    attrs = f' class="die" data-face="{face}" role="img" aria-label="die showing {face}"'
    return face_svg(face, size, fill, pip, "#333", edge=1, attrs=attrs)


def dice_html(faces: tuple[int, ...], stuck: bool = False, empty: str = "") -> str:
    """A row of dice (or the `empty` text when there are none)."""
    if not faces:
        return f'<span style="color:#777">{html.escape(empty)}</span>'
    return '<span style="display:inline-flex;gap:6px">' + "".join(die_svg(f, stuck=stuck) for f in faces) + "</span>"


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
        self.widget.value = (
            f'<div class="nessus-error" style="color:#b00020;font-weight:bold">⚠ {html.escape(text)}</div>'
        )

    def clear(self) -> None:
        self.widget.value = ""

    def guard(self, handler: Callable) -> Callable:
        """Wrap a widget callback: a ValueError becomes a message in the page."""

        @functools.wraps(handler)
        def wrapped(*args, **kwargs):
            try:
                return handler(*args, **kwargs)
            except ValueError as e:
                self.error(str(e))
                return None

        return wrapped


class ChartPane:
    """An Output widget holding one altair chart, redrawn in place, with a link to its data as CSV.
    The chart is set in the widget's `outputs` (synced as widget state, from any thread), not
    captured with `with widget:`, which now and then left a page's charts empty."""

    widget_charts = False
    """Draw into an altair JupyterChart (vega bundled, offline) instead: Solara shows no vega
    outputs (set by `nessus.solara_app.use_chart_widgets`)."""

    def __init__(self, min_height: str = "300px", name: str = "chart") -> None:
        self.name = name
        layout = widgets.Layout(min_height=min_height, width="100%", max_width="100%")
        if self.widget_charts:
            from altair.jupyter.jupyter_chart import JupyterChart

            self.chart = JupyterChart(None, embed_options=EMBED)  # type: ignore[arg-type]  # no chart yet
            self.output = widgets.VBox([self.chart], layout=layout)
            self.output.add_class("widget-output")
        else:
            self.output = widgets.Output(layout=layout)
        self.download = widgets.HTML()
        self.widget = widgets.VBox([self.output, self.download], layout=widgets.Layout(max_width="100%"))
        self.widget.add_class("nessus-chart")

    def show(self, chart: alt.TopLevelMixin) -> None:
        """Replace the pane's chart (from any thread); not validated (the schema costs 15 MiB)."""
        spec, width, rows = charts.drawn(chart, container=not self.widget_charts)
        if width and self.output.layout.max_width != f"{width + 90}px":
            self.output.layout.max_width = f"{width + 90}px"
        if self.widget_charts:
            self.chart.spec = spec
        else:
            data = {charts.VEGALITE: spec, "text/plain": "<VegaLite 5 chart>"}
            metadata = {charts.VEGALITE: {"embed_options": EMBED}}
            self.output.outputs = ({"output_type": "display_data", "data": data, "metadata": metadata},)
        self.output.layout.min_height = None  # keeps room before the first chart; a narrow page draws it smaller
        self.download.value = csv_link(records_csv(rows), f"{self.name}.csv", "the chart's data (CSV)") if rows else ""


def csv_text(rows: Iterable[Iterable[object]]) -> str:
    """Rows of cells as CSV text."""
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerows(rows)
    return out.getvalue()


def records_csv(rows: list[dict]) -> str:
    """Records (dicts with the same keys) as CSV text."""
    keys = list(rows[0])
    return csv_text([keys, *([r.get(k, "") for k in keys] for r in rows)])


def csv_link(text: str, filename: str, label: str = "CSV") -> str:
    """A link that downloads `text` as a CSV file (a data: URL: offline)."""
    href = "data:text/csv;base64," + base64.b64encode(text.encode()).decode()
    return (
        f"<a class='nessus-csv' download='{html.escape(filename)}' href='{href}' target='_self'>"
        f"⬇ {html.escape(label)}</a>"
    )


class _TableText(HTMLParser):
    """The cells of an HTML page's tables as text; a number (`span.num`) as its exact value."""

    def __init__(self) -> None:
        super().__init__()
        self.tables: list[list[list[str]]] = []
        self._cell: list[str] | None = None
        self._skip = 0  # inside a number: its tags' depth

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if self._skip:
            self._skip += tag not in VOID
            return
        if tag == "table":
            self.tables.append([])
        elif tag == "tr" and self.tables:
            self.tables[-1].append([])
        elif tag in ("td", "th") and self.tables and self.tables[-1]:
            self._cell = []
        elif tag == "span" and "num" in (a.get("class") or "").split() and self._cell is not None:
            self._cell.append(a.get("data-csv") or "")
            self._skip = 1
        elif tag == "br" and self._cell is not None:
            self._cell.append(" ")

    def handle_endtag(self, tag: str) -> None:
        if self._skip:
            self._skip -= tag not in VOID
            return
        if tag in ("td", "th") and self._cell is not None:
            self.tables[-1][-1].append(re.sub(r"\s+", " ", "".join(self._cell)).strip())
            self._cell = None

    def handle_data(self, data: str) -> None:
        if self._cell is not None and not self._skip:
            self._cell.append(data)


VOID = {"br", "img", "input", "hr", "meta", "link", "wbr", "col", "source"}


def tables_csv(page: str) -> list[str]:
    """Each HTML table in `page` as CSV text (numbers exact: "1/36")."""
    parser = _TableText()
    parser.feed(page)
    return [csv_text(r for r in rows if r) for rows in parser.tables]


class TableHTML(widgets.HTML):
    """An HTML widget whose tables each get a link to download them as CSV."""

    def __init__(self, name: str = "table", **kwargs) -> None:
        self.csv_name = name
        super().__init__(**kwargs)

    @validate("value")
    def _with_links(self, proposal) -> str:
        value = proposal["value"]
        if "<table" not in value or "nessus-csv" in value:
            return value
        tables = tables_csv(value)
        names = (
            [("", "this table")] if len(tables) == 1 else [(f"-{i}", f"table {i}") for i in range(1, len(tables) + 1)]
        )
        links = "".join(
            csv_link(t, f"{self.csv_name}{end}.csv", f"{what} (CSV)") for t, (end, what) in zip(tables, names)
        )
        return f"{value}<div class='nessus-downloads'>{links}</div>"
