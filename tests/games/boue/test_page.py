"""La Boue's page in a real browser (helpers in browser.py, the voila `server` fixture in conftest.py)."""

from __future__ import annotations

import pytest
from browser import (
    ARTIFACTS,
    at_least,
    chart_shows,
    chart_svg,
    enter_bad,
    marks,
    no_errors,
    nudge_slider,
    open_dashboard,
    record,
    redraw_time,
)
from playwright.sync_api import expect

pytestmark = pytest.mark.browser


def test_la_boue(server, page):
    first = open_dashboard(page, server, "la-boue.ipynb")
    page.wait_for_selector("table.figures", timeout=30_000)
    no_errors(page)
    marks_before = marks(page)

    # Play a turn die by die until it ends: stuck dice are drawn apart, in the mud.
    for rolls in range(1, 200):
        page.locator(".roll-button").click()
        page.wait_for_function(
            "(n) => document.querySelector('.score').innerText.includes(`after ${n} roll`)", arg=rolls
        )
        if "Turn over" in page.locator(".score").inner_text():
            break
    expect(page.locator(".score")).to_contain_text("Turn over", use_inner_text=True)
    at_least(page.locator("svg.die[data-face='2'], svg.die[data-face='5']"), 1)
    page.screenshot(path=str(ARTIFACTS / "la-boue-turn.png"), full_page=True)

    # More simulated turns: the red ticks change.
    before = chart_svg(page, 0)
    change = redraw_time(page, before, lambda: nudge_slider(page), 0)
    chart_shows(page, "10,000 simulated turns")
    at_least(page.locator("[aria-roledescription]"), marks_before)

    # Fewer dice: the exact bars change; a bad value shows a message.
    field = page.get_by_label("dice", exact=True)
    before = chart_svg(page, 0)
    dice_change = redraw_time(page, before, lambda: (field.fill("3"), field.press("Enter")), 0)
    chart_shows(page, "with 3 dice")
    enter_bad(page, field, "11", "dice must be an integer from 1 to 10")
    no_errors(page)
    page.screenshot(path=str(ARTIFACTS / "la-boue.png"), full_page=True)
    record("la-boue", first_chart=first, trials_redraw=change, dice_redraw=dice_change)
