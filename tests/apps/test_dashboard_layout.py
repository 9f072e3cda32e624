"""Every dashboard's page at phone (390 px), laptop (1280 px) and projector (1920 px) widths and
in the dark theme (four of them): nothing overflows the window sideways, every chart has a size, the page links
back to the gallery and to its lesson, its tab is titled with the game's name, and the number
format switch changes the numbers shown. Screenshots in test-artifacts/layout-*.png."""

from __future__ import annotations

import pytest
from browser import ARTIFACTS, at_least, no_errors, open_dashboard, until
from playwright.sync_api import expect

from nessus import games

GALLERY = games.with_dashboards()

pytestmark = pytest.mark.browser
DASHBOARDS = [pytest.param(e, id=e.dashboard.removesuffix(".ipynb")) for e in GALLERY]

OVERFLOW = r"""() => {
    const w = window.innerWidth, out = [];
    const sw = document.documentElement.scrollWidth;
    if (sw > w) out.push(`document ${sw} > ${w}`);
    for (const el of document.querySelectorAll('body *')) {
        const r = el.getBoundingClientRect();
        if (!r.width || !r.height || r.right <= w + 1) continue;
        const s = getComputedStyle(el);
        if (s.visibility === 'hidden' || s.display === 'none') continue;
        let clipped = false;
        for (let p = el.parentElement; p && !clipped; p = p.parentElement) {
            const o = getComputedStyle(p).overflowX;
            clipped = (o === 'auto' || o === 'scroll' || o === 'hidden') && p.getBoundingClientRect().right <= w + 1;
        }
        const cls = typeof el.className === 'string' ? el.className : '';
        if (!clipped) out.push(`${el.tagName}.${cls} right ${Math.round(r.right)}`);
    }
    return out.slice(0, 8);
}"""

CHART_SIZES = r"""() => Array.from(document.querySelectorAll('.widget-output svg.marks'))
    .filter(s => s.closest('.widget-output').offsetParent !== null)
    .map(s => { const r = s.getBoundingClientRect(); return [Math.round(r.width), Math.round(r.height)]; })"""

CHART_FILL = "() => getComputedStyle(document.querySelector('.vega-embed svg text')).fill"
LIGHT_CHART_TEXT = (
    "() => !!document.querySelector('.vega-embed svg text') && "
    f"!['rgb(0, 0, 0)', 'rgb(51, 51, 51)', 'rgb(34, 34, 34)'].includes(({CHART_FILL})())"
)

PERCENTAGES = """(fraction) => {  // the first number shown has changed, or a percentage is shown
    const first = Array.from(document.querySelectorAll('.num')).find(e => e.offsetParent !== null);
    return (!!first && first.innerText !== fraction) || document.querySelector('.nessus-dash').innerText.includes('%');
}"""


def check_layout(pg, name: str, width: int) -> None:
    """At this window width: nothing sticks out sideways, every visible chart has a size."""
    pg.set_viewport_size({"width": width, "height": 900 if width < 1000 else 1080})
    pg.wait_for_timeout(400)
    height = pg.evaluate("() => document.querySelector('.nessus-dash').getBoundingClientRect().bottom")
    pg.set_viewport_size({"width": width, "height": min(int(height) + 40, 6000)})  # the whole page in the screenshot
    pg.wait_for_timeout(200)
    pg.screenshot(path=str(ARTIFACTS / f"layout-{name}-{width}.png"), full_page=True)
    until(pg, f"() => ({OVERFLOW})().length === 0", now=lambda: (name, width, pg.evaluate(OVERFLOW)))
    until(
        pg,
        f"() => {{ const s = ({CHART_SIZES})(); return s.length > 0 && s.every(([w, h]) => w > 50 && h > 30); }}",
        now=lambda: (name, width, pg.evaluate(CHART_SIZES)),
    )


@pytest.mark.parametrize("entry", DASHBOARDS)
def test_layout(voila_server, page, entry):
    name = entry.dashboard.removesuffix(".ipynb")
    open_dashboard(page, voila_server, entry.dashboard)
    page.wait_for_selector(".nessus-dash", timeout=30_000)
    page.wait_for_timeout(500)
    no_errors(page)
    expect(page).to_have_title(entry.page_title)
    expect(page.locator(".nessus-dash a.gallery-link")).to_have_attribute("href", "index.ipynb")
    expect(page.locator("a.lesson-link")).to_have_attribute("href", f"../../lessons/{entry.lesson}.html")
    for width in (1280, 390, 1920):
        check_layout(page, name, width)
    page.locator(".projector-toggle").click()  # larger type for the classroom's projector
    page.wait_for_function("() => document.querySelector('.nessus-dash').classList.contains('projector')")
    check_layout(page, f"{name}-projector", 1920)
    page.locator(".projector-toggle").click()

    # The number format: percentages, then decimals, then back to fractions.
    page.set_viewport_size({"width": 1280, "height": 1000})
    nums = page.locator(".num:visible")
    if nums.count():
        fractions = nums.first.inner_text()
        page.locator(".number-format button", has_text="percentages").click()
        page.wait_for_function("() => document.querySelector('.nessus-dash').classList.contains('fmt-percent')")
        until(page, PERCENTAGES, fractions, now=lambda: nums.first.inner_text())
        page.locator(".number-format button", has_text="fractions").click()
        page.wait_for_function("() => document.querySelector('.nessus-dash').classList.contains('fmt-fraction')")
        expect(nums.first).to_have_text(fractions, use_inner_text=True)
    at_least(page.locator(".nessus-dash .vega-embed details, .nessus-dash .vega-embed .vega-actions"), 1)
    at_least(page.locator("a.nessus-csv"), 1)


DARK = ("nessie", "le-legit", "nyx", "entheos")
"""The dark theme is the kit's (one stylesheet, one chart theme): it is checked on a page of each
kind (a dice table, a turn with a goal, a card table, the busiest page), not on all fourteen, since
each costs a kernel of its own (about 12 s on two cores)."""


@pytest.mark.parametrize("entry", [d for d in DASHBOARDS if d.id in DARK])
def test_dark_theme(voila_server, browser, entry):
    name = entry.dashboard.removesuffix(".ipynb")
    context = browser.new_context(viewport={"width": 1280, "height": 1000})
    pg = context.new_page()
    pg.problems = []
    try:
        pg.goto(f"{voila_server}/voila/render/{entry.dashboard}?theme=dark", timeout=90_000, wait_until="commit")
        pg.wait_for_selector(".widget-output svg.marks", timeout=90_000)
        pg.wait_for_timeout(800)
        expect(pg.locator("body")).to_have_attribute("data-jp-theme-light", "false")
        pg.screenshot(path=str(ARTIFACTS / f"layout-{name}-dark.png"), full_page=True)
        until(pg, LIGHT_CHART_TEXT, now=lambda: pg.evaluate(CHART_FILL))  # chart text is light on the dark page
        check_layout(pg, f"{name}-dark", 390)
    finally:
        context.close()


def test_downloads(voila_server, page):
    """A chart saves as SVG and PNG from its menu, its data and a table download as CSV: all offline."""
    open_dashboard(page, voila_server, "le-renard.ipynb")
    page.wait_for_selector("table.figures", timeout=30_000)
    menu = page.locator(".vega-embed details").first
    for kind in ("SVG", "PNG"):
        if menu.get_attribute("open") is None:
            menu.locator("summary").click()
        with page.expect_download(timeout=30_000) as download:
            menu.locator(".vega-actions a", has_text=kind).click()
        assert download.value.suggested_filename.endswith(f".{kind.lower()}")
        path = download.value.path()
        head = open(path, "rb").read(200)
        assert (b"<svg" in head) if kind == "SVG" else head.startswith(b"\x89PNG")
    with page.expect_download(timeout=30_000) as download:
        page.locator("a.nessus-csv", has_text="chart's data").first.click()
    assert download.value.suggested_filename == "le-renard-bankroll.csv"
    assert open(download.value.path()).read().startswith("round,bankroll")
    with page.expect_download(timeout=30_000) as download:
        page.locator("a.nessus-csv", has_text="this table").first.click()
    assert "chance of a triple on one roll,1/36," in open(download.value.path()).read()
    no_errors(page)
