"""Le Légit dashboard in a real browser (helpers in browser.py, the voila `server` fixture in
conftest.py): a turn played with clicks and the hint, the goal and rerolls controls redrawing
the charts (a bad value is a message), and rounds against the machine, first and second seat."""

from __future__ import annotations

import re
import time

import pytest
from browser import (
    ARTIFACTS,
    at_least,
    chart_shows,
    chart_svg,
    click_until,
    enter_bad,
    error_cleared,
    no_errors,
    nudge_slider,
    open_dashboard,
    record,
    redraw_time,
    roll_dice,
    until,
)
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

EXACT_VALUE = re.compile(r"(expected score|probability|share of the win) (\d+(/\d+)?|≈ \d+\.\d+)")
FRACTION = re.compile(r"^-?\d+/\d+$")
RESULT = re.compile(r"(You win|Player \d wins|share the win) with \d+")
SECOND_ROLL = (  # the second roll, or the turn over (every die paired off)
    "() => document.querySelector('.roll-counter').innerText.includes('Roll 2 of 4')"
    " || document.querySelector('.legit-status').innerText.includes('Turn over')"
)
TURN_OVER = "() => document.querySelector('.legit-status').innerText.includes('Turn over')"
DILEMMA_ROWS = (
    "(n) => document.querySelectorAll('.dilemma-row').length === n"
    " && document.querySelectorAll('.widget-output svg.marks').length === 2"
)


def exact_best(pg) -> None:
    """The hint's best value is exact: a whole number or a fraction shown, or a decimal with the
    fraction one click away."""
    best = pg.locator(".hint-best")
    expect(best).to_contain_text(EXACT_VALUE, use_inner_text=True)
    hidden = best.locator("details.nessus-exact code.exact")
    if hidden.count():  # read once the value is shown: the fraction comes in the same HTML
        expect(hidden.first).to_have_text(FRACTION)  # hidden until clicked: its text content


def status(pg) -> str:
    return pg.locator(".legit-status").inner_text()


def roll_to_a_choice(pg, rolls: list[float]) -> None:
    """Roll (new turns as needed) until the turn waits for keep or reroll."""
    for _ in range(20):
        if "Turn over" in status(pg):
            click_until(
                pg, pg.locator(".new-button"), "() => +document.querySelector('.roll-counter').dataset.made === 0"
            )
        rolls.append(roll_dice(pg))
        if "Turn over" not in status(pg):
            return
    pytest.fail("no choice to make in 20 rolls")


def finish_turn(pg, rolls: list[float]) -> float:
    """Keep at once (or roll first if the turn has not started); the seconds the click took to
    end the turn (the roll's, if every die paired off)."""
    if "press Roll" in status(pg):
        rolls.append(roll_dice(pg))
    if "Turn over" in status(pg):
        return rolls[-1]
    return click_until(pg, pg.locator(".keep-button"), TURN_OVER)


def test_le_legit(server, page):
    first = open_dashboard(page, server, "le-legit.ipynb")
    page.wait_for_selector("table.figures", timeout=30_000)
    no_errors(page)
    chart_shows(page, "playing for the expected score")
    start = time.perf_counter()
    page.wait_for_function(DILEMMA_ROWS, arg=4, timeout=30_000)
    dilemma = time.perf_counter() - start + first
    chart_shows(page, "The first player's dilemma (2 players, up to 3 rerolls)", 1)
    expect(page.locator(".dilemma-share")).to_contain_text("playing to win", use_inner_text=True)
    page.screenshot(path=str(ARTIFACTS / "le-legit-start.png"), full_page=True)
    page.locator("table.dilemma").scroll_into_view_if_needed()
    page.screenshot(path=str(ARTIFACTS / "le-legit-dilemma.png"), full_page=True)
    page.locator(".legit-mode").scroll_into_view_if_needed()

    # Before the first roll the hint says what the turn is worth; after it, keep against reroll, exactly.
    hint = click_until(page, page.locator(".hint-toggle"), "() => !!document.querySelector('.hint-panel')")
    expect(page.locator(".hint-panel")).to_contain_text("this turn is worth", use_inner_text=True)
    rolls: list[float] = []
    roll_to_a_choice(page, rolls)
    expect(page.locator(".hint-row")).to_have_count(2)
    expect(page.locator(".hint-row.best")).to_have_count(1)
    total = int(page.locator(".legit-total").inner_text())  # the roll, drawn before the counter roll_dice waited for
    expect(page.locator(".hint-table")).to_contain_text(f"keep {total}", use_inner_text=True)
    expect(page.locator(".hint-table")).to_contain_text(re.compile(r"reroll the \d dice left"), use_inner_text=True)
    exact_best(page)
    expect(page.locator(".keep-button")).to_have_text(f"Keep {total}", use_inner_text=True)
    pairs = page.locator(".legit-pair").count()
    expect(page.locator(".legit-roll svg.die")).to_have_count(6 - 2 * pairs)
    page.screenshot(path=str(ARTIFACTS / "le-legit-hint.png"), full_page=True)

    # Reroll, then keep: each choice is judged in the log against the best one.
    rolls.append(roll_dice(page))
    until(page, SECOND_ROLL, now=lambda: status(page))
    keep = finish_turn(page, rolls)
    verdicts = page.locator(".legit-verdict")
    at_least(verdicts, 1)
    expect(verdicts.first).to_contain_text(re.compile(r"You (reroll|keep): (optimal|it costs)"), use_inner_text=True)
    expect(page.locator(".legit-status")).to_contain_text(re.compile(r"Your score: \d+"), use_inner_text=True)
    no_errors(page)

    # Beat a score: the chart follows the goal and the slider; the hint too.
    before = chart_svg(page, 0)
    goal_redraw = redraw_time(
        page, before, lambda: page.locator(".legit-goal button", has_text="beat a score").click(), 0
    )
    chart_shows(page, "playing for P(score > 15) + ½ P(score = 15)")
    before = chart_svg(page, 0)
    target_redraw = redraw_time(page, before, lambda: nudge_slider(page), 0)
    chart_shows(page, "P(score > 16)")
    click_until(
        page,
        page.locator(".new-button"),
        "() => document.querySelector('.hint-panel').innerText.includes('Goal: P(score > 16)')",
    )
    page.screenshot(path=str(ARTIFACTS / "le-legit-beat.png"), full_page=True)

    # Rerolls: a bad value is a message in the page; a good one redraws both charts.
    field = page.get_by_label("rerolls", exact=True)
    enter_bad(page, field, "5", "rerolls must be an integer from 0 to 3")
    no_errors(page)
    page.screenshot(path=str(ARTIFACTS / "le-legit-bad-input.png"), full_page=True)
    before = chart_svg(page, 0)
    rerolls_redraw = redraw_time(page, before, lambda: (field.fill("1"), field.press("Enter")), 0)
    error_cleared(page)
    chart_shows(page, "at most 1 reroll,")
    page.wait_for_function(DILEMMA_ROWS, arg=2, timeout=30_000)
    chart_shows(page, "up to 1 reroll)", 1)
    field.fill("3")
    field.press("Enter")
    page.wait_for_function(DILEMMA_ROWS, arg=4, timeout=30_000)

    # Against the machine, first seat: you set the cap; the hint weighs your share of the win.
    page.locator(".legit-mode button", has_text="Against the machine").click()
    page.wait_for_selector(".legit-players", timeout=30_000)
    expect(page.locator(".legit-player")).to_have_count(2)
    page.wait_for_function(
        "() => document.querySelector('.nessus-chart').innerText.includes('first of 2 players')", timeout=30_000
    )
    rolls.append(roll_dice(page))
    if "Turn over" not in status(page):
        expect(page.locator(".hint-panel")).to_contain_text(
            "Goal: your share of the win, first of 2 players", use_inner_text=True
        )
        exact_best(page)
    round_first = finish_turn(page, rolls)
    expect(page.locator(".legit-result")).to_contain_text(
        re.compile(r"(You win|Player 2 wins|share the win) with \d+"), use_inner_text=True
    )
    no_errors(page)
    page.screenshot(path=str(ARTIFACTS / "le-legit-game-first.png"), full_page=True)

    # Four players, second seat: player 1 has played and capped your rerolls; you chase the best score.
    players = page.get_by_label("players", exact=True)
    before = chart_svg(page, 1)
    players_redraw = redraw_time(page, before, lambda: (players.fill("4"), players.press("Enter")), 1)
    chart_shows(page, "(4 players, up to 3 rerolls)", 1)
    page.locator(".legit-machine select").select_option(label="reroll below 8")
    page.wait_for_function(
        "() => document.querySelector('.legit-players').innerText.includes('(reroll below 8)')", timeout=30_000
    )
    before = chart_svg(page, 0)
    seat_redraw = redraw_time(page, before, lambda: page.locator(".legit-seat select").select_option("2"), 0)
    page.wait_for_function(
        "() => document.querySelector('.legit-status').innerText.includes('Score to beat')", timeout=30_000
    )
    expect(page.locator(".legit-players")).to_contain_text("to play", use_inner_text=True)
    chart_shows(page, "P(score >")
    while "Turn over" not in status(page):
        if page.locator(".roll-button").is_disabled() or "press Roll" not in status(page):
            click_until(page, page.locator(".keep-button"), TURN_OVER)
        else:
            rolls.append(roll_dice(page))
    expect(page.locator(".legit-result")).to_contain_text(RESULT, use_inner_text=True)
    expect(page.locator(".legit-players")).not_to_contain_text("to play", use_inner_text=True)
    until(  # the three machines, each named with its rule
        page,
        "() => document.querySelector('.legit-players').innerText.split('reroll below 8').length === 4",
        now=lambda: page.locator(".legit-players").inner_text(),
    )
    no_errors(page)
    page.screenshot(path=str(ARTIFACTS / "le-legit-game.png"), full_page=True)
    record(
        "le-legit",
        first_chart=first,
        dilemma_shown=dilemma,
        hint_shown=hint,
        roll_max=max(rolls),
        keep=keep,
        goal_redraw=goal_redraw,
        target_redraw=target_redraw,
        rerolls_redraw=rerolls_redraw,
        round_as_first=round_first,
        players_redraw=players_redraw,
        seat_redraw=seat_redraw,
    )
