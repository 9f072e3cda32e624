"""Altair charts of distributions, estimates and bankrolls (maths-free: they draw DataFrames)."""

from __future__ import annotations

import textwrap
import weakref
from typing import Any

import altair as alt
import polars as pl

from nessus.numbers import d3_format

EXACT = "#4c78a8"
SIMULATED = "#e45756"
WIDTH, HEIGHT = 460, 240
VEGALITE = "application/vnd.vegalite.v5+json"
TITLE_WIDTH, SUBTITLE_WIDTH = 46, 62  # characters per line of a chart's title and subtitle
COMPOUND = {"hconcat", "vconcat", "concat", "facet", "repeat"}


def share_schema_converter() -> None:
    """Make altair 5 build its dict-to-schema converter once per schema family, not at every
    encoding given as a string or a dict (`x="value:O"`, a tooltip's field name, a condition).

    altair's `SchemaBase.from_dict` walks every schema class and hashes every schema (about 10 ms)
    each time; a page draws a dozen such encodings, which was half the Python time of building
    Le Palais' page for each student. The converter is the same each time (the classes do not
    change once altair is loaded), so one per family serves every chart. Idempotent.
    """
    from altair.utils import schemapi

    if getattr(schemapi.SchemaBase.from_dict, "shared", False):
        return
    converters: dict[object, schemapi._FromDict] = {}

    def from_dict(cls: Any, dct: dict, validate: bool = True) -> object:
        if validate:
            cls.validate(dct)
        family = cls._default_wrapper_classes.__func__  # the class that names the family defines it
        converter = converters.get(family)
        if converter is None:
            converter = converters[family] = schemapi._FromDict(cls._default_wrapper_classes())
        return converter.from_dict(dct, cls)

    from_dict.shared = True  # type: ignore[attr-defined]
    schemapi.SchemaBase.from_dict = classmethod(from_dict)  # type: ignore[method-assign, assignment]


share_schema_converter()


def distribution(frame: pl.DataFrame, title: str, x_title: str = "value") -> alt.Chart:
    """Bars of an exact distribution: a frame with `value`, `probability` and `exact` columns."""
    return (
        alt.Chart(frame, title=title)
        .mark_bar(color=EXACT)
        .encode(
            x=alt.X("value:O", title=x_title, axis=alt.Axis(labelOverlap=True)),
            y=alt.Y("probability:Q", title="probability"),
            tooltip=["value", alt.Tooltip("probability:Q", format=d3_format("probability")), "exact"],
        )
        .properties(width=WIDTH, height=HEIGHT)
    )


def exact_vs_simulated(
    exact: pl.DataFrame, simulated: pl.DataFrame | None, title: str, x_title: str = "value"
) -> alt.LayerChart | alt.Chart:
    """Exact bars with the simulated frequencies as red ticks.

    `exact` has `value`, `probability`, `exact`; `simulated` has `value`, `frequency`, `trials`.
    """
    bars = distribution(exact, title, x_title)
    if simulated is None or simulated.is_empty():
        return bars
    ticks = (
        alt.Chart(simulated)
        .mark_tick(color=SIMULATED, thickness=3, size=12)
        .encode(
            x=alt.X("value:O"),
            y=alt.Y("frequency:Q"),
            tooltip=["value", alt.Tooltip("frequency:Q", format=d3_format("probability")), "trials"],
        )
    )
    return alt.layer(bars, ticks).properties(width=WIDTH, height=HEIGHT)


def running_estimate(frame: pl.DataFrame, exact: float, title: str) -> alt.LayerChart:
    """A running estimate with its confidence band converging to the exact value.

    `frame` has `trials`, `estimate`, `ci_low`, `ci_high`.
    """
    base = alt.Chart(frame).encode(x=alt.X("trials:Q", scale=alt.Scale(type="log"), title="trials"))
    band = base.mark_area(opacity=0.25, color=SIMULATED).encode(y=alt.Y("ci_low:Q", title="estimate"), y2="ci_high:Q")
    line = base.mark_line(color=SIMULATED).encode(y="estimate:Q")
    rule = alt.Chart(pl.DataFrame({"exact": [exact]})).mark_rule(color=EXACT, strokeDash=[6, 3]).encode(y="exact:Q")
    return alt.layer(band, line, rule, title=title).properties(width=WIDTH, height=HEIGHT)


def path(frame: pl.DataFrame, x: str, y: str, title: str, floor: float | None = None) -> alt.LayerChart | alt.Chart:
    """A line of `y` against `x` (a bankroll over rounds), with an optional red floor rule."""
    line = (
        alt.Chart(frame, title=title)
        .mark_line(point=True, color=EXACT)
        .encode(x=alt.X(f"{x}:Q", title=x), y=alt.Y(f"{y}:Q", title=y), tooltip=[x, y])
        .properties(width=WIDTH, height=HEIGHT)
    )
    if floor is None:
        return line
    rule = alt.Chart(pl.DataFrame({"floor": [floor]})).mark_rule(color=SIMULATED).encode(y="floor:Q")
    return alt.layer(line, rule).properties(width=WIDTH, height=HEIGHT)


def curve(frame: pl.DataFrame, x: str, y: str, title: str) -> alt.Chart:
    """A step curve of `y` against `x` (e.g. P(ruined by round k))."""
    return (
        alt.Chart(frame, title=title)
        .mark_line(interpolate="step-after", color=EXACT)
        .encode(
            x=alt.X(f"{x}:Q", title=x),
            y=alt.Y(f"{y}:Q", title=y, scale=alt.Scale(domain=[0, 1])),
            tooltip=[x, alt.Tooltip(f"{y}:Q", format=d3_format("probability"))],
        )
        .properties(width=WIDTH, height=HEIGHT)
    )


def frequencies(values, top: int) -> pl.DataFrame:
    """Simulated frequencies of the integer values 0..top: `value`, `frequency`, `trials`."""
    s = pl.Series("value", values)
    n = len(s)
    counts = s.filter(s <= top).value_counts().sort("value")
    return counts.select(
        pl.col("value").cast(pl.Int64),
        (pl.col("count") / n).alias("frequency"),
        pl.lit(n).alias("trials"),
    )


_DRAWN: dict[tuple[int, bool], tuple[dict, float | None, list[dict]]] = {}


def drawn(chart: alt.TopLevelMixin, container: bool) -> tuple[dict, float | None, list[dict]]:
    """A chart as a dashboard draws it: its vega-lite spec (titles wrapped; with `container`, as
    wide as its pane where it has a width), the width in pixels it was made for (None: as it is)
    and its data's rows (the longest dataset). Remembered while the chart object lives: a view
    that memoises its charts (every student's first page shows the same ones) makes it one dict
    lookup. The spec and rows are shared: they are not to be changed."""
    key = (id(chart), container)
    if key in _DRAWN:
        return _DRAWN[key]
    spec = chart.to_dict(validate=False)
    wrap_titles(spec)
    width = spec.get("width")
    if isinstance(width, (int, float)) and not COMPOUND.intersection(spec) and container:
        spec["width"] = "container"  # as wide as the pane, up to the width it was drawn for
    else:
        width = None
    rows = max((v for v in spec.get("datasets", {}).values() if isinstance(v, list)), key=len, default=[])
    _DRAWN[key] = (spec, width, rows)
    weakref.finalize(chart, _DRAWN.pop, key, None)  # forgotten with the chart (its id may be reused)
    return _DRAWN[key]


def wrap_lines(text: str | list, width: int) -> str | list[str]:
    """A chart title as lines of at most about `width` characters (vega draws a list as lines)."""
    if not isinstance(text, str) or len(text) <= width:
        return text
    return textwrap.wrap(text, width) or text


def wrap_titles(spec: dict) -> None:
    """Break long chart titles and subtitles into lines, so that they stay whole on a narrow page."""
    for part in (spec, *spec.get("layer", ())[:1]):
        title = part.get("title")
        if isinstance(title, str):
            part["title"] = {"text": wrap_lines(title, TITLE_WIDTH)}
        elif isinstance(title, dict):
            title["text"] = wrap_lines(title.get("text", ""), TITLE_WIDTH)
            if "subtitle" in title:
                title["subtitle"] = wrap_lines(title["subtitle"], SUBTITLE_WIDTH)
