"""Le Renard's page in a real browser (helpers in browser.py, the voila `server` fixture in conftest.py)."""

from __future__ import annotations

import pytest
from browser import (
    ARTIFACTS,
    chart_shows,
    chart_svg,
    enter_bad,
    error_cleared,
    no_errors,
    nudge_slider,
    open_dashboard,
    record,
    redraw_time,
)
from playwright.sync_api import expect

pytestmark = pytest.mark.browser


def test_le_renard(server, page):
    first = open_dashboard(page, server, "le-renard.ipynb")
    page.wait_for_selector("table.figures", timeout=30_000)
    no_errors(page)
    page.screenshot(path=str(ARTIFACTS / "le-renard-start.png"), full_page=True)
    expect(page.locator("table.figures")).to_contain_text("1/36", use_inner_text=True)

    # Roll: three dice appear and the bankroll chart gains a point.
    before = chart_svg(page, 0)
    roll = redraw_time(page, before, lambda: page.locator(".roll-button").click(), 0)
    expect(page.locator(".widget-html svg.die")).to_have_count(3)
    expect(page.locator(".bankroll")).to_contain_text("after 1 of 100 rounds", use_inner_text=True)

    # Change the payout: the exact ruin curve and the figures change.
    figures_before = page.locator("table.figures").inner_text()
    ruin_before = chart_svg(page, 1)
    change = redraw_time(page, ruin_before, lambda: nudge_slider(page), 1)
    page.wait_for_function(
        "(old) => document.querySelector('table.figures').innerText !== old", arg=figures_before, timeout=30_000
    )
    chart_shows(page, "payout 11", 1)
    expect(page.locator("table.figures")).to_contain_text("-2/3", use_inner_text=True)  # (11 - 35) / 36
    no_errors(page)

    # A bad value typed in a field: a message in the page, no traceback.
    stake = page.get_by_label("stake", exact=True)
    enter_bad(page, stake, "0", "stake must be an integer from 1 to 1000")
    page.screenshot(path=str(ARTIFACTS / "le-renard-bad-input.png"), full_page=True)
    stake.fill("2")
    stake.press("Enter")
    error_cleared(page)
    no_errors(page)
    page.screenshot(path=str(ARTIFACTS / "le-renard.png"), full_page=True)
    record("le-renard", first_chart=first, roll_redraw=roll, payout_redraw=change)
