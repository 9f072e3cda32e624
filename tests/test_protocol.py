"""The game protocol's conformance suite, run on every registered game (`nessus.games.NAMES`):
a game joins it by being registered. Random playthroughs to the end check every node."""

from __future__ import annotations

import copy
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from nessus import games
from nessus.game import CHANCE, TERMINAL, State
from nessus.play import play, random_legal, sample
from nessus.solver import Hint

NAMES = list(games.NAMES)
PLAYTHROUGHS = 12
HINTS_PER_GAME = 3


def start(name: str) -> State:
    return games.get(name).initial_state()


class NotLegal:
    """An action no game has."""

    def __repr__(self) -> str:
        return "NotLegal()"


def check_node(state: State) -> None:
    """Every property a single node must have."""
    shape = state.shape()
    player = state.current_player()
    assert player in (CHANCE, TERMINAL) or 0 <= player < shape.players
    assert state.is_terminal() == (player == TERMINAL)
    assert state.is_chance_node() == (player == CHANCE)
    for p in range(shape.players):
        assert isinstance(state.observation(p), str)
    if player == TERMINAL:
        returns = state.returns()
        assert len(returns) == shape.players
        assert all(isinstance(r, (Fraction, int)) and shape.min_return <= r <= shape.max_return for r in returns)
        if shape.return_sum is not None:
            assert sum(returns) == shape.return_sum
        assert state.legal_actions() == [] and state.chance_outcomes() == []
    elif player == CHANCE:
        outcomes = state.chance_outcomes()
        assert 0 < len(outcomes) <= shape.max_chance_outcomes
        assert all(isinstance(p, Fraction) and p > 0 for _, p in outcomes)
        assert sum(p for _, p in outcomes) == 1
        assert len({o for o, _ in outcomes}) == len(outcomes)
        assert state.legal_actions() == []
    else:
        actions = state.legal_actions()
        assert 0 < len(actions) <= shape.max_actions
        assert len(set(actions)) == len(actions)
        assert all(str(a) for a in actions)
        assert state.chance_outcomes() == []


def walk(state: State, rng: np.random.Generator) -> list[State]:
    """The states of one random playthrough (chance exact, moves uniform), checking each node
    and that `apply` leaves the old state unchanged."""
    choose = random_legal(rng=rng)
    seen = [state]
    limit = state.shape().max_length
    while not state.is_terminal():
        check_node(state)
        action = sample(state.chance_outcomes(), rng) if state.is_chance_node() else choose(state)
        before = copy.deepcopy(state)
        after = state.apply(action)
        assert state == before, "apply changed the state it was called on"
        state = after
        seen.append(state)
        assert len(seen) - 1 <= limit, f"longer than shape().max_length = {limit}"
    check_node(state)
    return seen


@pytest.mark.parametrize("name", NAMES)
def test_registered_game_has_the_protocol(name):
    module = games.get(name)
    state = module.initial_state()
    assert isinstance(state, State)
    assert module.initial_state(module.Rules()) == state
    assert isinstance(module.policies(), dict)
    assert all(callable(p) for p in module.policies().values())


@pytest.mark.parametrize("name", NAMES)
@settings(max_examples=PLAYTHROUGHS, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_random_playthrough_reaches_the_end(name, seed):
    walk(start(name), np.random.default_rng(seed))


@pytest.mark.parametrize("name", NAMES)
def test_illegal_action_is_a_value_error(name):
    rng = np.random.default_rng(3)
    kinds = set()
    for state in walk(start(name), rng):
        kind = state.current_player() if state.current_player() < 0 else 0
        if kind in kinds:
            continue
        kinds.add(kind)
        with pytest.raises(ValueError, match="NotLegal|over"):
            state.apply(NotLegal())
    assert TERMINAL in kinds


@pytest.mark.parametrize("name", NAMES)
def test_seeded_playthrough_is_reproducible(name):
    module = games.get(name)
    players = module.initial_state().shape().players
    ends = [
        play(start(name), [random_legal(rng=np.random.default_rng(9))] * players, np.random.default_rng(9))
        for _ in range(2)
    ]
    assert ends[0] == ends[1]


@pytest.mark.parametrize("name", NAMES)
def test_hint_best_action_is_legal(name):
    """The hint at the first decisions of a seeded playthrough names a legal best action, and
    gives every legal action a value; nowhere else is a hint given."""
    decisions = 0
    for state in walk(start(name), np.random.default_rng(11)):
        if state.current_player() < 0:
            with pytest.raises(ValueError):
                state.hint()
            continue
        if decisions == HINTS_PER_GAME:
            continue
        decisions += 1
        hint = state.hint()
        assert isinstance(hint, Hint)
        assert hint.method in ("exact", "value-iteration", "heuristic")
        assert hint.best in state.legal_actions()
        assert set(hint.values) == set(state.legal_actions())
        assert hint.cost(hint.best) == 0
        assert all(hint.cost(a) >= 0 for a in hint.values)


@pytest.mark.parametrize("name", NAMES)
def test_named_policies_play_whole_games(name):
    """Each named policy, in every seat, plays legal moves to the end."""
    module = games.get(name)
    players = module.initial_state().shape().players
    for label, policy in module.policies().items():
        end = play(start(name), [policy] * players, np.random.default_rng(5))
        assert end.is_terminal(), label


@pytest.mark.parametrize("name", NAMES)
def test_observation_hides_only_what_is_hidden(name):
    """States that differ only in what p cannot see look the same to p; a game whose shape says
    it hides something shows such states somewhere in a playthrough."""
    state0 = start(name)
    found = 0
    for state in walk(state0, np.random.default_rng(13)):
        for p in range(state.shape().players):
            for other in state.hidden_variants(p):
                assert other != state
                assert other.observation(p) == state.observation(p)
                found += 1
    assert (found > 0) == state0.shape().hidden
