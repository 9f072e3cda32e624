"""`nessus publish`: the lessons as static pages that work offline.

The fast tests run the output transformation on a tiny hand-made notebook (no kernel). The
browser test publishes two real lessons into a temporary folder and opens them in headless
Chromium from file:// URLs: charts as inline SVG, maths as MathML, widget notes with links,
nothing loaded from the internet.
"""

from __future__ import annotations

import re
from pathlib import Path

import altair as alt
import nbformat
import polars as pl
import pytest
from browser import at_least, browser_or_skip
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook, new_output
from playwright.sync_api import expect

from nessus import cli, games, publish

GALLERY = games.with_dashboards()

ROOT = Path(__file__).resolve().parent.parent
VEGALITE = "application/vnd.vegalite.v5+json"
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
DASHBOARDS_URL = "http://localhost:9999/voila/render/"
LESSONS = ("00-who-starts", "01-le-renard-one-in-36")


def _chart_output(title: str) -> dict:
    chart = alt.Chart(pl.DataFrame({"x": [1, 2, 3], "y": [3, 1, 2]}), title=title).mark_bar().encode(x="x:O", y="y:Q")
    return new_output("display_data", data={VEGALITE: chart.to_dict(), "text/plain": "<VegaLite 5 object>"})


def _tiny_lesson() -> nbformat.NotebookNode:
    """Two charts (one inside an Output widget of a VBox), maths, and a widget, as nbclient leaves them."""
    state = {
        "box": {"model_name": "VBoxModel", "state": {"children": ["IPY_MODEL_slider", "IPY_MODEL_out"]}},
        "slider": {"model_name": "IntSliderModel", "state": {"value": 3}},
        "out": {
            "model_name": "OutputModel",
            "state": {
                "outputs": [
                    new_output(
                        "display_data", data={"text/markdown": "Chance: $\\frac{1}{36}$", "text/plain": "<Markdown>"}
                    ),
                    _chart_output("inside the widget"),
                ]
            },
        },
    }
    widget = new_output(
        "execute_result",
        data={WIDGET_VIEW: {"model_id": "box", "version_major": 2, "version_minor": 0}, "text/plain": "VBox(...)"},
        execution_count=3,
    )
    nb = new_notebook(
        cells=[
            new_markdown_cell(
                "# A *tiny* lesson\n\nInline $x^2 + 1$, code `$HOME` untouched, and\n\n"
                "$$P = \\frac{1}{36}.$$\n\nBroken: $$x^$$"
            ),
            new_code_cell("chart", outputs=[_chart_output("top level")], execution_count=1),
            new_code_cell("widgets", outputs=[widget], execution_count=3),
        ]
    )
    nb.metadata["widgets"] = {
        "application/vnd.jupyter.widget-state+json": {"state": state, "version_major": 2, "version_minor": 0}
    }
    return nb


def test_charts_become_svg_and_widgets_notes():
    nb = publish.make_static(_tiny_lesson(), "01-le-renard-one-in-36", DASHBOARDS_URL)
    top = nb.cells[1].outputs
    assert len(top) == 1 and set(top[0].data) == {"image/svg+xml"} and top[0].data["image/svg+xml"].startswith("<svg")
    note, markdown, chart = nb.cells[2].outputs
    assert 'class="nessus-widget-note"' in note.data["text/html"]
    assert f'href="{DASHBOARDS_URL}le-renard.ipynb"' in note.data["text/html"]
    assert "<math" in markdown.data["text/markdown"] and "$" not in markdown.data["text/markdown"]
    assert "inside the widget" in chart.data["image/svg+xml"]
    assert all(o.output_type == "display_data" for o in nb.cells[2].outputs)
    assert "widgets" not in nb.metadata
    assert nb.metadata["title"] == "A tiny lesson"


def test_maths_become_mathml_or_code():
    text = publish.make_static(_tiny_lesson(), "00-who-starts").cells[0].source
    assert text.count("<math") == 2 and 'display="block"' in text
    assert "`$HOME`" in text
    assert "<code>x^</code>" in text  # latex2mathml cannot read it: shown as code
    assert "$$" not in text


def test_a_chart_vega_lite_rejects_becomes_a_visible_note():
    chart = (
        alt.Chart(pl.DataFrame({"opponent's score": [1, 2]})).mark_bar().encode(x="opponent's score:O", y="count():Q")
    )
    logged: list[str] = []
    static = publish.Staticizer({}, log=logged.append)
    (out,) = static.outputs([new_output("display_data", data={VEGALITE: chart.to_dict()})])
    assert "This chart could not be drawn" in out.data["text/html"]
    assert len(logged) == 1 and "opponent" in logged[0]


def test_lesson_without_dashboard_links_the_gallery():
    nb = publish.make_static(_tiny_lesson(), "00-who-starts", DASHBOARDS_URL)
    assert f'href="{DASHBOARDS_URL}index.ipynb"' in nb.cells[2].outputs[0].data["text/html"]


def test_page_loads_nothing_from_the_internet():
    page = publish.render_html(publish.make_static(_tiny_lesson(), "01-le-renard-one-in-36"))
    assert "<title>A tiny lesson</title>" in page
    assert "VegaLite" not in page
    assert page.count("<svg") >= 2 and page.count("<math") == 3
    assert not re.findall(r"<script[^>]*\bsrc=", page)
    assert not re.findall(r"<link[^>]*\bhref=\"https?:", page)
    assert "cdnjs" not in page and "unpkg" not in page and "widget-state+json" not in page


def test_every_lesson_has_its_dashboard():
    lessons = {p.stem for p in publish.lessons()}
    assert {e.lesson for e in GALLERY} <= lessons
    assert lessons - {e.lesson for e in GALLERY} == {"00-who-starts"}
    assert all((ROOT / "dashboards" / e.dashboard).exists() for e in GALLERY)
    assert publish.dashboard_for("01-le-renard-one-in-36").dashboard == "le-renard.ipynb"


def test_lessons_by_name_or_number():
    assert [p.stem for p in publish.lessons(["00", "02-la-boue", "01-le-renard-one-in-36.ipynb"])] == [
        "00-who-starts",
        "02-la-boue",
        "01-le-renard-one-in-36",
    ]
    with pytest.raises(ValueError, match="unknown lesson 'nope'"):
        publish.lessons(["nope"])


def test_cli_rejects_an_unknown_lesson(capsys):
    assert cli.main(["publish", "nope"]) == 2
    assert "unknown lesson" in capsys.readouterr().err


def _expected(name: str) -> tuple[str, int, int]:
    """From a lesson's source: its title, cells that draw charts, and $$ expressions."""
    nb = nbformat.read(ROOT / "notebooks" / f"{name}.ipynb", as_version=4)
    charts = sum(1 for c in nb.cells if c.cell_type == "code" and "charts." in c.source)
    maths = sum(c.source.count("$$") // 2 for c in nb.cells if c.cell_type == "markdown")
    return publish.title_of(nb, name), charts, maths


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    browser_or_skip()
    out = tmp_path_factory.mktemp("site")
    assert cli.main(["publish", *LESSONS, "--out", str(out), "--dashboards-url", DASHBOARDS_URL]) == 0
    return out


@pytest.fixture(scope="module")
def chromium(browser):
    """The session's Chromium (conftest.py): one sync Playwright per test session."""
    return browser


@pytest.mark.browser
@pytest.mark.parametrize("name", LESSONS)
def test_published_lesson_in_chromium(site, chromium, name):
    title, charts, maths = _expected(name)
    assert charts >= 4 and maths >= 1
    pg = chromium.new_page()
    requests: list[str] = []
    problems: list[str] = []
    pg.on("request", lambda r: requests.append(r.url))
    pg.on("pageerror", lambda e: problems.append(str(e)))
    pg.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    pg.goto((site / f"{name}.html").as_uri())
    pg.wait_for_load_state("load")

    expect(pg).to_have_title(title)
    at_least(pg.locator("svg.marks"), charts)  # vega draws them after the load event
    at_least(pg.locator("svg.marks [aria-roledescription]"), 1)  # vega's marks, drawn
    at_least(pg.locator("math"), maths)
    text = pg.inner_text("body")  # once the charts and the maths are drawn
    assert "VegaLite" not in text and "VegaLite" not in pg.content()
    assert "$$" not in text
    notes = pg.locator(".nessus-widget-note a")
    at_least(notes, 1)
    dashboard = publish.dashboard_for(name)
    href = DASHBOARDS_URL + (dashboard.dashboard if dashboard else "index.ipynb")
    expect(notes.first).to_have_attribute("href", href)
    outside = [u for u in requests if not re.match(r"(file:|data:|about:|https?://(localhost|127\.0\.0\.1)[:/])", u)]
    assert not outside, f"requests to the internet: {outside}"
    assert not problems, problems
    pg.close()


@pytest.mark.browser
def test_index_lists_the_lessons(site, chromium):
    pg = chromium.new_page()
    pg.goto((site / "index.html").as_uri())
    hrefs = pg.locator("li a").evaluate_all("links => links.map(a => a.getAttribute('href'))")
    assert [h for h in hrefs if h.endswith(".html")] == [f"{n}.html" for n in LESSONS]
    assert f"{DASHBOARDS_URL}le-renard.ipynb" in hrefs
    assert all((site / h).exists() for h in hrefs if h.endswith(".html"))
    pg.close()
