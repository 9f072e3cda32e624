"""Le Palais (RULES.md section 1) against independent computations written here:

- the nine hands by a second classifier (count patterns and the longest run) over all 7776
  ordered rolls;
- brute-force expectimax over ORDERED dice (every subset of positions kept, every ordered
  reroll) on shrunk games: 2 or 3 dice, 2 or 3 rolls, random payoffs, with and without sticky
  holds;
- the published P(Yahtzee within 3 rolls) = 2783176/60466176, and the classic chain on "how
  many of the most common face" for the keep-the-most-common rule;
- hand-worked cases: beating a palais of 5s, beating the weakest faillite, reaching a pair.
"""

from collections import Counter
from fractions import Fraction
from functools import cache
from itertools import product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from nessus.dice import multisets
from nessus.games import palais
from nessus.games.palais import hands, keep
from nessus.games.palais.policies import chase_odds, opener_solution

F = Fraction
YAHTZEE = F(2783176, 60466176)


# -- independent references ----------------------------------------------------------------------
def longest_run(faces) -> int:
    s, best, run = sorted(set(faces)), 1, 1
    for a, b in zip(s, s[1:]):
        run = run + 1 if b == a + 1 else 1
        best = max(best, run)
    return best


def classify(dice) -> str:
    """The hand, from the pattern of counts and the longest run of consecutive faces."""
    pattern = sorted(Counter(dice).values())
    if pattern == [5]:
        return "palais"
    if pattern == [1, 4]:
        return "tour"
    if pattern == [2, 3]:
        return "manoir"
    if longest_run(dice) == 5:
        return "grande_suite"
    if 3 in pattern:
        return "trident"
    if longest_run(dice) == 4:
        return "suite"
    if pattern == [1, 2, 2]:
        return "deux_paires"
    if 2 in pattern:
        return "paire"
    return "faillite"


ORDERED = Counter(classify(d) for d in product(range(1, 7), repeat=5))


def brute_force(payoff, dice: int, rolls: int, sticky: bool):
    """Expectimax over ordered dice: (value before the first roll, value of (left, faces, held))."""

    @cache
    def after(left: int, faces: tuple, held: frozenset) -> Fraction:
        best = F(payoff(tuple(sorted(faces))))
        if left == 0:
            return best
        for mask in range(2**dice - 1):
            keep = frozenset(i for i in range(dice) if mask >> i & 1)
            if sticky and not held <= keep:
                continue
            free = [i for i in range(dice) if i not in keep]
            total = F(0)
            for new in product(range(1, 7), repeat=len(free)):
                f = list(faces)
                for i, x in zip(free, new):
                    f[i] = x
                total += after(left - 1, tuple(f), keep if sticky else frozenset())
            best = max(best, total / 6 ** len(free))
        return best

    first = sum(after(rolls - 1, f, frozenset()) for f in product(range(1, 7), repeat=dice)) / 6**dice
    return first, after


def split(faces: tuple, held: frozenset) -> tuple[tuple, tuple]:
    """(kept, rolled) of ordered faces with the held positions."""
    kept = tuple(sorted(faces[i] for i in held))
    rolled = tuple(sorted(faces[i] for i in range(len(faces)) if i not in held))
    return kept, rolled


def table_payoff(values: list[int], dice: int):
    hands = [h for h, _ in multisets(dice)]
    return dict(zip(hands, values)).__getitem__


# -- single rolls -----------------------------------------------------------------------------
def test_single_roll_hands_by_enumerating_7776_rolls():
    assert sum(ORDERED.values()) == 6**5
    assert palais.p_single() == {h: F(ORDERED[h], 6**5) for h in palais.BEST_FIRST}
    assert list(palais.p_single()) == list(palais.BEST_FIRST)
    assert all(palais.category(d) == classify(d) for d in product(range(1, 7), repeat=5))


def test_hand_worked_single_roll_counts():
    """Palais 6; faillite: only {1,2,3,5,6} and {1,2,4,5,6}, 120 orders each; grande suite 2 x 120."""
    assert palais.p_single()["palais"] == F(6, 7776)
    assert palais.p_single()["faillite"] == F(240, 7776)
    assert palais.p_single()["grande_suite"] == F(240, 7776)
    assert palais.category((1, 2, 3, 4, 4)) == "suite"  # the best category it qualifies for
    assert palais.category((2, 2, 2, 3, 3)) == "manoir"


def test_variant_a_orders_hands_as_the_rules_say():
    key = palais.tie_key
    assert key((5, 5, 5, 5, 5)) > key((4, 4, 4, 4, 4))
    assert key((2, 2, 2, 2, 6)) > key((1, 1, 1, 1, 6))  # the quad first, then the odd die
    assert key((3, 3, 3, 2, 2)) > key((2, 2, 2, 6, 6))  # the triple decides before the pair
    assert key((1, 1, 6, 6, 2)) > key((5, 5, 4, 4, 3))  # deux paires: the higher pair first
    assert key((2, 3, 4, 5, 5)) > key((1, 2, 3, 4, 6))  # suite: the run first, then the odd die
    assert key((5, 5, 4, 3, 2)) > key((6, 6, 1, 2, 3))  # a suite beats a pair of 6s: category first
    hands = [h for h, _ in multisets(5)]
    assert len({key(h) for h in hands}) == 252  # under A only identical dice tie
    assert sorted(palais.strength(h, "B") for h in hands)[0] == (0,)


# -- the solver against brute force on shrunk games -----------------------------------------
@settings(max_examples=12, deadline=None)
@given(st.lists(st.integers(0, 6), min_size=56, max_size=56), st.booleans())
def test_three_dice_two_rolls_against_ordered_brute_force(values, sticky):
    """Every state's value, the first roll's value, and the core solver's too."""
    payoff = table_payoff(values, 3)
    first, after = brute_force(payoff, 3, 2, sticky)
    sol = keep.solve([payoff], sticky, dice=3, roll_count=2)
    assert sol.start_value() == first
    assert keep.game(payoff, sticky, dice=3, roll_count=2).value(keep.start(2)) == first
    helds = [frozenset(i for i in range(3) if m >> i & 1) for m in range(7)] if sticky else [frozenset()]
    for faces in product(range(1, 7), repeat=3):
        for held in helds:
            kept, rolled = split(faces, held)
            assert sol.value((1, kept, rolled)) == after(1, faces, held)


@pytest.mark.parametrize("sticky", [False, True])
def test_three_dice_three_rolls_against_ordered_brute_force(sticky):
    """Payoff: the sum of the dice, doubled for three of a kind (so holds matter)."""
    payoff = lambda h: sum(h) * (2 if len(set(h)) == 1 else 1)  # noqa: E731
    first, _ = brute_force(payoff, 3, 3, sticky)
    assert keep.solve([payoff], sticky, dice=3, roll_count=3).start_value() == first
    assert keep.game(payoff, sticky, dice=3, roll_count=3).value(keep.start(3)) == first


@settings(max_examples=6, deadline=None)
@given(st.lists(st.integers(0, 9), min_size=21, max_size=21), st.booleans())
def test_two_dice_three_rolls_against_ordered_brute_force(values, sticky):
    payoff = table_payoff(values, 2)
    first, _ = brute_force(payoff, 2, 3, sticky)
    assert keep.solve([payoff], sticky, dice=2, roll_count=3).start_value() == first


@pytest.mark.parametrize("sticky", [False, True])
@pytest.mark.parametrize("hand", ["tour", "grande_suite"])
def test_array_solver_equals_core_solver_in_every_state(hand, sticky):
    """Five dice: the same exact value in every state after a roll and every pending state, and
    the same optimal hold (both take the first in hold order among equals)."""
    objective = palais.AtLeast(hand)
    core = keep.game(objective, sticky)
    sol = keep.solve([objective], sticky)
    assert sol.start_value() == core.value(keep.start())
    lay = keep.layout(5, sticky)
    for left in (1, 2):
        for kept, rolled in lay.states:
            state = (left, kept, rolled)
            assert sol.value(state) == core.value(state)
            assert sol.action(state) == core.best(state)
    for kept in [(), (6,), (1, 2, 3), (4, 4, 5, 5)]:
        assert sol.value((2, kept, ())) == core.after_value(("roll", 2, kept))


# -- published and hand-worked figures -------------------------------------------------------
def test_palais_within_3_is_the_published_yahtzee_figure():
    figures = palais.report().figures
    assert figures["p_palais_within_3"].exact == YAHTZEE
    assert figures["p_at_least_palais_within_3"].exact == YAHTZEE
    assert palais.p_palais_within_3() == YAHTZEE
    assert keep.game(palais.AtLeast("palais")).value(keep.start()) == YAHTZEE


def most_common_chain() -> Fraction:
    """P(five alike within 3 rolls) holding the most common face: a chain on how many dice
    show it, its steps counted over ordered rerolls (switching to another face when the rerolled
    dice show more of it)."""
    step: dict[int, Counter] = {}
    for k in range(1, 5):
        step[k] = Counter()
        for new in product(range(1, 7), repeat=5 - k):
            held = k + new.count(1)  # by symmetry the held face is 1
            step[k][max(held, *Counter(new).values())] += 1
    first = Counter(max(Counter(r).values()) for r in product(range(1, 7), repeat=5))
    dist = {k: F(c, 6**5) for k, c in first.items()}
    for _ in range(2):
        nxt: dict[int, Fraction] = Counter()
        for k, p in dist.items():
            if k == 5:
                nxt[5] += p
                continue
            for j, c in step[k].items():
                nxt[j] += p * F(c, 6 ** (5 - k))
        dist = nxt
    return dist[5]


def test_keep_most_common_follows_the_classic_chain_and_is_optimal_for_palais():
    figures = palais.report().figures
    assert most_common_chain() == YAHTZEE == figures["p_palais_within_3_keep_most_common"].exact
    d = palais.hand_distribution(palais.keep_most_common())
    assert d.prob(lambda h: len(set(h)) == 1) == YAHTZEE


def test_heuristic_distribution_equals_the_core_solver_distribution():
    """final_weights (forward on arrays) against Expectimax.distribution, with sticky holds."""
    rules = palais.Rules(sticky_holds=True)
    policy = palais.keep_most_common("manoir")
    core = keep.game(palais.AtLeast("manoir"), True).distribution(
        keep.start(), lambda s: tuple(sorted(s[1] + s[2])), policy
    )
    assert palais.hand_distribution(policy, rules) == core
    reach = core.prob(lambda h: palais.rank(h) >= palais.HANDS.index("manoir"))
    assert palais.report(rules).figures["p_at_least_manoir_within_3_keep_most_common"].exact == reach


def test_at_least_a_pair_by_hand():
    """Only a faillite misses, and every faillite ({1,2,3,5,6} or {1,2,4,5,6}) holds a 3 or a 4:
    holding that die alone misses again only if the other four show the rest of the same
    faillite, 24 of 1296 = 1/54 -- the best hold, as enumerating every hold shows. So
    P(miss) = 5/162 * (1/54)^2."""
    faillite = (1, 2, 3, 5, 6)
    misses = {}
    for hold in keep.sub_multisets(faillite):
        n = 5 - len(hold)
        bad = sum(1 for r in product(range(1, 7), repeat=n) if classify(hold + r) == "faillite")
        misses[hold] = F(bad, 6**n)
    assert min(misses.values()) == misses[(3,)] == F(1, 54)
    assert palais.p_at_least_within("paire") == 1 - F(5, 162) * F(1, 54) ** 2
    assert palais.p_at_least_within("faillite") == 1


def test_beating_given_hands_by_hand():
    """Only 6-6-6-6-6 beats a palais of 5s (A): each die reaches a 6 within 3 rolls with
    1 - (5/6)^3 = 91/216. The weakest hand 1-2-3-5-6 (A): the best is rerolling all five, which
    gives it again with 120/7776 = 5/324, so P(not beating it) = (5/324)^3. Under B a palais
    cannot be beaten, only tied (a tie counting half: half of P(palais))."""
    assert palais.p_beat((5, 5, 5, 5, 5)) == F(91, 216) ** 5
    assert palais.p_beat((6, 6, 6, 6, 6)) == 0
    assert palais.p_beat((1, 2, 3, 5, 6)) == 1 - F(5, 324) ** 3
    b = palais.Rules(tie_break="B")
    assert palais.p_beat((5, 5, 5, 5, 5), b) == 0
    assert palais.p_beat((1, 1, 1, 1, 1), b, tie=F(1, 2)) == YAHTZEE / 2
    assert palais.p_beat((1, 2, 3, 5, 6), b) == palais.p_at_least_within("paire")
    policy = palais.beat_policy((5, 5, 5, 5, 5))
    assert policy((2, (), (1, 2, 3, 6, 6))) == (6, 6)
    assert policy((2, (), (6, 6, 6, 6, 6))) == "stop"


def test_at_least_figures_are_monotone_and_sticky_holds_cost():
    """Each report figure equals its objective solved alone; sticky holds only remove choices."""
    rules = palais.Rules()
    values = [palais.p_at_least_within(h, rules) for h in palais.BEST_FIRST]
    assert values == sorted(values)
    for h in palais.BEST_FIRST:
        assert (
            palais.report(rules).figures[f"p_at_least_{h}_within_3"].exact
            == keep.solve([palais.AtLeast(h)]).start_value()
        )
    sticky = palais.Rules(sticky_holds=True)
    assert all(palais.p_at_least_within(h, sticky) <= palais.p_at_least_within(h, rules) for h in palais.HANDS)
    assert palais.p_palais_within_3(sticky) < YAHTZEE


def test_opener_payoff_forward_equals_backward():
    """The opener's optimal value equals E[(1 - q(h))] over its final-hand distribution (two
    players), computed forward from its holds."""
    for tb, sticky in [("A", False), ("B", True)]:
        sol = opener_solution(2, tb, sticky)
        w = keep.final_weights(sol.best, sticky)
        q = chase_odds(tb, sticky)
        _, cls = hands.strength_classes(tb)
        forward = sum(int(x) * (1 - q[c]) for x, c in zip(w, cls)) / 6**15
        assert (
            forward == sol.start_value() == palais.heads_up(palais.Rules(sticky_holds=sticky, tie_break=tb, players=2))
        )
