"""The L'Hypogéon dashboard in a real browser (helpers in browser.py, the voila `server`
fixture in conftest.py): the hint before and after the first roll, a turn played with clicks,
the k slider redrawing the charts, a bad number of players, and a whole game to 2 points.
The last test drives the dashboard from Python (no browser): huge exact odds, moves out of turn."""

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
    wait_for_charts,
)
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

TOTAL = "() => document.querySelector('.hypogeon-total').innerText"
ROUND_OVER = "() => !!document.querySelector('.hypogeon-round')"


def total(page) -> int:
    """The running total shown on the gauge (0 before the first roll)."""
    text = page.evaluate(TOTAL)
    return int(text.split(":")[0]) if text[0].isdigit() else 0


def play_turn(page, stand_at: int, rolls: list[float]) -> None:
    """Roll until the total reaches `stand_at` (or busts), then stand: the round is scored."""
    while page.locator(".hypogeon-round").count() == 0:
        if total(page) < stand_at:
            rolls.append(roll_dice(page))
        else:
            click_until(page, page.locator(".stop-button"), ROUND_OVER)


def test_l_hypogeon(server, page):
    page.set_viewport_size({"width": 1280, "height": 1900})  # the whole page in the screenshots
    first = open_dashboard(page, server, "l-hypogeon.ipynb")
    page.wait_for_selector("table.figures", timeout=30_000)
    no_errors(page)
    chart_shows(page, "Final total of a turn, standing at 17")
    wait_for_charts(page, 3)
    page.screenshot(path=str(ARTIFACTS / "l-hypogeon-start.png"), full_page=True)

    # Before the first roll the only move is to roll; the hint says what the round is worth.
    hint = click_until(
        page,
        page.locator(".hint-toggle"),
        "() => (document.querySelector('.hint-panel') || {innerText: ''}).innerText.includes('The only move is to "
        "roll')",
    )
    expect(page.locator(".hint-panel")).to_contain_text("expected points in this round", use_inner_text=True)

    # The first roll: two dice, a total, and both moves with their exact values.
    rolls = [roll_dice(page)]
    expect(page.locator(".hypogeon-die")).to_have_count(2)
    expect(page.locator(".hypogeon-total")).to_have_text(re.compile(r"^([2-9]|1[0-2])\b"), use_inner_text=True)
    expect(page.locator(".hint-row")).to_have_count(2)
    expect(page.locator(".hint-row.best")).to_have_count(1)
    expect(page.locator(".hint-table")).to_contain_text("roll one more die", use_inner_text=True)
    expect(page.locator(".hint-table")).to_contain_text("stand on", use_inner_text=True)
    expect(page.locator(".hint-best")).to_contain_text(re.compile(r"expected points .*≈ \d\.\d+"), use_inner_text=True)
    page.screenshot(path=str(ARTIFACTS / "l-hypogeon-hint.png"), full_page=True)

    # Play the turn out: each decision is judged, and the opponent's dice are shown.
    play_turn(page, 17, rolls)
    at_least(page.locator(".hypogeon-log .verdict"), 1)
    expect(page.locator(".hypogeon-sheet")).to_contain_text("Player 2", use_inner_text=True)
    expect(page.locator(".hypogeon-tally")).to_have_count(1)
    no_errors(page)

    # The k slider: the charts follow it.
    before = chart_svg(page, 0)
    k_redraw = redraw_time(page, before, lambda: nudge_slider(page), 0)
    chart_shows(page, "standing at 18")

    # A bad number of players is a message, no traceback; a good one redraws the charts.
    field = page.get_by_label("players", exact=True)
    enter_bad(page, field, "11", "players must be an integer from 2 to 10")
    page.screenshot(path=str(ARTIFACTS / "l-hypogeon-bad-input.png"), full_page=True)
    before = chart_svg(page, 0)
    players_redraw = redraw_time(page, before, lambda: (field.fill("3"), field.press("Enter")), 0)
    error_cleared(page)
    chart_shows(page, "2 opponents standing at 18")
    no_errors(page)
    page.screenshot(path=str(ARTIFACTS / "l-hypogeon.png"), full_page=True)

    # Against the machine, first to 2 points: rounds until someone wins, with the exact odds of winning.
    page.locator(".hypogeon-mode button", has_text="Against the machine").click()
    page.wait_for_selector(".hypogeon-odds", timeout=30_000)
    expect(page.locator(".hypogeon-player")).to_have_count(3)
    target = page.get_by_label("target", exact=True)
    target.fill("2")
    target.press("Enter")
    page.wait_for_function(
        "() => document.querySelector('.hypogeon-sheet').parentElement.innerText.includes('first to 2 points')",
        timeout=30_000,
    )
    start = time.perf_counter()
    while not page.locator(".hypogeon-result").count():
        play_turn(page, 18, rolls)
        if not page.locator(".hypogeon-result").count():
            click_until(
                page, page.locator(".new-button"), "() => +document.querySelector('.roll-counter').dataset.made === 0"
            )
            expect(page.locator(".hypogeon-odds")).to_contain_text(
                "Your chance of winning the game", use_inner_text=True
            )
            page.screenshot(path=str(ARTIFACTS / "l-hypogeon-game-round.png"), full_page=True)
        assert time.perf_counter() - start < 60
    won = re.compile(r"(You win|Player \d wins) the game with \d points after \d+ rounds?\.")
    expect(page.locator(".hypogeon-result")).to_contain_text(won, use_inner_text=True)
    at_least(page.locator(".hypogeon-rounds div"), 1)
    no_errors(page)
    page.screenshot(path=str(ARTIFACTS / "l-hypogeon-game.png"), full_page=True)
    record(
        "l-hypogeon",
        first_chart=first,
        roll_max=max(rolls),
        hint_shown=hint,
        k_redraw=k_redraw,
        players_redraw=players_redraw,
    )


def test_l_hypogeon_in_python():
    """Without a browser: a move out of turn is a message, and a 10-player game to 10 points
    shows its exact odds (fractions of some 11,000 digits, longer than str() prints) as decimals."""
    from nessus.games.hypogeon import page as app
    from nessus.kit.dicegame import GAME

    d = app.HypogeonDashboard(seed=5)
    d.stop_button.click()
    assert "roll the two dice before you stand" in d.messages.widget.value
    d.seats.mode.value = GAME
    d.seats.players.widget.value = "10"
    d.target.widget.value = "10"
    assert not d.messages.widget.value and d.sheet.value.count("hypogeon-player") == 10
    assert "-digit numerator and a" in d.sheet.value and "-digit denominator" in d.sheet.value
    while not d.turn.over:
        (d.roll_button if d.turn.total < 18 else d.stop_button).click()
    assert d.sheet.value.count("plays at the same time") == 0 and "hypogeon-round" in d.sheet.value
    d.roll_button.click()
    assert "your turn is over: press Next round" in d.messages.widget.value
