"""What a student reads on a page: plain words and one number format.

Every dashboard is built in this process (its notebook's first cell, as Voila runs it), then
its widgets are walked: every text a student can see (HTML text and title attributes, labels,
button and menu words, tooltips) and every chart's titles, axis and legend titles, tooltip
labels and number formats. No identifier with an underscore (a figure key such as `p_sink_next`
or a policy key such as `random_legal`) may show, and every d3 number format a chart gives vega
must be one of `nessus.numbers.D3_FORMATS` (the page's one number format, never `.10f` or a
scientific `.1g`)."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from html.parser import HTMLParser
from typing import Any

import ipywidgets as widgets
import nbformat
import pytest

from nessus import games, paths
from nessus.charts import VEGALITE
from nessus.numbers import D3_FORMATS

IDENTIFIER = re.compile(r"\b[A-Za-z][A-Za-z0-9]*_[A-Za-z0-9_]*[A-Za-z0-9]\b")
DASHBOARDS = [pytest.param(g.dashboard, id=g.dashboard.removesuffix(".ipynb")) for g in games.with_dashboards()]


class _Visible(HTMLParser):
    """The text of an HTML fragment a browser shows, with the title attributes (tooltips),
    leaving out style and script elements."""

    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []
        self._hidden = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("style", "script"):
            self._hidden += 1
        self.parts.extend(v for k, v in attrs if k in ("title", "aria-label", "placeholder") and v)

    def handle_endtag(self, tag: str) -> None:
        if tag in ("style", "script"):
            self._hidden = max(0, self._hidden - 1)

    def handle_data(self, data: str) -> None:
        if not self._hidden:
            self.parts.append(data)


def html_text(fragment: str) -> str:
    parser = _Visible()
    parser.feed(fragment)
    return " ".join(parser.parts)


def build(notebook: str) -> widgets.Widget:
    """The page's widget, built the way its dashboard notebook builds it (first cell)."""
    nb = nbformat.read(paths.DASHBOARDS / notebook, as_version=4)
    source = next(c.source for c in nb.cells if c.cell_type == "code")
    tree = ast.parse(source)
    last = tree.body.pop()
    assert isinstance(last, ast.Expr), "the first cell ends with the page's widget"
    scope: dict[str, Any] = {}
    exec(compile(tree, notebook, "exec"), scope)
    return eval(compile(ast.Expression(last.value), notebook, "eval"), scope)


def walk(widget: Any) -> Iterator[Any]:
    yield widget
    for child in getattr(widget, "children", ()):
        yield from walk(child)


def widget_texts(widget: Any) -> Iterator[str]:
    """What a student reads on one widget (not inside its charts)."""
    if isinstance(widget, (widgets.HTML, widgets.HTMLMath)):
        yield html_text(widget.value)
    elif isinstance(widget, widgets.Label):
        yield widget.value
    for attr in ("description", "tooltip", "placeholder"):
        value = getattr(widget, attr, None)
        if isinstance(value, str):
            yield html_text(value) if "<" in value else value
    yield from getattr(widget, "_options_labels", ())
    yield from (t for t in getattr(widget, "tooltips", None) or () if t)
    yield from (t for t in getattr(widget, "titles", None) or () if t)
    if isinstance(widget, widgets.Output):
        for out in widget.outputs:
            data = out.get("data", {})
            if "text/html" in data:
                yield html_text(data["text/html"])


def chart_specs(widget: Any) -> Iterator[dict]:
    for w in walk(widget):
        if isinstance(w, widgets.Output):
            for out in w.outputs:
                spec = out.get("data", {}).get(VEGALITE)
                if spec:
                    yield spec


def chart_words(spec: Any, key: str = "") -> Iterator[str]:
    """A chart's visible words: titles, axis and legend titles (an encoding's field name when it
    has no title), tooltip labels, and text marks' constant text."""
    if isinstance(spec, dict):
        if "field" in spec and key in ENCODINGS:
            title = spec.get("title", spec["field"])
            if title is not None:
                yield from chart_words(title)
        for k, v in spec.items():
            if k in ("title", "subtitle", "text") and not isinstance(v, dict):
                yield from chart_words(v)
            elif k not in ("datasets", "data", "$schema", "config", "params", "transform"):
                yield from chart_words(v, k)
    elif isinstance(spec, list):
        for v in spec:
            yield from chart_words(v, key)
    elif isinstance(spec, str) and key in ("title", "subtitle", "text", ""):
        yield spec


ENCODINGS = {"x", "y", "x2", "y2", "color", "size", "shape", "opacity", "tooltip", "theta", "row", "column", "facet"}


def formats(spec: Any) -> Iterator[str]:
    """Every d3 number format in a chart spec (axes, legends, tooltips, text marks)."""
    if isinstance(spec, dict):
        for k, v in spec.items():
            if k == "format" and isinstance(v, str) and spec.get("formatType") != "time":
                yield v
            elif k not in ("datasets", "data"):
                yield from formats(v)
    elif isinstance(spec, list):
        for v in spec:
            yield from formats(v)


@pytest.fixture(scope="module", params=DASHBOARDS)
def page(request) -> widgets.Widget:
    return build(request.param)


def test_the_page_shows_plain_words_only(page):
    texts = [t for w in walk(page) for t in widget_texts(w)]
    texts += [t for spec in chart_specs(page) for t in chart_words(spec)]
    assert texts, "the page shows some text"
    shown = sorted({m for t in texts for m in IDENTIFIER.findall(t)})
    assert shown == []


def test_the_page_charts_use_the_one_number_format(page):
    specs = list(chart_specs(page))
    odd = sorted({f for spec in specs for f in formats(spec) if f not in D3_FORMATS.values()})
    assert odd == []


def test_the_scan_catches_what_it_must():
    """The scan is not blind: an underscore name in a tooltip label or a menu, and a .10f
    axis, are found."""
    chart = {"encoding": {"tooltip": [{"field": "win_share", "type": "quantitative", "format": ".10f"}]}}
    assert list(chart_words(chart)) == ["win_share"] and list(formats(chart)) == [".10f"]
    menu = widgets.Dropdown(options=[("random", "random_legal"), ("swap_against_competitor", "swap")])
    assert [m for t in widget_texts(menu) for m in IDENTIFIER.findall(t)] == ["swap_against_competitor"]
    html = widgets.HTML("<style>.nyx_log{}</style><span title='p_sink_next'>odds</span>")
    assert [m for t in widget_texts(html) for m in IDENTIFIER.findall(t)] == ["p_sink_next"]
