"""Entheos' rollout hint: the fast engine plays the rules and the bots exactly as the protocol
does; the worlds agree with what the player sees and never read what it does not; the values
agree with an independent enumeration where one exists (the last turn); seeds replay."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from itertools import permutations
from math import sqrt
from typing import cast

import numpy as np
import pytest

from nessus import game, rollout
from nessus.games.entheos import playout, rollouts
from nessus.games.entheos.heroes import FACES, GODS
from nessus.games.entheos.policies import policies
from nessus.games.entheos.rules import Rules
from nessus.games.entheos.state import (
    Effect,
    Hold,
    KeepFace,
    Lock,
    NoTarget,
    Place,
    Reserve,
    Reveal,
    SetFace,
    State,
    SwapDice,
    SwapPlaces,
    action_text,
    initial_state,
)
from nessus.play import play, sample
from nessus.rollout import RolloutHint

BOTS = policies()


def effect_of(code: playout.Code | None) -> Effect | None:
    """The protocol's effect of a fast engine's code (see `playout.Code`)."""
    if code is None:
        return None
    kind, *args = code
    makers = {0: NoTarget, 1: Lock, 2: Reserve, 4: SwapPlaces, 5: SwapDice, 6: KeepFace}
    return SetFace(args[0], FACES[args[1]]) if kind == 3 else makers[kind](*args)


def action_of(move: tuple) -> game.Action:
    """The protocol's action of a fast engine's move."""
    if isinstance(move[0], bool):
        held, card, older, code = move
        return Hold(card, older, effect_of(code)) if held else Reveal(card, cast(Effect, effect_of(code)))
    return Place(tuple(move))


def decision(players: int, seed: int, until) -> State:
    """The first decision where `until(state)` holds in seeded games of greedy bots (the first seed
    from `seed` that has one)."""
    for s in range(seed, seed + 50):
        state = play(
            initial_state(Rules(players=players)),
            [BOTS["greedy"]] * players,
            np.random.default_rng(s),
            until=lambda x: x.current_player() >= 0 and until(x),
        )
        assert isinstance(state, State)
        if not state.is_terminal():
            return state
    raise AssertionError("no game reaches the position")


@pytest.mark.parametrize("players", [2, 4, 6])
def test_the_fast_engine_plays_the_rules_and_the_bots_as_the_protocol(players):
    """At every decision of whole games, each bot in turn at every seat: the fast engine lists the
    same legal moves in the same order, each bot chooses the same move (random_legal apart: its
    own stream), and the table after the move is the protocol's state after it."""
    names = [name for name in playout.BOTS if name != "random_legal"]
    for i, name in enumerate(names[::2] if players > 2 else names):
        rng = np.random.default_rng(100 * players + i)
        state: game.State = initial_state(Rules(players=players))
        while not state.is_terminal():
            if state.is_chance_node():
                state = state.apply(sample(state.chance_outcomes(), rng))
                continue
            assert isinstance(state, State)
            table, p = playout.Table.of(state), state.current_player()
            assert table.mover() == p
            moves = table.placements(p) if state.phase == "place" else table.slot_moves(p)
            assert [action_of(m) for m in moves] == state.legal_actions()
            place, slot = playout.BOTS[name]
            move = (place if state.phase == "place" else slot)(table, p, rng)
            assert action_of(move) == BOTS[name](state), (name, state.phase)
            playout.play(table, move)
            state = state.apply(action_of(move))
            assert isinstance(state, State)
            if state.phase != "dice":
                assert table.key() == playout.Table.of(state).key()
        assert isinstance(state, State)
        assert table.victory_points() == state.victory_points()
        assert playout.shares(table.victory_points()) == [float(r) for r in state.returns()]


def test_the_gods_dealt_in_a_world_are_every_deal_the_rules_allow():
    """At 2-3 players each other player has one god of each side, at 4 one god per side is set
    aside; each deal consistent with yours appears once."""
    deals = rollouts.god_deals(3, 0, (0, 3))
    assert len(deals) == 4 and len(set(deals)) == 4  # the 2 other Achaean gods x the 2 other Trojans
    for aside, gods in deals:
        assert aside == () and gods[0] == (0, 3)
        assert all(GODS[a].side == 0 and GODS[t].side == 1 for a, t in gods[1:])
    four = rollouts.god_deals(4, 2, (5,))
    assert len(four) == 3 * 2 * 6  # an Achaean aside of 3, a Trojan of 2, then the 3 left for 3 seats
    assert all(GODS[a].side == 0 and GODS[t].side == 1 and gods[2] == (5,) for (a, t), gods in four)
    assert len(rollouts.god_deals(5, 4, (1,))) == 5 * 4 * 3 * 2  # one of the 5 others left out


def test_a_world_agrees_with_what_the_player_sees():
    state = decision(4, 3, lambda s: s.turn == 2 and s.phase == "reveal" and s.step == 2)
    me = state.current_player()
    rng = np.random.default_rng(0)
    for _ in range(30):
        world = rollouts.sample(state, rng)
        assert world.observation(me) == state.observation(me)
        assert all(world.cards(p) == (1, 2, 3, 4, 5, 6) for p in range(4))
        assert world.legal_actions() == state.legal_actions()


def test_the_hint_never_reads_what_the_player_cannot_see():
    """States that differ only in what the player to move cannot see (the others' gods and
    face-down cards) give the same hint with the same seed; another seed gives another."""
    state = decision(4, 5, lambda s: s.turn == s.turns - 3 and s.phase == "reveal" and s.step == 2)
    me = state.current_player()
    variants = state.hidden_variants(me)
    assert len(variants) >= 3
    hint = rollouts.hint(state, seed=4, most=16)
    for variant in variants:
        again = rollouts.hint(cast(State, variant), seed=4, most=16)
        assert again.estimates == hint.estimates and again.rollouts == hint.rollouts
    assert rollouts.hint(state, seed=4, most=16).estimates == hint.estimates  # a seed replays
    assert rollouts.hint(state, seed=5, most=16).estimates != hint.estimates
    rollout_bot = BOTS["rollout"]
    assert all(rollout_bot(v) == rollout_bot(state) for v in variants[:2])


def enumerated(state: State, action: game.Action) -> tuple[Fraction, Fraction]:
    """The player's exact win chance and victory points after `action` in the last turn, found
    without the rollout code: every god deal that leaves the player theirs (3 players: each other
    player one god of each side) and every arrangement of the unused cards of each player still to
    act, equally likely, played out by the protocol's greedy bots (the player greedy too)."""
    me, n = state.current_player(), state.players
    mine = state.gods[me]
    left = [[g for g in range(len(GODS)) if GODS[g].side == side and g != mine[side]] for side in (0, 1)]
    others = [q for q in range(n) if q != me]
    deals = [
        tuple(mine if q == me else (achaeans[others.index(q)], trojans[others.index(q)]) for q in range(n))
        for achaeans in permutations(left[0])
        for trojans in permutations(left[1])
    ]
    to_act = {p for p in state.slots[state.step + 1 :] if p != me}
    arrangements: list[dict[int, tuple]] = [{}]
    for q in to_act:
        unseen = [c for c in range(1, 7) if c not in state.used[q]]
        k, m = len(state.hands[q]), len(state.placed[q])
        ways = {(tuple(sorted(o[:k])), tuple(sorted(o[k : k + m])), tuple(o[k + m :])) for o in permutations(unseen)}
        arrangements = [a | {q: w} for a in arrangements for w in sorted(ways)]
    win, vp, count = Fraction(0), Fraction(0), 0
    for gods in deals:
        for arrangement in arrangements:
            hands, placed, held = list(state.hands), list(state.placed), list(state.held)
            for q, (hand, down, old) in arrangement.items():
                hands[q], placed[q] = hand, down
                held[q] = tuple((t, c) for (t, _), c in zip(state.held[q], old))
            world = replace(state, gods=gods, hands=tuple(hands), placed=tuple(placed), held=tuple(held))
            end = play(world.apply(action), [BOTS["greedy"]] * n, np.random.default_rng(0))
            assert isinstance(end, State)
            win += end.returns()[me]
            vp += end.victory_points()[me]
            count += 1
    return win / count, vp / count


def test_rollouts_agree_with_an_enumeration_of_the_last_turn():
    """3 players, the last turn, the first slot (both others still to act): each move's rollout
    value, over 512 worlds (no early stop), is within 4 standard errors of the enumerated one (a
    fixed seed); the moves' values differ."""
    state = decision(3, 4, lambda s: s.turn == s.turns - 1 and s.phase == "reveal" and s.step == 0)
    hint = rollout.estimate(state, rollouts.rollouts(state), rollouts.choices(state), seed=2, first=512, most=512)
    assert not any(v.exact for v in hint.estimates.values())
    wins = set()
    for action, value in hint.estimates.items():
        win, vp = enumerated(state, action)
        wins.add(win)
        error = sqrt(float(win) * (1 - float(win)) / value.n)
        assert abs(value.win - float(win)) <= 4 * error + 1e-12, (action_text(action), value, win)
        half = (value.points_high - value.points_low) / 2
        assert abs(value.points - float(vp)) <= 2 * half + 1e-9, (action_text(action), value, vp)
    assert len(wins) >= 3 and hint.rollouts == 512


def test_the_last_slot_is_exact():
    """At the game's last slot no one else acts: every move's value is exact, equal to the
    enumeration over the god deals, the best first."""
    state = decision(3, 4, lambda s: s.turn == s.turns - 1 and s.phase == "reveal" and s.step == 2)
    hint = rollouts.hint(state, seed=0)
    assert isinstance(hint, RolloutHint) and hint.method == "rollout" and hint.rollouts == 0
    assert all(v.exact for v in hint.estimates.values()) and 1 <= len(hint.estimates) <= rollouts.WIDTH
    for action, value in hint.estimates.items():
        win, vp = enumerated(state, action)
        assert (value.win, value.points) == (float(win), float(vp))
    best = max(float(enumerated(state, a)[0]) for a in state.legal_actions())
    assert hint.estimates[hint.best].win == best


def test_the_state_hint_and_the_bot():
    state = decision(4, 8, lambda s: s.phase == "place" and s.turn == 3)
    hint = state.hint("rollout", seed=1, most=32, opponents="passive")
    assert isinstance(hint, RolloutHint) and hint.best in state.legal_actions() and hint.rollouts <= 32
    assert hint.opponents.startswith("player") and "passive" in hint.opponents and "uniform deal" in hint.posterior
    assert set(hint.estimates) <= set(state.legal_actions()) and len(hint.estimates) <= rollouts.WIDTH
    assert "to win (" in hint.words(action_text)
    assert state.hint().method == "heuristic"
    assert BOTS["rollout"](state) in state.legal_actions()


def test_bad_arguments_are_value_errors():
    state = decision(4, 8, lambda s: s.phase == "place")
    with pytest.raises(ValueError, match="method must be"):
        state.hint("exact")
    with pytest.raises(ValueError, match="opponents must name bots"):
        state.hint("rollout", opponents="nobody")
    with pytest.raises(ValueError, match="most must be an integer of at least 2"):
        state.hint("rollout", most=1)
    with pytest.raises(ValueError, match="player to move"):
        rollouts.hint(initial_state())
