"""Nessie's protocol State: whole games, the draw pile counted, each reveal a chance node with
exact weights; and the vectorised engine `nessie.fast` against the generic machine-play loop
(`nessus.play.play`) with the same rules (card for card: `test_fast`)."""

from __future__ import annotations

import json
import math
from collections import Counter
from fractions import Fraction

import numpy as np
import pytest

from nessus.game import CHANCE
from nessus.games import nessie
from nessus.games.nessie import REVEAL, Rules, Stop, fast, initial_state, odds, policies
from nessus.games.nessie.cards import make_deck
from nessus.play import play

Z_999 = 3.290527  # two-sided 99.9% normal quantile


def test_a_reveal_draws_from_the_counted_pile_exactly():
    state = initial_state().apply(REVEAL)
    outcomes = dict(state.chance_outcomes())
    assert state.current_player() == CHANCE
    assert outcomes == {c: Fraction(n, 84) for c, n in Counter(make_deck()).items()}


def test_a_full_row_sinks_the_next_player_at_the_start():
    state = initial_state(Rules(players=2))
    for card in ("A", "A"):
        state = state.reveal(card)
    state = state.stop(0)  # player 2 holds nothing: no sinking at the start
    assert state.current == 1 and state.row == ("A", "A")
    state = state.reveal("B").stop(1)  # player 2 keeps B
    assert state.current == 0 and state.row == ("A", "A")
    state = state.reveal("A")  # a third A: player 1 sinks, the row is discarded
    assert state.row == () and state.current == 1 and state.discards[nessie.CARD_KINDS.index("A")] == 3
    assert [e.kind for e in state.last] == ["sink"]


def test_a_game_told_for_its_log():
    """`describe` tells your moves, another player's turn when it ends (its cards and its stop, or
    its sink), and a sink at a turn's start; `situation(player)` is that player's view at any time."""
    state = initial_state(Rules(players=2)).reveal("A").reveal("A").stop(0)
    assert state.describe(REVEAL, "risky") == []
    state = state.apply(REVEAL)
    assert state.describe("B", "risky") == []  # player 2's reveal is told when their turn ends
    state = state.apply("B")
    assert state.describe(Stop(1), "risky") == ["Player 2 (risky) reveals B, then stops and takes B → score 0."]
    state = state.stop(1).apply(REVEAL)
    assert state.describe("A", "risky") == ["You reveal A and sink! The row is discarded."]
    assert initial_state().reveal("3").describe(Stop(1), "risky") == [
        "You stop and take 3.",
        "Your score: 3 (was 0); letters none.",
    ]
    assert state.situation(1).own_letters == frozenset("B") and state.situation().own_letters == frozenset()


def test_hint_values_every_legal_action_with_the_look_ahead_numbers():
    state = initial_state().reveal("2").reveal("A")
    hint = state.hint()
    choice = odds.choice(state.situation(), state.hand())
    assert hint.method == "heuristic"
    assert set(hint.values) == set(state.legal_actions()) == {REVEAL, Stop(0), Stop(1), Stop(2)}
    assert hint.values[REVEAL] == choice.reveal_one_value
    assert hint.values[Stop(choice.stop_take)] == choice.stop_value
    assert hint.best == (REVEAL if choice.reveal else Stop(choice.stop_take))
    with pytest.raises(ValueError, match="chance"):
        state.apply(REVEAL).hint()


def test_the_first_move_must_be_a_reveal():
    state = initial_state()
    assert state.legal_actions() == [REVEAL]
    with pytest.raises(ValueError, match="stop and take 0|Stop"):
        state.apply(Stop(0))


def _win_shares_fast(strategies, games: int, seed: int) -> np.ndarray:
    """(games, players) win shares (1/k for a k-way shared win) from the numpy engine."""
    winners = fast.play_games(strategies, games, np.random.default_rng(seed)).winners()
    return winners / winners.sum(axis=1, keepdims=True)


def _win_shares_loop(strategies, games: int, seed: int) -> np.ndarray:
    """The same from the generic loop over the protocol State."""
    rng = np.random.default_rng(seed)
    seats = list(strategies)
    start = initial_state(Rules(players=len(strategies)))
    return np.array([[float(r) for r in play(start, seats, rng).returns()] for _ in range(games)])


def test_fast_engine_agrees_with_the_generic_loop():
    """Seat by seat, the mean win share of the fast engine (20,000 games) and of the generic
    loop over the State (300 games), the same table-driven rules in the same seats, agree within
    z(99.9%) times the standard error of their difference."""
    strategies = [policies.stop_at(2), policies.stop_when_risky(Fraction(3, 10)), policies.stop_at(3)]
    a, b = _win_shares_fast(strategies, 20_000, seed=1), _win_shares_loop(strategies, 300, seed=2)
    for seat in range(len(strategies)):
        se = math.sqrt(a[:, seat].var(ddof=1) / len(a) + b[:, seat].var(ddof=1) / len(b))
        gap = abs(a[:, seat].mean() - b[:, seat].mean())
        assert gap <= Z_999 * se, (seat, a[:, seat].mean(), b[:, seat].mean(), se)
    # the seats differ enough that the test can tell rules apart
    assert abs(a[:, 0].mean() - a[:, 1].mean()) > 10 * math.sqrt(a[:, 0].var() / len(a))


def test_odds_take_a_state_as_a_dict(tmp_path):
    """A state given as a dict gives the same situation and figures as the same state in a file."""
    table = {
        "row": ["2", "A", "3"],
        "own": {"letters": ["A", "B"], "treasures": [3, 1]},
        "others": [{"letters": ["C"], "treasures": [2]}],
        "discards_seen": ["D", "1"],
    }
    path = tmp_path / "state.json"
    path.write_text(json.dumps(table))
    from_file = nessie.Rules(state=str(path))
    assert nessie.situation(state=table) == nessie.situation(from_file)
    assert nessie.report(state=table).figures == nessie.report(from_file).figures
    assert (
        nessie.simulate(state=table, trials=2000, seed=1).figures
        == nessie.simulate(from_file, trials=2000, seed=1).figures
    )
    with pytest.raises(ValueError, match="row"):
        nessie.situation(state={"row": ["2", "3", "1"]})


def test_moves_by_name_say_what_is_wrong():
    state = initial_state()
    with pytest.raises(ValueError, match="reveal at least one card before stopping"):
        state.stop(0)
    with pytest.raises(ValueError, match="from 0 to 1"):
        state.reveal("2").stop(2)
    with pytest.raises(ValueError, match="give rng or card"):
        state.reveal()
