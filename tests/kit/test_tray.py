"""The dice tray as one widget (kit/dicegame.py DiceTray, drawn by kit/tray.js), the small dice
drawn by the page's stylesheet, and a chart pane's memory of the charts it has converted."""

from __future__ import annotations

import gc

import altair as alt
import polars as pl

from nessus import charts
from nessus.kit import common
from nessus.kit.common import ChartPane, mini_dice
from nessus.kit.dicegame import DiceTray


def test_the_tray_sends_each_die_as_classes_title_and_note() -> None:
    tray = DiceTray(5, "held")
    tray.show([3, 6, 1], held=[False, True, False], locked=[False, False, True])
    dice = tray.widget.dice
    assert [d["classes"] for d in dice] == [
        ["nessus-die", "face-3"],
        ["nessus-die", "face-6", "held"],
        ["nessus-die", "face-1", "held", "locked"],
    ]
    assert [d["disabled"] for d in dice] == [False, False, True]
    assert dice[0]["title"] == "die showing 3: click to hold it"
    assert dice[1]["title"] == "die showing 6: click to release it"
    assert dice[2]["title"] == "die showing 1"  # locked: no click offered
    assert [d["note"] for d in dice] == ["&nbsp;", "held", "held"]
    assert tray.widget.empty == "" and "nessus-tray" in tray.widget._dom_classes


def test_a_click_from_the_page_holds_a_die_and_bad_messages_change_nothing() -> None:
    changes = []
    tray = DiceTray(5, "kept", on_change=lambda: changes.append(tray.held_faces))
    tray.show([2, 5, 5])
    tray._clicked({"click": 1})
    assert tray.held == [False, True, False] and changes == [(5,)]
    assert tray.widget.dice[1]["note"] == "kept" and "held" in tray.widget.dice[1]["classes"]
    for message in ({"click": 7}, {"click": -1}, {"click": "1"}, {"click": True}, {"roll": 1}, "click", None):
        tray._clicked(message)
    assert tray.held == [False, True, False] and len(changes) == 1
    tray.show([2, 5, 5], active=False)
    tray._clicked({"click": 0})
    assert tray.held == [False, False, False] and all(d["disabled"] for d in tray.widget.dice)


def test_an_empty_tray_shows_its_words_escaped() -> None:
    tray = DiceTray(2)
    tray.show((), empty="Press <Roll>")
    assert tray.widget.dice == [] and tray.widget.empty == "Press &lt;Roll&gt;"


def test_small_dice_are_bare_spans_the_stylesheet_draws() -> None:
    row = mini_dice((1, 6), 16, held=True)
    assert "<svg" not in row and row.count("<span") == 2
    assert 'class="mini-die f6 held"' in row and "width:16px" in row
    for face in range(1, 7):
        assert f".mini-die.f{face}{{" in common.MINI_DICE_CSS and f".mini-die.held.f{face}{{" in common.MINI_DICE_CSS


def test_a_pane_converts_a_chart_once_while_it_lives() -> None:
    chart = alt.Chart(pl.DataFrame({"x": [1, 2], "y": [3, 4]})).mark_bar().encode(x="x:Q", y="y:Q")
    first, second = ChartPane(), ChartPane()
    first.show(chart)
    spec = charts._DRAWN[(id(chart), not ChartPane.widget_charts)][0]
    second.show(chart)
    assert charts.drawn(chart, not ChartPane.widget_charts)[0] is spec
    assert (
        first.download.value == second.download.value
        and "x,y" in common.base64.b64decode(first.download.value.split("base64,")[1].split("'")[0]).decode()
    )
    other = chart.properties(title="another")
    assert charts.drawn(other, not ChartPane.widget_charts)[0] is not spec
    key = (id(chart), not ChartPane.widget_charts)
    del chart
    gc.collect()
    assert key not in charts._DRAWN  # forgotten with the chart: its id may be another chart's
