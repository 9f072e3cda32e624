"""Le Naute's page in a real browser (helpers in browser.py, the voila `server` fixture in
conftest.py): hunting for ship, captain and crew with the hint, the cargo dice and their values,
the goal "beat a target", a bad number of expeditions, and a game against the machine."""

from __future__ import annotations

import re
import time

import pytest
from browser import (
    ARTIFACTS,
    chart_shows,
    chart_svg,
    click_until,
    enter_bad,
    mark_first_die,
    no_errors,
    nudge_slider,
    open_dashboard,
    record,
    redraw_time,
    roll_dice,
    tray_until,
)
from playwright.sync_api import expect

pytestmark = pytest.mark.browser


EXACT_VALUE = re.compile(r"(probability|expected cargo) \d+(/\d+)?")


def _naute_cargo(pg, rolls: list[float]) -> None:
    """Roll (new expeditions as needed) until ship, captain and crew are aboard with rolls left."""
    for _ in range(60):
        if "Expedition over" in pg.locator(".naute-status").inner_text():
            click_until(
                pg, pg.locator(".new-button"), "() => +document.querySelector('.roll-counter').dataset.made === 0"
            )
        rolls.append(roll_dice(pg))
        if (
            "Expedition over" not in pg.locator(".naute-status").inner_text()
            and pg.locator(".naute-slot.aboard").count() == 3
        ):
            return
    pytest.fail("no crew aboard in 60 rolls")


def test_le_naute(server, page):
    first = open_dashboard(page, server, "le-naute.ipynb")
    page.wait_for_selector("table.figures", timeout=30_000)
    no_errors(page)
    chart_shows(page, "playing for the expected cargo")
    expect(page.locator(".naute-slot.missing")).to_have_count(3)
    page.screenshot(path=str(ARTIFACTS / "le-naute-start.png"), full_page=True)

    # Before the crew is aboard the only move is to roll; the hint says what the expedition is worth.
    hint = click_until(page, page.locator(".hint-toggle"), "() => !!document.querySelector('.hint-table')")
    expect(page.locator(".hint-best")).to_contain_text("roll 5 dice, looking for the ship (6)", use_inner_text=True)
    expect(page.locator(".hint-row")).to_have_count(1)

    # Roll until the crew is aboard: the cargo dice can be clicked, and every cargo choice has its value.
    rolls: list[float] = []
    _naute_cargo(page, rolls)
    tray_until(page, "(d) => d.length === 2 && d.every(([, , click]) => click)")
    expect(page.locator(".hint-table")).to_contain_text("stop: take cargo", use_inner_text=True)
    expect(page.locator(".hint-table")).to_contain_text("reroll both cargo dice", use_inner_text=True)
    expect(page.locator(".hint-best")).to_contain_text(EXACT_VALUE, use_inner_text=True)
    choice = mark_first_die(page, "Roll 1 die", "keep")
    page.screenshot(path=str(ARTIFACTS / "le-naute-cargo.png"), full_page=True)

    # Beat a target: the chart follows the goal and the target slider.
    before = chart_svg(page, 0)
    goal_redraw = redraw_time(
        page, before, lambda: page.locator(".naute-goal button", has_text="beat a target").click(), 0
    )
    chart_shows(page, "playing for P(cargo > 7)")
    before = chart_svg(page, 0)
    target_redraw = redraw_time(page, before, lambda: nudge_slider(page), 0)
    chart_shows(page, "playing for P(cargo > 8)")
    page.wait_for_function(
        "() => document.querySelector('.hint-panel').innerText.includes('Goal: P(cargo > 8)')", timeout=30_000
    )
    no_errors(page)
    page.screenshot(path=str(ARTIFACTS / "le-naute.png"), full_page=True)

    # Against the machine: a bad number of expeditions is a message; then one expedition, played out.
    page.locator(".naute-mode button", has_text="Against the machine").click()
    page.wait_for_selector(".naute-sheet", timeout=30_000)
    expect(page.locator(".naute-player")).to_have_count(4)
    field = page.get_by_label("expeditions", exact=True)
    enter_bad(page, field, "9", "expeditions must be an integer from 1 to 6")
    field.fill("1")
    field.press("Enter")
    page.wait_for_function(
        "() => !document.querySelector('.nessus-error') && document.querySelectorAll('.naute-sheet th').length === 3",
        timeout=30_000,
    )
    start = time.perf_counter()
    while not page.locator(".naute-result").count():
        if page.locator(".naute-slot.aboard").count() == 3 and not page.locator(".stop-button").is_disabled():
            click_until(page, page.locator(".stop-button"), "() => !!document.querySelector('.naute-result')")
        else:
            rolls.append(roll_dice(page))
        assert time.perf_counter() - start < 60
    expect(page.locator(".naute-result")).to_contain_text(
        re.compile(r"You win|Player \d wins|Shared first place"), use_inner_text=True
    )
    no_errors(page)
    page.screenshot(path=str(ARTIFACTS / "le-naute-game.png"), full_page=True)
    record(
        "le-naute",
        first_chart=first,
        roll_max=max(rolls),
        hint_shown=hint,
        die_click=choice,
        goal_redraw=goal_redraw,
        target_redraw=target_redraw,
    )
