"""Le Palais' page in a real browser (helpers in browser.py, the voila `server` fixture in
conftest.py): a turn with the hint, the goals, a bad hand typed, tie-break B, and a game
against the machine."""

from __future__ import annotations

import re

import pytest
from browser import (
    ARTIFACTS,
    DIE,
    at_least,
    chart_shows,
    chart_svg,
    click_until,
    enter_bad,
    error_cleared,
    fresh_dice,
    mark_first_die,
    no_errors,
    open_dashboard,
    record,
    redraw_time,
    roll_dice,
    tray_until,
    wait_for_charts,
)
from playwright.sync_api import expect

pytestmark = pytest.mark.browser


EXACT_VALUE = re.compile(r"(probability|expected cargo) \d+(/\d+)?")
FIRST_HELD = "(d, face) => d.length > 0 && d[0][0] === face && d[0][1] && d[0][2]"  # still held, still clickable


def test_le_palais(server, page):
    first = open_dashboard(page, server, "le-palais.ipynb")
    page.wait_for_selector("table.figures", timeout=30_000)
    no_errors(page)
    chart_shows(page, "playing for P(Manoir or better)")
    wait_for_charts(page, 2)  # the final hands, the single roll
    page.screenshot(path=str(ARTIFACTS / "le-palais-start.png"), full_page=True)

    # The first roll: five dice, none held; the hint lists every hold with its exact value.
    rolls = [roll_dice(page)]
    dice = fresh_dice(page, 5)
    hint = click_until(page, page.locator(".hint-toggle"), "() => !!document.querySelector('.hint-table')")
    at_least(page.locator(".hint-row"), 8)
    expect(page.locator(".hint-row.best")).to_have_count(1)
    expect(page.locator(".hint-best")).to_contain_text(EXACT_VALUE, use_inner_text=True)
    expect(page.locator(".hint-panel")).to_contain_text("Goal: P(Manoir or better)", use_inner_text=True)
    expect(page.locator(".hint-table")).to_contain_text("reroll all five", use_inner_text=True)

    # Click a die: it is held, Roll now rolls four, and the hint weighs that choice.
    face = dice[0][0]
    choice = mark_first_die(page, "Roll 4 dice", "hold")
    page.screenshot(path=str(ARTIFACTS / "le-palais-hint.png"), full_page=True)

    # Roll again: the held die stays where it was.
    rolls.append(roll_dice(page))
    tray_until(page, FIRST_HELD, face)
    expect(page.locator(".roll-counter")).to_contain_text("Roll 2 of 3", use_inner_text=True)

    # Another goal: the chart and the hint follow it.
    goal = page.locator(".palais-goal select")
    before = chart_svg(page, 0)
    goal_redraw = redraw_time(page, before, lambda: goal.select_option(label="Palais"), 0)
    page.wait_for_function(
        "() => document.querySelector('.hint-panel').innerText.includes('Goal: P(Palais)')", timeout=30_000
    )
    chart_shows(page, "playing for P(Palais)")

    # Beat a given hand; a badly typed hand is a message in the page, no traceback.
    before = chart_svg(page, 0)
    beat_redraw = redraw_time(page, before, lambda: goal.select_option(label="beat a given hand"), 0)
    chart_shows(page, "P(beating 3 3 3 2 2)")
    field = page.get_by_label("hand to beat", exact=True)
    enter_bad(page, field, "7 7", "type five dice from 1 to 6")
    page.screenshot(path=str(ARTIFACTS / "le-palais-bad-input.png"), full_page=True)
    before = chart_svg(page, 0)
    redraw_time(page, before, lambda: (field.fill("6 6 6 6 1"), field.press("Enter")), 0)
    error_cleared(page)
    page.wait_for_function(
        "() => document.querySelector('.hint-panel').innerText.includes('Goal: P(beating 6 6 6 6 1)')", timeout=30_000
    )

    # Stop: the turn is over and the dice can no longer be clicked.
    click_until(
        page,
        page.locator(".stop-button"),
        "() => document.querySelector('.palais-status').innerText.includes('Turn over')",
    )
    expect(page.locator(f"{DIE}:enabled")).to_have_count(0)
    no_errors(page)
    page.screenshot(path=str(ARTIFACTS / "le-palais.png"), full_page=True)

    # Tie-break B: equal hands are equal categories, so the goal becomes a better hand (a new turn).
    before = chart_svg(page, 0)
    tie_redraw = redraw_time(
        page, before, lambda: page.locator(".palais-tie-break select").select_option(label="B: same hand, roll off"), 0
    )
    chart_shows(page, "P(a better hand than Tour)")
    expect(page.locator(".roll-counter")).to_contain_text("rolls to come", use_inner_text=True)

    # Against the machine, from seat 2: player 1 has played; you chase their hand, then the others play.
    page.locator(".palais-mode button", has_text="Against the machine").click()
    page.wait_for_selector(".palais-players", timeout=30_000)
    expect(page.locator(".palais-player")).to_have_count(4)
    page.wait_for_function(
        "() => document.querySelector('.nessus-chart').innerText.includes('P(none of 3 later players beats you)')",
        timeout=30_000,
    )
    before = chart_svg(page, 0)
    seat_redraw = redraw_time(page, before, lambda: page.locator(".palais-seat select").select_option("2"), 0)
    chart_shows(page, "P(a better hand than")  # the chasers' goal under tie-break B
    expect(page.locator(".palais-players")).to_contain_text("to play", use_inner_text=True)
    rolls.append(roll_dice(page))
    game = click_until(page, page.locator(".stop-button"), "() => !!document.querySelector('.palais-result')")
    expect(page.locator(".palais-result")).to_contain_text(
        re.compile(r"(You win|Player \d wins) with \w"), use_inner_text=True
    )
    expect(page.locator(".palais-players")).not_to_contain_text("to play", use_inner_text=True)
    no_errors(page)
    page.screenshot(path=str(ARTIFACTS / "le-palais-game.png"), full_page=True)
    record(
        "le-palais",
        first_chart=first,
        roll_max=max(rolls),
        hint_shown=hint,
        die_click=choice,
        goal_redraw=goal_redraw,
        beat_redraw=beat_redraw,
        tie_redraw=tie_redraw,
        seat_redraw=seat_redraw,
        stop_and_machines=game,
    )
