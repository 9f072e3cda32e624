"""Nyx's fast engine (`nessus.games.nyx.playout`) against the protocol State and its bots: the
same position after every move and chance outcome, the same legal moves in the same order, the
same bot moves, the same whole games from the same seed; its rollout worlds' dice and cards with
the exact law (a chase of one symbol against `odds.p_within`)."""

from __future__ import annotations

from fractions import Fraction
from math import comb

import numpy as np
import pytest

from nessus.game import Action
from nessus.games.nyx import playout
from nessus.games.nyx.matrix import CELLS
from nessus.games.nyx.odds import p_within
from nessus.games.nyx.policies import greedy, odds, policies
from nessus.games.nyx.rules import SYMBOLS, Rules
from nessus.games.nyx.state import (
    BUY_BLACK,
    BUY_WHITE,
    NO_REROLL,
    PASS,
    Draw,
    Dream,
    EndNight,
    Reroll,
    Roll,
    Spell,
    State,
    initial_state,
)
from nessus.play import play, random_legal, sample

MOVES = {playout.NO_REROLL: NO_REROLL, playout.WHITE: BUY_WHITE, playout.BLACK: BUY_BLACK, playout.PASS: PASS}


def as_action(move: playout.Move) -> Action:
    """A table's move as the protocol's action."""
    kind = move[0]
    if kind in MOVES:
        return MOVES[kind]
    if kind == playout.REROLL:
        return Reroll(move[1])
    if kind == playout.DREAM:
        return Dream(move[1], SYMBOLS[move[2]], tuple(c for c in CELLS if move[3] >> (c - 1) & 1))
    if kind == playout.SPELL:
        return Spell(move[1])
    assert kind == playout.END
    return EndNight(move[1], move[2])


def seen(t: playout.Table) -> tuple:
    """Everything a table holds that the game's course depends on."""
    fields = ("score", "black", "white", "free", "started", "rolls", "pending_black", "pending_white", "matrix")
    return (
        *(tuple(getattr(t, f)) for f in fields),
        tuple(map(tuple, t.night)),
        tuple(map(tuple, t.active)),
        tuple(map(sorted, t.decks)),
        tuple(t.display),
        t.reserve_black,
        t.reserve_white,
        t.turn,
        t.phase,
        tuple(t.draws),
        t.rolling,
        t.rerolled,
        t.exhausted,
    )


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_table_follows_the_state_move_by_move(players):
    """A random playthrough (moves uniformly among the legal ones): at every decision the table's
    legal moves are the State's, in order, and greedy's and odds' moves are the protocol bots';
    after every move and chance outcome the table stepped along equals the table of the State."""
    rng = np.random.default_rng(players)
    state, protocol_bots = initial_state(Rules(players=players)), (greedy(), odds())
    table = playout.Table(state)
    choose = random_legal(rng=rng)
    decisions = 0
    while not state.is_terminal():
        if state.is_chance_node():
            action = sample(state.chance_outcomes(), rng)
            if isinstance(action, Draw):
                table.draw(action.card)
            else:
                assert isinstance(action, Roll)
                table.roll(action.dice)
        else:
            decisions += 1
            assert [as_action(m) for m in table.legal()] == state.legal_actions()
            for fast, bot in zip((playout.greedy, playout.odds), protocol_bots):
                assert as_action(fast(table, playout.Stream(rng))) == bot(state)
            action = choose(state)
            table.apply(next(m for m in table.legal() if as_action(m) == action))
        state = state.apply(action)
        assert seen(table) == seen(playout.Table(state))
    assert decisions > 20 and table.phase == playout.OVER and table.score == state.scores


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_table_plays_the_games_of_the_play_loop(players):
    """From the same seed, greedy and odds at the table play the very games `nessus.play.play`
    plays with the protocol bots (the same final scores and turns), each much faster."""
    named = policies()
    names = ("odds", "greedy", "odds", "greedy")[:players]
    for seed in range(8):
        end = play(initial_state(Rules(players=players)), [named[b] for b in names], np.random.default_rng(seed))
        bots = [playout.BOTS[b] for b in names]
        table = playout.Table(initial_state(Rules(players=players))).run(
            bots, playout.Stream(np.random.default_rng(seed))
        )
        assert (table.score, table.turn) == (end.scores, end.turn)
        shares = [table.result(p)[0] for p in range(players)]
        assert shares == list(end.returns()) and sum(shares) == 1


def test_random_legal_and_a_world_play_to_the_end_reproducibly():
    state = initial_state(Rules(players=3))
    bots = [playout.BOTS[b] for b in ("random_legal", "odds", "greedy")]
    ends = []
    for _ in range(2):
        table = playout.Table(state)
        ends.append(table.run(bots, playout.World(np.random.default_rng(9), table)).score)
    assert ends[0] == ends[1]


def dealt_then_rolled(players: int, dice: tuple[int, ...]) -> State:
    """Player 1 after the deal (cards 0 1 2 / 30 31 32 for two players) with these dice rolled."""
    slots = players + 1
    state = initial_state(Rules(players=players)).draw(*range(slots), *range(30, 30 + slots))
    return state.apply(Roll(dice[:3], dice[3:]))


def test_a_worlds_rolls_have_the_exact_law():
    """The chase with a world's rolls: keep the moons of 6 black dice and reroll the others twice;
    P(at least 3 moons within the 3 rolls) by 4,000 worlds lies within the 99.9% interval of the
    exact `odds.p_within` (the first roll, then 2 more; the kept moons are the need's head start)."""
    table = playout.Table(dealt_then_rolled(2, (6, 0, 0, 0, 0, 0)))
    hits = 0
    for i in range(4000):
        world = playout.World(np.random.default_rng([3, i]), table)
        moons = 0
        for _ in range(3):
            moons += world.roll(0, 6 - moons, 0)[2]
        hits += moons >= 3
    exact = p_within("moon", 3, 6, 0, 3)
    spread = 3.3 * float(exact * (1 - exact) / 4000) ** 0.5
    assert abs(hits / 4000 - float(exact)) < spread
    missed = Fraction(5, 6) ** 3  # independently: each die shows a moon by the third roll but with (5/6)^3
    assert exact == 1 - sum(comb(6, k) * (1 - missed) ** k * missed ** (6 - k) for k in range(3))


def test_a_world_deals_each_order_of_a_deck_alike():
    """The first card a world deals from a deck of 18: each equally likely (99.9% band on 5,400 worlds)."""
    table = playout.Table(initial_state(Rules(players=2)))
    counts = np.zeros(60)
    for i in range(5400):
        world = playout.World(np.random.default_rng([4, i]), table)
        counts[world.draw(list(table.decks[0]), 0)] += 1
    dealt = counts[list(table.decks[0])]
    assert dealt.sum() == 5400 and counts.sum() == 5400
    p = 1 / len(table.decks[0])
    assert np.all(np.abs(dealt / 5400 - p) < 3.3 * (p * (1 - p) / 5400) ** 0.5)
