"""Les Royaumes in a real browser (helpers in browser.py, the voila `server` fixture in
conftest.py): the page opens with its two charts, the hint gives the exact odds of the duel
once the bank has rolled, Roll and Play on settle a round, the fine redraws the EV chart (a bad
one is a message), and rounds are played against the machine from a player's seat and as the bank."""

from __future__ import annotations

import time
from fractions import Fraction

import pytest
from browser import (
    ARTIFACTS,
    chart_shows,
    chart_svg,
    click_until,
    enter_bad,
    error_cleared,
    no_errors,
    open_dashboard,
    record,
    redraw_time,
    wait_for_charts,
)
from playwright.sync_api import expect

from nessus.dist import exact_str
from nessus.games import royaumes

pytestmark = pytest.mark.browser

ROLLS = "+document.querySelector('.royaumes-log').dataset.lines"


def rolls(pg) -> int:
    return int(pg.locator(".royaumes-log").get_attribute("data-lines"))


def click_and_wait(pg, button) -> float:
    """Click Roll or Play on; the seconds until the log counts more rolls."""
    return click_until(pg, button, f"(n) => {ROLLS} > n", rolls(pg))


def round_over(pg) -> bool:
    return "over" in pg.locator(".royaumes-status").inner_text()


def play_round(pg, moves: list[float]) -> None:
    """Roll when the roll is yours, else Play on, until the round is over (a new round first if due)."""
    if round_over(pg):
        click_until(
            pg,
            pg.locator(".new-button"),
            "() => !document.querySelector('.royaumes-status').innerText.includes('over')",
        )
    start = time.perf_counter()
    while not round_over(pg):
        roll = pg.locator(".roll-button")
        moves.append(click_and_wait(pg, pg.locator(".play-button") if roll.is_disabled() else roll))
        assert time.perf_counter() - start < 30


def test_les_royaumes(server, page):
    first = open_dashboard(page, server, "les-royaumes.ipynb")
    page.wait_for_selector("table.figures", timeout=30_000)
    no_errors(page)
    wait_for_charts(page, 2)  # EV by fine, P(win) by the bank's result
    chart_shows(page, "A player's expected value per round, by fine (exact)")
    expect(page.locator(".royaumes-cell")).to_have_count(21)
    ev = royaumes.player_ev(Fraction(1, 10))
    expect(page.locator("table.figures")).to_contain_text(exact_str(ev), use_inner_text=True)
    page.screenshot(path=str(ARTIFACTS / "les-royaumes-start.png"), full_page=True)

    # The hint before the bank rolls: the round's exact expected value.
    hint = click_until(page, page.locator(".hint-toggle"), "() => !!document.querySelector('.hint-table')")
    expect(page.locator(".hint-best")).to_contain_text(exact_str(ev), use_inner_text=True)

    # Alone: roll for the bank; its result lights up in the kingdoms and in the duel chart.
    before = chart_svg(page, 1)
    bank_roll = redraw_time(page, before, lambda: page.locator(".roll-button").click(), 1)
    page.wait_for_function(f"() => {ROLLS} === 1", timeout=30_000)
    expect(page.locator(".royaumes-cell.bank")).to_have_count(1)
    result = page.locator(".royaumes-cell.bank").get_attribute("data-result")
    bank = tuple(int(x) for x in result.split("-"))
    chart_shows(page, f"the bank rolled {result}", 1)
    if royaumes.bank_outcome(bank) == "duel":
        expect(page.locator(".hint-panel")).to_contain_text(
            exact_str(royaumes.p_player_beats(bank)), use_inner_text=True
        )
        expect(page.locator(".hint-panel")).to_contain_text(
            exact_str(royaumes.player_ev_given(bank, Fraction(1, 10))), use_inner_text=True
        )
        expect(page.locator(".roll-button")).to_contain_text("Roll your dice", use_inner_text=True)
    page.screenshot(path=str(ARTIFACTS / "les-royaumes-hint.png"), full_page=True)

    # Play on to the end of the round: the score sheet has the bankrolls.
    if not round_over(page):
        click_and_wait(page, page.locator(".play-button"))
    expect(page.locator(".royaumes-status")).to_contain_text("over", use_inner_text=True)
    expect(page.locator(".royaumes-result")).to_contain_text("after 1 round:", use_inner_text=True)
    no_errors(page)

    # The fine: the EV chart is redrawn; a bad fine is a message, no traceback.
    field = page.get_by_label("fine", exact=True)
    before = chart_svg(page, 0)
    fine_redraw = redraw_time(page, before, lambda: (field.fill("1/2"), field.press("Enter")), 0)
    chart_shows(page, f"at fine 1/2: {exact_str(royaumes.player_ev(Fraction(1, 2)))}")
    enter_bad(page, field, "3/2", "fine must be a number (e.g. 1/10 or 0.1) from 0 to 1")
    no_errors(page)
    page.screenshot(path=str(ARTIFACTS / "les-royaumes-bad-input.png"), full_page=True)
    before = chart_svg(page, 0)
    redraw_time(page, before, lambda: (field.fill("0.1"), field.press("Enter")), 0)
    error_cleared(page)
    chart_shows(page, "at fine 1/10")

    # Against the machine from seat 2: the bank and player 1 roll when you press Play on.
    page.locator(".royaumes-mode button", has_text="Against the machine").click()
    page.wait_for_function(
        "() => document.querySelectorAll('.royaumes-sheet .royaumes-player').length === 5", timeout=30_000
    )
    page.locator(".royaumes-seat select").select_option("2")
    page.wait_for_function(
        "() => document.querySelector('.royaumes-status').innerText.includes('the bank rolls')", timeout=30_000
    )
    expect(page.locator(".roll-button")).to_be_disabled()
    moves: list[float] = []
    play_round(page, moves)
    expect(page.locator(".royaumes-status")).to_contain_text("Round 1 over", use_inner_text=True)
    play_round(page, moves)
    expect(page.locator(".royaumes-result")).to_contain_text("after 2 rounds:", use_inner_text=True)
    page.screenshot(path=str(ARTIFACTS / "les-royaumes-game.png"), full_page=True)

    # Holding the bank: you roll for it, the players roll when you press Play on.
    page.locator(".royaumes-role button", has_text="the bank").click()
    page.wait_for_function(
        "() => document.querySelector('.royaumes-status').innerText.includes('roll for the bank')", timeout=30_000
    )
    expect(page.locator(".royaumes-sheet")).to_contain_text("You (the bank)", use_inner_text=True)
    play_round(page, moves)
    expect(page.locator(".royaumes-status")).to_contain_text("Round 1 over", use_inner_text=True)
    result = page.locator(".royaumes-cell.bank").get_attribute("data-result")
    page.wait_for_function(
        "(r) => document.querySelectorAll('.nessus-chart')[1].innerText.includes(`the bank rolled ${r}`)",
        arg=result,
        timeout=30_000,
    )
    no_errors(page)
    page.screenshot(path=str(ARTIFACTS / "les-royaumes-bank.png"), full_page=True)
    record(
        "les-royaumes",
        first_chart=first,
        hint_shown=hint,
        bank_roll_redraw=bank_roll,
        fine_redraw=fine_redraw,
        game_move_max=max(moves),
        game_moves=float(len(moves)),
    )
