"""Entheos bots: legal moves in whole games at 2-6 players, decisions that depend only on what
the mover sees, greedy at least as good as passive by the hint, and the intervention policies
doing what their names say on built positions."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from nessus import game
from nessus.games.entheos.heroes import GODS, HERO_NAMES, HEROES
from nessus.games.entheos.policies import PLAIN_NAMES, change, favourite, policies
from nessus.games.entheos.rules import BOT_NAMES, Rules
from nessus.games.entheos.state import Hold, Lock, Place, Reveal, State, SwapDice, initial_state
from nessus.play import play

BOTS = policies()


def test_every_named_bot_is_there():
    assert set(BOT_NAMES) <= set(BOTS)
    assert {f"card_{c}" for c in range(1, 7)} | {"lock_favourite", "swap_against_competitor"} <= set(BOTS)


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_bots_play_legal_moves_that_depend_only_on_what_they_see(players):
    """Every bot in every seat (round the table) plays a whole game; at each of its decisions the
    move is legal, and the same in every state that looks the same to it (the rollout bot apart:
    test_rollouts checks it)."""
    names = [name for name in BOTS if name != "rollout"]
    for start in range(0, len(names), players):
        seats = [names[(start + i) % len(names)] for i in range(players)]
        checked = 0

        def on_move(state: game.State, action: game.Action, seats=seats) -> None:
            nonlocal checked
            if state.current_player() < 0:
                return
            me = state.current_player()
            assert action in state.legal_actions()
            if checked % 3 == 0:  # every third decision: the variants cost a little
                for variant in state.hidden_variants(me):
                    assert BOTS[seats[me]](variant) == action, seats[me]
            checked += 1

        end = play(
            initial_state(Rules(players=players)), [BOTS[n] for n in seats], np.random.default_rng(start), on_move
        )
        per_turn = 2 if players == 2 else 1
        assert end.is_terminal() and checked == end.turn * players * (1 + per_turn)  # placements and slots


def decisions(players: int, seed: int, bot: str = "random_legal") -> list[State]:
    """The decision states of a game of `bot` in every seat."""
    out: list[State] = []
    play(
        initial_state(Rules(players=players)),
        [BOTS[bot]] * players,
        np.random.default_rng(seed),
        lambda s, a: out.append(s) if s.current_player() >= 0 else None,
    )
    return out


@pytest.mark.parametrize("players", [2, 4, 6])
def test_greedy_is_at_least_passive_by_the_hint_and_passive_changes_least(players):
    for state in decisions(players, players):
        hint = state.hint()
        greedy, passive = BOTS["greedy"](state), BOTS["passive"](state)
        assert hint.values[greedy] >= hint.values[passive]
        assert hint.values[greedy] == max(hint.values.values())
        if state.phase == "reveal":
            least = min(change(state, a.effect) for a in state.legal_actions())
            assert change(state, passive.effect) == least


def at_reveal(cards, faces, gods=((0,), (3,), (1,), (4,)), first=0) -> State:
    """4 players with the given gods (set aside: Poseidon and Ares), Ulysses-Paris,
    Achilles-Hector, Ajax-Aeneas; the dice `faces` by hero; each player's placed card."""
    state = initial_state(Rules(players=4)).set_up(trojans=(4, 3, 5), gods=gods, first=first, aside=(2, 5))
    state = state.roll(*faces)
    for c in cards:
        state = state.apply(Place((c,)))
    return state


def test_passive_places_a_lock_and_reveals_without_changing_the_turn():
    state = initial_state(Rules(players=4)).set_up(
        trojans=(4, 3, 5), gods=((0,), (3,), (1,), (4,)), first=0, aside=(2, 5)
    )
    state = state.roll("green", "blue", "white", "yellow", "red", "mauve")
    assert BOTS["passive"](state) == Place((1,))
    state = at_reveal((1, 1, 1, 1), ("green", "blue", "white", "yellow", "red", "mauve"))
    action = BOTS["passive"](state)
    assert isinstance(action, Reveal) and action.card == 1
    assert state.apply(action).resolution() == state.resolution()


def test_card_bots_play_their_card_with_its_best_target_and_else_play_passive():
    faces = ("white", "blue", "white", "yellow", "red", "mauve")
    start = initial_state(Rules(players=4)).set_up(
        trojans=(4, 3, 5), gods=((0,), (3,), (1,), (4,)), first=0, aside=(2, 5)
    )
    start = start.roll(*faces)
    for c in range(1, 7):
        assert BOTS[f"card_{c}"](start) == Place((c,))
    state = at_reveal((3, 1, 1, 1), faces)  # player 1 (Athena: Ulysses x3) placed the set-face card
    action = BOTS["card_3"](state)
    hint = state.hint()
    reveals = {a: v for a, v in hint.values.items() if isinstance(a, Reveal) and a.card == 3}
    assert action in reveals and hint.values[action] == max(reveals.values())
    assert str(action) == "reveal 3: Ulysses shows green (steal3)"
    assert BOTS["card_1"](state) == BOTS["passive"](state)  # card 3 is not card 1's


def test_lock_favourite_locks_its_best_hero_on_a_good_face_only():
    athena = next(g for g, god in enumerate(GODS) if god.name == "Athena")
    seat_gods = ((athena,), (3,), (1,), (4,))
    ulysses = HERO_NAMES.index("Ulysses")
    start = initial_state(Rules(players=4)).set_up(trojans=(4, 3, 5), gods=seat_gods, first=0, aside=(2, 5))
    assert favourite(start, 0) == ulysses  # Athena: Ulysses x3
    good = start.roll("green", "blue", "white", "yellow", "red", "mauve")
    assert BOTS["lock_favourite"](good) == Place((1,))
    bad = start.roll("white", "blue", "white", "yellow", "red", "mauve")
    assert BOTS["lock_favourite"](bad) != Place((1,))  # card 1 kept back
    state = at_reveal((1, 2, 2, 2), ("yellow", "blue", "white", "yellow", "red", "mauve"), seat_gods)
    assert BOTS["lock_favourite"](state) == Reveal(1, Lock(ulysses))


def test_swap_against_competitor_swaps_when_the_opponent_shows_better():
    athena = next(g for g, god in enumerate(GODS) if god.name == "Athena")
    seat_gods = ((athena,), (3,), (1,), (4,))
    faces = ("white", "blue", "white", "yellow", "green", "mauve")  # Ulysses rests, Paris steals 3
    start = initial_state(Rules(players=4)).set_up(trojans=(4, 3, 5), gods=seat_gods, first=0, aside=(2, 5))
    assert BOTS["swap_against_competitor"](start.roll(*faces)) == Place((5,))
    state = at_reveal((5, 1, 1, 1), faces, seat_gods)
    action = BOTS["swap_against_competitor"](state)
    assert action == Reveal(5, SwapDice(0, 4))
    after = state.apply(action)
    assert HEROES[0].faces[after.faces[0]] == "steal3"
    worse = at_reveal((5, 1, 1, 1), ("green", "blue", "white", "yellow", "white", "mauve"), seat_gods)
    assert BOTS["swap_against_competitor"](worse) == BOTS["passive"](worse)
    locked = replace(state, locked=(4,))
    assert BOTS["swap_against_competitor"](locked) == BOTS["passive"](locked)


def test_bots_refuse_chance_nodes_and_other_games():
    state = initial_state()
    for bot in BOTS.values():
        with pytest.raises(ValueError):
            bot(state)
    with pytest.raises(ValueError):
        BOTS["greedy"](object())  # type: ignore[arg-type]


def test_hold_only_when_nothing_else_changes_less():
    """A passive player holds only if every reveal would change the turn more than the hold (in
    positions of random games, where it happens now and then)."""
    holds = 0
    for seed in range(4):
        for state in decisions(3, seed):
            action = BOTS["passive"](state)
            if isinstance(action, Hold):
                holds += 1
                reveals = [a for a in state.legal_actions() if isinstance(a, Reveal)]
                assert all(change(state, a.effect) > change(state, action.effect) for a in reveals)
    assert holds


def test_the_bots_in_plain_words_are_named_bots():
    assert set(PLAIN_NAMES) <= set(BOT_NAMES) and len(set(PLAIN_NAMES.values())) == len(PLAIN_NAMES)
