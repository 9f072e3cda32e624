"""Entheos's engine on the game protocol: whole random games (points, cards, turns, the
first-intervener card, the resolution against `battle.resolve` with the cards' effects
re-applied here), each card's effect on built positions, hidden information, and the scoring
from the rulebook (gods of the winning side, every god on a tie)."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from functools import cache
from itertools import combinations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from nessus import game
from nessus.games.entheos import battle
from nessus.games.entheos.heroes import (
    ACTION_HELP,
    ACTION_WORDS,
    ACTIONS,
    FACES,
    GODS,
    HERO_ACTIONS,
    HERO_NAMES,
    HEROES,
)
from nessus.games.entheos.rules import Rules
from nessus.games.entheos.state import (
    CARD_HELP,
    CARDS,
    First,
    Hold,
    KeepFace,
    Lock,
    NoTarget,
    Place,
    Reserve,
    Reveal,
    SetAside,
    SetFace,
    State,
    SwapDice,
    SwapPlaces,
    initial_state,
    public_text,
)
from nessus.play import play, random_legal, sample

RULEBOOK_TURNS = {2: 10, 3: 9, 4: 8, 5: 7, 6: 6}
""""La partie se termine à la fin : 2 joueurs = 10e ; 3 joueurs = 9e ; 4 joueurs = 8e ; 5 joueurs = 7e ; \
6 joueurs = 6e tour"."""
ALL = (1, 2, 3, 4, 5, 6)
PLAYERS = st.integers(2, 6)
SEEDS = st.integers(0, 2**32 - 1)


def playthrough(players: int, seed: int) -> list[tuple[State, game.Action | None]]:
    """Every state of a random game with the action taken from it (None at the end)."""
    rng = np.random.default_rng(seed)
    choose = random_legal(rng=rng)
    state = initial_state(Rules(players=players))
    out: list[tuple[State, game.Action | None]] = []
    while not state.is_terminal():
        action = sample(state.chance_outcomes(), rng) if state.is_chance_node() else choose(state)
        out.append((state, action))
        state = state.apply(action)
    out.append((state, None))
    return out


def effect_of(action: game.Action):
    return action.effect if isinstance(action, (Reveal, Hold)) else None


def by_hand(state: State, effect) -> tuple[list[str], list[int], set[int]]:
    """Faces (by hero), places and reserve heroes after `effect`, worked out here from the
    rulebook's summary of the cards (not with the engine's code)."""
    faces, places, reserve = list(state.faces), list(state.places), set(state.reserve)
    if isinstance(effect, SetFace):
        faces[effect.hero] = effect.face
    elif isinstance(effect, SwapDice):
        faces[effect.a], faces[effect.b] = faces[effect.b], faces[effect.a]
    elif isinstance(effect, SwapPlaces):
        i, j = places.index(effect.a), places.index(effect.b)
        places[i], places[j] = places[j], places[i]
    elif isinstance(effect, Reserve):
        reserve.add(effect.hero)
    return faces, places, reserve


# -- whole games -------------------------------------------------------------------------------
@settings(max_examples=25, deadline=None)
@given(players=PLAYERS, seed=SEEDS)
def test_random_games_keep_points_cards_turns_and_the_first_card_rule(players, seed):
    states = playthrough(players, seed)
    per_turn = 2 if players == 2 else 1
    cycle = 3 if players == 2 else 5  # cards come back when 0 (2 players) or 1 card is left in hand
    placements = [0] * players
    turns_ended = 0
    for state, action in states:
        assert all(p >= 0 for p in state.points)
        for p in range(players):
            assert state.cards(p) == ALL
            assert sorted(
                state.hands[p] + state.placed[p] + tuple(c for _, c in state.held[p]) + state.used[p]
            ) == list(ALL)
        if isinstance(action, Place):
            me = state.current_player()
            placements[me] += 1
            assert len(state.hands[me]) == 6 - per_turn * (state.turn % cycle)
            assert len(action.cards) == per_turn
        if action is None or state.is_chance_node():
            continue
        after = state.apply(action)
        if after.turn == state.turn + 1:  # the last reveal slot: the turn is resolved
            turns_ended += 1
            faces, places, reserve = by_hand(state, effect_of(action))
            actions = [HEROES[h].faces[faces[h]] for h in range(6)]
            opponents = [0] * 6
            for i in range(3):
                opponents[places[i]], opponents[places[i + 3]] = places[i + 3], places[i]
            expected = battle.resolve(state.points, actions, [h.side for h in HEROES], opponents, reserve)
            assert after.points == expected
            falters = actions.count("falter")
            assert after.first == (state.first + 1 + falters) % players
    end = states[-1][0]
    assert end.is_terminal() and end.turn == RULEBOOK_TURNS[players] == turns_ended
    assert placements == [RULEBOOK_TURNS[players]] * players
    assert sum(end.returns()) == 1


@settings(max_examples=15, deadline=None)
@given(players=PLAYERS, seed=SEEDS)
def test_protocol_nodes_hidden_variants_and_what_a_player_sees(players, seed):
    """Chance sums to 1, the shape's bounds hold, apply leaves the state alone, variants look the
    same to the player and give the same legal actions when it is their move, and no
    observation names another player's god (before the end) or face-down card."""
    states = playthrough(players, seed)
    shape = states[0][0].shape()
    assert len(states) - 1 <= shape.max_length
    for state, action in states:
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            assert sum(p for _, p in outcomes) == 1 and 0 < len(outcomes) <= shape.max_chance_outcomes
        elif not state.is_terminal():
            assert 0 < len(state.legal_actions()) <= shape.max_actions
            before = replace(state)
            state.apply(action)
            assert state == before
        for p in range(players):
            view = state.observation(p)
            for variant in state.hidden_variants(p):
                assert variant != state and variant.observation(p) == view
                if state.current_player() == p:
                    assert variant.legal_actions() == state.legal_actions()
            for q in range(players):
                if q == p:
                    continue
                if not state.is_terminal():
                    assert not any(GODS[g].name in view for g in state.gods[q] if g not in state.gods[p])
                line = next(x for x in view.splitlines() if x.startswith(f"player {q + 1}:"))
                hidden = state.placed[q] + tuple(c for _, c in state.held[q])
                assert not any(CARDS[c] in line for c in hidden)


def test_public_text_of_a_move_does_not_name_the_face_down_card():
    """What the table sees of a placement or a hold is the same whichever card it is."""
    for players in (2, 4):
        for state, _ in playthrough(players, 3):
            if state.is_chance_node() or state.is_terminal():
                continue
            shown: dict[object, set[str]] = {}
            for a in state.legal_actions():
                key = ("place",) if isinstance(a, Place) else ("hold", a.effect) if isinstance(a, Hold) else a
                shown.setdefault(key, set()).add(public_text(a))
            assert all(len(texts) == 1 for texts in shown.values())


def test_observation_at_the_end_reveals_every_god():
    end = playthrough(4, 7)[-1][0]
    for p in range(4):
        view = end.observation(p)
        assert all(GODS[g].name in view for gods in end.gods for g in gods)
        assert "The game is over" in view


def test_the_setup_is_chance_with_the_rulebook_deal():
    """Line-up: 3! orders; gods: at 2-3 players one per side each (2 players: one per side left
    out), at 4 one per side set aside first, at 5-6 one each; the first intervener: any seat."""
    for players in range(2, 7):
        state = initial_state(Rules(players=players))
        assert len(state.chance_outcomes()) == 6
        state = state.apply(state.chance_outcomes()[0][0])
        sizes = []
        while not isinstance(state.chance_outcomes()[0][0], First):
            outcomes = state.chance_outcomes()
            assert {p for _, p in outcomes} == {Fraction(1, len(outcomes))}
            sizes.append(len(outcomes))
            state = state.apply(outcomes[-1][0])
        expected = {
            2: [3, 2, 3, 2],
            3: [3, 2, 1, 3, 2, 1],
            4: [3, 3, 4, 3, 2, 1],
            5: [6, 5, 4, 3, 2],
            6: [6, 5, 4, 3, 2, 1],
        }
        assert sizes == expected[players]
        assert [p for _, p in state.chance_outcomes()] == [Fraction(1, players)] * players
        if players <= 3:
            assert all(sorted(GODS[g].side for g in gods) == [0, 1] for gods in state.gods)
        else:
            assert all(len(gods) == 1 for gods in state.gods)
        if players == 4:
            assert sorted(GODS[g].side for g in state.aside) == [0, 1]
        dealt = [g for gods in state.gods for g in gods] + list(state.aside)
        assert len(dealt) == len(set(dealt))


def test_set_aside_happens_only_at_four_players():
    state = initial_state(Rules(players=4))
    state = state.apply(state.chance_outcomes()[0][0])
    assert all(isinstance(o, SetAside) for o, _ in state.chance_outcomes())


# -- the cards on built positions --------------------------------------------------------------
def at_reveal(
    cards=(3, 4, 5), faces=("green", "blue", "white", "yellow", "red", "mauve"), players=3, points=None
) -> State:
    """3 players, Ulysses-Paris, Achilles-Hector, Ajax-Aeneas; player 1 first; the dice `faces`
    (by hero) and each player's placed card: player 1 to reveal."""
    gods = ((0, 3), (1, 4), (2, 5)) if players == 3 else tuple((p,) for p in range(players))
    state = initial_state(Rules(players=players)).set_up(trojans=(4, 3, 5), gods=gods, first=0)
    state = state.roll(*faces)
    for c in cards:
        state = state.apply(Place((c,)))
    assert state.phase == "reveal" and state.current_player() == 0
    return state if points is None else replace(state, points=points)


def legal_effects(state: State) -> list:
    return [a.effect for a in state.legal_actions() if isinstance(a, Reveal)]


def test_lock_stops_later_moves_and_die_changes():
    state = at_reveal(cards=(1, 4, 5)).apply(Reveal(1, Lock(HERO_NAMES.index("Achilles"))))
    achilles = HERO_NAMES.index("Achilles")
    four = legal_effects(state)
    assert four and all(achilles not in (e.a, e.b) for e in four)
    assert len(four) == 1 + 3  # Achaeans: only Ulysses-Ajax; Trojans: every pair
    state = state.apply(Reveal(4, four[0]))
    five = legal_effects(state)
    assert all(achilles not in (e.a, e.b) for e in five) and len(five) == 2
    three = at_reveal(cards=(1, 3, 5)).apply(Reveal(1, Lock(achilles)))
    assert all(e.hero != achilles for e in legal_effects(three))


def test_every_hero_locked_leaves_cards_without_a_target():
    state = replace(at_reveal(cards=(3, 4, 5)), locked=tuple(range(6)))
    assert legal_effects(state) == [NoTarget(3)]
    assert state.effects(4) == [NoTarget(4)] and state.effects(5) == [NoTarget(5)]
    after = state.apply(Reveal(3, NoTarget(3)))
    assert after.faces == state.faces and after.places == state.places


def test_reserve_takes_from_the_reserve_not_from_the_opponent():
    """Ulysses steals 3 (green) from Paris, who has 1 point: from the reserve Ulysses gets all 3
    and Paris keeps his point."""
    faces = ("green", "white", "white", "white", "white", "white")
    ulysses, paris = 0, 4
    state = at_reveal(cards=(2, 1, 1), faces=faces, points=(6, 6, 6, 6, 1, 6))
    plain = state.resolution()
    assert (plain[ulysses], plain[paris]) == (7, 0)  # capped at Paris's point
    after = state.apply(Reveal(2, Reserve(ulysses)))
    assert after.reserve == (ulysses,)
    points = after.resolution()
    assert (points[ulysses], points[paris]) == (9, 1)


def test_set_face_offers_only_faces_with_a_hero_action():
    state = at_reveal(cards=(3, 1, 1))
    effects = legal_effects(state)
    for hero in range(6):
        offered = {e.face for e in effects if e.hero == hero}
        assert offered == {f for f in FACES if HEROES[hero].faces[f] in HERO_ACTIONS}
    assert all(HEROES[e.hero].faces[e.face] in ("steal1", "steal3", "rally", "guard") for e in effects)
    after = state.apply(Reveal(3, SetFace(5, "green")))
    assert after.faces[5] == "green" and after.actions()[5] == "steal3"


def test_swap_places_changes_the_duels_and_keeps_the_dice():
    state = at_reveal(cards=(4, 1, 1))
    ulysses, achilles = 0, 1
    before = {h: state.opponent(h) for h in range(6)}
    after = state.apply(Reveal(4, SwapPlaces(ulysses, achilles)))
    assert after.opponent(ulysses) == before[achilles] and after.opponent(achilles) == before[ulysses]
    assert after.faces == state.faces
    assert after.place_of(ulysses) == state.place_of(achilles)
    assert all(SwapPlaces(a, b) in legal_effects(state) for a, b in combinations((3, 4, 5), 2))
    assert SwapPlaces(0, 3) not in legal_effects(state)  # not of one side


def test_swap_dice_within_a_duel():
    state = at_reveal(cards=(5, 1, 1))
    effects = legal_effects(state)
    assert effects == [SwapDice(state.places[i], state.places[i + 3]) for i in range(3)]
    ulysses, paris = 0, 4
    after = state.apply(Reveal(5, SwapDice(ulysses, paris)))
    assert (after.faces[ulysses], after.faces[paris]) == (state.faces[paris], state.faces[ulysses])
    assert after.places == state.places


def test_keep_face_skips_that_die_next_turn():
    state = at_reveal(cards=(6, 1, 1))
    aeneas = 5
    state = state.apply(Reveal(6, KeepFace(aeneas)))
    while state.phase == "reveal":
        state = state.apply(state.legal_actions()[0])
    assert state.phase == "dice" and state.turn == 1
    rolled = []
    while state.is_chance_node():
        hero = state.to_roll[0]
        rolled.append(hero)
        state = state.apply("white")
    assert rolled == [0, 1, 2, 3, 4] and state.faces[aeneas] == "mauve"
    assert state.kept == ()


def test_hold_leaves_the_card_face_down_then_forces_out_the_oldest():
    state = at_reveal(cards=(3, 1, 1))
    assert Hold(3, None, None) in state.legal_actions()
    state = state.apply(Hold(3, None, None))
    assert state.held[0] == ((0, 3),) and 3 not in state.used[0]
    while state.phase != "place":
        state = state.apply(state.legal_actions()[0] if not state.is_chance_node() else "white")
    state = state.apply(Place((2,))).apply(Place((2,))).apply(Place((2,)))
    while state.current_player() != 0:
        state = state.apply(state.legal_actions()[0])
    holds = [a for a in state.legal_actions() if isinstance(a, Hold)]
    assert holds and all(a.card == 2 and a.older == 3 for a in holds)
    after = state.apply(holds[0])
    assert after.held[0] == ((1, 2),) and 3 in after.used[0]
    assert str(holds[0]).startswith("hold 2 face down, reveal older 3: ")


def test_cards_come_back_when_one_is_left_or_none_at_two_players():
    for players, every in ((3, 5), (2, 3)):
        state = playthrough(players, 1)[0][0]
        rng = np.random.default_rng(0)
        while state.turn < every + 1:
            if state.phase == "place" and state.turn == every - 1:
                assert len(state.hands[state.current_player()]) == 2  # 6 - 2 x 2, or 6 - 4 x 1
            state = state.apply(
                sample(state.chance_outcomes(), rng) if state.is_chance_node() else state.legal_actions()[-1]
            )
            if state.turn == every and state.phase == "dice":
                assert all(h == ALL for h in state.hands)
                assert all(not u and not h for u, h in zip(state.used, state.held))


def test_two_players_reveal_first_other_first_other():
    state = initial_state(Rules(players=2)).set_up(trojans=(3, 4, 5), gods=((0, 3), (1, 4)), first=1)
    state = state.roll(*["white"] * 6)
    assert [str(a) for a in state.legal_actions()][:2] == ["place 1 and 2 face down", "place 1 and 3 face down"]
    state = state.apply(Place((1, 2))).apply(Place((5, 6)))
    seen = []
    while state.phase == "reveal":
        seen.append(state.current_player())
        state = state.apply(state.legal_actions()[0])
    assert seen == [1, 0, 1, 0]


# -- scoring -----------------------------------------------------------------------------------
@cache
def finished(players: int, seed: int = 0) -> State:
    return playthrough(players, seed)[-1][0]


def ended(players: int, points: tuple[int, ...], seed: int = 0) -> State:
    """A finished game with random gods and the heroes' points replaced by `points`."""
    return replace(finished(players, seed), points=points)


def expected_victory_points(state: State) -> list[int]:
    """The rulebook's count, written here: each side's combat points decide the war; the
    players whose god supports the winner (every god on a tie) turn the favourites' points into
    victory points."""
    achaeans = sum(state.points[h] for h in range(6) if HEROES[h].side == 0)
    trojans = sum(state.points[h] for h in range(6) if HEROES[h].side == 1)
    out = []
    for gods in state.gods:
        total = 0
        for g in gods:
            god = GODS[g]
            counts = achaeans == trojans or (god.side == 0) == (achaeans > trojans)
            if counts:
                total += sum(w * state.points[HERO_NAMES.index(name)] for name, w in god.favourites.items())
        out.append(total)
    return out


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
@settings(max_examples=10, deadline=None)
@given(points=st.tuples(*[st.integers(0, 30)] * 6), tie=st.booleans())
def test_scoring_counts_the_winning_side_gods_and_every_god_on_a_tie(players, points, tie):
    if tie:  # move points so both sides total the same
        a, t = sum(points[:3]), sum(points[3:])
        points = (points[0] + max(0, t - a), *points[1:3], points[3] + max(0, a - t), *points[4:])
    state = ended(players, points)
    winner = state.war_winner()
    a, t = sum(points[:3]), sum(points[3:])
    assert winner == (None if a == t else 0 if a > t else 1)
    if tie:
        assert winner is None
    assert state.victory_points() == expected_victory_points(state)
    assert state.returns() == game.win_shares(expected_victory_points(state))
    if tie and players <= 3:  # both of a player's gods count
        for p, gods in enumerate(state.gods):
            named = dict(zip(HERO_NAMES, points))
            assert state.victory_points()[p] == sum(GODS[g].victory_points(named) for g in gods)


def test_the_rulebook_example_aphrodite():
    """Aphrodite: each point of Paris is worth 3, of Aeneas 1, of Hector -1, if the Trojans win."""
    aphrodite = next(g for g, god in enumerate(GODS) if god.name == "Aphrodite")
    state = ended(5, (1, 1, 1, 2, 10, 4))
    state = replace(state, gods=((aphrodite,), *state.gods[1:]))
    assert state.war_winner() == 1
    assert state.victory_points()[0] == 3 * 10 + 4 - 2
    lost = replace(state, points=(10, 10, 10, 2, 10, 4))
    assert lost.war_winner() == 0 and lost.victory_points()[0] == 0


def test_illegal_actions_are_value_errors_and_hints_are_legal():
    state = at_reveal(cards=(3, 4, 5))
    with pytest.raises(ValueError):
        state.apply(Reveal(4, SwapPlaces(0, 1)))  # player 1 placed 3, not 4
    with pytest.raises(ValueError):
        state.apply(Place((1,)))
    hint = state.hint()
    assert hint.method == "heuristic" and hint.best in state.legal_actions()
    assert set(hint.values) == set(state.legal_actions())
    with pytest.raises(ValueError):
        initial_state().hint()


def test_every_card_and_action_has_its_words():
    assert set(CARD_HELP) == set(CARDS) and set(ACTION_WORDS) == set(ACTION_HELP) == set(ACTIONS)


def test_the_phase_in_words_names_the_mover():
    state = at_reveal()
    assert state.phase_text() == "Turn 1 of 9: player 1 to reveal or hold (slot 1 of 3)."
    assert state.phase_text(["you", "the greedy", "the passive"]).startswith("Turn 1 of 9: you to reveal or hold")


@pytest.mark.parametrize("players", [2, 4])
def test_a_whole_game_told_in_words(players):
    """`State.tell` over a whole game: each turn's resolution once, the dice at most once a turn
    (never when every die keeps its face), another player's face-down cards never named;
    `end_text` names the war's winner and every seat's victory points."""
    lines: list[str] = []
    end = play(
        initial_state(Rules(players=players)),
        [random_legal()] * players,
        np.random.default_rng(players),
        lambda s, a: lines.extend(s.tell(a)),
    )
    assert sum(" resolved: " in line for line in lines) == end.turns
    assert sum(", the dice: " in line for line in lines) <= end.turns
    for line in lines:
        if line.startswith("Player ") and (" places " in line or " holds " in line):
            assert " places a card face down" in line or " places 2 cards face down" in line or " holds a card " in line
    who = ["you", *(f"player {p + 1}" for p in range(1, players))]
    text = end.end_text(who, "you win")
    assert text.startswith("Game over: ") and "Victory points: you " in text and text.endswith("You win.")
