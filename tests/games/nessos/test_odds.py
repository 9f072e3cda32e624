"""Nessos' exact odds against independent derivations: scipy's hypergeometric, brute-force
enumeration of every hand (cards labelled one by one) on small decks, and closed forms."""

from __future__ import annotations

import random
from collections import defaultdict
from fractions import Fraction
from itertools import combinations

import polars as pl
import pytest
from scipy.stats import hypergeom

from nessus.games.nessos.deck import CHARON, deck
from nessus.games.nessos.odds import (
    Sender,
    Valuation,
    _by_hands,
    _drawn,
    bayes_table,
    chain_posterior,
    expected_values,
    offer_prior,
    p_charon_among_next,
    p_hand_3plus_charon,
    p_hand_no_charon,
    points,
    posterior_charon,
    unseen_counts,
)

SMALL = {CHARON: 3, 2: 2, 5: 2, 7: 1}  # 8 cards
SMALL_VALUES = (2, 5, 7)
SENDERS = [
    Sender("naive", cards=3),
    Sender("bluffer", Fraction(1, 2), cards=3),
    Sender("bluffer", Fraction(1, 3), cards=3),
    Sender("bluffer", Fraction(0), cards=3),
    Sender("bluffer", Fraction(1), cards=3),
]


def labelled(pool: dict[int, int]) -> list[int]:
    """The pool as a list of cards, one entry per physical card."""
    return [kind for kind, n in sorted(pool.items()) for _ in range(n)]


def brute_offer(hand: tuple[int, ...], sender: Sender) -> list[Fraction]:
    """P(each position of the hand is the card offered), straight from RULES.md's wording."""
    charon = [i for i, c in enumerate(hand) if c == CHARON]
    creatures = [i for i, c in enumerate(hand) if c != CHARON]
    out = [Fraction(0)] * len(hand)
    if sender.model == "naive" or not charon:
        return [Fraction(1, len(hand))] * len(hand)
    p_charon = Fraction(1) if not creatures else sender.bluff
    for i in charon:
        out[i] = p_charon / len(charon)
    for i in creatures:
        out[i] = (1 - p_charon) / len(creatures)
    return out


def brute_announce(card: int, announced: int, values) -> Fraction:
    if card == CHARON:
        return Fraction(1, len(values))
    return Fraction(int(card == announced))


def brute_chain(pool: dict[int, int], announced, values, sender: Sender) -> dict[tuple[bool, ...], Fraction]:
    """Every sequence of disjoint hands, every offered card, every announcement: the joint
    posterior of which offered cards are Charon."""
    weights: defaultdict[tuple[bool, ...], Fraction] = defaultdict(Fraction)

    def go(cards: list[int], i: int, prob: Fraction, pattern: tuple[bool, ...]) -> None:
        if i == len(announced):
            weights[pattern] += prob
            return
        size = min(sender.cards, len(cards))
        hands = list(combinations(range(len(cards)), size))
        for idx in hands:
            hand = tuple(cards[j] for j in idx)
            left = [c for j, c in enumerate(cards) if j not in idx]
            for card, p in zip(hand, brute_offer(hand, sender)):
                w = prob * Fraction(1, len(hands)) * p * brute_announce(card, announced[i], values)
                if w:
                    go(left, i + 1, w, (*pattern, card == CHARON))

    go(labelled(pool), 0, Fraction(1), ())
    total = sum(weights.values(), Fraction(0))
    return {k: w / total for k, w in weights.items() if w}


# --- deck and hand odds -------------------------------------------------------------------------


@pytest.mark.parametrize("players", [3, 4, 5, 6])
@pytest.mark.parametrize("hand_size", [1, 5, 7])
def test_hand_odds_match_scipy(players, hand_size):
    d = deck(players)
    rv = hypergeom(d.size, d.charon, hand_size)
    assert float(p_hand_no_charon(players, hand_size)) == pytest.approx(rv.pmf(0), rel=1e-12)
    assert float(p_hand_3plus_charon(players, hand_size)) == pytest.approx(rv.sf(2), rel=1e-12, abs=1e-300)


def test_hand_odds_by_counting_hands():
    """3 players: 11 Charon among 39 cards, hands counted directly."""
    assert p_hand_no_charon(3) == Fraction(28 * 27 * 26 * 25 * 24, 39 * 38 * 37 * 36 * 35)
    from math import comb

    three_plus = sum(comb(11, k) * comb(28, 5 - k) for k in range(3, 6))
    assert p_hand_3plus_charon(3) == Fraction(three_plus, comb(39, 5))


def test_charon_among_next_by_brute_force():
    pool = {CHARON: 3, 4: 2, 9: 2}
    cards = labelled(pool)
    for m in range(len(cards) + 1):
        draws = list(combinations(range(len(cards)), m))
        for k in range(m + 1):
            count = sum(1 for d in draws if sum(cards[j] == CHARON for j in d) == k)
            assert p_charon_among_next(pool, k, m) == Fraction(count, len(draws))


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_charon_among_next_matches_scipy_from_a_visible_state(players):
    pool = unseen_counts(players, hand=(CHARON, 7, 7, 2, 10), seen=(CHARON, CHARON, 3))
    n, charon = sum(pool.values()), pool[CHARON]
    assert charon == deck(players).charon - 3
    for m in (1, 3, 8):
        for k in range(m + 1):
            assert float(p_charon_among_next(pool, k, m)) == pytest.approx(hypergeom(n, charon, m).pmf(k), abs=1e-12)


def test_bad_counts_are_value_errors():
    with pytest.raises(ValueError, match="m must"):
        p_charon_among_next({CHARON: 1}, 0, 2)
    with pytest.raises(ValueError, match="k must"):
        p_charon_among_next({CHARON: 1}, 2, 1)
    with pytest.raises(ValueError, match="hand_size"):
        p_hand_no_charon(3, 0)
    with pytest.raises(ValueError, match="not a card of the 3-player deck"):
        unseen_counts(3, hand=(4,))
    with pytest.raises(ValueError, match="hand and seen together"):
        unseen_counts(4, hand=(7, 7, 7), seen=(7, 7))
    with pytest.raises(ValueError, match="sender"):
        Sender("liar")
    with pytest.raises(ValueError, match="bluff"):
        Sender("bluffer", Fraction(3, 2))


# --- the posterior ------------------------------------------------------------------------------


@pytest.mark.parametrize("sender", SENDERS, ids=repr)
@pytest.mark.parametrize("announced", SMALL_VALUES)
def test_posterior_matches_every_hand(sender, announced):
    brute = brute_chain(SMALL, (announced,), SMALL_VALUES, sender)
    assert posterior_charon(SMALL, announced, SMALL_VALUES, sender) == brute.get((True,), 0)


@pytest.mark.parametrize("sender", SENDERS, ids=repr)
def test_offer_prior_matches_every_hand(sender):
    cards = labelled(SMALL)
    hands = list(combinations(cards, sender.cards))
    expected: defaultdict[int, Fraction] = defaultdict(Fraction)
    for hand in hands:
        for card, p in zip(hand, brute_offer(hand, sender)):
            expected[card] += p / len(hands)
    assert offer_prior(SMALL, sender) == dict(expected)


def test_posterior_full_size_hand_by_brute_force():
    """A 5-card sender hand from a real pool (the 3-player deck after a hand and many face-up
    cards: 17 unseen cards, 6188 hands)."""
    pool = unseen_counts(3, hand=(CHARON, 7, 7, 2, 10), seen=(1, 1, 1, 3, 3, 5, 5, 9, 9, 9, 10, 10, 2, 2, CHARON, 5, 3))
    values = deck(3).values
    for sender in (Sender("naive"), Sender("bluffer", Fraction(2, 3))):
        for v in (7, 9):
            brute = brute_chain(dict(pool), (v,), values, sender)
            assert posterior_charon(pool, v, values, sender) == brute.get((True,), 0)


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_naive_posterior_closed_form(players):
    """Every unseen card is equally likely to be the one offered: K / (K + V n)."""
    pool = unseen_counts(players, hand=(CHARON, 7, 7, 2, 10), seen=(7, CHARON))
    values = deck(players).values
    for v in values:
        expected = Fraction(pool[CHARON], pool[CHARON] + len(values) * pool[v])
        assert posterior_charon(pool, v, values, Sender("naive")) == expected


def test_bluffer_posterior_moves_with_bluff():
    pool = unseen_counts(4, hand=(CHARON, 7, 7, 2, 10))
    values = deck(4).values
    qs = [Fraction(k, 4) for k in range(5)]
    posteriors = [posterior_charon(pool, 7, values, Sender("bluffer", q)) for q in qs]
    assert posteriors == sorted(posteriors) and posteriors[0] < posteriors[-1]
    # q = 0 offers a Charon only from an all-Charon hand
    assert posteriors[0] > 0


def test_impossible_announcement():
    with pytest.raises(ValueError, match="impossible"):
        posterior_charon({2: 3, 5: 1}, 7, (2, 5, 7), Sender())
    with pytest.raises(ValueError, match="announced must be a creature value"):
        posterior_charon(SMALL, 4, SMALL_VALUES, Sender())
    assert posterior_charon({2: 3, 7: 1}, 7, (2, 7), Sender()) == 0
    assert posterior_charon({CHARON: 2, 2: 3}, 7, (2, 7), Sender()) == 1


# --- chains -------------------------------------------------------------------------------------


@pytest.mark.parametrize("sender", [Sender("naive", cards=2), Sender("bluffer", Fraction(1, 2), cards=2)], ids=repr)
@pytest.mark.parametrize("announced", [(2, 7), (7, 7), (5, 2, 5)])
def test_chain_matches_every_sequence_of_hands(sender, announced):
    chain = chain_posterior(SMALL, announced, SMALL_VALUES, sender)
    brute = brute_chain(SMALL, announced, SMALL_VALUES, sender)
    assert chain.joint == brute
    assert chain.at_least_one == sum(p for k, p in brute.items() if any(k))
    for i, p in enumerate(chain.each):
        assert p == sum(q for k, q in brute.items() if k[i])


def test_chain_of_one_is_the_posterior():
    pool = unseen_counts(5, hand=(CHARON, 7, 7, 2, 10), seen=(3, 3))
    values = deck(5).values
    for sender in (Sender("naive"), Sender("bluffer", Fraction(1, 3))):
        chain = chain_posterior(pool, (7,), values, sender)
        assert chain.each == (posterior_charon(pool, 7, values, sender),) == (chain.at_least_one,)


def test_naive_chain_is_an_ordered_draw():
    """Naive senders: the offered cards are a uniform ordered draw without replacement from the
    pool, whatever the hand size; so the joint is a short sum by hand."""
    pool = unseen_counts(4, hand=(CHARON, 7, 2))
    values = deck(4).values
    k, n, v = pool[CHARON], sum(pool.values()), len(values)
    sevens, tens = pool[7], pool[10]
    chain = chain_posterior(pool, (7, 10), values, Sender("naive"))
    w = {
        (True, True): Fraction(k * (k - 1), v * v),
        (True, False): Fraction(k * tens, v),
        (False, True): Fraction(sevens * k, v),
        (False, False): Fraction(sevens * tens),
    }  # each over n (n - 1)
    total = sum(w.values())
    assert chain.joint == {key: x / total for key, x in w.items()}
    assert n > 5


def test_full_size_chain_of_three_runs():
    pool = unseen_counts(6, hand=(CHARON, 7, 7, 2, 10))
    chain = chain_posterior(pool, (9, 9, 4), deck(6).values, Sender("bluffer", Fraction(1, 2)))
    assert sum(chain.joint.values()) == 1
    assert max(chain.each) <= chain.at_least_one <= sum(chain.each)


def test_bad_chains():
    with pytest.raises(ValueError, match="1 to 3"):
        chain_posterior(SMALL, (2, 2, 5, 7), SMALL_VALUES, Sender())
    with pytest.raises(ValueError, match="impossible"):
        chain_posterior({7: 1, 2: 5}, (7, 7), SMALL_VALUES, Sender(cards=2))


# --- the Bayes table ----------------------------------------------------------------------------


@pytest.mark.parametrize("sender", SENDERS, ids=repr)
def test_bayes_table(sender):
    table = bayes_table(SMALL, 5, SMALL_VALUES, sender)
    assert table.columns == [
        "hypothesis",
        "prior",
        "likelihood",
        "unnormalised",
        "posterior",
        "prior_exact",
        "likelihood_exact",
        "unnormalised_exact",
        "posterior_exact",
    ]
    assert table["hypothesis"].to_list() == ["C", "5"]
    post = [Fraction(x) for x in table["posterior_exact"]]
    assert post[0] == posterior_charon(SMALL, 5, SMALL_VALUES, sender) and sum(post) == 1
    prior = offer_prior(SMALL, sender)
    assert [Fraction(x) for x in table["prior_exact"]] == [prior[CHARON], prior[5]]
    assert table["likelihood_exact"].to_list() == ["1/3", "1"]
    for col in ("prior", "likelihood", "unnormalised", "posterior"):
        assert table[col].dtype == pl.Float64
        assert table[col].to_list() == [float(Fraction(x)) for x in table[f"{col}_exact"]]


def test_bayes_table_every_value():
    table = bayes_table(SMALL, 5, SMALL_VALUES, Sender(cards=3), every_value=True)
    assert table["hypothesis"].to_list() == ["C", "2", "5", "7"]
    assert [Fraction(x) for x in table["prior_exact"]] == [
        Fraction(3, 8),
        Fraction(2, 8),
        Fraction(2, 8),
        Fraction(1, 8),
    ]
    assert table["posterior_exact"].to_list()[1::2] == ["0", "0"]
    assert Fraction(table["posterior_exact"][0]) == Fraction(3, 3 + 3 * 2)


# --- expected values ----------------------------------------------------------------------------


def test_points():
    assert points([1, 2, 3, 1, 2, 3, 1, 9, CHARON]) == 1 + 2 + 3 + 1 + 2 + 3 + 1 + 9 + 20
    assert points([]) == 0


def test_valuation():
    val = Valuation(goal=30)
    assert val.penalty == 10
    assert val.worth([7]) == 7 and val.worth([CHARON]) == -10 and val.worth([CHARON, 9]) == -1
    assert val.worth([CHARON] * 3) == -30
    bonus = Valuation(goal=40, front=(1, 2, CHARON, CHARON))
    assert bonus.worth([3]) == 13  # the set {1, 2, 3} completes
    assert bonus.worth([CHARON, 10]) == -40  # the third Charon eliminates
    assert Valuation(charon_penalty=Fraction(5)).worth([CHARON]) == -5
    with pytest.raises(ValueError, match="next_refuses"):
        Valuation(next_refuses=Fraction(2))


def test_expected_values_by_hand():
    """One card, P(Charon) = p: accept = (1 - p) v - p penalty; passing is r times accepting
    when nothing non-linear is at stake."""
    pool = {CHARON: 3, 7: 1, 2: 4}
    chain = chain_posterior(pool, (7,), (2, 7), Sender())
    p = chain.each[0]
    val = Valuation(goal=30, next_refuses=Fraction(1, 4))
    values = expected_values(chain, (7,), (CHARON, 2, 10), val)
    assert values.accept == (1 - p) * 7 - p * 10
    assert values.refuse == 0
    assert values.pass_ == Fraction(1, 4) * values.accept


def test_passing_a_charon_on_with_two_in_front():
    """Two Charon in front: a Charon offered eliminates (-goal); holding a Charon, adding it
    and passing risks nothing more than keeping it (it would eliminate either way if it came
    back), so passing is worth r (E worth(cards + C) - worth(C)) = r (-30 + 30) = 0."""
    chain = chain_posterior({CHARON: 3, 7: 1, 2: 4}, (7,), (2, 7), Sender())
    p = chain.each[0]
    front = Valuation(goal=30, front=(CHARON, CHARON), next_refuses=Fraction(1, 4))
    values = expected_values(chain, (7,), (CHARON, 9), front)
    assert values.accept == (1 - p) * 7 - p * 30
    assert values.add == CHARON and values.pass_ == 0
    # holding only a 9: back with P 1/4, the 9 lost from the hand's worth 9/4
    nine = expected_values(chain, (7,), (9,), front)
    assert nine.pass_ == Fraction(1, 4) * ((1 - p) * 16 - p * 30 - 9)


def test_the_set_bonus_is_not_linear():
    """1 and 2 in front, a sure 3 offered: accepting completes the set (3 + 10); passing with
    one's own 3 gets both back with P 1/2, but only one set: (16 - 13) / 2."""
    chain = chain_posterior({3: 3, 9: 2}, (3,), (1, 2, 3, 9), Sender())
    assert chain.each == (0,)
    val = Valuation(goal=40, front=(1, 2))
    values = expected_values(chain, (3,), (3,), val)
    assert values.accept == 13 and values.pass_ == Fraction(3, 2)


def test_pass_not_allowed():
    chain = chain_posterior(SMALL, (2, 5, 7), SMALL_VALUES, Sender(cards=2))
    assert expected_values(chain, (2, 5, 7), (2,), Valuation()).pass_ is None
    one = chain_posterior(SMALL, (2,), SMALL_VALUES, Sender())
    assert expected_values(one, (2,), (), Valuation()).pass_ is None
    assert expected_values(one, (2,), (2,), Valuation(), can_pass=False).add is None


def test_chain_accept_uses_the_joint():
    """Elimination is not linear in the Charon: the value reads the joint posterior."""
    chain = chain_posterior(SMALL, (2, 5), SMALL_VALUES, Sender(cards=2))
    val = Valuation(goal=30, front=(CHARON,))
    expected = sum(
        p * (-30 if all(k) else (0 if k[0] else 2) + (0 if k[1] else 5) - 10 * sum(k)) for k, p in chain.joint.items()
    )
    assert expected_values(chain, (2, 5), (), val).accept == expected


def test_naive_chains_in_closed_form_are_the_sum_over_hands():
    """`_drawn` (cards offered as if drawn one by one) against `_by_hands` (every sender's hand
    summed over) for naive senders with full hands: the same posterior, exactly."""
    rng = random.Random(2)
    checked = 0
    while checked < 150:
        length, groups = rng.randint(1, 3), rng.randint(1, 3)
        slot = tuple(rng.randint(1, groups) for _ in range(length))
        start = (rng.randint(0, 12), *(rng.randint(0, 4) for _ in range(groups)), rng.randint(0, 30))
        sender = Sender("naive", cards=rng.randint(1, 6))
        if sum(start) < length * sender.cards:
            continue
        drawn, by_hands = _drawn(start, slot, 7), _by_hands(start, slot, 7, sender)
        a, b = sum(drawn.values()), sum(by_hands.values())
        assert (a == 0) == (b == 0)
        if a:
            assert {k: w / a for k, w in drawn.items() if w} == {k: w / b for k, w in by_hands.items() if w}
            checked += 1
