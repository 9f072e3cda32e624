"""The Nyx dashboard in a real browser (helpers in browser.py, the voila `server` fixture in
conftest.py): the page and its two charts, the symbol and the rolls redrawing the odds chart,
a roll of six black dice, a die clicked to keep it with the hint judging that keep, a bad number
of dice as a message that disables Roll, the matrix's cells picked (the cells of fitting
placements highlighted) and a dream placed once four dice of one symbol are kept, and the page
at phone width. The last test drives the dashboard from Python (no browser)."""

from __future__ import annotations

import re
from dataclasses import replace

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
    mark_first_die,
    no_errors,
    nudge_slider,
    open_dashboard,
    record,
    redraw_time,
    roll_dice,
    tray,
    tray_until,
    wait_for_charts,
)
from playwright.sync_api import expect

pytestmark = pytest.mark.browser


def keep_most(page) -> int:
    """Click dice until those kept are every die of the most common symbol (up to 4); the count kept."""
    dice = tray(page)
    faces = [f for f, *_ in dice]
    best = max(set(faces), key=lambda f: (faces.count(f), f))
    want = [f == best for f in faces]
    taken = 0
    for i, (_face, held, _) in enumerate(dice):
        should = want[i] and taken < 4
        taken += should
        if held != should:
            click_until(
                page,
                page.locator(".nessus-tray .nessus-die:visible").nth(i),
                "([i, h]) => Array.from(document.querySelectorAll('.nessus-tray .nessus-die'))"
                ".filter(b => b.offsetParent !== null)[i].classList.contains('held') === h",
                [i, should],
            )
    return taken


def test_nyx(server, page):
    page.set_viewport_size({"width": 1280, "height": 1800})
    first = open_dashboard(page, server, "nyx.ipynb")
    page.wait_for_selector(".nyx-matrix .nyx-cell", timeout=30_000)
    wait_for_charts(page, 2)  # the odds of a symbol, the expected rolls by size
    no_errors(page)
    chart_shows(page, "P(at least k full moons within 3 rolls)", 0)
    chart_shows(page, "Expected rolls for a dream, by its size", 1)
    expect(page.locator(".nyx-figures")).to_have_attribute("data-free", "16")  # L4 on the empty matrix
    expect(page.locator(".nyx-night")).to_contain_text("A night against bots", use_inner_text=True)
    at_least(page.locator(".nyx-move"), 1)  # a game against bots is ready
    page.screenshot(path=str(ARTIFACTS / "nyx-start.png"), full_page=True)

    # The controls redraw the odds chart: the symbol, then the rolls.
    before = chart_svg(page, 0)
    symbol_redraw = redraw_time(page, before, lambda: page.locator(".nyx-symbol button", has_text="stars").click(), 0)
    chart_shows(page, "P(at least k stars within 3 rolls)", 0)
    before = chart_svg(page, 0)
    rolls_redraw = redraw_time(page, before, lambda: nudge_slider(page), 0)
    chart_shows(page, "within 4 rolls", 0)

    # Roll six black dice; the hint lists every keep with its exact expected rolls.
    roll = roll_dice(page)
    tray_until(page, "(d) => d.length === 6 && d.every(([f, held, click]) => !held && click && f >= 1 && f <= 3)")
    click_until(page, page.locator(".hint-toggle"), "() => !!document.querySelector('.hint-table')")  # the chase's
    at_least(page.locator(".hint-row"), 4)
    expect(page.locator(".hint-row.best")).to_have_count(1)
    expect(page.locator(".hint-table")).to_contain_text("expected rolls to come", use_inner_text=True)
    expect(page.locator(".hint-table")).to_contain_text("roll every die", use_inner_text=True)

    # Click a die: it is kept, Roll now rolls five, and the hint judges that keep.
    keep = mark_first_die(page, "Roll 5 dice", "keep 1 ")
    page.screenshot(path=str(ARTIFACTS / "nyx-hint.png"), full_page=True)

    # The matrix: two picked cells, the cells of the L4 placements through them in green.
    click_until(page, page.locator(".nyx-cell.cell-1"), "() => !!document.querySelector('.nyx-cell.cell-1.picked')")
    click_until(page, page.locator(".nyx-cell.cell-4"), "() => !!document.querySelector('.nyx-cell.cell-4.picked')")
    at_least(page.locator(".nyx-cell.can"), 2)
    expect(page.locator(".nyx-cell.picked")).to_have_count(2)
    expect(page.locator(".nyx-pick-line")).to_contain_text("placements of L4 contain them", use_inner_text=True)
    expect(page.locator(".place-button")).to_be_disabled()
    click_until(page, page.locator(".best-button"), "() => document.querySelectorAll('.nyx-cell.ready').length === 4")
    page.wait_for_function("() => !document.querySelector('.place-button').disabled", timeout=30_000)

    # Chase four dice of one symbol, then place them.
    for _ in range(15):
        if keep_most(page) >= 4:
            break
        roll_dice(page)
    else:
        raise AssertionError("no four dice of one symbol in 15 rolls")
    expect(page.locator(".nessus-error")).to_have_count(0)
    place = click_until(
        page, page.locator(".place-button"), "() => document.querySelectorAll('.nyx-cell.occupied').length === 4"
    )
    expect(page.locator(".nyx-status")).to_contain_text("Placed: L4 of", use_inner_text=True)
    expect(page.locator(".nyx-pick-line")).to_have_attribute("data-occupied", "4")
    expect(page.locator(".nyx-figures")).to_have_attribute("data-free", re.compile(r"^([0-9]|1[0-5])$"))  # < 16
    no_errors(page)
    page.screenshot(path=str(ARTIFACTS / "nyx-placed.png"), full_page=True)

    # A bad number of dice: a message in the page, Roll disabled; a good one clears both.
    field = page.get_by_label("black", exact=True)
    enter_bad(page, field, "12", "black must be an integer from 1 to 9, got 12")
    expect(page.locator(".roll-button")).to_be_disabled()
    page.screenshot(path=str(ARTIFACTS / "nyx-bad-input.png"), full_page=True)
    field.fill("7")
    field.press("Enter")
    error_cleared(page)
    expect(page.locator(".roll-button")).to_be_enabled()
    expect(page.locator(".roll-button")).to_contain_text("Roll 7 dice", use_inner_text=True)
    # New dice: a fresh night (the matrix is redrawn after the button, so wait for it).
    page.wait_for_function("() => document.querySelectorAll('.nyx-cell.occupied').length === 0", timeout=30_000)
    no_errors(page)
    page.screenshot(path=str(ARTIFACTS / "nyx.png"), full_page=True)

    page.set_viewport_size({"width": 390, "height": 2400})
    page.wait_for_timeout(600)
    fits(page, 391)
    page.screenshot(path=str(ARTIFACTS / "nyx-phone.png"), full_page=True)
    record(
        "nyx",
        first_chart=first,
        symbol_redraw=symbol_redraw,
        rolls_redraw=rolls_redraw,
        roll=roll,
        keep=keep,
        place=place,
    )


SCORES_SHOWN = """() => {
    const scores = (document.querySelector('.nyx-table').dataset.scores || '').split(',');
    const shown = [1, 2].map(p => document.querySelector(`.nyx-seat[data-seat='${p}'] .nyx-score`)?.innerText);
    return shown.join(',') === scores.join(',');
}"""


def test_nyx_night(server, page):
    """A game against a bot: New game (2 players), your move clicked, the bot's reply in the log,
    the table redrawn, no error; the section at desktop and phone width."""
    page.set_viewport_size({"width": 1280, "height": 1800})
    first = open_dashboard(page, server, "nyx.ipynb")
    page.wait_for_selector(".nyx-night .nyx-move", timeout=30_000)
    no_errors(page)
    expect(page.locator(".nyx-players select")).to_have_value("2")
    new = click_until(
        page, page.locator(".nyx-new-game"), "() => document.querySelector('.nyx-prompt').dataset.game === '2'"
    )
    expect(page.locator(".nyx-seat")).to_have_count(2)
    expect(page.locator(".nyx-card")).to_have_count(6)  # 3 dreams, 3 spells face up
    expect(page.locator(".nyx-prompt")).to_contain_text("Your turn", use_inner_text=True)
    expect(page.locator(".nyx-seat.to-move")).to_have_attribute("data-seat", "1")
    expect(page.locator(".nyx-move.move-endnight")).to_have_count(1)
    lines = int(page.locator(".nyx-log").get_attribute("data-lines") or 0)
    turn = int(page.locator(".nyx-table").get_attribute("data-turn") or 0)
    page.locator(".nyx-night").screenshot(path=str(ARTIFACTS / "nyx-night.png"))

    # The night's Hint: each of your moves' chance to win against the bots, in words, by rollouts.
    odds = click_until(
        page, page.locator(".nyx-odds-toggle"), "() => !!document.querySelector('.nyx-night .hint-words')"
    )
    expect(page.locator(".nyx-night .hint-words")).to_contain_text("% to win", use_inner_text=True)
    expect(page.locator(".nyx-night .hint-model")).to_contain_text("rollouts a move", use_inner_text=True)
    expect(page.locator(".nyx-night .hint-model")).to_contain_text("decks' order", use_inner_text=True)
    at_least(page.locator(".nyx-night .hint-row"), 2)
    page.locator(".nyx-night").screenshot(path=str(ARTIFACTS / "nyx-night-hint.png"))

    # End your night: the bot plays its turn, the log and the table follow.
    move = click_until(
        page,
        page.locator(".nyx-move.move-endnight"),
        "([n, t]) => +document.querySelector('.nyx-log').dataset.lines > n"
        " && +document.querySelector('.nyx-table').dataset.turn > t",
        [lines, turn],
    )
    expect(page.locator(".nyx-log")).to_contain_text("You: end the night", use_inner_text=True)
    expect(page.locator(".nyx-log")).to_contain_text("Player 2 (odds)", use_inner_text=True)
    page.wait_for_function(SCORES_SHOWN, timeout=30_000)  # the seats' scores are the table's
    expect(page.locator(".nessus-error")).to_have_count(0)
    no_errors(page)
    page.screenshot(path=str(ARTIFACTS / "nyx-night-page.png"), full_page=True)

    page.set_viewport_size({"width": 390, "height": 2400})
    page.wait_for_timeout(400)
    fits(page, 391)
    page.locator(".nyx-night").screenshot(path=str(ARTIFACTS / "nyx-night-phone.png"))
    record("nyx-night", first_chart=first, new_game=new, odds_hint=odds, move=move)


def test_nyx_night_in_python():
    """Whole games against the bots from Python: the hint's move clicked until the game ends,
    the winner told, no move after the end."""
    from nessus.games.nyx import page as app

    d = app.NyxDashboard(seed=5)
    for players in (2, 4):
        d.players.value = players
        d.new_button.click()
        assert d.match.state.players == players and len(d.match.names) == players
        for _ in range(500):
            if d.match.state.is_terminal():
                break
            buttons = [b for row in d.moves.children for b in row.children[1:]]
            assert any("move-endnight" in b._dom_classes for b in buttons) or d.match.state.phase == "choose"
            next(b for b in buttons if b.button_style == "info").click()  # the hint's move
            assert not d.messages.widget.value, d.messages.widget.value
        assert d.match.state.is_terminal() and "Game over:" in d.prompt.value and not d.moves.children
        assert "Game over:" in d.log.value and ("win" in d.log.value)
    from nessus.games.nyx.state import PASS

    d.guard(lambda: d.move(PASS))()
    assert "the game is over" in d.messages.widget.value


def test_nyx_night_hint_in_python():
    """The night's Hint panel: each move's chance to win in words, the rollouts and the model said,
    each of your moves valued; after your move, the next decision's; once over, the end told."""
    from nessus.games.nyx import page as app

    d = app.NyxDashboard(seed=3)
    assert "Press <b>Hint</b>" in d.odds_hint.widget.value
    d.odds_hint.toggle.value = True
    shown = d.odds_hint.widget.value
    assert "% to win (" in shown and "rollouts a move" in shown and "player 2 as odds" in shown
    assert shown.count("<tr class='hint-row") == len(d.match.state.rollout_moves()) >= 2
    assert "Keep " in shown or "No reroll" in shown or "End the night" in shown  # the buttons' words
    next(b for row in d.moves.children for b in row.children[1:] if b.button_style == "info").click()
    assert "to win" in d.odds_hint.widget.value and d.odds_hint.widget.value != shown
    d.match.state = replace(d.match.state, phase="over")
    d.draw_night()
    assert "The game is over." in d.odds_hint.widget.value


def test_nyx_in_python():
    """Without a browser: the hint's state for black and white dice, keeps of mixed symbols,
    the checks on Roll and Place, a bad count disabling Roll until fixed."""
    from nessus.games.nyx import page as app
    from nessus.games.nyx.odds import Keep, keep_hint

    d = app.NyxDashboard(seed=11)
    assert d.roll_button.description == "Roll 6 dice" and d.place_button.disabled
    d.roll_button.click()
    assert d.hand.made == 1 and len(d.tray.faces) == 6 and not d.messages.widget.value
    counts = tuple(d.tray.faces.count(i) for i in range(3))
    assert d.goal.hint(d.hand).values == keep_hint(4, counts).values  # six black dice: the engine's keep_hint
    d.hint.toggle.value = True
    assert "hint-table" in d.hint.widget.value and "roll every die" in d.hint.widget.value

    # Keeping dice of two symbols: the hint says it is not allowed, Roll refuses.
    if len(set(d.tray.faces)) > 1:
        i = d.tray.faces.index(d.tray.faces[0])
        j = next(k for k, f in enumerate(d.tray.faces) if f != d.tray.faces[i])
        d.tray.click(i)
        d.tray.click(j)
        assert d.hand.keep(d.tray.held) == "mixed" and "is not allowed here" in d.hint.widget.value
        d.roll_button.click()
        assert "keep dice of one symbol only" in d.messages.widget.value and d.hand.made == 1
        d.tray.click(j)
    assert isinstance(d.hand.keep(d.tray.held), Keep)

    # Place without a placement, then without the dice.
    d.place_button.click()
    assert "pick the 4 cells of a placement of L4" in d.messages.widget.value
    d.best_button.click()
    assert not d.place_button.disabled
    d.place_button.click()
    assert "Place needs 4 dice kept showing one symbol" in d.messages.widget.value

    # White dice: the hint comes from the mixed chase.
    d.white.widget.value = "2"
    assert d.tray.colours == ["black"] * 6 + ["white"] * 2 and not d.messages.widget.value
    d.roll_button.click()
    values = d.goal.hint(d.hand).values
    assert values and any(k.white for k in values if isinstance(k, Keep) and k.count)
    # Bad counts disable Roll until fixed.
    d.white.widget.value = "4"
    assert "white must be an integer from 0 to 3" in d.messages.widget.value and d.roll_button.disabled
    d.white.widget.value = "0"
    assert not d.messages.widget.value and not d.roll_button.disabled
    # A shape that never fits: no placement, nothing highlighted.
    d.shape.value = "I4"
    assert "No placement of I4 fits" in d.pick.value and not any("can" in c._dom_classes for c in d.cells)
