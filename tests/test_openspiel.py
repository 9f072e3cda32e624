"""OpenSpiel's own C++ conformance test (`pyspiel.random_sim_test`) on every registered game,
through the bridge `nessus/openspiel.py`: a suite no one here wrote. OpenSpiel (`open-spiel`) is
in the test extra, so a missing one is a failure, never a skip."""

from __future__ import annotations

import pyspiel
import pytest

from nessus import games, openspiel

SIMS = 3


@pytest.mark.parametrize("name", list(games.NAMES))
def test_random_sim_test(name):
    pyspiel.random_sim_test(openspiel.load(name), num_sims=SIMS, serialize=False, verbose=False)


@pytest.mark.parametrize("name", list(games.NAMES))
def test_bridge_keeps_the_exact_weights_and_names(name):
    """Chance outcome i is nessus's outcome i with its weight as a float; action i reads as
    nessus's action i."""
    spiel = openspiel.load(name)
    state = spiel.new_initial_state()
    for _ in range(200):
        if state.is_terminal():
            break
        nessus_state = state.state
        if state.is_chance_node():
            exact = nessus_state.chance_outcomes()
            assert state.chance_outcomes() == [(i, float(p)) for i, (_, p) in enumerate(exact)]
            state.apply_action(len(exact) - 1)
        else:
            actions = nessus_state.legal_actions()
            assert state.legal_actions() == list(range(len(actions)))
            assert [state.action_to_string(state.current_player(), i) for i in range(len(actions))] == list(
                map(str, actions)
            )
            state.apply_action(0)
        assert nessus_state is not state.state


def test_registered_game_loads_by_name():
    openspiel.register("renard")
    assert pyspiel.load_game("nessus_renard").num_players() == 1


def test_information_state_is_what_the_player_has_seen():
    """L'Hypogéon hides the others' dice of a round: player 1's information state is the same
    whichever dice player 2 rolls, and it grows when player 1 sees something new."""
    spiel = openspiel.load("hypogeon")
    state = spiel.new_initial_state()
    while not (state.is_chance_node() and state.state.turns and len(state.state.turns) % 2 == 0):
        state.apply_action(0 if state.is_chance_node() else state.legal_actions()[-1])
    outcomes = state.chance_outcomes()
    seen = set()
    for i, _ in outcomes:
        child = state.clone()
        child.apply_action(i)
        seen.add(child.information_state_string(0))
    assert len(seen) == 1 and len(outcomes) > 1
    assert state.information_state_string(0).endswith(state.observation_string(0))
