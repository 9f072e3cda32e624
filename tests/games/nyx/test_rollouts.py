"""Nyx's win-chance hint (`State.hint(method="rollout")`, `nessus.games.nyx.rollouts`): its exact
values at the end of a game against an independent enumeration on the protocol State with the
protocol bots, its rollouts against those exact values, no reading of the one thing hidden in
Nyx (the decks' order), seeds that replay it, the moves it weighs, clear errors, and the rollout
bot."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

import numpy as np
import pytest

from nessus.game import State as GameState
from nessus.games.nyx import rollouts
from nessus.games.nyx.policies import policies, rollout
from nessus.games.nyx.rules import Rules
from nessus.games.nyx.state import NO_REROLL, PASS, ROLLOUT_MOVES, EndNight, Reroll, Roll, State, initial_state
from nessus.play import play, sample
from nessus.rollout import RolloutHint

BOTS = ("odds", "odds")
Z999 = 3.29 / 1.96
"""A 95% interval's half-width scaled to 99.9%: the tolerance when several values are checked."""


def positions(seeds: range = range(12), exact: bool = False) -> list[State]:
    """Player 1's decisions in seeded 2-player games of odds against odds; with `exact`, only
    those where a deck is empty and the hint is exact."""
    named, found = policies(), []
    for seed in seeds:
        rng, state = np.random.default_rng(seed), initial_state(Rules(players=2, bots="odds"))
        while not state.is_terminal():
            if not state.is_chance_node() and state.current_player() == 0:
                hint = (
                    state.hint(method="rollout", most=24)
                    if exact and not (state.dream_deck and state.spell_deck)
                    else None
                )
                if not exact or (isinstance(hint, RolloutHint) and all(v.exact for v in hint.estimates.values())):
                    found.append(state)
            state = state.apply(
                named["odds"](state) if not state.is_chance_node() else sample(state.chance_outcomes(), rng)
            )
    return found


def enumerated(state: GameState, player: int) -> tuple[Fraction, Fraction]:
    """`player`'s win chance and expected final points, every chance outcome weighed and every
    decision taken by the protocol odds bot: a plain recursion on the State, independent of the
    fast engine."""
    if state.is_terminal():
        assert isinstance(state, State)
        return state.returns()[player], Fraction(state.scores[player])
    if state.is_chance_node():
        branches = [(p, enumerated(state.apply(o), player)) for o, p in state.chance_outcomes()]
        return sum((p * w for p, (w, _) in branches), Fraction(0)), sum((p * v for p, (_, v) in branches), Fraction(0))
    return enumerated(state.apply(policies()["odds"](state)), player)


@pytest.fixture(scope="module")
def ends() -> list[State]:
    """Decisions near the end whose hint is exact, small enough to enumerate on the State (at most
    200 end positions a move), one at least with win chances strictly between 0 and 1."""
    found = [
        state
        for state in positions(exact=True)
        if all(rollouts.exact(state.apply(m), BOTS, 0, 200) is not None for m in state.rollout_moves().values())
    ]
    assert len(found) >= 4
    return found


def test_the_exact_values_are_an_independent_enumerations(ends):
    """At the end of a game the hint is exact: each move's win chance and expected points equal a
    plain enumeration through the protocol State and the protocol odds bot."""
    shown = 0
    for state in ends:
        hint = state.hint(method="rollout", bots=BOTS)
        assert hint.method == "rollout" and hint.rollouts == 0 and hint.separated
        for move, value in hint.estimates.items():
            win, points = enumerated(state.apply(move), 0)
            assert value.exact and value.win == float(win) and value.points == float(points)
            assert value.win_low == value.win_high == value.win
            shown += 0 < win < 1
        assert hint.best == max(hint.estimates, key=lambda m: hint.estimates[m].win)
    assert shown >= 1  # some position where winning is a real chance


def test_rollouts_agree_with_the_exact_values(ends):
    """The same positions by 480 rollouts a move alone (`leaves=0`): every move's exact win chance
    and points lie in its interval widened from 95% to 99.9% (several values are checked at once)."""
    for state in ends:
        exact = state.hint(method="rollout", bots=BOTS).estimates
        rolled = rollouts.hint(state, state.rollout_moves(), seed=7, most=480, bots=BOTS, leaves=0, first=480)
        assert rolled.rollouts == 480 and not any(v.exact for v in rolled.estimates.values())
        for move, value in rolled.estimates.items():
            for mean, low, high, truth in (
                (value.win, value.win_low, value.win_high, exact[move].win),
                (value.points, value.points_low, value.points_high, exact[move].points),
            ):
                assert low <= mean <= high
                assert abs(truth - mean) <= Z999 * max(mean - low, high - mean) + 1e-9, (move, truth, value)


def test_the_hint_never_reads_the_decks_order():
    """Nyx hides only the decks' order (`hidden_variants` is empty: every player sees the whole
    table). Two states listing the decks' cards in different orders give the same hint with the
    same seed: the worlds shuffle the cards left, whatever order they are listed in."""
    state = positions(seeds=range(1))[6]
    assert all(state.hidden_variants(p) == [] for p in range(state.players)) and not state.shape().hidden
    listed = replace(
        state, dream_deck=tuple(reversed(state.dream_deck)), spell_deck=state.spell_deck[1:] + state.spell_deck[:1]
    )
    assert listed != state and listed.observation(0) == state.observation(0)
    a, b = (s.hint(method="rollout", seed=3, most=48) for s in (state, listed))
    assert a.estimates == b.estimates and a.rollouts == b.rollouts and a.best == b.best


def test_seeds_replay_the_hint():
    state = positions(seeds=range(1))[4]
    a, b, c = (state.hint(method="rollout", seed=s, most=48) for s in (4, 4, 5))
    assert isinstance(a, RolloutHint) and a.seed == 4 and not any(v.exact for v in a.estimates.values())
    assert a.estimates == b.estimates and a.rollouts == b.rollouts
    assert c.estimates != a.estimates


def dealt(dice: tuple[int, ...], players: int = 2) -> State:
    """Player 1 after the deal (the first dreams and spells of the decks) with these dice rolled."""
    cards = [*range(players + 1), *range(30, 31 + players)]
    return initial_state(Rules(players=players)).draw(*cards).apply(Roll(dice[:3], dice[3:]))


def test_the_moves_weighed_are_one_a_group():
    """Before acting: no reroll, keep each symbol held and reroll the rest, reroll all. Acting: at
    most `ROLLOUT_MOVES` legal moves, passing and ending the night (the bots' discards) among them."""
    choosing = replace(dealt((3, 2, 1, 0, 0, 0)), phase="choose", rerolled=False)
    assert list(choosing.rollout_moves()) == [
        NO_REROLL,
        Reroll((0, 2, 1, 0, 0, 0)),
        Reroll((3, 0, 1, 0, 0, 0)),
        Reroll((3, 2, 0, 0, 0, 0)),
        Reroll((3, 2, 1, 0, 0, 0)),
    ]
    for state in [dealt((3, 2, 1, 0, 0, 0)), *positions(seeds=range(2))]:
        moves = state.rollout_moves()
        assert 1 <= len(moves) <= ROLLOUT_MOVES and all(m == a and a in state.legal_actions() for m, a in moves.items())
        if state.phase == "act":
            assert state.end_night() in moves and (PASS in moves) == state.rerolled
            assert isinstance(state.end_night(), EndNight)


def test_the_hint_says_its_model():
    hint = dealt((3, 2, 1, 0, 0, 0), players=3).hint(method="rollout", most=24, bots=("odds", "greedy", "random_legal"))
    assert hint.opponents == (
        "the other seats played by the bots (player 2 as greedy, player 3 as random_legal), your later moves as odds"
    )
    assert "decks' order" in hint.posterior and "to win" in hint.words(str)
    assert set(hint.values) == set(hint.estimates) and hint.values[hint.best] == max(hint.values.values())


def test_a_forced_move_is_valued_too():
    rolled = dealt((3, 2, 1, 0, 0, 0))
    placed = replace(rolled.seats[0], free=(0,) * 6, spent_black=6)  # every die on a card
    state = replace(rolled, seats=(placed, rolled.seats[1]), phase="choose", rerolled=False)
    assert list(state.rollout_moves()) == [NO_REROLL]
    hint = state.hint(method="rollout", most=48)
    assert hint.best == NO_REROLL and hint.rollouts == rollouts.FIRST and hint.estimates[NO_REROLL].n == rollouts.FIRST


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"method": "oracle"}, "method must be 'heuristic' or 'rollout', got 'oracle'"),
        ({"method": "rollout", "most": 1}, "most must be an integer of at least 2, got 1"),
        ({"method": "rollout", "seed": -1}, "seed must be an integer of at least 0, got -1"),
        ({"method": "rollout", "bots": ("odds",)}, "bots must name one bot a seat"),
        ({"method": "rollout", "bots": ("odds", "nobody")}, "bots must name one bot a seat"),
    ],
)
def test_bad_arguments_are_value_errors(kwargs, message):
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)")):
        dealt((3, 2, 1, 0, 0, 0)).hint(**kwargs)


def test_no_rollout_hint_without_a_decision():
    with pytest.raises(ValueError, match="no rollout hint at a chance node"):
        initial_state().hint(method="rollout")


def test_the_rollout_bot_plays_the_hints_move_to_the_end():
    state = dealt((3, 2, 1, 0, 0, 0))
    bot = rollout(most=24)
    assert bot(state) == state.hint(method="rollout", most=24).best
    end = play(
        initial_state(Rules(players=2, bots="rollout,greedy")), [bot, policies()["greedy"]], np.random.default_rng(1)
    )
    assert end.is_terminal() and sum(end.returns()) == 1
