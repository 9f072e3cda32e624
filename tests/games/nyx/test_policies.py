"""Nyx's bots (`nessus.games.nyx.policies`): legal moves to the end of whole games for 2 to 4
players, reproducible, and playing as their descriptions say; and a hand chasing a dream alone
(`Hand`, the objective `Fewest`): its rolls, keeps and placements, its hint the engine's."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from typing import Any

import numpy as np
import pytest

from nessus.game import CHANCE
from nessus.games.nyx.cards import CARDS
from nessus.games.nyx.odds import Keep, keep_hint, shape_game
from nessus.games.nyx.policies import (
    MIXED,
    THRESHOLD,
    Fewest,
    Hand,
    chase,
    choices,
    greedy,
    odds,
    offered,
    p_within,
    policies,
    random_legal,
)
from nessus.games.nyx.rules import Rules
from nessus.games.nyx.state import (
    BUY_BLACK,
    BUY_WHITE,
    NO_REROLL,
    PASS,
    Dream,
    EndNight,
    Reroll,
    Spell,
    State,
    initial_state,
)
from nessus.play import play, tournament


def checked(policy):
    """The policy, asserting each move it makes is legal."""

    def move(state):
        action = policy(state)
        assert action in state.legal_actions()
        return action

    return move


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("name", ["greedy", "odds", "random_legal"])
def test_each_bot_plays_whole_games(players, name):
    policy = checked(policies()[name])
    for seed in range(3):
        end = play(initial_state(Rules(players=players)), [policy] * players, np.random.default_rng(seed))
        assert end.is_terminal() and sum(end.returns()) == 1


def test_mixed_table_and_named_policies():
    assert set(policies()) == {"greedy", "odds", "random_legal", "rollout"}
    table = [checked(policies()[n]) for n in Rules().seat_bots]
    end = play(initial_state(), table, np.random.default_rng(4))
    assert end.is_terminal()


def test_seeded_games_are_reproducible():
    seats = [greedy(), odds(), random_legal(), random_legal(seed=3)]
    ends = [play(initial_state(Rules(players=4)), seats, np.random.default_rng(7)) for _ in range(2)]
    assert ends[0] == ends[1]


def test_bots_refuse_chance_nodes():
    for policy in policies().values():
        with pytest.raises(ValueError):
            policy(initial_state())
    assert initial_state().current_player() == CHANCE


def acting(free: tuple[int, ...], rerolled: bool = True, phase: str = "act", **seat: Any) -> State:
    """Player 1 of 2 with dreams 0, 1, 2 (L4 4, I2 1, nightmare I3 2) and spells 30, 31, 32 face
    up (crescent + moon power 1, star once 1, moon once 2), these free dice (black, then white)."""
    state = initial_state(Rules(players=2)).draw(0, 1, 2, 30, 31, 32)
    s = replace(state.seats[0], free=free, started=True, rolls=1, black=sum(free[:3]), white=sum(free[3:]), **seat)
    return replace(state, seats=(s, state.seats[1]), phase=phase, rerolled=rerolled)


def test_greedy_realises_the_card_worth_most():
    # four moons: the L4 dream (4 points) beats the nightmare (2 x 1 opponent) and Moonlit Ink (2)
    action = greedy()(acting((0, 0, 4, 0, 0, 0)))
    assert isinstance(action, Dream) and action.slot == 0 and action.symbol == "moon"
    # two crescents, a moon: the power spell (1 point a night, worth 2) ties Moonlit Ink (2) and
    # beats two crescents on the I2 dream (1): the first of the best
    assert greedy()(acting((0, 2, 1, 0, 0, 0))) == Spell(0)
    # realising comes before buying
    assert isinstance(greedy()(acting((1, 1, 1, 0, 0, 0))), Spell)


def test_greedy_buys_then_rerolls_then_ends():
    # a star, a crescent and a moon but no card: buy a black die
    no_spells = replace(acting((1, 1, 1, 0, 0, 0)), spells=(None, None, None))
    assert greedy()(no_spells) == BUY_BLACK
    # 9 black dice already: a white die
    nine = replace(acting((1, 1, 1, 0, 0, 0), pending_black=6), spells=(None, None, None))
    assert greedy()(nine) == BUY_WHITE
    # choosing, with three crescents and two moons and nothing to do: reroll the moons
    choose = replace(
        acting((0, 3, 2, 0, 0, 0), rerolled=False, phase="choose"), dreams=(None, 4, None), spells=(None, None, None)
    )
    assert CARDS[4].shape == "T4"
    assert greedy()(choose) == Reroll((0, 0, 2, 0, 0, 0))
    # after the reroll, still nothing: pass (to reroll next turn)
    assert greedy()(replace(choose, phase="act", rerolled=True)) == PASS
    # no free die: end the night, discarding the dream and the spell worth most
    empty = acting((0, 0, 0, 0, 0, 0))
    assert greedy()(empty) == EndNight(0, 0)


def test_odds_chases_and_stops():
    # three moons and three crescents: the L4 (4 points) is a chase worth going on with
    state = replace(
        acting((0, 3, 3, 0, 0, 0), rerolled=False, phase="choose"), dreams=(0, None, None), spells=(None, None, None)
    )
    value, symbol = chase(state)
    assert value >= THRESHOLD and symbol in ("moon", "crescent")
    action = odds()(state)
    assert isinstance(action, Reroll)
    # a card to realise now: no reroll, then realise it
    ready = acting((0, 2, 4, 0, 0, 0), rerolled=False, phase="choose")
    assert odds()(ready) == NO_REROLL
    assert odds()(replace(ready, phase="act")) == greedy()(replace(ready, phase="act"))
    # the exact chance behind it: one more crescent among three black dice within two rolls
    assert p_within("crescent", 1, 3, 0, 2) == 1 - (Fraction(2, 3) ** 2) ** 3
    # nothing worth chasing (an empty display) and nothing to do: end the night
    bare = replace(acting((0, 3, 2, 0, 0, 0)), dreams=(None, None, None), spells=(None, None, None))
    assert isinstance(odds()(bare), EndNight)


def test_odds_beats_random_and_greedy_beats_random():
    rules = Rules(players=2)
    for name in ("odds", "greedy"):
        table = tournament(
            lambda: initial_state(rules), [name, "random_legal"], games=60, seed=2, named=policies(rules)
        )
        assert table["win_share"][0] > 0.75, name


def test_a_hand_rolls_keeps_and_places():
    goal = Fewest("L4")
    assert (goal.size, goal.unit, goal.maximise, goal.payoff(3)) == (4, "expected rolls to come", False, 3)
    assert "L4" in goal.text
    hand = Hand.of(5, 1)
    assert hand.colours == ("black",) * 5 + ("white",) and not hand.rolled and hand.keep([]) == Keep(None, 0)
    rolled = hand.roll([], goal, np.random.default_rng(0))  # the first roll throws every die
    assert rolled.rolled and rolled.made == 1 and len(rolled.faces) == 6 and rolled.kept == (None, 0, 0)
    assert sum(map(sum, rolled.last)) == 6 and rolled.held == (False,) * 6
    # keep the dice of one symbol: they stay, the others are rolled again
    symbol = rolled.faces[0]
    held = [f == symbol for f in rolled.faces]
    if sum(held) < 4:
        again = rolled.roll(held, goal, np.random.default_rng(1))
        assert again.made == 2 and again.held == tuple(held) and sum(again.kept[1:]) == sum(held)
        assert all(f == symbol for f, h in zip(again.faces, held) if h)
    # two symbols kept: not allowed
    mixed = Hand(("black",) * 3, (0, 1, 2))
    assert mixed.keep([True, True, False]) == MIXED
    with pytest.raises(ValueError, match="keep dice of one symbol only"):
        mixed.roll([True, True, False], goal, np.random.default_rng(0))
    with pytest.raises(ValueError, match="every die is kept"):
        Hand(("black", "white"), (1, 1)).roll([True, True], Fewest("X5"), np.random.default_rng(0))
    # four moons kept: enough for the L4, place it (white dice first)
    four = Hand(("black", "white", "black", "black", "black"), (2, 2, 0, 2, 2))
    with pytest.raises(ValueError, match="enough for the L4"):
        four.roll([True, True, False, True, True], goal, np.random.default_rng(0))
    with pytest.raises(ValueError, match="Place needs 4 dice"):
        four.place([True, True, False, True, False], 4)
    symbol, left = four.place([True, True, False, True, True], 4)
    assert symbol == "moon" and left.colours == ("black",) and left.placed == 4 and not left.rolled
    assert four.text == "1 star, 4 full moons" and Hand(("black",) * 2, (1, 1)).text == "2 crescents"
    assert Hand.of(2, 0).text == "no dice"


def test_the_hint_says_when_it_has_nothing_to_weigh():
    goal = Fewest("L4")
    assert "Roll the dice first" in (goal.idle(Hand.of(6, 0)) or "")
    assert "3 dice left: not enough for the L4" in (goal.idle(Hand(("black",) * 3, (0, 0, 0))) or "")
    kept = Hand(("black",) * 6, (2, 2, 2, 2, 0, 1), kept=("moon", 4, 0), made=2)
    assert goal.idle(kept) == "Your kept dice already make the L4: place it."
    assert goal.idle(Hand(("black",) * 6, (2, 2, 0, 1, 0, 1), kept=("moon", 2, 0), made=2)) is None


@pytest.mark.parametrize("players", [2, 4])
def test_the_moves_offered_are_legal_and_include_the_hints(players):
    """Along whole games of bots: every move offered to the mover is legal, grouped, the hint's move
    always among them; before acting, the dice choices only."""
    rng = np.random.default_rng(players)
    state = initial_state(Rules(players=players))
    bots = [odds(), greedy(), odds(), greedy()][:players]
    for _ in range(300):
        if state.is_terminal():
            break
        if state.current_player() == CHANCE:
            outcomes, weights = zip(*state.chance_outcomes())
            state = state.apply(outcomes[rng.choice(len(outcomes), p=[float(w) for w in weights])])
            continue
        best = state.hint().best
        groups = offered(state, best)
        shown = [a for moves in groups.values() for *_, a in moves]
        assert best in shown and set(shown) <= set(state.legal_actions())
        assert set(groups) <= {"dice", "dreams", "spells and dice", "turn", "hint"}
        if state.phase == "choose":
            assert {g for g, *_ in choices(state)} == {"dice"}
        state = state.apply(bots[state.current_player()](state))
    assert offered(state, None) == {}


def test_the_hint_is_the_engines():
    """Fewest.hint: `odds.keep_hint` with black dice, the chase of `odds.shape_game` with white ones."""
    hand = Hand(("black",) * 6, (0, 0, 2, 1, 2, 2), kept=("moon", 1, 0), last=((2, 1, 2), (0, 0, 0)), made=2)
    assert Fewest("L4").hint(hand).values == keep_hint(4, (2, 1, 2), ("moon", 1)).values
    white = Hand(("black",) * 4 + ("white",) * 2, (0, 0, 1, 2, 0, 1), last=((2, 1, 1), (1, 1, 0)), made=1)
    state = ("rolled", None, 0, 0, (2, 1, 1), (1, 1, 0), None)
    assert Fewest("T4").hint(white).values == shape_game(4, 4, 2).hint(state).values
