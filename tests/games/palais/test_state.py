"""Le Palais as the game protocol (`nessus.games.palais.state`): turns step by step with hints, the
rules of holding, the whole-game policies."""

from fractions import Fraction

import numpy as np
import pytest

from nessus.games import palais
from nessus.games.palais import fast, keep, odds
from nessus.games.palais.policies import opener_solution
from nessus.play import play, tournament

F = Fraction


# -- the playable game (the protocol State) ---------------------------------------------------------
def chaser(target, rules=None):
    """Seat 2's turn, the opener having played `target`."""
    return palais.State(rules or palais.Rules(players=2), hands=(tuple(sorted(target)),), rolls_made=(1,))


def test_a_turn_step_by_step_with_hints():
    turn = chaser((3, 3, 3, 1, 2))
    assert turn.current_player() == 1 and turn.target == (1, 2, 3, 3, 3)
    hint = turn.hint()
    assert list(hint.values) == ["roll"]
    turn = turn.roll(dice=(5, 2, 5, 6, 2))
    assert turn.hand == (2, 2, 5, 5, 6) and turn.category == "deux_paires" and turn.left == 2
    hint = turn.hint()
    objective = palais.Beat((1, 2, 3, 3, 3), "A", F(1, 2))
    sol = keep.solve([objective])
    assert hint.values["stop"] == 0  # deux paires lose to a trident
    assert hint.value == sol.value(turn.node) and hint.best == sol.action(turn.node)
    assert set(hint.values) == set(turn.legal_actions()) and str(hint.best).startswith("hold")
    assert all(v <= hint.value for v in hint.values.values())
    assert hint.cost(hint.best) == 0
    turn = turn.hold((5, 5))
    assert turn.is_chance_node()
    with pytest.raises(ValueError, match="chance"):
        turn.hint()
    turn = turn.roll(dice=(5, 1, 1))
    assert turn.hand == (1, 1, 5, 5, 5) and turn.category == "manoir" and turn.left == 1
    assert turn.history == ((2, 2, 5, 5, 6), (1, 1, 5))
    end = turn.stop()
    assert end.is_terminal() and end.hands[1] == (1, 1, 5, 5, 5) and end.rolls_made == (1, 2)
    assert end.returns() == [0, 1] and end.winners() == [1]
    with pytest.raises(ValueError, match="over"):
        end.roll(dice=(1,))


def test_the_turn_follows_the_rules_of_holding():
    rng = np.random.default_rng(1)
    turn = palais.initial_state(palais.Rules(sticky_holds=True)).roll(dice=(1, 1, 4, 4, 6))
    turn = turn.hold((4, 4)).roll(dice=(2, 3, 5))
    with pytest.raises(ValueError, match="allowed holds"):
        turn.hold((2, 3))  # the 4s stay aside
    turn = turn.hold((2, 3, 4, 4)).roll(rng)
    assert turn.turn_over(0) and len(turn.hands[0]) == 5 and turn.current_player() == 1
    free = palais.initial_state().roll(dice=(1, 1, 4, 4, 6)).hold((4, 4)).roll(dice=(2, 3, 5))
    assert free.hold((2, 3)).kept == (2, 3)  # without sticky holds, the 4s may go back
    with pytest.raises(ValueError, match="roll before"):
        palais.initial_state().hold(())
    with pytest.raises(ValueError, match="hold some dice"):
        palais.initial_state().roll(dice=(1, 2, 3, 4, 5)).roll(dice=(1, 2, 3, 4, 5))
    with pytest.raises(ValueError, match="dice"):
        palais.initial_state().roll(dice=(1, 2, 3, 4, 7))
    with pytest.raises(ValueError, match="give rng or dice"):
        palais.initial_state().roll()


def test_opener_hint_is_the_opener_objective():
    rules = palais.Rules(players=3)
    turn = palais.initial_state(rules).roll(dice=(6, 6, 6, 2, 1))
    hint = turn.hint()
    sol = opener_solution(3, "A", False)
    assert hint.value == sol.value(turn.node)
    assert hint.best == sol.action(turn.node) == palais.policies(rules)["optimal"](turn)
    at_least = turn.hint(palais.AtLeast("tour"))
    assert at_least.value == odds.at_least_solution(False).value(turn.node, palais.HANDS.index("tour"))


def test_equal_best_hands_share_the_win():
    rules = palais.Rules(players=3, tie_break="B")
    end = palais.State(rules, hands=((1, 1, 2, 3, 4), (1, 2, 2, 5, 6), (3, 4, 5, 6, 6)), rolls_made=(1, 1, 1))
    assert end.is_terminal() and end.winners() == [0, 2] and end.returns() == [F(1, 2), 0, F(1, 2)]  # two suites


def test_the_heuristic_policy_plays_a_person_s_rule():
    policy = palais.policies()["keep_most_common"]
    opener = palais.initial_state().roll(dice=(2, 2, 2, 5, 5))
    assert policy(opener) == "stop"  # a manoir: the opener stops
    ahead = chaser((1, 1, 2, 3, 5)).roll(dice=(4, 4, 1, 2, 3))
    assert policy(ahead) == "stop" and policy(chaser((4, 4, 4, 2, 3)).roll(dice=(4, 4, 1, 2, 3))) == (4, 4)


def test_fast_simulator_agrees_with_the_generic_loop():
    """game_kernel's seat win shares (vectorised, the opener then the chasers) against
    `tournament` playing the protocol's "optimal" policy: within 99.9% intervals of both."""
    rules = palais.Rules(players=3)
    n_fast, n_loop, z = 20_000, 600, 3.29
    quick = fast.game_kernel(fast.kernel_tables(rules), np.random.default_rng(4), n_fast)
    loop = tournament(
        lambda: palais.initial_state(rules), [palais.policies(rules)["optimal"]] * 3, games=n_loop, seed=5
    )
    for seat in range(3):
        a = float(quick[f"p_seat_{seat + 1}_wins_3_players"].mean())
        b = loop["win_share"][seat]
        se = (a * (1 - a) / n_fast + b * (1 - b) / n_loop) ** 0.5
        assert abs(a - b) <= z * se, (seat, a, b)


def test_a_seeded_game_plays_to_the_end():
    end = play(palais.initial_state(), [palais.policies()["keep_most_common"]] * 4, np.random.default_rng(2))
    assert end.is_terminal() and sum(end.returns()) == 1 and all(1 <= r <= 3 for r in end.rolls_made)


def test_the_turn_as_a_page_reads_it():
    """A seat's turn as it stands, the move the dice held mean, the roll-off, the result in words."""
    state = palais.initial_state(palais.Rules(players=3))
    assert state.seat_turn(0) == (False, (), 0) and state.chosen(()) == "roll"
    state = state.roll(dice=(2, 2, 5, 5, 1))
    assert state.seat_turn(0) == (False, (1, 2, 2, 5, 5), 1)
    assert state.chosen((1, 2, 2, 5, 5)) == "stop" and state.chosen((2, 2)) == palais.Hold((2, 2))
    state = state.stop().roll(dice=(5, 5, 2, 2, 1)).stop()
    assert state.seat_turn(0) == (True, (1, 2, 2, 5, 5), 1) and state.seat_turn(2) == (False, (), 0)
    end = state.roll(dice=(1, 2, 3, 5, 6)).stop()  # Faillite
    assert end.winners() == [0, 1] and end.roll_off(np.random.default_rng(0)) in (0, 1)
    assert (
        end.result_text(1, you=1)
        == "Player 1 and You tie; a roll-off picks one at random: You win with Deux paires (5 5 2 2 1)."
    )
    assert set(palais.machine_policies("optimal", palais.Rules(players=3), [0, 2])) == {0, 2}
    assert palais.parse_hand("1,2 3;4 5") == (1, 2, 3, 4, 5)
    with pytest.raises(ValueError, match="type five dice from 1 to 6"):
        palais.parse_hand("7 7")
