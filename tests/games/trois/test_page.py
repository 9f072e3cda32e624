"""The Les Trois dashboard in a real browser (helpers in browser.py, the voila `server` fixture
in conftest.py): a turn played with clicks and the hint, the goals, a bad entry, and a game
against the machine played to its end."""

from __future__ import annotations

import re
import time

import pytest
from browser import (
    ARTIFACTS,
    CHART_TEXT,
    DIE,
    at_least,
    chart_shows,
    chart_svg,
    chart_text,
    click_until,
    enter_bad,
    error_cleared,
    fresh_dice,
    mark_first_die,
    no_errors,
    nudge_slider,
    open_dashboard,
    record,
    redraw_time,
    roll_dice,
    shows_error,
    tray_until,
    until,
    wait_for_charts,
)
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

EXACT_VALUE = re.compile(r"(probability|expected final score) \d+(/\d+)?")
LAST_GOAL = (  # playing last: the goal is the total to beat or the moon
    f"() => ({CHART_TEXT})(0).includes('or the moon') || ['moon', 'whatever you score']"
    ".some(w => document.querySelector('.trois-status').innerText.includes(w))"
)


def test_les_trois(server, page):
    first = open_dashboard(page, server, "les-trois.ipynb")
    page.wait_for_selector("table.figures", timeout=30_000)
    no_errors(page)
    wait_for_charts(page, 2)  # the score distribution, the moon chance
    chart_shows(page, "playing for the least expected score", 0)
    page.locator("table.figures details summary").first.click()  # the least expected score: exact, one click away
    expect(page.locator("table.figures")).to_contain_text("504205555/80621568", use_inner_text=True)
    page.screenshot(path=str(ARTIFACTS / "les-trois-start.png"), full_page=True)

    # The first roll: five dice, none set aside; the hint weighs every set-aside exactly.
    moon_before = chart_svg(page, 1)
    rolls = [roll_dice(page)]
    dice = fresh_dice(page, 5)
    page.wait_for_function(
        "(old) => document.querySelectorAll('.widget-output svg.marks')[1].innerHTML !== old",
        arg=moon_before,
        timeout=30_000,
    )
    hint = click_until(page, page.locator(".hint-toggle"), "() => !!document.querySelector('.hint-table')")
    at_least(page.locator(".hint-row"), 5)
    expect(page.locator(".hint-row.best")).to_have_count(1)
    expect(page.locator(".hint-best")).to_contain_text(EXACT_VALUE, use_inner_text=True)
    expect(page.locator(".hint-panel")).to_contain_text("Goal: the least expected score", use_inner_text=True)
    expect(page.locator(".hint-table")).to_contain_text("set aside all: score", use_inner_text=True)

    # Roll without setting a die aside: a message in the page, no traceback.
    page.locator(".roll-button").click()
    shows_error(page, "set aside at least one die")
    page.screenshot(path=str(ARTIFACTS / "les-trois-bad-input.png"), full_page=True)

    # Click a die: it is marked, Roll now rolls four, and the hint weighs that choice.
    face = dice[0][0]
    choice = mark_first_die(page, "Roll 4 dice", "set aside")
    page.screenshot(path=str(ARTIFACTS / "les-trois-hint.png"), full_page=True)

    # Roll again: the die set aside is final (locked), four new dice are in play.
    rolls.append(roll_dice(page))
    error_cleared(page)
    tray_until(  # the first die set aside for good, four to choose from
        page,
        "(d, face) => d.length === 5 && d[0][0] === face && d[0][1] && !d[0][2] && d.slice(1).every(([, , c]) => c)",
        face,
    )
    expect(page.locator(".roll-counter")).to_contain_text("Roll 2 · 1 of 5 dice set aside", use_inner_text=True)
    expect(page.locator(".nessus-tray")).to_contain_text("final", use_inner_text=True)

    # Another goal: the chart and the hint follow it.
    goal = page.locator(".trois-goal select")
    before = chart_svg(page, 0)
    moon_redraw = redraw_time(page, before, lambda: goal.select_option(label="shoot the moon: five 6s"), 0)
    chart_shows(page, "playing for P(shooting the moon: 5 sixes)", 0)
    page.wait_for_function(
        "() => document.querySelector('.hint-panel').innerText.includes('Goal: P(shooting the moon')", timeout=30_000
    )
    before = chart_svg(page, 0)
    goal_redraw = redraw_time(page, before, lambda: goal.select_option(label="P(score ≤ a target)"), 0)
    chart_shows(page, "playing for P(score ≤ 5)", 0)
    before = chart_svg(page, 0)
    target_redraw = redraw_time(page, before, lambda: nudge_slider(page), 0)
    chart_shows(page, "playing for P(score ≤ 6)", 0)
    page.wait_for_function(
        "() => document.querySelector('.hint-panel').innerText.includes('Goal: P(score ≤ 6)')", timeout=30_000
    )

    # End the turn: set aside every die left.
    click_until(
        page,
        page.locator(".stop-button"),
        "() => document.querySelector('.trois-status').innerText.includes('Turn over')",
    )
    expect(page.locator(f"{DIE}:enabled")).to_have_count(0)
    no_errors(page)
    page.screenshot(path=str(ARTIFACTS / "les-trois.png"), full_page=True)

    # A bad number of dice is a message; three dice redraw the chart.
    field = page.get_by_label("dice", exact=True)
    enter_bad(page, field, "9", "dice must be an integer from 1 to 6")
    before = chart_svg(page, 0)
    dice_redraw = redraw_time(page, before, lambda: (field.fill("3"), field.press("Enter")), 0)
    chart_shows(page, "with 3 dice", 0)
    error_cleared(page)
    page.wait_for_function(  # the button's label may follow the chart by a moment
        "() => document.querySelector('.roll-button').innerText.includes('Roll 3 dice')", timeout=30_000
    )
    field.fill("5")
    field.press("Enter")
    page.wait_for_function(
        "() => document.querySelector('.roll-button').innerText.includes('Roll 5 dice')", timeout=30_000
    )

    # Against the machine, one round, from the last seat: you play for the win against their totals.
    page.locator(".trois-mode button", has_text="Against the machine").click()
    page.wait_for_selector(".trois-sheet", timeout=30_000)
    expect(page.locator(".trois-player")).to_have_count(3)
    rounds = page.get_by_label("rounds", exact=True)
    rounds.fill("1")
    rounds.press("Enter")
    page.wait_for_function(
        "() => document.querySelector('.trois-round').innerText.includes('Round 1 of 1')", timeout=30_000
    )
    before = chart_svg(page, 0)
    seat_redraw = redraw_time(page, before, lambda: page.locator(".trois-seat select").select_option("3"), 0)
    start, game = time.perf_counter(), 0.0
    while not page.locator(".trois-result").count():
        status = page.locator(".trois-status").inner_text()
        if "you play last" in status:
            until(page, LAST_GOAL, now=lambda: (chart_text(page, 0), page.locator(".trois-status").inner_text()))
        if "Next round" in page.locator(".new-button").inner_text():
            click_until(
                page,
                page.locator(".new-button"),
                "() => !document.querySelector('.stop-button').disabled || "
                "!!document.querySelector('.trois-result') || "
                "+document.querySelector('.roll-counter').dataset.made === 0",
            )
        elif page.locator(".stop-button").is_disabled():
            # the page may still be settling (the machine finishing the round, or Stop enabled a
            # moment after the roll counter moved): wait until there is something to click or read
            page.wait_for_function(
                "() => !!document.querySelector('.trois-result') || "
                "!document.querySelector('.roll-button').disabled || "
                "!document.querySelector('.stop-button').disabled",
                timeout=30_000,
            )
            if page.locator(".stop-button").is_disabled() and page.locator(".roll-button").is_enabled():
                rolls.append(roll_dice(page))
        else:
            game = click_until(
                page, page.locator(".stop-button"), "() => document.querySelector('.stop-button').disabled"
            )
        assert time.perf_counter() - start < 30
    page.wait_for_function(
        "() => document.querySelector('.roll-counter').innerText.includes('Turn over')", timeout=30_000
    )
    won = re.compile(r"(You win|Player \d wins) with the lowest total|shoots? the moon")
    expect(page.locator(".trois-result")).to_contain_text(won, use_inner_text=True)
    no_errors(page)
    page.screenshot(path=str(ARTIFACTS / "les-trois-game.png"), full_page=True)
    record(
        "les-trois",
        first_chart=first,
        roll_max=max(rolls),
        hint_shown=hint,
        die_click=choice,
        moon_redraw=moon_redraw,
        goal_redraw=goal_redraw,
        target_redraw=target_redraw,
        dice_redraw=dice_redraw,
        seat_redraw=seat_redraw,
        set_aside_all_and_machines=game,
    )
