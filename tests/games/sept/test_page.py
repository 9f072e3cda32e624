"""The Le Sept fatal (and Pig) dashboard in a real browser (helpers in browser.py, the voila
`server` fixture in conftest.py): one turn alone with the exact hint, the hold-at-N slider
redrawing the charts, a game against the machine to its end (a bad number of rounds is a
message), and Pig to a small goal."""

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
    no_errors,
    nudge_slider,
    open_dashboard,
    record,
    redraw_time,
    roll_dice,
    tray_until,
    wait_for_charts,
)
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

RESULT = re.compile(r"^(You win|The machine wins), \d+ to \d+\.$")
EXACT = re.compile(r"expected turn score (\d+/\d+ ≈ \d|≈ \d+\.\d+|\d+$)")
TOTAL = "() => +document.querySelector('.sept-total').dataset.total"
MOVES = "+document.querySelector('.roll-counter').dataset.moves"
MADE = "+document.querySelector('.roll-counter').dataset.made"


def status(pg) -> str:
    return pg.locator(".sept-status").inner_text()


def turn_total(pg) -> int:
    return int(pg.evaluate(TOTAL))


def moves(pg) -> int:
    """Your rolls and holds so far (this turn alone, this game)."""
    return int(pg.evaluate(f"() => {MOVES}"))


def play_to_the_end(pg, hold_from: int, rolls: list[float], limit: float = 40) -> None:
    """Roll until the turn total reaches `hold_from`, then hold, until the game's result shows
    who won and by how much."""
    start = time.perf_counter()
    while not pg.locator(".sept-result").count():
        if turn_total(pg) >= hold_from:
            click_until(pg, pg.locator(".stop-button"), f"() => {MOVES} === {moves(pg) + 1}")
        else:
            rolls.append(roll_dice(pg))
        assert time.perf_counter() - start < limit, status(pg)
    expect(pg.locator(".sept-result")).to_have_text(RESULT, use_inner_text=True)


def test_le_sept_fatal(server, page):
    first = open_dashboard(page, server, "le-sept-fatal.ipynb")
    page.wait_for_selector("table.figures", timeout=30_000)
    no_errors(page)
    chart_shows(page, "the score of one turn holding at 35 (exact)")
    wait_for_charts(page, 2)  # one turn at N, the mean by N
    expect(page.locator("table.figures")).to_contain_text("best N for points: 35", use_inner_text=True)
    page.screenshot(path=str(ARTIFACTS / "le-sept-fatal-start.png"), full_page=True)

    # Alone, before the first roll: the only move is to roll, worth the best expected turn score.
    hint = click_until(page, page.locator(".hint-toggle"), "() => !!document.querySelector('.hint-table')")
    expect(page.locator(".hint-row")).to_have_count(1)
    expect(page.locator(".hint-best")).to_contain_text("roll", use_inner_text=True)
    expect(page.locator(".hint-best")).to_contain_text("≈ 14.271", use_inner_text=True)

    # Roll (new turns after a 7) until a turn total stands: two dice, roll again or hold, exactly.
    rolls: list[float] = []
    for _ in range(30):
        rolls.append(roll_dice(page))
        if "Turn over" not in status(page):
            break
        expect(page.locator(".sept-status")).to_contain_text("The turn total is wiped", use_inner_text=True)
        tray_until(page, "(d) => d.reduce((s, [f]) => s + f, 0) === 7")
        click_until(page, page.locator(".new-button"), f"() => {MADE} === 0")
    k = turn_total(page)
    tray_until(page, "(d, k) => d.length === 2 && d.reduce((s, [f]) => s + f, 0) === k && !d.some(([, , c]) => c)", k)
    expect(page.locator(".hint-row")).to_have_count(2)
    expect(page.locator(".hint-table")).to_contain_text(f"hold: bank {k}", use_inner_text=True)
    expect(page.locator(".hint-table")).to_contain_text("roll again", use_inner_text=True)
    expect(page.locator(".hint-best")).to_contain_text(EXACT, use_inner_text=True)
    expect(page.locator(".sept-advice")).to_contain_text("Hold at N = 35 says: roll", use_inner_text=True)
    page.screenshot(path=str(ARTIFACTS / "le-sept-fatal-hint.png"), full_page=True)

    # Hold: the turn banks k and the last move is judged against the best.
    held = click_until(page, page.locator(".stop-button"), f"() => {MOVES} === {moves(page) + 1}")
    expect(page.locator(".sept-status")).to_contain_text(f"you score {k}", use_inner_text=True)
    verdict = re.compile(rf"^Your last move \(hold at turn total {k}\).*(optimal|cost)", re.S)
    expect(page.locator(".sept-verdict")).to_have_text(verdict, use_inner_text=True)

    # The slider: hold at 36 redraws the turn's distribution and the mean-by-N chart.
    before, means_before = chart_svg(page, 0), chart_svg(page, 1)
    hold_redraw = redraw_time(page, before, lambda: nudge_slider(page), 0)
    page.wait_for_function(
        "(old) => document.querySelectorAll('.widget-output svg.marks')[1].innerHTML !== old",
        arg=means_before,
        timeout=30_000,
    )
    chart_shows(page, "holding at 36")
    page.wait_for_function(
        "() => document.querySelector('table.figures').innerText.includes('holding at 36')", timeout=30_000
    )
    no_errors(page)
    page.screenshot(path=str(ARTIFACTS / "le-sept-fatal.png"), full_page=True)

    # Against the machine: P(win) by value iteration, labelled as floats; the hold boundary chart.
    page.locator(".sept-mode button", has_text="Against the machine").click()
    page.wait_for_selector(".sept-sheet", timeout=30_000)
    page.wait_for_function("() => document.querySelectorAll('.widget-output svg.marks').length === 3", timeout=30_000)
    page.wait_for_function(
        "() => document.querySelector('.hint-panel').innerText.includes('value iteration')", timeout=30_000
    )
    expect(page.locator(".hint-table")).to_contain_text("P(you win) (≈, value iteration)", use_inner_text=True)
    expect(page.locator(".sept-method")).to_contain_text("not exact", use_inner_text=True)
    expect(page.locator(".hint-best")).to_contain_text(
        "≈ 0.38173", use_inner_text=True
    )  # the first player's chance, stored table
    expect(page.locator(".sept-player")).to_have_count(2)
    page.locator(".nessus-chart").nth(2).screenshot(path=str(ARTIFACTS / "le-sept-fatal-boundary.png"))

    # A bad number of rounds is a message, not a traceback; one round, played to the end.
    field = page.get_by_label("rounds", exact=True)
    enter_bad(page, field, "9", "rounds must be an integer from 1 to 5")
    page.screenshot(path=str(ARTIFACTS / "le-sept-fatal-bad-input.png"), full_page=True)
    start = time.perf_counter()
    field.fill("1")
    field.press("Enter")
    page.wait_for_function(
        "() => !document.querySelector('.nessus-error') && document.querySelector('.sept-status').innerText"
        ".includes('round 1 of 1') && " + MADE + " === 0",
        timeout=60_000,
    )
    solve = time.perf_counter() - start
    play_to_the_end(page, 20, rolls)
    expect(page.locator(".roll-button")).to_be_disabled()
    no_errors(page)
    page.screenshot(path=str(ARTIFACTS / "le-sept-fatal-game.png"), full_page=True)

    # Pig: one die, the best hold for points is 20; a goal of 500 is refused; a game to 12.
    before = chart_svg(page, 0)
    switch = redraw_time(page, before, lambda: page.locator(".sept-game button", has_text="Pig").click(), 0)
    chart_shows(page, "Pig: the score of one turn holding at 20")
    goal = page.get_by_label("goal", exact=True)
    goal.fill("500")
    goal.press("Enter")
    page.wait_for_function(
        "() => (document.querySelector('.nessus-error') || {}).innerText?.includes('goal must be an integer from 1 to "
        "100')",
        timeout=30_000,
    )
    goal.fill("12")
    goal.press("Enter")
    page.wait_for_function(
        "() => !document.querySelector('.nessus-error') && document.querySelector('.sept-status').innerText"
        ".includes('first to 12') && " + MADE + " === 0",
        timeout=30_000,
    )
    play_to_the_end(page, 4, rolls)
    tray_until(page, "(d) => d.length <= 1")  # Pig's one die
    no_errors(page)
    page.screenshot(path=str(ARTIFACTS / "le-sept-fatal-pig.png"), full_page=True)
    page.locator(".nessus-chart").nth(2).screenshot(path=str(ARTIFACTS / "le-sept-fatal-pig-boundary.png"))
    record(
        "le-sept-fatal",
        first_chart=first,
        roll_max=max(rolls),
        hint_shown=hint,
        hold=held,
        hold_redraw=hold_redraw,
        rounds_solve=solve,
        pig_switch=switch,
    )
