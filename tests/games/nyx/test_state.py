"""Nyx's state (`nessus.games.nyx.state`): the protocol's conformance checks on random whole
games for 2 to 4 players (the game is not registered yet, so they run here on `nyx` states),
property tests on every step (dice and cards conserved, placements never overlapping, scores
following the cards) and hand-made scenarios for the rules."""

from __future__ import annotations

import copy
from collections import Counter
from dataclasses import replace
from fractions import Fraction
from typing import Any

import numpy as np
import pytest
import test_protocol as protocol
from hypothesis import given, settings
from hypothesis import strategies as st
from test_protocol import check_node

from nessus.game import CHANCE
from nessus.games.nyx import cards as nyx_cards
from nessus.games.nyx.cards import CARDS, DREAMS, SPELLS, dream_ids, spell_ids
from nessus.games.nyx.matrix import SHAPES, placements
from nessus.games.nyx.rules import Rules
from nessus.games.nyx.state import (
    BUY_BLACK,
    BUY_WHITE,
    MAX_TURNS,
    NO_REROLL,
    PASS,
    Draw,
    Dream,
    EndNight,
    NoReroll,
    Reroll,
    Roll,
    Seat,
    Spell,
    State,
    initial_state,
    pay,
    roll_outcomes,
)
from nessus.play import play, random_legal, sample
from nessus.solver import Hint


def start(players: int) -> State:
    return initial_state(Rules(players=players))


def check_table(state: State) -> None:
    """Dice and cards conserved, the matrix consistent with the dreams of the night."""
    n = state.players
    blacks = state.reserve_black + sum(s.black + s.pending_black for s in state.seats)
    whites = state.reserve_white + sum(s.white + s.pending_white for s in state.seats)
    assert (blacks, whites) == (9 * n, 3 * n)
    for s in state.seats:
        assert s.black <= 9 and s.black + s.pending_black <= 9
        assert min(s.free) >= 0 and min(s.spent_black, s.spent_white, s.pending_black, s.pending_white) >= 0
        if s.started:
            assert sum(s.free[:3]) + s.spent_black == s.black
            assert sum(s.free[3:]) + s.spent_white == s.white
        else:
            assert s.free == (0,) * 6 and s.spent_black == s.spent_white == 0 and not s.night and not s.matrix
        dreams = [CARDS[c] for c in s.night if not CARDS[c].is_spell]
        assert len(s.matrix) == len(set(s.matrix)) == sum(len(SHAPES[c.shape]) for c in dreams)
        assert s.score >= 0
    every = state.all_cards()
    assert Counter(every) == Counter(dream_ids(n) + spell_ids(n))
    if state.phase != "deal":
        assert len(state.dreams) == len(state.spells) == n + 1


def check_step(before: State, action: object, after: State) -> None:
    """One step's own rules: a placement on free cells, scores moved by the night's cards only."""
    if isinstance(action, Dream):
        seat, new = before.seats[before.mover], after.seats[before.mover]
        assert not set(action.cells) & set(seat.matrix)
        assert set(new.matrix) == set(seat.matrix) | set(action.cells)
    p = before.mover
    expected = list(before.scores)
    nights = [s.night_points() for s in before.seats]

    def score(q: int) -> None:
        gain, loss = nights[q]
        expected[:] = [s + gain if r == q else max(0, s - loss) for r, s in enumerate(expected)]

    if isinstance(action, EndNight):
        score(p)
    if after.is_terminal():  # every player scores their night (cards as they lie now), in seat order
        nights = [s.night_points() for s in after.seats]
        for q in range(before.players):
            score(q)
    assert after.scores == expected


def walk(state: State, rng: np.random.Generator) -> list[State]:
    """A random playthrough (chance exact, moves uniform) checking every node and step."""
    choose = random_legal(rng=rng)
    seen = [state]
    limit = state.shape().max_length
    while not state.is_terminal():
        check_node(state)
        check_table(state)
        action = sample(state.chance_outcomes(), rng) if state.is_chance_node() else choose(state)
        before = copy.deepcopy(state)
        after = state.apply(action)
        assert state == before, "apply changed the state it was called on"
        check_step(state, action, after)
        state = after
        seen.append(state)
        assert len(seen) - 1 <= limit
    check_node(state)
    check_table(state)
    return seen


# -- the protocol ----------------------------------------------------------------------------------
SUITE = [
    protocol.test_registered_game_has_the_protocol,
    protocol.test_random_playthrough_reaches_the_end,
    protocol.test_illegal_action_is_a_value_error,
    protocol.test_seeded_playthrough_is_reproducible,
    protocol.test_hint_best_action_is_legal,
    protocol.test_named_policies_play_whole_games,
    protocol.test_observation_hides_only_what_is_hidden,
]


@pytest.mark.parametrize("check", SUITE, ids=lambda f: f.__name__)
def test_the_conformance_suite_passes(check):
    """tests/test_protocol.py's own checks, on the game registered as "nyx"."""
    check("nyx")


@settings(max_examples=12, deadline=None)
@given(players=st.integers(2, 4), seed=st.integers(0, 2**32 - 1))
def test_random_playthrough_reaches_the_end(players, seed):
    end = walk(start(players), np.random.default_rng(seed))[-1]
    assert sum(end.returns()) == 1


def test_seeded_playthrough_is_reproducible():
    ends = [
        play(start(3), [random_legal(rng=np.random.default_rng(9))] * 3, np.random.default_rng(9)) for _ in range(2)
    ]
    assert ends[0] == ends[1]


def test_hint_best_action_is_legal():
    decisions = 0
    for state in walk(start(3), np.random.default_rng(11)):
        if state.current_player() < 0:
            with pytest.raises(ValueError):
                state.hint()
            continue
        if decisions >= 8:
            continue
        decisions += 1
        hint = state.hint()
        assert isinstance(hint, Hint) and hint.method == "heuristic"
        assert hint.best in state.legal_actions()
        assert set(hint.values) == set(state.legal_actions())
        assert hint.cost(hint.best) == 0 and all(hint.cost(a) >= 0 for a in hint.values)


def test_nothing_is_hidden():
    state = start(2)
    assert state.shape().hidden is False and state.hidden_variants(0) == []
    with pytest.raises(ValueError):
        state.observation(2)


def test_initial_table():
    for n in (2, 3, 4):
        state = start(n)
        assert state.current_player() == CHANCE
        assert len(state.dream_deck) == len(state.spell_deck) == 30 - 6 * (4 - n)
        assert (state.reserve_black, state.reserve_white) == (3 * n, 3 * n)
        assert all(s == Seat() and (s.black, s.score) == (6, 10) for s in state.seats)
        outcomes = state.chance_outcomes()
        assert {p for _, p in outcomes} == {Fraction(1, len(state.dream_deck))}
        dealt = state.draw(*dream_ids(n)[: n + 1], *spell_ids(n)[: n + 1])
        assert dealt.current_player() == CHANCE and dealt.phase == "roll"
        assert len(dealt.dream_deck) == 30 - 6 * (4 - n) - n - 1


# -- the cards -------------------------------------------------------------------------------------
def test_cards_follow_the_task():
    assert len(DREAMS) == len(SPELLS) == 30
    assert all(placements(c.shape) and c.shape not in ("I4", "I5", "L5", "N5", "Y5") for c in DREAMS)
    assert 8 <= sum(c.kind == "nightmare" for c in DREAMS) <= 12
    assert all(1 <= c.points <= 4 for c in DREAMS if c.kind == "nightmare")
    assert all(1 <= len(c.symbols) <= 3 and c.effect in ("power", "once") for c in SPELLS)
    examples = [c for c in CARDS if not c.assumed]
    assert [(c.shape, c.points, c.assumed_fields) for c in examples if not c.is_spell] == [("L4", 4, ("points",))]
    assert [(sorted(c.symbols), c.assumed_fields) for c in examples if c.is_spell] == [
        (["crescent", "moon"], ("effect", "points"))
    ]
    assert nyx_cards.PATH.name == "nyx-cards.json"


# -- dice ------------------------------------------------------------------------------------------
def test_roll_outcomes_are_exact_multinomials():
    outcomes = roll_outcomes(6, 2)
    assert len(outcomes) == 28 * 6 and sum(p for _, p in outcomes) == 1
    weights = dict(outcomes)
    assert weights[Roll((0, 0, 6), (0, 0, 2))] == Fraction(1, 6**6) * Fraction(1, 9)
    assert weights[Roll((6, 0, 0), (2, 0, 0))] == Fraction(1, 2**6) * Fraction(1, 9)
    assert sum(p for r, p in outcomes if r.black[2] == 0) == Fraction(5, 6) ** 6


def test_white_dice_are_paid_first():
    assert pay((1, 1, 1, 1, 0, 1), ["star", "moon", "crescent"]) == (0, 1, 0, 1, 0, 1)
    assert pay((2, 0, 0, 1, 0, 0), ["star", "star"]) == (1, 0, 0, 1, 0, 0)
    assert pay((2, 0, 0, 0, 0, 0), ["moon"]) is None


def dealt(players: int = 2) -> State:
    """Player 1 to roll: dreams 0, 1, 2 (L4 4, I2 1, nightmare I3 2) and spells 30, 31, 32 face up
    (crescent + moon power 1, star once 1, moon once 2)."""
    state = start(players).draw(*range(players + 1), *range(30, 31 + players))
    assert state.phase == "roll"
    return state


def acting(state: State, free: tuple[int, ...], **seat: Any) -> State:
    """The mover, their night started, with these free dice (their black/white counts to match)."""
    p = state.mover
    s = replace(state.seats[p], free=free, started=True, rolls=1, black=sum(free[:3]), white=sum(free[3:]), **seat)
    white = sum(free[3:]) - state.seats[p].white
    return replace(
        state,
        seats=state.seats[:p] + (s,) + state.seats[p + 1 :],
        phase="act",
        rerolled=True,
        reserve_white=state.reserve_white - white,
        reserve_black=state.reserve_black - (s.black - state.seats[p].black),
    )


def test_first_roll_then_reroll_or_not():
    state = dealt().apply(Roll((1, 2, 3), (0, 0, 0)))
    assert state.phase == "act" and PASS in state.legal_actions()
    # a dream of two moons: 12 placements of I2 on the empty matrix
    assert sum(1 for a in state.legal_actions() if isinstance(a, Dream) and a.slot == 1 and a.symbol == "moon") == 12
    state = state.apply(PASS)  # player 2's first night
    assert state.current_player() == CHANCE and state.mover == 1
    state = state.apply(Roll((6, 0, 0), (0, 0, 0))).apply(PASS)
    assert state.mover == 0 and state.phase == "choose"
    legal = state.legal_actions()
    assert legal[0] == NO_REROLL and len(legal) == 2 * 3 * 4  # sub-multisets of 1 star, 2 crescents, 3 moons
    assert Reroll((0, 0, 0, 0, 0, 0)) not in legal
    after = state.apply(NoReroll())
    assert PASS not in after.legal_actions()  # no roll this turn: an action is needed
    rolling = state.apply(Reroll((0, 2, 1, 0, 0, 0)))
    assert rolling.current_player() == CHANCE
    assert sum(p for _, p in rolling.chance_outcomes()) == 1 and len(rolling.chance_outcomes()) == 10
    rolled = rolling.apply(Roll((3, 0, 0), (0, 0, 0)))
    assert rolled.seats[0].free == (4, 0, 2, 0, 0, 0) and rolled.seats[0].rolls == 2 and PASS in rolled.legal_actions()


def test_realising_places_dice_and_refills():
    state = acting(dealt(), (1, 0, 4, 1, 0, 0))
    action = Dream(0, "moon", (1, 2, 5, 8))  # the rulebook's L of four full moons
    assert action in state.legal_actions()
    after = state.apply(action)
    seat = after.seats[0]
    assert seat.matrix == (1, 2, 5, 8) and seat.night == (0,) and seat.free == (1, 0, 0, 1, 0, 0)
    assert after.dreams[0] is None and after.current_player() == CHANCE
    assert len(after.chance_outcomes()) == len(after.dream_deck)
    refilled = after.apply(Draw(after.dream_deck[0]))
    assert refilled.dreams[0] == after.dream_deck[0] and refilled.mover == 1 and refilled.phase == "roll"
    # a spell: star (white first)
    spelled = state.apply(Spell(1))
    assert spelled.seats[0].free == (1, 0, 4, 0, 0, 0) and spelled.seats[0].spent_white == 1
    # no room: cells already taken are never covered again
    blocked = acting(dealt(), (0, 0, 4, 0, 0, 0), matrix=(2, 4, 5, 6, 8))
    assert not [a for a in blocked.legal_actions() if isinstance(a, Dream) and a.slot == 0]


def test_buying_dice():
    state = acting(dealt(), (1, 1, 1, 0, 0, 0))
    assert BUY_BLACK in state.legal_actions() and BUY_WHITE in state.legal_actions()
    bought = state.apply(BUY_BLACK)
    assert (
        bought.seats[0].pending_black == 1
        and bought.reserve_black == state.reserve_black - 1
        and bought.seats[0].free == (0,) * 6
    )
    full = acting(dealt(), (3, 3, 3, 0, 0, 0))
    assert BUY_BLACK not in full.legal_actions()  # already 9 black dice
    empty = replace(acting(dealt(), (1, 0, 0, 0, 0, 0)), reserve_white=0)
    assert BUY_WHITE not in empty.legal_actions()
    white = state.apply(BUY_WHITE)
    assert white.seats[0].pending_white == 1 and white.reserve_white == state.reserve_white - 1


def test_end_night_scores_the_cards():
    base = dealt()
    # player 1 realised dream 3 (I3, 2 points), nightmare 2 (2 from each opponent), spells 30
    # (power 1) and 31 (once 1) this night, and has spell 39 (power) active from before
    night = (3, 2, 30, 31)
    dreams, spells = (0, 1, 4), (33, 34, 35)
    used = night + dreams + spells + (32, 39)
    decks = dict(
        dream_deck=tuple(c for c in dream_ids(2) if c not in used),
        spell_deck=tuple(c for c in spell_ids(2) if c not in used),
    )
    state = replace(base, dreams=dreams, spells=spells, discard=(32,), **decks)
    state = acting(state, (1, 0, 0, 1, 0, 0), night=night, active=(39,), matrix=(1, 2, 3, 4, 7, 8), pending_black=1)
    state = replace(state, reserve_black=state.reserve_black - 1)
    state = replace(state, seats=(state.seats[0], replace(state.seats[1], score=1)))
    power = CARDS[39]
    assert power.effect == "power"
    check_table(state)
    gain = CARDS[3].points + CARDS[30].points + CARDS[31].points + power.points
    assert state.seats[0].night_text() == f"+{gain}, −{CARDS[2].points} to each opponent"
    line = state.told(EndNight(1, 2), ["you", "player 2 (odds)"])
    assert line == f"You: {state.describe(EndNight(1, 2))} (+{gain}, −{CARDS[2].points} to each opponent)."
    after = state.apply(EndNight(1, 2))
    assert after.scores == [10 + gain, 0]  # the nightmare takes 2 from 1: the floor is 0
    seat = after.seats[0]
    assert seat.active == (39, 30) and set(seat.discard) == {3, 2, 31}
    assert (seat.black, seat.white, seat.started, seat.matrix, seat.night) == (2, 0, False, (), ())
    assert after.reserve_white == state.reserve_white + 1  # the white die of the night goes back
    assert after.discard == (32, 1, 35) and after.dreams[1] is None and after.spells[2] is None
    assert [p for _, p in after.chance_outcomes()][0] == Fraction(1, len(after.dream_deck))
    check_table(after)
    after = after.draw(after.dream_deck[0], after.spell_deck[0])
    assert after.mover == 1 and after.phase == "roll"


def test_game_ends_with_the_round_once_a_deck_runs_out():
    state = acting(dealt(), (0, 0, 2, 0, 0, 0))
    gone = state.dream_deck
    state = replace(state, dream_deck=(), discard=gone)
    after = state.apply(Dream(1, "moon", (1, 2)))  # the slot cannot be refilled
    assert after.exhausted and after.dreams[1] is None and after.mover == 1 and not after.is_terminal()
    after = after.apply(after.chance_outcomes()[0][0])  # player 2's night starts
    end = after.apply(EndNight(0, 0)).draw(after.spell_deck[0])  # no dream left to draw
    assert end.is_terminal() and end.turn == 2
    # final scoring: player 1's night (dream 1) counted once more at the end
    assert end.scores[0] == 10 + CARDS[1].points
    assert end.scores[1] == 10 and end.returns() == [Fraction(1), Fraction(0)]
    check_table(end)


def test_turn_limit_ends_the_game():
    state = replace(acting(dealt(), (1, 0, 0, 0, 0, 0)), turn=2 * MAX_TURNS - 2)
    state = state.apply(PASS)
    assert not state.is_terminal()
    state = state.apply(state.chance_outcomes()[0][0]).apply(PASS)
    assert state.is_terminal() and state.turn == 2 * MAX_TURNS
    assert state.returns() == [Fraction(1, 2), Fraction(1, 2)]
