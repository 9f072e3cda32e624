"""The Nessos dashboard in a real browser (helpers in browser.py, the voila `server` fixture in
conftest.py): the table with your hand face up and the others' as backs, an offer played with
clicks until a card is offered to you and the Bayes panel shows its posterior and the values of
accept / refuse / pass, the Hint each answer's chance to win by rollouts in words, the bluff q
redrawing the chart, a bad q as a message that disables "Watch 200 games", the tournament chart,
and the page at phone width. The last test drives the dashboard from Python (no browser): the
Hint in words, and no face of a hidden card leaks."""

from __future__ import annotations

import re

import pytest
from browser import (
    ARTIFACTS,
    at_least,
    chart_shows,
    chart_svg,
    click_until,
    enter_bad,
    error_cleared,
    fits,
    no_errors,
    open_dashboard,
    record,
    redraw_time,
)
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

MADE = "() => +document.querySelector('.nessos-prompt').dataset.made"
RECEIVING = "() => !!document.querySelector('.nessos-posterior')"
YOUR_MOVE = (  # a card offered to you, or an Offer or Accept to press
    "() => !!document.querySelector('.nessos-posterior') || Array.from(document.querySelectorAll("
    "'.offer-button, .accept-button')).some(b => b.offsetParent !== null && !b.disabled)"
)


def made(page) -> int:
    return int(page.evaluate(MADE))


def play_until_offered(page) -> None:
    """Make your moves (offer with the default choices, accept) until a card is offered to you."""
    for _ in range(40):
        if page.evaluate(RECEIVING):
            return
        n = made(page)
        button = page.locator(".offer-button:visible:enabled, .accept-button:visible:enabled")
        if button.count() == 0:  # the game is over: a new one
            click_until(page, page.locator(".new-button"), YOUR_MOVE)
            continue
        click_until(page, button.first, f"() => +document.querySelector('.nessos-prompt').dataset.made > {n}")
    raise AssertionError("no card was offered to you in 40 moves")


def test_nessos(server, page):
    page.set_viewport_size({"width": 1280, "height": 1800})
    first = open_dashboard(page, server, "nessos.ipynb")
    page.wait_for_selector(".nessos-table", timeout=30_000)
    no_errors(page)
    chart_shows(page, "by the bluffer's q")
    expect(page.locator(".nessos-player")).to_have_count(4)
    at_least(page.locator(".nessos-hand .nessos-card:not(.back)"), 1)  # your hand, face up
    at_least(page.locator(".nessos-hand .nessos-card.back"), 3)  # the others' hands, face down
    page.screenshot(path=str(ARTIFACTS / "nessos-start.png"), full_page=True)

    # Offer a card (the first player holds the token: you), then play on until one is offered to you.
    expect(page.locator(".offer-button")).to_be_enabled()
    n = made(page)
    click_until(
        page, page.locator(".offer-button"), f"() => +document.querySelector('.nessos-prompt').dataset.made > {n}"
    )
    offered = re.compile(r"You offer a card \(your (C|\d+)\) to player \d, announced \d+")
    expect(page.locator(".nessos-log")).to_contain_text(offered, use_inner_text=True)
    play_until_offered(page)
    at_least(page.locator(".nessos-chain .nessos-card.back"), 1)  # the offered card, face down
    expect(page.locator(".nessos-panel")).to_contain_text("Bayes table of the last card", use_inner_text=True)
    expect(page.locator(".nessos-panel")).to_contain_text("Expected points of each answer", use_inner_text=True)
    expect(page.locator(".nessos-bayes tr")).to_have_count(3)  # header, C, the announced value
    at_least(page.locator(".nessos-values .hint-row"), 2)
    at_least(page.locator(".nessos-values .hint-row.best"), 1)
    no_errors(page)

    # The Hint: each answer's chance to win by rollouts, in words, with the posterior it drew from.
    hint = click_until(page, page.locator(".hint-toggle"), "() => !!document.querySelector('.hint-words')")
    expect(page.locator(".hint-words")).to_contain_text(re.compile(r"^(accept|refuse|add .+ and pass)"))
    expect(page.locator(".hint-words")).to_contain_text(re.compile(r": \d+% to win"), use_inner_text=True)
    model = page.locator(".hint-model")
    expect(model).to_contain_text(
        "rollouts a move: the hidden cards drawn from the Bayes posterior", use_inner_text=True
    )
    expect(model).to_contain_text("bluffer sender, q = 1/2", use_inner_text=True)
    page.screenshot(path=str(ARTIFACTS / "nessos-offered.png"), full_page=True)
    page.locator(".hint-toggle").click()  # off: the redraws below need not wait for it
    expect(page.locator(".hint-words")).to_have_count(0)

    # The sender model: naive changes the panel's heading; back to bluffer.
    page.locator(".nessos-model button", has_text="naive").click()
    page.wait_for_function("() => document.querySelector('.nessos-panel').innerText.includes('naive sender')")
    page.locator(".nessos-model button", has_text="bluffer").click()
    page.wait_for_function("() => document.querySelector('.nessos-panel').innerText.includes('bluffer sender')")

    # The bluff q redraws the chart (its rule moves, its subtitle says so).
    field = page.get_by_label("bluff q", exact=True)
    before = chart_svg(page, 0)
    q_redraw = redraw_time(page, before, lambda: (field.fill("0.9"), field.press("Enter")), 0)
    chart_shows(page, "q = 9/10")
    expect(page.locator(".nessos-panel")).to_contain_text("q = 9/10", use_inner_text=True)

    # A bad q: a message, Watch disabled; a good one clears both.
    assert "'1.5'" in enter_bad(page, field, "1.5", "bluff q must be a probability from 0 to 1")
    expect(page.locator(".watch-button")).to_be_disabled()
    page.screenshot(path=str(ARTIFACTS / "nessos-bad-input.png"), full_page=True)
    field.fill("1/2")
    field.press("Enter")
    error_cleared(page)
    expect(page.locator(".watch-button")).to_be_enabled()

    # Watch 200 games: the tournament chart with its intervals.
    watch = click_until(
        page, page.locator(".watch-button"), "() => document.querySelectorAll('.widget-output svg.marks').length >= 2"
    )
    chart_shows(page, "Win share over 200 games", 1)
    no_errors(page)
    page.screenshot(path=str(ARTIFACTS / "nessos.png"), full_page=True)

    page.set_viewport_size({"width": 390, "height": 2400})
    page.wait_for_timeout(600)
    fits(page, 391)
    page.screenshot(path=str(ARTIFACTS / f"nessos-phone-{server.engine}.png"), full_page=True)
    record("nessos", first_chart=first, hint=hint, q_redraw=q_redraw, watch_200=watch)


def test_nessos_in_python():
    """Without a browser: the page never shows another hand's faces or an offered card's face,
    a move out of place is a message, and a bad q disables Watch until fixed."""
    from nessus.games.nessos import page as app

    d = app.NessosDashboard(seed=7)
    d.hint.toggle.value = True  # your offer: each move's chance to win, by rollouts
    assert "% to win (" in d.hint.widget.value and "rollouts a move" in d.hint.widget.value
    assert "the cards you have not seen, dealt uniformly" in d.hint.widget.value
    d.hint.toggle.value = False
    for _ in range(30):
        s = d.state
        if s.ended:
            d.new_button.click()
            continue
        page = d.table.value + d.chain.value
        hidden = [c for p in range(1, s.players) for c in s.hand(p)] + [o.card for o in s.chain if o.sender != 0]
        assert page.count("nessos-card back") + page.count("nessos-card back small") >= len(
            [o for o in s.chain if o.sender != 0]
        )
        faces = page.count("class='nessos-card") - page.count("back")
        assert faces == len(s.hand(0)) + len(s.face_up()) + sum(o.sender == 0 for o in s.chain), hidden
        (d.accept_button if s.chain else d.offer_button).click()
        assert not d.messages.widget.value
    if not d.state.ended and d.state.chain:
        d.offer_button.click()
        assert "it is not your turn" in d.messages.widget.value or "cannot" in d.messages.widget.value
    d.bluff.widget.value = "-1"
    assert "bluff q must be" in d.messages.widget.value and d.watch_button.disabled
    d.bluff.widget.value = "0.25"
    assert not d.messages.widget.value and not d.watch_button.disabled
