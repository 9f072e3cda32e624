"""The Nessie dashboard in a real browser (helpers in browser.py, the voila `server` fixture in
conftest.py): reveal, stop and take, the take slider, the opponents' turns in the log, and the
optimal player's answers from its worker thread, timed."""

from __future__ import annotations

import re
import time

import pytest
from browser import ARTIFACTS, at_least, chart_svg, error_cleared, no_errors, open_dashboard, record, shows_error
from playwright.sync_api import expect

pytestmark = pytest.mark.browser


def _nessie_act(pg, button) -> float:
    """Click a Nessie button; the seconds until the log and the odds chart are both redrawn
    (the opponents' turns included). After the last move of a game only the log need change."""
    log, svg = pg.locator(".nessie-log").inner_text(), chart_svg(pg)
    start = time.perf_counter()
    button.click()
    pg.wait_for_function(
        """([log, svg]) => {
            const l = document.querySelector('.nessie-log').innerText;
            const s = document.querySelector('.widget-output svg.marks');
            return l !== log && ((s && s.innerHTML !== svg) || l.includes('Game over'));
        }""",
        arg=[log, svg],
        timeout=30_000,
        polling=20,
    )
    return time.perf_counter() - start


def _nessie_your_turn_started(pg) -> bool:
    """Your turn, nothing revealed yet (a sink, yours or theirs, starts a new turn of yours)."""
    return "Reveal at least one card" in pg.locator(".take-note").inner_text()


def _optimal_ticket(pg) -> int:
    """The request the optimal player's line answers or thinks about (0 when there is no line)."""
    line = pg.locator(".optimal-advice")
    return int(line.get_attribute("data-ticket")) if line.count() else 0


def _nessie_optimal(pg, after: int) -> str:
    """Wait (generously: a later turn can take the worker thread several seconds, more under
    load; a game's first turn is read from data/) until the optimal player's line answers a
    request newer than `after`, or is gone because the game is over. Its text ("" when gone);
    an error in the worker fails the test."""
    pg.wait_for_function(
        """(after) => {
            const e = document.querySelector('.optimal-advice');
            if (!e) return document.querySelector('.nessie-log').innerText.includes('Game over');
            return +e.dataset.ticket > after && e.dataset.state !== 'thinking';
        }""",
        arg=after,
        timeout=OPTIMAL_TIMEOUT_MS,
        polling=50,
    )
    line = pg.locator(".optimal-advice")
    if not line.count():
        return ""
    assert line.get_attribute("data-state") == "ready", line.inner_text()
    return line.inner_text()


def _nessie_move(pg, button, redraws: list[float], waits: list[float]) -> None:
    """A move, timed: its redraw (into `redraws`) and then, the worker being idle again before the
    next move, the seconds from the click until the optimal player has answered (into `waits`)."""
    after = _optimal_ticket(pg)
    start = time.perf_counter()
    redraws.append(_nessie_act(pg, button))
    _nessie_optimal(pg, after)
    waits.append(time.perf_counter() - start)


OPTIMAL_TIMEOUT_MS = 180_000  # a later turn solved on a busy machine
TO_TAKE_SHOWN = """() => +document.querySelector('.stop-button').innerText.trim().split(' ').pop()
    === document.querySelectorAll('.nessie-row .nessie-card.to-take').length"""
OPTIMAL_VALUE = re.compile(r"(\d+(/\d+)?|≈ \d+\.\d+) treasure")


def test_nessie(server, page):
    first = open_dashboard(page, server, "nessie.ipynb")
    opened = time.perf_counter() - first
    page.wait_for_selector(".odds-panel table.figures", timeout=30_000)
    no_errors(page)
    expect(page.locator(".odds-panel")).to_contain_text("P(sink on the next card)", use_inner_text=True)
    expect(page.locator(".nessie-row .nessie-card")).to_have_count(0)
    expect(page.locator(".nessie-player")).to_have_count(3)  # you and two opponents
    expect(page.locator(".nessie-advice")).to_contain_text("Optimal player", use_inner_text=True)
    page.screenshot(path=str(ARTIFACTS / "nessie-start.png"), full_page=True)

    # Stopping before revealing anything: a message in the page, no traceback.
    stop, reveal = page.locator(".stop-button"), page.locator(".reveal-button")
    stop.click()
    shows_error(page, "reveal at least one card before stopping")
    no_errors(page)
    page.screenshot(path=str(ARTIFACTS / "nessie-bad-input.png"), full_page=True)

    # Reveal at once, while the optimal player (a thread in the kernel) is most likely still
    # solving the game's first turn: the page answers anyway. The first card of a game never
    # sinks, so the row shows it; the odds chart changes.
    after = _optimal_ticket(page)
    first_reveal = _nessie_act(page, reveal)
    expect(page.locator(".nessie-row .nessie-card")).to_have_count(1)
    expect(page.locator(".nessie-log")).to_contain_text("You reveal", use_inner_text=True)
    error_cleared(page)

    # The optimal player's choice for the first decision of the game, with its values.
    text = _nessie_optimal(page, after)
    optimal_first = time.perf_counter() - opened
    assert re.search(r"Optimal player .*: (reveal|stop and take \d+) — ", text), text
    assert "if it stops now" in text and "if it reveals" in text and OPTIMAL_VALUE.search(text), text
    expect(page.locator(".nessie-advice")).to_contain_text("Look-ahead player", use_inner_text=True)
    no_errors(page)

    # Two more reveals (each may sink you: then the opponents play and your new turn starts),
    # then more until a card of your current turn is in the row.
    redraws: list[float] = []
    waits: list[float] = []
    for _ in range(2):
        _nessie_move(page, reveal, redraws, waits)
    while _nessie_your_turn_started(page):
        _nessie_move(page, reveal, redraws, waits)
    at_least(page.locator(".nessie-row .nessie-card"), 1)
    advice = re.compile(r"Look-ahead player .*: (reveal one more card|stop and take \d+)\.")
    expect(page.locator(".nessie-advice")).to_contain_text(advice, use_inner_text=True)
    expect(page.locator(".optimal-advice")).to_contain_text(OPTIMAL_VALUE, use_inner_text=True)
    page.screenshot(path=str(ARTIFACTS / "nessie-revealed.png"), full_page=True)

    # The take slider: the Stop button's N and the dashed cards follow it.
    page.wait_for_function(TO_TAKE_SHOWN, timeout=30_000)
    n = int(stop.inner_text().split()[-1])
    handle = page.locator(".take-slider .noUi-handle")
    handle.focus()
    handle.press("ArrowLeft" if n > 0 else "ArrowRight")
    m = n - 1 if n > 0 else 1
    page.wait_for_function(
        "(m) => document.querySelector('.stop-button').innerText.trim() === `Stop and take ${m}`", arg=m, timeout=30_000
    )
    expect(page.locator(".nessie-row .nessie-card.to-take")).to_have_count(m)

    # Stop and take: the opponents play their turns and the log says what they did.
    stops: list[float] = []
    _nessie_move(page, stop, stops, waits)
    for words in ("You stop and take", "Player 2 (risk > 30%)", "Player 3 (risk > 30%)"):
        expect(page.locator(".nessie-log")).to_contain_text(words, use_inner_text=True)
    if "Game over" not in page.locator(".nessie-log").inner_text():  # read once the log has the opponents' turns
        expect(page.locator(".take-note")).to_contain_text("Reveal at least one card", use_inner_text=True)
        expect(page.locator(".optimal-advice")).to_contain_text("reveal (compulsory)", use_inner_text=True)
    no_errors(page)
    page.screenshot(path=str(ARTIFACTS / "nessie.png"), full_page=True)

    # The opponents switch to the look-ahead player: their next turns say so.
    page.locator(".nessie-strategy select").select_option("look-ahead")
    page.wait_for_function(
        "() => document.querySelector('.nessie-log').innerText.includes('look-ahead')", timeout=30_000
    )
    while "Game over" not in page.locator(".nessie-log").inner_text():
        _nessie_move(page, reveal, redraws, waits)
        if not _nessie_your_turn_started(page) and "Game over" not in page.locator(".nessie-log").inner_text():
            _nessie_move(page, stop, stops, waits)
            expect(page.locator(".nessie-log")).to_contain_text("(look-ahead)", use_inner_text=True)
            break
    no_errors(page)
    page.screenshot(path=str(ARTIFACTS / "nessie-look-ahead.png"), full_page=True)
    # Redraws are timed with the optimal player's thread idle (each move waits for its answer),
    # except first_reveal_redraw, made while it solves the first turn. optimal_first_decision:
    # from opening the page to its answer after the first reveal; optimal_after_move_*: from a
    # click to its answer (redraw included).
    record(
        "nessie",
        first_chart=first,
        first_reveal_redraw=first_reveal,
        reveal_redraw_max=max(redraws),
        reveal_redraw_mean=sum(redraws) / len(redraws),
        stop_and_opponents=max(stops),
        optimal_first_decision=optimal_first,
        optimal_after_move_max=max(waits),
        optimal_after_move_median=sorted(waits)[len(waits) // 2],
    )
