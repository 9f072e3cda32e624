"""Les Trois (RULES.md section 5) against brute force over ordered dice: every ordered roll
(itertools.product) and every choice of positions to set aside, recursing on the dice left.
Also hand-derived one- and two-dice values, a symmetry (all 3s vs all 6s), the hints of a state,
and each objective's turn and policy (Monte Carlo is in test_fast.py)."""

from fractions import Fraction
from functools import cache
from itertools import combinations, product

import pytest

from nessus.dice import rolls
from nessus.games import trois

F = Fraction


def points(dice) -> int:
    return sum(0 if d == 3 else d for d in dice)


def position_choices(roll):
    """Every non-empty set of positions, as the tuple of dice it sets aside."""
    return [tuple(roll[i] for i in c) for r in range(1, len(roll) + 1) for c in combinations(range(len(roll)), r)]


@cache
def brute_mean(n: int) -> F:
    """Least expected score of n dice still to set aside (ordered rolls, position choices)."""
    if n == 0:
        return F(0)
    total = F(0)
    for roll in product(range(1, 7), repeat=n):
        total += min(points(h) + brute_mean(n - len(h)) for h in position_choices(roll))
    return total / 6**n


@cache
def brute_mean_choice(roll: tuple) -> tuple:
    """The dice the least-expected-score player sets aside from this ordered roll."""
    return min(position_choices(roll), key=lambda h: points(h) + brute_mean(len(roll) - len(h)))


@cache
def brute_distribution(n: int) -> dict:
    """P(the dice still to set aside add up to s) playing for the least expected score."""
    if n == 0:
        return {0: F(1)}
    out: dict = {}
    for roll in product(range(1, 7), repeat=n):
        h = brute_mean_choice(roll)
        for s, p in brute_distribution(n - len(h)).items():
            out[points(h) + s] = out.get(points(h) + s, 0) + p / 6**n
    return out


@cache
def brute_moon(n: int) -> F:
    """Best P(every die set aside is a 6)."""
    if n == 0:
        return F(1)
    return (
        sum(
            (
                max((brute_moon(n - len(h)) if set(h) == {6} else F(0)) for h in position_choices(roll))
                for roll in product(range(1, 7), repeat=n)
            ),
            F(0),
        )
        / 6**n
    )


@cache
def brute_at_most(n: int, budget: int) -> F:
    """Best P(the dice still to set aside add up to at most `budget`)."""
    if budget < 0:
        return F(0)
    if n == 0:
        return F(1)
    return (
        sum(
            (
                max(brute_at_most(n - len(h), budget - points(h)) for h in position_choices(roll))
                for roll in product(range(1, 7), repeat=n)
            ),
            F(0),
        )
        / 6**n
    )


@cache
def brute_heuristic(n: int) -> dict:
    """Score distribution setting aside every 3, or with no 3 the lowest die by points."""
    if n == 0:
        return {0: F(1)}
    out: dict = {}
    for roll in product(range(1, 7), repeat=n):
        h = tuple(d for d in roll if d == 3) or (min(roll, key=lambda d: (points((d,)), d)),)
        for s, p in brute_heuristic(n - len(h)).items():
            out[points(h) + s] = out.get(points(h) + s, 0) + p / 6**n
    return out


@pytest.mark.parametrize("dice", [1, 2, 3, 4, 5])
def test_report_against_brute_force(dice):
    figures = trois.report(trois.Rules(dice=dice)).figures
    assert figures["optimal_mean"].exact == brute_mean(dice)
    assert figures["p_zero_optimal"].exact == brute_distribution(dice).get(0, 0)
    assert figures["p_moon_optimal_for_moon"].exact == brute_moon(dice)
    assert figures["p_at_most_target_best"].exact == brute_at_most(dice, 5)
    heuristic = brute_heuristic(dice)
    assert figures["heuristic_mean"].exact == sum(s * p for s, p in heuristic.items())
    assert figures["p_zero_heuristic"].exact == heuristic.get(0, 0)


def test_whole_distribution_against_brute_force():
    d = trois.score_distribution(trois.Rules())
    assert {s: d[s] for s in d.outcomes} == {s: p for s, p in brute_distribution(5).items() if p}
    assert d.mean() == trois.optimal_mean() == brute_mean(5)


@pytest.mark.parametrize("target", [0, 1, 8, 30])
def test_target_policy_against_brute_force(target):
    assert trois.target_turn(4, target).value() == brute_at_most(4, target)


def test_small_cases_by_hand():
    """One die: mean (1+2+0+4+5+6)/6 = 3, P(0) = P(moon) = 1/6. Two dice: keep both, or keep
    the lower and roll the other (worth 3 on average): v(2) = 79/18 over the 36 rolls."""
    one = trois.report(trois.Rules(dice=1, target=0)).figures
    assert one["optimal_mean"].exact == 3 and one["p_zero_optimal"].exact == F(1, 6)
    assert one["p_moon_optimal_for_moon"].exact == F(1, 6) == one["p_at_most_target_best"].exact
    by_rolls = F(0)
    for a, b in product(range(1, 7), repeat=2):
        lo, hi = sorted((points((a,)), points((b,))))
        by_rolls += min(lo + hi, lo + 3)  # keep both, or keep the lower and roll one (mean 3)
    assert trois.optimal_mean(trois.Rules(dice=2)) == by_rolls / 36 == F(79, 18)


def test_all_threes_and_all_sixes_are_the_same_chase():
    """Setting aside every 3 scores 0 exactly when the moon chase (every 6) succeeds, face for
    face: P(zero) under the heuristic = P(moon) under the moon policy."""
    f = trois.report().figures
    assert f["p_zero_heuristic"].exact == f["p_moon_optimal_for_moon"].exact
    assert f["p_zero_optimal"].exact < f["p_zero_heuristic"].exact  # the mean policy does not chase 0


def test_mean_choice_is_unique_so_p_zero_is_well_defined():
    """No roll has two different best choices for the mean (so tie-breaking cannot matter)."""
    turn = trois.mean_turn(5)
    for n in range(1, 6):
        for roll, _ in rolls(n).weights():
            values = list(turn.game.hint((0, roll)).values.values())
            assert values.count(min(values)) == 1


# -- the game protocol: whole games ------------------------------------------------------------------
def test_state_steps_and_hints():
    state = trois.initial_state()
    assert state.legal_actions() == ["roll"] and state.current_player() == 0
    assert state.hint().values == {"roll": trois.optimal_mean()}  # before the roll: the turn's value
    state = state.roll(dice=(6, 3, 1, 5, 3))
    assert state.rolled == (1, 3, 3, 5, 6) and state.left == 0
    hint = state.hint()
    assert hint.method == "exact" and hint.best == tuple(sorted(brute_mean_choice((6, 3, 1, 5, 3))))
    assert str(hint.best) == "set aside 3 3" and hint.best in state.legal_actions()
    assert hint.value == min(hint.values.values())
    assert hint.values[(1, 3, 3)] == 1 + brute_mean(2)
    assert set(hint.values) == set(state.legal_actions()) and len(hint.values) == len(trois.set_asides(state.rolled))
    with pytest.raises(ValueError, match="set aside"):
        state.set_aside((2,))
    with pytest.raises(ValueError, match="set aside"):
        state.set_aside(())
    with pytest.raises(ValueError, match="set aside"):
        state.roll(dice=(1, 1, 1, 1, 1))
    state = state.set_aside((3, 1, 3))
    assert state.kept == (1, 3, 3) and state.points == 1 and state.rolled is None and state.is_chance_node()
    state = state.roll(dice=(6, 6)).set_aside((6, 6))
    assert state.history == (trois.Finished(0, 0, (1, 3, 3, 6, 6)),) and state.history[0].score == 13
    assert state.current_player() == 1 and state.kept == () and state.scores() == [13, 0, 0]
    moon = trois.initial_state(trois.Rules(dice=2)).roll(dice=(6, 2))
    assert moon.hint(trois.Moon(2)).values == {(2, 6): 0, (6,): F(1, 6), (2,): 0}
    end = moon.set_aside((6,)).roll(dice=(6,)).set_aside((6,))
    assert end.is_terminal() and end.winner == 0 and end.returns() == [1, 0, 0]
    with pytest.raises(ValueError, match="over"):
        end.roll(dice=(1, 1))
    target = trois.initial_state(trois.Rules(dice=2)).roll(dice=(1, 4)).hint(trois.AtMost(2, 1))
    assert target.values == {(1, 4): 0, (1,): F(1, 6), (4,): 0}  # after the 1, only a 3 stays <= 1


# -- objectives: the win chance, a policy per objective ---------------------------------------
@cache
def brute_win(n: int, budget: int, sixes: bool) -> F:
    """Best P(the dice still to set aside add up to at most `budget`, or every die set aside is a 6)."""
    if n == 0:
        return F(int(budget >= 0 or sixes))
    return (
        sum(
            (
                max(brute_win(n - len(h), budget - points(h), sixes and set(h) == {6}) for h in position_choices(roll))
                for roll in product(range(1, 7), repeat=n)
            ),
            F(0),
        )
        / 6**n
    )


@pytest.mark.parametrize("need", [-3, -1, 0, 2, 9, 24])
def test_win_turn_against_brute_force(need):
    assert trois.win_turn(4, need).value() == brute_win(4, need, True)
    assert trois.Win(4, need).turn().value() == brute_win(4, need, True)


def test_win_needs_below_zero_are_the_moon_and_high_ones_are_sure():
    assert trois.Win(5, -1).turn().value() == trois.moon_turn(5).value()
    assert trois.Win(3, 18).turn().value() == 1
    moon = trois.initial_state(trois.Rules(dice=2)).roll(dice=(6, 2))
    assert moon.hint(trois.Win(2, -1)).values == moon.hint(trois.Moon(2)).values
    two = trois.initial_state(trois.Rules(dice=2)).roll(dice=(1, 4))
    assert two.hint(trois.Win(2, 1)).values == {(1, 4): 0, (1,): F(1, 6), (4,): 0}


def chase_the_moon(state):
    """Set aside every 6 while the moon lives; with no 6, or once it is lost, the least expected
    score (the brute-force choice)."""
    so_far, roll = state
    alive = so_far == 6 * (5 - len(roll))
    return (6,) * roll.count(6) if alive and 6 in roll else tuple(sorted(brute_mean_choice(roll)))


def test_goal_policies_reach_each_goal_and_break_ties_by_the_score():
    rules = trois.Rules()
    assert trois.score_distribution(rules, trois.LeastScore(5).policy()) == trois.score_distribution(rules)
    moon = trois.score_distribution(rules, trois.Moon(5).policy())
    assert moon[30] == brute_moon(5)
    assert moon == trois.score_distribution(rules, chase_the_moon)
    for target in (0, 5, 12):
        d = trois.score_distribution(rules, trois.AtMost(5, target).policy())
        assert d.prob(lambda s, target=target: s <= target) == trois.target_turn(5, target).value()
    d = trois.score_distribution(rules, trois.Win(5, 7).policy())
    assert d.prob(lambda s: s <= 7 or s == 30) == trois.win_turn(5, 7).value()
    sure = trois.score_distribution(rules, trois.AtMost(5, 30).policy())
    assert sure == trois.score_distribution(rules)  # every choice meets the target: the lowest score decides


def test_the_heuristic_distribution_is_the_human_rule_played_out():
    """`heuristic_distribution` (the page's second series, cached) is the score law under `heuristic`."""
    for dice in (1, 3):
        law = trois.heuristic_distribution(dice)
        assert law == trois.score_distribution(trois.Rules(dice=dice), trois.heuristic)
        assert law.mean() >= trois.optimal_mean(trois.Rules(dice=dice))
