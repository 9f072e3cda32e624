"""The kit's Match: the person's move, then chance's and the machine's; `until` pauses
`advance()` (a page played round by round: Les Trois's waits at a round's end for Next round),
and without it a match plays up to a seat without a policy or the end. The seats' names and the
winners in the log's words."""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from nessus import games
from nessus.games import trois
from nessus.games.trois.rules import Aside
from nessus.kit.match import Match, seat_name, winners_text


def test_your_move_then_the_machines() -> None:
    legit = games.get("legit")
    rules = legit.Rules(players=2)
    policy = legit.policies(rules)["optimal"]
    match = Match(legit.initial_state(rules), {1: policy}, np.random.default_rng(1), names=["you", "the machine"])
    assert match.your_move() and match.state.legal_actions() == ["roll"]
    match.move("roll")
    assert match.state.current_player() == 0 and not match.over
    match.move("keep")
    assert match.over and match.lines[-1].startswith("Game over:")


def test_until_pauses_before_a_seat() -> None:
    legit = games.get("legit")
    rules = legit.Rules(players=2)
    policy = legit.policies(rules)["optimal"]
    match = Match(
        legit.initial_state(rules),
        {0: policy, 1: policy},
        np.random.default_rng(1),
        ["optimal"] * 2,
        you=None,
        until=lambda state: state.current_player() == 1,
    )
    match.advance()  # the machine plays seat 0's turn, and pauses before seat 1's
    assert not match.over and match.state.current_player() == 1
    match.until = None
    match.advance()
    assert match.over and match.lines[-1].startswith("Game over:")


def test_seat_names_and_winners() -> None:
    assert (seat_name(0, ["you", "greedy"]), seat_name(1, ["you", "greedy"])) == ("you", "player 2 (greedy)")
    shared = winners_text([Fraction(1, 2), Fraction(0), Fraction(1, 2)], ["you", "odds", "odds"])
    assert shared == "you and player 3 (odds) share the win"


def test_until_pauses_at_a_rounds_end() -> None:
    rules, you = trois.Rules(players=3, rounds=2), 1
    machines = trois.machine_policies("optimal", rules, [0, 2])
    match = Match(trois.initial_state(rules), machines, np.random.default_rng(0), ["optimal"] * 3, you=you)
    turn: list[int | None] = [None]  # your turn's place among the game's turns, once it starts
    match.until = lambda state: state.round_over(you, turn[0])
    match.advance()  # seat 0 plays round 1, up to your move
    assert match.your_move() and len(match.state.history) == 1
    turn[0] = 1
    match.move("roll")
    match.move(Aside(match.state.rolled))  # every die set aside: seat 2 plays, the round is over
    state = match.state
    assert not match.over and state.round == 1 and len(state.history) == 3
    assert state.current_player() == 0 and state.round_over(you, turn[0])  # paused before seat 0's move
    turn[0] = None  # Next round
    match.advance()
    assert match.your_move() and len(match.state.history) == 4


def test_without_until_the_machine_plays_on() -> None:
    rules = trois.Rules(players=2, rounds=2)
    machines = trois.machine_policies("optimal", rules, [0, 1])
    match = Match(trois.initial_state(rules), machines, np.random.default_rng(0), ["optimal"] * 2, you=None)
    match.advance()
    assert match.over and match.lines[-1].startswith("Game over:")
