"""La Tresse in a real browser (helpers in browser.py, the voila `server` fixture in conftest.py):
the page opens with its two charts, the hint gives every seat's exact P(win) from the table as
it stands, Throw and Play on move the dice, the number of players redraws the chart (a bad one
is a message), and a game against the machine is played to its end."""

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
    open_dashboard,
    record,
    redraw_time,
    until,
    wait_for_charts,
)
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

THROWS = "+document.querySelector('.tresse-log').dataset.lines"  # one log line a throw
FIGURE = re.compile(r"≈ \d+\.\d+")
FOUR_FIGURES = "() => (document.querySelector('.hint-table').innerText.match(/≈ \\d+\\.\\d+/g) || []).length === 4"
FIVE_DICE = """() => Array.from(document.querySelectorAll('.tresse-place, .tresse-centre'))
    .reduce((n, e) => n + +e.dataset.dice, 0) === 5"""


def throws(pg) -> int:
    return int(pg.locator(".tresse-log").get_attribute("data-lines"))


def click_and_wait(pg, button) -> float:
    """Click Throw or Play on; the seconds until the log counts more throws (or the game ended)."""
    n = throws(pg)
    return click_until(pg, button, f"(n) => {THROWS} > n || !!document.querySelector('.tresse-result')", n)


def test_la_tresse(server, page):
    first = open_dashboard(page, server, "la-tresse.ipynb")
    page.wait_for_selector("table.figures", timeout=30_000)
    no_errors(page)
    wait_for_charts(page, 2)  # P(win) at the start, during the game
    chart_shows(page, "P(win) by seat: 4 players, 5 dice (exact)")
    expect(page.locator(".tresse-place")).to_have_count(4)
    expect(page.locator(".tresse-place.throwing")).to_have_attribute("data-seat", "1")
    expect(page.locator("table.figures")).to_contain_text("expected throws in a game", use_inner_text=True)
    page.screenshot(path=str(ARTIFACTS / "la-tresse-start.png"), full_page=True)

    # The hint: every seat's exact P(win) from the start, and the throws left.
    hint = click_until(page, page.locator(".hint-toggle"), "() => !!document.querySelector('.hint-table')")
    expect(page.locator(".hint-row")).to_have_count(4)
    expect(page.locator(".hint-best")).to_contain_text(FIGURE, use_inner_text=True)
    until(page, FOUR_FIGURES, now=lambda: page.locator(".hint-table").inner_text())  # a figure per seat
    expect(page.locator(".hint-panel")).to_contain_text("Exact: the absorbing Markov chain", use_inner_text=True)

    # One throw of the five dice: each die says where it went, the chances move on.
    before = chart_svg(page, 1)
    throw = redraw_time(page, before, lambda: page.locator(".roll-button").click(), 1)
    page.wait_for_function(f"() => {THROWS} === 1", timeout=30_000)
    expect(page.locator(".tresse-last .tresse-die")).to_have_count(5)
    expect(page.locator(".tresse-last")).to_contain_text("Throw 1", use_inner_text=True)
    until(page, FIVE_DICE)  # the dice in the seats' hands and in the centre

    # Play on: the seat throws until its hand is empty, then the next seat with dice plays.
    plays = []
    while (
        page.locator(".tresse-place.throwing").count()
        and page.locator(".tresse-place.throwing").get_attribute("data-seat") == "1"
    ):
        plays.append(click_and_wait(page, page.locator(".play-button")))
    expect(page.locator(".tresse-log", has_text="Turn over").or_(page.locator(".tresse-result")).first).to_be_attached()
    no_errors(page)
    page.screenshot(path=str(ARTIFACTS / "la-tresse-hint.png"), full_page=True)

    # Six players: the start chart is redrawn, figures now bracketed (and say so).
    field = page.get_by_label("players", exact=True)
    before = chart_svg(page, 0)
    players_redraw = redraw_time(page, before, lambda: (field.fill("6"), field.press("Enter")), 0)
    chart_shows(page, "6 players, 5 dice (proven brackets")
    page.wait_for_function("() => document.querySelectorAll('.tresse-place').length === 6", timeout=30_000)
    page.wait_for_function(
        "() => document.querySelector('.hint-panel').innerText.includes('Floats with a proven error bound')",
        timeout=30_000,
    )
    expect(page.locator(".hint-table")).to_contain_text(
        "proven to within about", use_inner_text=True
    )  # a bracket, said in words

    # A bad number of players: a message, no traceback; then a good one again.
    enter_bad(page, field, "12", "players must be an integer from 2 to 10")
    no_errors(page)
    page.screenshot(path=str(ARTIFACTS / "la-tresse-bad-input.png"), full_page=True)
    field.fill("3")
    field.press("Enter")
    page.wait_for_function(
        "() => !document.querySelector('.nessus-error') && document.querySelectorAll('.tresse-place').length === 3",
        timeout=30_000,
    )

    # Against the machine, from seat 2: player 1 throws when you press Play on; you throw yours.
    page.locator(".tresse-mode button", has_text="Against the machine").click()
    page.locator(".tresse-seat select").wait_for(state="visible", timeout=30_000)
    before = chart_svg(page, 0)
    seat_redraw = redraw_time(page, before, lambda: page.locator(".tresse-seat select").select_option("2"), 0)
    page.wait_for_function(
        "() => document.querySelector('.tresse-status').innerText.includes('Player 1 throws 5 dice next')",
        timeout=30_000,
    )
    expect(page.locator(".roll-button")).to_be_disabled()
    expect(page.locator(".play-button")).to_be_enabled()
    moves = []
    start = time.perf_counter()
    while not page.locator(".tresse-result").count():
        button = (
            page.locator(".play-button") if page.locator(".roll-button").is_disabled() else page.locator(".roll-button")
        )
        moves.append(click_and_wait(page, button))
        assert time.perf_counter() - start < 60
    won = re.compile(r"(You win|Player \d wins): the last die is in the centre")
    expect(page.locator(".tresse-result")).to_contain_text(won, use_inner_text=True)
    expect(page.locator(".tresse-status")).to_contain_text("Game over", use_inner_text=True)
    expect(page.locator(".roll-button")).to_be_disabled()
    expect(page.locator(".play-button")).to_be_disabled()
    no_errors(page)
    page.screenshot(path=str(ARTIFACTS / "la-tresse-game.png"), full_page=True)
    record(
        "la-tresse",
        first_chart=first,
        hint_shown=hint,
        throw_redraw=throw,
        play_on_max=max(plays),
        players_redraw=players_redraw,
        seat_redraw=seat_redraw,
        game_move_max=max(moves),
        game_moves=float(len(moves)),
    )
