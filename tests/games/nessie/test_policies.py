"""Stop values, reveal-or-stop, the rules of play as policies and whole games of Nessie."""

from fractions import Fraction

import numpy as np

from nessus.games.nessie import REVEAL, Rules, State, Stop, initial_state, odds, policies
from nessus.games.nessie.cards import Hand, Situation
from nessus.games.nessie.fast import tournament
from nessus.games.nessie.optimal import Optimal, optimal
from nessus.play import play as nessus_play


def test_best_take_by_hand():
    """Row 3, E, 2 (2 last). Holding C and a 1: taking 2 gains 2; taking E too costs the 1
    (E is not next to C), so 2 + 0 - 1 = 1; taking all adds the 3: 2 - 1 + 3 = 4."""
    hand, row = Hand([1], ["C"]), ("3", "E", "2")
    assert [odds.take_value(hand, row, n, letter_value=0) for n in range(4)] == [0, 2, 1, 4]
    assert odds.best_take(hand, row, letter_value=0) == (3, 4)
    assert odds.best_take(hand, row) == (3, 4)  # E is not kept, so the default letter value adds nothing
    # With letters worth 5/3, keeping a D (next to C) is worth taking on its own.
    assert odds.best_take(Hand([], ["C"]), ("D",), letter_value=Fraction(5, 3)) == (1, Fraction(5, 3))


def test_reveal_one_more_by_enumerating_the_next_card():
    """Pool: a 1, a 3, an A. Row: 3 (treasure 3). The 3 sinks (6); the 1 gives a take of 4;
    the A (first Nessie card, kept) gives 3 + letter value. Each card has probability 1/3."""
    s = Situation({"1": 1, "3": 1, "A": 1}, ("3",), frozenset())
    lv = Fraction(5, 3)
    c = odds.choice(s, Hand(), letter_value=lv)
    assert c.p_sink_next == Fraction(1, 3)
    assert c.stop_value == 3 and c.stop_take == 1
    assert c.reveal_one_value == Fraction(1, 3) * 4 + Fraction(1, 3) * (3 + lv)
    assert not c.reveal  # 4/3 + 14/9 = 26/9 < 3: stop now


def test_human_rules():
    s = Situation({"1": 5, "A": 5}, ("2", "2"), frozenset())
    assert policies.stop_at(2).reveals(s, Hand(), 1) and not policies.stop_at(2).reveals(s, Hand(), 2)
    # Row treasure 4: a 1 makes 5 (safe) and an A is safe, so nothing sinks next.
    assert policies.stop_when_risky(Fraction(3, 10)).reveals(s, Hand(), 1)
    risky = Situation({"3": 5, "A": 5}, ("2", "2"), frozenset())  # any 3 sinks: P = 1/2
    assert not policies.stop_when_risky(Fraction(3, 10)).reveals(risky, Hand(), 1)
    assert policies.stop_when_risky(Fraction(3, 10)).reveals(risky, Hand(), 0)  # at least one card


def test_a_rule_is_a_policy_that_reveals_then_takes_the_best_run():
    """On a State a rule reveals first (compulsory), then as `reveals` says, then stops with the
    best take under its own letter value; the optimal rule takes by treasure (letter value 0)."""
    state = initial_state().reveal("3").reveal("A")
    assert policies.stop_at(3)(initial_state()) == REVEAL and policies.stop_at(3)(state) == REVEAL
    assert policies.stop_at(2)(state) == Stop(odds.best_take(Hand(), ("3", "A"))[0]) == Stop(2)
    assert optimal().letter_value == 0 and policies.lookahead().letter_value == odds.LETTER_VALUE
    late = initial_state().reveal("A").reveal("3").reveal("2")  # 3 + 2 in the row, an A before them
    assert policies.stop_at(1)(late) == Stop(3)  # the A is worth taking at 10/6
    assert Optimal(Fraction(0)).reveals(late.situation(), late.hand(), 0)


def test_whole_games_through_the_play_loop_finish_with_a_winner():
    rng, start = np.random.default_rng(5), initial_state(Rules(players=3))
    for _ in range(5):
        end = nessus_play(start, [policies.stop_at(2), policies.stop_when_risky(), policies.lookahead()], rng)
        assert isinstance(end, State) and end.finisher is not None and end.winners()
        assert sum(end.returns()) == 1


def test_tournament_shares_out_the_wins():
    """Every game has at least one winner (ties share), so win rates add up to at least 1."""
    df = tournament({"a": policies.stop_at(2), "b": policies.stop_at(3)}, games=60, seed=3)
    assert df.height == 2 and df["p_win"].sum() >= 1
    assert ((df["low"] <= df["p_win"]) & (df["p_win"] <= df["high"])).all()


def test_choice_rejects_a_hand_that_contradicts_the_situation():
    import pytest

    with pytest.raises(ValueError, match="letters"):
        odds.choice(Situation({"1": 1}, (), frozenset("A")), Hand([], ["B"]))
