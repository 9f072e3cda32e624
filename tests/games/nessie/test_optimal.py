"""The optimal Nessie turn against brute force, take distributions, and simulation."""

from collections import Counter
from fractions import Fraction
from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from nessus import tables
from nessus.games.nessie import optimal as nessie_optimal
from nessus.games.nessie.cards import CHAIN, LETTERS, Hand, Situation, make_deck
from nessus.games.nessie.odds import best_take, p_sink_within
from nessus.games.nessie.optimal import (
    ROW_COLUMNS,
    TurnSolver,
    opening_cards,
    opening_memo,
    opening_table,
    optimal,
    optimal_choice,
    simulate_turn,
    solver,
    take_distribution,
)

STAR = (("A", "B"), ("A", "C"), ("A", "D"), ("A", "E"), ("A", "F"))  # a custom adjacency


def brute_force(s: Situation, hand: Hand, adjacency=CHAIN) -> tuple[Fraction, Fraction | None]:
    """(stop, reveal) by plain expectimax over every ordered draw: no summaries, no pruning,
    the take from nessie.odds.best_take (treasure only)."""
    start = Counter(s.pool)

    @cache
    def value(row: tuple[str, ...]) -> Fraction:
        stop, reveal = values(row)
        return stop if reveal is None else max(stop, reveal)

    def values(row: tuple[str, ...]) -> tuple[Fraction, Fraction | None]:
        pool = start - Counter(row[len(s.row) :])
        stop = best_take(hand, row, adjacency, letter_value=0)[1]
        total = sum(pool.values())
        if total == 0:
            return stop, None
        reveal = Fraction(0)
        for card, n in pool.items():
            after = row + (card,)
            if n and not Situation({}, after, s.own_letters).sunk():
                reveal += Fraction(n, total) * value(after)
        return stop, reveal

    return values(tuple(s.row))


def small_states():
    """A small unseen pool, a live row and a hand (letters kept legally, some treasures)."""
    card = st.sampled_from(list(LETTERS) + ["1", "2", "3"])

    def build(pool_cards, row, letters, treasures):
        s = Situation(dict(Counter(pool_cards)), tuple(row), frozenset(letters))
        return s, Hand(sorted(treasures), sorted(set(letters)))

    state = st.builds(
        build,
        st.lists(card, min_size=0, max_size=6),
        st.lists(card, max_size=4),
        st.sampled_from([(), ("C",), ("B", "C"), ("A", "B", "C")]),
        st.lists(st.sampled_from([1, 2, 3]), max_size=3),
    )
    return state.filter(lambda sh: not sh[0].sunk())


@settings(max_examples=200, deadline=None)
@given(small_states(), st.sampled_from([CHAIN, STAR]))
def test_optimal_values_equal_brute_force(state, adjacency):
    s, hand = state
    choice = optimal_choice(s, hand, adjacency)
    assert (choice.stop_value, choice.reveal_value) == brute_force(s, hand, adjacency)


def test_one_card_left_by_hand():
    """Row 2, 3 (treasure 5): a 1 would give 6 and sink; an A is safe but, as the first
    letter, is kept for nothing. Pool {1, A}: revealing is worth 1/2 * 5 < 5, so stop."""
    s = Situation({"1": 1, "A": 1}, ("2", "3"), frozenset())
    choice = optimal_choice(s, Hand())
    assert (choice.stop_value, choice.reveal_value, choice.reveal) == (5, Fraction(5, 2), False)
    assert choice.take == 2  # its stop takes the whole row, for 5 treasure


@pytest.mark.parametrize(
    "pool, row, hand",
    [
        ({"1": 3, "2": 2, "3": 1, "A": 2, "B": 2, "C": 2}, ("1",), Hand()),
        ({"1": 3, "2": 2, "A": 2, "B": 2, "D": 2}, ("2", "C"), Hand([1, 3], ["C"])),
    ],
)
def test_deeper_pools_against_brute_force(pool, row, hand):
    """12- and 11-card pools where letters can sink and takes can cost treasure."""
    s = Situation(pool, row, frozenset(hand.letters))
    choice = optimal_choice(s, hand)
    assert (choice.stop_value, choice.reveal_value) == brute_force(s, hand)
    assert choice.reveal


@settings(max_examples=60, deadline=None)
@given(small_states(), st.integers(0, 3))
def test_take_distribution(state, k):
    """P(sunk) equals the polynomial count of nessie_odds; the take's mean equals the mean
    over every ordered k-card draw computed with best_take."""
    s, hand = state
    k = min(k, s.pool_size)
    dist = take_distribution(s, hand, k)
    assert dist.prob(lambda x: x == "sunk") == p_sink_within(s, k)

    def mean(row, pool, left) -> Fraction:
        if Situation({}, row, s.own_letters).sunk():
            return Fraction(0)
        if left == 0:
            return best_take(hand, row, letter_value=0)[1]
        total = sum(pool.values())
        return sum(
            (Fraction(n, total) * mean(row + (c,), pool - Counter([c]), left - 1) for c, n in pool.items() if n),
            Fraction(0),
        )

    assert dist.map(lambda x: 0 if x == "sunk" else x).mean() == mean(tuple(s.row), Counter(s.pool), k)


def test_take_distribution_rejects_bad_k():
    s = Situation({"1": 3}, (), frozenset())
    for k in (-1, 7, 1.5, True, "2"):
        with pytest.raises(ValueError, match="k must be an integer from 0 to 6"):
            take_distribution(s, Hand(), k)
    with pytest.raises(ValueError, match="at most the 3 unseen cards"):
        take_distribution(s, Hand(), 4)


def test_optimal_beats_stopping_after_k_cards():
    """From a fresh 84-card deck with a 2 in the row, the optimal value is at least that of
    every rule "reveal exactly k more cards" (its mean is the take distribution's)."""
    deck = Counter(make_deck())
    s = Situation(dict(deck - Counter(["2"])), ("2",), frozenset())
    best = optimal_choice(s, Hand()).value
    for k in range(4):
        fixed = take_distribution(s, Hand(), k).map(lambda x: 0 if x == "sunk" else x).mean()
        assert best >= fixed
    assert best > take_distribution(s, Hand(), 1).map(lambda x: 0 if x == "sunk" else x).mean()


def test_simulated_optimal_turns_agree_with_the_exact_value():
    """4000 simulated turns (seed 1) under the optimal rule, whose first reveal is compulsory:
    the exact value of revealing lies in the 95% t-interval of the mean treasure taken."""
    deck = Counter(make_deck())
    s = Situation(dict(deck - Counter(["3", "B"])), ("3", "B"), frozenset())
    exact = optimal_choice(s, Hand()).reveal_value
    result = simulate_turn(s, Hand(), optimal(), trials=4000, seed=1)
    assert result["treasure"].contains(float(exact))


def test_refuses_inconsistent_or_sunk_states():
    with pytest.raises(ValueError, match="differ"):
        optimal_choice(Situation({"1": 1}, (), frozenset("A")), Hand())
    with pytest.raises(ValueError, match="already sunk"):
        optimal_choice(Situation({"1": 1}, ("3", "3"), frozenset()), Hand())


# -- the opening, stored in data/ ----------------------------------------------------------------
OPENING = Fraction(17425528702125943586336, 5629084168978826931375)  # a fresh deck's whole first turn, played optimally


def fresh_deck(*row: str) -> Situation:
    """The first turn of a game with the default deck, `row` revealed so far."""
    return Situation(dict(Counter(make_deck()) - Counter(row)), row, frozenset())


def test_a_games_first_decisions_are_look_ups():
    """The first decision reads data/nessie-opening.parquet and searches nothing (the solver's
    memo holds the stored states and no more); neither do the next five of a turn in which the
    optimal player reveals (tests/test_tables.py checks the table against a fresh solve)."""
    nessie_optimal._SOLVERS.clear()
    choice = optimal_choice(fresh_deck(), Hand())
    assert (choice.stop_value, choice.reveal_value) == (0, OPENING)
    turn = solver(fresh_deck(), Hand())
    stored = len(nessie_optimal._stored_opening())
    assert len(turn.memo) == stored
    row: tuple[str, ...] = ()
    for card in ("1", "B", "D", "F", "A"):
        row += (card,)
        assert optimal_choice(fresh_deck(*row), Hand()).reveal
    assert len(turn.memo) == stored


@pytest.mark.parametrize(
    "row", [("3", "B"), ("2", "2"), ("1", "A", "C", "E"), ("A", "C", "E", "B", "D"), ("B", "3", "A", "1", "F")]
)
def test_the_stored_opening_answers_as_a_fresh_solve(row):
    """Rows within the stored depth, answered from the stored states after them, equal a solver
    that starts empty."""
    choice = optimal_choice(fresh_deck(*row), Hand())
    assert (choice.stop_value, choice.reveal_value) == TurnSolver(opening_cards(), Hand()).values(row)


def test_opening_table_round_trip():
    """A small deck's opening table holds the solver's states up to the depth, exactly: read
    back, they are its memo entries, and a solver starting from them answers as a fresh one."""
    cards = {"A": 2, "B": 2, "C": 1, "1": 2, "2": 2, "3": 1}
    frame = opening_table(cards, depth=3)
    assert frame.columns == [*ROW_COLUMNS, "summary", "value"]
    assert frame.equals(frame.sort(frame.columns)) and frame["row_A"].max() <= 2
    fresh = TurnSolver(cards, Hand())
    values = fresh.values(())
    assert opening_memo(frame, TurnSolver(cards, Hand())) == {k: v for k, v in fresh.memo.items() if sum(k[0]) <= 3}
    started = TurnSolver(cards, Hand())
    started.memo.update(opening_memo(frame, started))
    assert started.values(()) == values and started.values(("1", "A")) == TurnSolver(cards, Hand()).values(("1", "A"))


def test_other_turns_do_not_use_the_stored_opening(tmp_path, monkeypatch):
    """Only a game's first turn (default deck, empty hand, the chain) starts from the stored
    states; without data/nessie-opening.parquet it starts empty too."""
    nessie_optimal._SOLVERS.clear()
    other_deck = Situation(dict(Counter(make_deck(per_letter=7))), (), frozenset())
    assert solver(other_deck, Hand()).memo == {}
    assert solver(fresh_deck(), Hand([1])).memo == {}
    assert solver(fresh_deck(), Hand(), STAR).memo == {}
    assert solver(fresh_deck(), Hand()).memo
    monkeypatch.setattr(tables, "DATA", tmp_path)
    nessie_optimal._stored_opening.cache_clear()
    nessie_optimal._SOLVERS.clear()
    try:
        assert solver(fresh_deck(), Hand()).memo == {}
    finally:
        nessie_optimal._stored_opening.cache_clear()
        nessie_optimal._SOLVERS.clear()
