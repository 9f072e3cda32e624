"""The Entheos dashboard in a real browser (helpers in browser.py, the voila `server` fixture in
conftest.py): the battlefield (three duels, six heroes with their points and dice), the two
charts (each duel's exact distribution, each god's expected victory points), a turn played with
clicks — Roll, a card placed face down, the reveal at your slot — through to the resolution that
moves the points, the odds redrawn, a bad number of players as a message that disables New game,
and the page at phone width. The other tests drive the dashboard from Python (no browser): whole
games at 2 to 6 players, hidden gods and cards never shown, the odds against the engine."""

from __future__ import annotations

import time

import pytest
from browser import (
    ARTIFACTS,
    chart_shows,
    click_until,
    enter_bad,
    error_cleared,
    fits,
    no_errors,
    open_dashboard,
    record,
    until,
    wait_for_charts,
)
from playwright.sync_api import expect

FIELD = "() => document.querySelector('.ent-field').dataset"
POINTS_SHOWN = """(heroes) => {
    const points = document.querySelector('.ent-field').dataset.points.split(',');
    return heroes.every((h, i) =>
        document.querySelector(`.ent-hero[data-hero='${h}'] .ent-pts`)?.innerText.trim() === points[i]);
}"""
CHART_HAS = """([i, words]) => {
    const svg = document.querySelectorAll('.widget-output svg.marks')[i];
    return !!svg && Array.from(svg.querySelectorAll('text')).map(t => t.textContent).join(' ').includes(words);
}"""


def field(page) -> dict[str, str]:
    return dict(page.evaluate(FIELD))


@pytest.mark.browser
def test_entheos(server, page):
    page.set_viewport_size({"width": 1280, "height": 2000})
    first = open_dashboard(page, server, "entheos.ipynb")
    page.wait_for_selector(".ent-field .ent-duel", timeout=30_000)
    wait_for_charts(page, 2)  # the duels, the gods
    no_errors(page)
    board = page.locator(".ent-field")
    expect(page.locator(".ent-duel")).to_have_count(3)
    expect(page.locator(".ent-hero")).to_have_count(6)
    for hero in HEROES:
        expect(board).to_contain_text(hero, use_inner_text=True)
    expect(board).to_have_attribute("data-phase", "dice")
    expect(board).to_have_attribute("data-points", "6,6,6,6,6,6")
    chart_shows(page, "Each duel after the next turn (exact)", 0)
    chart_shows(page, "simulated, 20,000 wars, no interventions", 1)
    expect(page.locator(".ent-seat")).to_have_count(4)
    expect(page.locator(".ent-seat.mine .ent-god")).to_have_count(1)
    expect(page.locator(".ent-seat:not(.mine) .ent-god")).to_have_count(0)  # the others' gods stay face down
    page.screenshot(path=str(ARTIFACTS / "entheos-start.png"), full_page=True)

    # Roll: six coloured chips with their actions; the bots place until it is your turn.
    roll = click_until(
        page,
        page.locator(".entheos-roll"),
        "() => document.querySelector('.move-place') !== null"
        " && document.querySelector('.ent-field').dataset.phase === 'place'",  # the field is drawn last
    )
    expect(board).to_have_attribute("data-phase", "place")
    expect(page.locator(".ent-field .ent-chip[data-action]:not(.dim)")).to_have_count(6)
    expect(page.locator(".move-place")).to_have_count(6)  # one card of six, face down
    expect(page.locator(".entheos-move.jupyter-button")).to_have_count(6)
    page.locator(".hint-toggle").click()  # the rollout hint: each move's chance to win, in words
    expect(page.locator(".hint-words")).to_contain_text("to win (", timeout=30_000)
    expect(page.locator(".hint-row.best")).to_have_count(1)
    expect(page.locator(".hint-model")).to_contain_text("rollouts a move", use_inner_text=True)
    for i in (0, 1):
        page.wait_for_function(CHART_HAS, arg=[i, "turn 1 of 8, as the dice lie"], timeout=30_000, polling=20)

    # Place the hint's card, then at your slot reveal it (its best target) or hold it: the turn resolves.
    place = click_until(
        page,
        page.locator(".move-place.mod-info"),
        "() => document.querySelector('.ent-field').dataset.phase === 'reveal'"
        " && !!document.querySelector('.move-reveal, .move-hold')",
    )
    page.screenshot(path=str(ARTIFACTS / "entheos-reveal.png"), full_page=True)
    expect(page.locator(".ent-prompt")).to_contain_text("Your reveal slot", use_inner_text=True)
    expect(page.locator(".ent-seat.mine .ent-card.placed")).to_have_count(1)
    start = time.perf_counter()
    page.locator(".move-reveal, .move-hold").first.click()
    page.wait_for_function(
        "() => document.querySelector('.ent-field').dataset.turn === '1'", timeout=30_000, polling=20
    )
    for i in (0, 1):  # both charts redrawn from the new position
        page.wait_for_function(CHART_HAS, arg=[i, "turn 2 of 8, before the dice"], timeout=30_000, polling=20)
    resolve = time.perf_counter() - start
    expect(board).to_have_attribute("data-phase", "dice")
    expect(page.locator(".ent-log")).to_contain_text("Turn 1 resolved", use_inner_text=True)
    until(page, POINTS_SHOWN, list(HEROES), lambda: field(page))  # each hero shows the field's points
    assert sum(int(x) for x in field(page)["points"].split(",")) >= 36
    chart_shows(page, "7 turns to go", 1)
    expect(page.locator(".ent-position")).to_contain_text("turn 2 of 8, before the dice", use_inner_text=True)
    no_errors(page)
    page.screenshot(path=str(ARTIFACTS / "entheos-resolved.png"), full_page=True)

    # A bad number of players: a message in the page, New game disabled; a good one starts a game.
    players = page.get_by_label("players", exact=True)
    enter_bad(page, players, "7", "players must be an integer from 2 to 6, got 7")
    expect(page.locator(".entheos-new-game")).to_be_disabled()
    page.screenshot(path=str(ARTIFACTS / "entheos-bad-input.png"), full_page=True)
    players.fill("2")
    players.press("Enter")
    error_cleared(page)
    expect(page.locator(".ent-seat")).to_have_count(2)
    expect(page.locator(".entheos-new-game")).to_be_enabled()
    expect(page.locator(".ent-seat.mine .ent-god")).to_have_count(2)  # one god of each side at 2 players
    no_errors(page)

    page.set_viewport_size({"width": 390, "height": 2400})
    page.wait_for_timeout(600)
    fits(page, 391)
    page.screenshot(path=str(ARTIFACTS / "entheos-phone.png"), full_page=True)
    record("entheos", first_chart=first, roll=roll, place=place, reveal_to_resolution=resolve)


HEROES = ("Ulysses", "Achilles", "Ajax", "Hector", "Paris", "Aeneas")


def others_gods(d) -> list[str]:
    from nessus.games.entheos.heroes import GODS

    return [GODS[g].name for p in range(1, d.state.players) for g in d.state.gods[p]]


def test_entheos_turn_in_python():
    """Without a browser: New game stops at the first roll, Roll the bots' placements, your card,
    your slot, then the resolution; moves out of place are messages; the odds follow the position."""
    from nessus.games.entheos import page as app
    from nessus.games.entheos.state import DICE, PLACE, REVEAL, Place, action_text

    d = app.EntheosDashboard(seed=4)
    s = d.state
    assert s.phase == DICE and s.turn == 0 and s.players == 4 and len(d.match.names) == 4
    assert d.roll_button.layout.display is None and d.hint_button.layout.display == "none"
    assert "6,6,6,6,6,6" in d.field.value and d.field.value.count("class='ent-duel'") == 3
    assert "Position (turn 1 of 8, before the dice): from the heroes' points now, 8 turns to go" in d.position.value

    d.guard(lambda: d.move(Place((1,))))()
    assert "roll the dice first" in d.messages.widget.value
    d.roll_button.click()
    s = d.state
    assert s.phase == PLACE and s.current_player() == 0 and not d.messages.widget.value
    assert d.field.value.count("data-action=") == 6 and "class='ent-chip face-" in d.field.value
    assert d.roll_button.layout.display == "none" and len(d.moves.children) == 1
    assert "as the dice lie" in d.position.value and "then 7 turns" in d.position.value
    d.roll_button.click()
    assert "the dice are rolled already" in d.messages.widget.value

    placing = [b for b in d.moves.children[0].children[1:]]
    assert [b.description for b in placing] == [
        "place 1 lock",
        "place 2 reserve",
        "place 3 set face",
        "place 4 swap places",
        "place 5 swap dice",
        "place 6 keep face",
    ]
    placing[2].click()  # place 3, set face
    s = d.state
    assert s.phase == REVEAL and s.current_player() == 0 and s.placed[0] == (3,)
    assert "You place 3 set face face down." in d.log.value
    assert "class='ent-card placed'" in d.seats.value
    assert "Press <b>Hint</b>" in d.hint.widget.value
    start = time.perf_counter()
    d.hint.toggle.value = True  # the rollout hint against the table's bots, in words and as a table
    took = time.perf_counter() - start
    shown = d.hint.widget.value.replace("&#x27;", "'")
    hint = d.rollouts()
    assert hint.state is s and hint.method == "rollout" and "player 2 greedy" in hint.opponents
    assert "to win (" in shown and f"{hint.rollouts} rollouts a move" in shown
    assert "drawn from a uniform deal of what you have not seen" in shown
    assert action_text(hint.best) in shown and shown.count("class='hint-row") == len(hint.estimates)
    assert took < 10, took  # 1 s p95 on a quiet machine (benchmarks/bench_entheos.py); a busy one is slower
    # The reveal group: a dropdown of set-face targets, its default the best; reveal the first target.
    group = next(row for row in d.moves.children if any("move-reveal" in c._dom_classes for c in row.children))
    button, pick = group.children
    assert len(pick.options) == len(s.effects(3)) and "· hint " in pick.options[0][0]
    pick.value = 0
    points, turn = s.points, s.turn
    button.click()
    assert not d.messages.widget.value, d.messages.widget.value
    s = d.state
    assert s.turn == turn + 1 and s.phase == DICE
    assert f"data-points='{','.join(map(str, s.points))}'" in d.field.value
    assert "Turn 1 resolved" in d.log.value and d.match.made == 2
    assert sum(s.points) >= sum(points)
    assert "turn 2 of 8, before the dice" in d.position.value and "7 turns to go" in d.position.value

    # The odds: each duel's distribution sums to 1 and matches war.next_turn; the gods' figures are the kernel's.
    from nessus.games.entheos import odds, war

    at = odds.start(s, rolled=False)
    duels = at.duel_odds(alone=False)
    assert [d.dist for d in duels] == list(war.next_turn(s.points, s.places))
    frame = odds.duel_frame(at, duels, "lead")
    for duel in frame.partition_by("duel"):
        assert abs(duel["probability"].sum() - 1) < 1e-9
    estimates = odds.simulate(s.turns - s.turn, s.points, s.places, tuple(s.gods[0]))
    assert estimates["p_achaeans_win"].trials == odds.WARS
    assert abs(sum(estimates[k].value for k in ("p_achaeans_win", "p_trojans_win", "p_war_tied")) - 1) < 1e-9
    assert f"data-wars='{odds.WARS}'" in d.war.value and "no interventions" in d.war.value

    # The scope and the view redraw the duels: each duel alone to the end, each hero's points.
    d.scope.value = "alone"
    d.view_as.value = "points"
    spec = d.duels.output.outputs[0]["data"]["application/vnd.vegalite.v5+json"]
    assert "Each duel alone to the end, 7 turns (exact)" in spec["title"]["text"]
    assert not d.messages.widget.value


@pytest.mark.parametrize("players", [2, 3, 6])
def test_entheos_games_in_python(players):
    """Whole games against the bots, the hint's move (or the roll) clicked until the end: no error,
    the others' gods never shown before the end, the war's winner and the victory points after."""
    from nessus.games.entheos import odds
    from nessus.games.entheos import page as app
    from nessus.games.entheos.state import OVER

    d = app.EntheosDashboard(seed=players)
    d.opponents.value = app.OPPONENTS["one of each"] if players == 6 else "greedy"
    d.players.widget.value = str(players)
    assert d.state.players == players and len(d.match.names) == players and not d.messages.widget.value
    hidden = others_gods(d)
    for _ in range(200):
        if d.state.is_terminal():
            break
        shown = d.field.value + d.seats.value + d.log.value + d.prompt.value + d.hint.widget.value
        assert not any(f"data-god='{g}'" in shown or f"{g} (" in shown for g in hidden), hidden
        (d.roll_button if d.roll_button.layout.display is None else d.hint_button).click()
        assert not d.messages.widget.value, d.messages.widget.value
    s = d.state
    assert s.phase == OVER and s.turn == s.turns and "Game over:" in d.prompt.value
    assert "win" in d.prompt.value and "Victory points: you " in d.prompt.value
    assert all(f"data-god='{g}'" in d.seats.value for g in hidden)  # every god revealed at the end
    vp = s.victory_points()
    assert all(f"{v} victory points" in d.seats.value for v in vp)
    assert "the war is over" in d.position.value and d.gods.output.outputs
    final = odds.final_figures(s.points, s.gods[0])  # exact at the end, no simulation
    assert final["you_vp"] == vp[0] and "data-wars='0'" in d.war.value
    assert final["p_achaeans_win"] + final["p_trojans_win"] + final["p_war_tied"] == 1
    d.hint_button.click()
    assert "the game is over" in d.messages.widget.value


def test_entheos_bad_players_in_python():
    """A players value out of 2..6 (or not a number) is a message and disables New game until fixed."""
    from nessus.games.entheos import page as app

    d = app.EntheosDashboard(seed=1)
    for bad in ("7", "1", "four"):
        d.players.widget.value = bad
        assert "players must be an integer from 2 to 6" in d.messages.widget.value
        assert d.new_button.disabled and d.state.players == 4
    d.players.widget.value = "5"
    assert not d.messages.widget.value and not d.new_button.disabled and d.state.players == 5
    assert d.seats.value.count("data-seat=") == 5
