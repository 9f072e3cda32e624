"""OpenSpiel's own C++ conformance test (`pyspiel.random_sim_test`) on every registered game,
through the bridge `nessus/openspiel.py`: a suite no one here wrote."""

from __future__ import annotations

import pytest

from nessus import games

pyspiel = pytest.importorskip("pyspiel")
openspiel = pytest.importorskip("nessus.openspiel")

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
