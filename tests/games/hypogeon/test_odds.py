"""L'Hypogéon (RULES.md section 10) against independent computations written here:

- a turn's final total by enumerating every ordered sequence of dice (2d6, then 1d6 at a time);
- a round's points by enumerating every combination of the players' final totals and applying
  the rulebook's scoring literally (a sole 21: 2 points; else a sole best total: 1 point);
- best responses by maximising those expected points over k; the optimal rule of any shape
  against brute force over every stand/roll policy of a shrunk game (bust above 10);
- whole games by a dynamic programme over every seat's score (no symmetry used).
"""

from collections import Counter
from fractions import Fraction
from functools import cache
from itertools import combinations, product

import pytest

from nessus.games import hypogeon

F = Fraction


# -- a turn by enumerating dice sequences ----------------------------------------------------------
@cache
def brute_final(stand_at: int, limit: int = 21) -> dict[int, Fraction]:
    """{final total (0 = bust): probability}, over every ordered sequence of dice: the first
    roll's 36 ordered pairs, then each face in turn while below `stand_at` (sequences with the
    same running total share their continuations, memoised by total)."""

    @cache
    def from_total(total: int) -> tuple[tuple[int, Fraction], ...]:
        if total > limit:
            return ((0, F(1)),)
        if total >= stand_at:
            return ((total, F(1)),)
        out: Counter = Counter()
        for face in range(1, 7):
            for t, p in from_total(total + face):
                out[t] += p / 6
        return tuple(out.items())

    out: Counter = Counter()
    for a, b in product(range(1, 7), repeat=2):
        for t, p in from_total(a + b):
            out[t] += p / 36
    return dict(out)


@pytest.mark.parametrize("k", [2, 7, 12, 13, 16, 17, 19, 21])
def test_final_total_by_enumeration(k):
    brute = brute_final(k)
    assert dict(hypogeon.final_total(k).items()) == {t: p for t, p in brute.items() if p}
    assert hypogeon.p_bust(k) == brute.get(0, 0)
    assert hypogeon.p_21(k) == brute.get(21, 0)
    alive = {t: p for t, p in brute.items() if t}
    assert hypogeon.mean_if_not_bust(k) == sum(t * p for t, p in alive.items()) / sum(alive.values())


def test_standing_on_the_first_roll_never_busts():
    assert hypogeon.p_bust(2) == 0 and hypogeon.p_21(2) == 0 and hypogeon.mean_if_not_bust(2) == 7


# -- a round by enumerating the players' totals ----------------------------------------------------
def scores(totals: tuple[int, ...], limit: int = 21) -> list[int]:
    """The rulebook's scoring of one round (0 = bust)."""
    if totals.count(limit) == 1:
        return [2 if t == limit else 0 for t in totals]
    best = max(totals)
    if best == 0 or totals.count(best) > 1:
        return [0] * len(totals)
    return [1 if t == best else 0 for t in totals]


def brute_points(rules_per_seat: tuple[int, ...]) -> list[Fraction]:
    """Each seat's expected points in one round, seat i standing at rules_per_seat[i]."""
    dists = [brute_final(k) for k in rules_per_seat]
    out = [F(0)] * len(dists)
    for combo in product(*(d.items() for d in dists)):
        p = F(1)
        for _, q in combo:
            p *= q
        for i, s in enumerate(scores(tuple(t for t, _ in combo))):
            out[i] += p * s
    return out


@pytest.mark.parametrize("k,opp,players", [(17, 17, 2), (19, 17, 2), (15, 18, 3), (20, 20, 3), (21, 12, 4)])
def test_points_by_enumeration(k, opp, players):
    assert hypogeon.points(k, opp, players) == brute_points((k,) + (opp,) * (players - 1))[0]


@cache
def brute_best_response(opp: int, players: int) -> int:
    values = {k: brute_points((k,) + (opp,) * (players - 1))[0] for k in range(2, 22)}
    return min(k for k, v in values.items() if v == max(values.values()))


@pytest.mark.parametrize("opp,players", [(17, 2), (12, 2), (20, 2), (17, 3), (21, 3)])
def test_best_stand_at_by_enumeration(opp, players):
    rules = hypogeon.Rules(stand_at=opp, players=players)
    assert hypogeon.report(rules).figures["best_stand_at"].exact == brute_best_response(opp, players)


def test_equilibria_two_and_three_players():
    """A symmetric equilibrium in stand-at rules is a k that is its own best response; the module
    also checks rules of any shape, so its list can only be shorter."""
    for players in (2, 3):
        by_thresholds = [k for k in range(2, 22) if brute_best_response(k, players) == k]
        assert hypogeon.equilibria(players) == by_thresholds
    assert hypogeon.equilibria(3) == [20] and hypogeon.equilibria(2) == []


# -- the optimal rule of any shape, shrunk ---------------------------------------------------------
LIMIT = 10


def policy_value(
    stand: frozenset[int],
    opponents: dict[int, Fraction],
    count: int,
    limit: int = LIMIT,
    start: dict[int, Fraction] | None = None,
) -> Fraction:
    """Expected points of 'stand on the totals in `stand`, else roll' (bust above `limit`), from
    the totals `start` (default: the first 2d6 roll)."""
    reach: Counter = Counter()
    if start is None:
        for a, b in product(range(1, 7), repeat=2):
            reach[a + b] += F(1, 36)
    else:
        reach.update(start)
    value = F(0)
    for t in range(2, limit + 7):
        p = reach.pop(t, 0)
        if not p or t > limit:
            continue
        if t in stand:
            below = sum((q for u, q in opponents.items() if u < t), F(0))
            value += p * (2 * (1 - opponents.get(limit, 0)) ** count if t == limit else below**count)
        else:
            for face in range(1, 7):
                reach[t + face] += p / 6
    return value


def best_after_rolling(t: int, opponents: dict[int, Fraction], count: int, limit: int) -> Fraction:
    """The best expected points after rolling one die from total t, over every policy."""
    later = range(t + 1, limit + 1)
    start = {t + f: F(1, 6) for f in range(1, 7)}
    return max(
        policy_value(frozenset(s), opponents, count, limit, start)
        for r in range(len(later) + 1)
        for s in combinations(later, r)
    )


@pytest.mark.parametrize("opp,count", [(6, 1), (8, 1), (9, 2), (10, 1)])
def test_optimal_rule_against_every_policy(opp, count):
    opponents = brute_final(opp, LIMIT)
    totals = range(2, LIMIT + 1)
    best = max(
        policy_value(frozenset(s), opponents, count) for r in range(len(totals) + 1) for s in combinations(totals, r)
    )
    game = hypogeon.optimal_rule(hypogeon.final_total(opp, LIMIT), count, LIMIT)
    assert game.value("start") == best
    for t in totals:
        hint = game.hint(t)
        assert hint.values["stand"] == policy_value(frozenset({t}), opponents, count, start={t: F(1)})
        assert hint.values["roll"] == best_after_rolling(t, opponents, count, LIMIT)


def test_optimal_rule_is_a_threshold_at_full_size():
    """Against every k and 1 to 9 opponents the optimum stands exactly from best_stand_at on."""
    for players in (2, 3, 6, 10):
        for k in (2, 12, 17, 20, 21):
            best, value = hypogeon.best_response(k, players)
            assert hypogeon.stand_totals(k, players) == tuple(range(best, 22))
            assert hypogeon.optimal_points(k, players) == value


def test_best_response_table():
    table = hypogeon.best_response_table(3)
    assert table.height == 20
    assert table.filter(table["equilibrium"])["opponents_stand_at"].to_list() == [20]
    assert table["optimal_is_stand_at"].all()


# -- whole games -----------------------------------------------------------------------------------
def brute_game(
    rules_per_seat: tuple[int, ...], target: int, start: tuple[int, ...] | None = None
) -> tuple[list[Fraction], Fraction]:
    """P(each seat wins), E[rounds], by a DP over all seats' scores (from `start`, default all 0)
    with the round's outcomes enumerated (who scores how much), rounds without a score summed
    geometrically."""
    dists = [brute_final(k) for k in rules_per_seat]
    n = len(dists)
    events: Counter = Counter()
    for combo in product(*(d.items() for d in dists)):
        p = F(1)
        for _, q in combo:
            p *= q
        s = scores(tuple(t for t, _ in combo))
        events[next(((i, v) for i, v in enumerate(s) if v), None)] += p
    none = events.pop(None, F(0))

    @cache
    def solve(score: tuple[int, ...]) -> tuple[tuple[Fraction, ...], Fraction]:
        win, rounds = [F(0)] * n, 1 / (1 - none)
        for (i, v), p in events.items():
            q = p / (1 - none)
            nxt = score[:i] + (score[i] + v,) + score[i + 1 :]
            if nxt[i] >= target:
                win[i] += q
                continue
            w, r = solve(nxt)
            win = [a + q * b for a, b in zip(win, w)]
            rounds += q * r
        return tuple(win), rounds

    w, r = solve(start or (0,) * n)
    return list(w), r


@pytest.mark.parametrize(
    "players,stand_at,target,seat1",
    [(2, 17, 5, "best"), (3, 16, 3, "best"), (4, 19, 2, "same"), (3, 20, 1, "best"), (2, 21, 4, "same")],
)
def test_game_odds_against_the_full_dp(players, stand_at, target, seat1):
    rules = hypogeon.Rules(stand_at=stand_at, players=players, target=target, seat1=seat1)
    wins, rounds = hypogeon.game_odds(rules)
    bw, br = brute_game(hypogeon.seat_rules(rules), target)
    assert wins == bw and rounds == br
    assert sum(wins) == 1


@pytest.mark.parametrize(
    "players,stand_at,target,seat1,scores",
    [
        (2, 17, 5, "best", (3, 4)),
        (2, 17, 5, "same", (0, 4)),
        (3, 16, 3, "best", (2, 0, 1)),
        (4, 19, 4, "same", (0, 3, 1, 2)),
        (3, 20, 2, "best", (1, 1, 1)),
        (4, 18, 3, "best", (0, 2, 2, 1)),
    ],
)
def test_game_odds_from_a_position_against_the_full_dp(players, stand_at, target, seat1, scores):
    rules = hypogeon.Rules(stand_at=stand_at, players=players, target=target, seat1=seat1)
    wins, rounds = hypogeon.game_odds_from(rules, scores)
    bw, br = brute_game(hypogeon.seat_rules(rules), target, scores)
    assert wins == bw and rounds == br
    assert sum(wins) == 1


def test_game_odds_from_the_start_and_bad_positions():
    for rules in (hypogeon.Rules(), hypogeon.Rules(players=5, stand_at=15, target=4, seat1="same")):
        assert hypogeon.game_odds_from(rules, (0,) * rules.players) == hypogeon.game_odds(rules)
    with pytest.raises(ValueError, match="the game is not over"):
        hypogeon.game_odds_from(hypogeon.Rules(), (5, 0))
    with pytest.raises(ValueError, match="scores must be 2 numbers"):
        hypogeon.game_odds_from(hypogeon.Rules(), (0, 0, 0))


def test_same_rule_for_everyone_is_fair():
    wins, _ = hypogeon.game_odds(hypogeon.Rules(players=4, seat1="same"))
    assert wins == [F(1, 4)] * 4


def test_report_figures_and_big_fractions():
    rep = hypogeon.report()
    assert rep.rules == {"stand_at": 17, "players": 2, "target": 5, "seat1": "best"}
    names = {"p_bust", "p_21", "mean_if_not_bust", "best_stand_at", "p_win_seat_1", "p_win_seat_2", "expected_rounds"}
    assert names <= set(rep.figures)
    assert all(f.exact is not None for f in rep.figures.values())
    big = hypogeon.report(hypogeon.Rules(players=10)).figures
    wins, rounds = hypogeon.game_odds(hypogeon.Rules(players=10))
    f = big["p_win_seat_1"]
    assert f.exact is None and abs(f.value - float(wins[0])) < 1e-15 and f.ci[1] - f.ci[0] < 1e-15
    big_text = hypogeon.report(hypogeon.Rules(players=10, target=10))
    assert big_text.to_text() and big_text.to_json()


def test_turn_hint_values_in_points():
    """At 16 against two opponents standing at 17: standing is worth the points of 16, rolling
    the best continuation over every policy (brute force over the totals 17 to 21)."""
    rules = hypogeon.Rules(stand_at=17, players=3)
    state = hypogeon.initial_state(rules).roll(dice=(6, 6)).roll(dice=(4,))
    hint = state.hint()
    opponents = brute_final(17)
    assert hint.values["stand"] == policy_value(frozenset({16}), opponents, 2, 21, {16: F(1)})
    assert hint.values["roll"] == best_after_rolling(16, opponents, 2, 21)
    assert hint.best == max(hint.values, key=hint.values.get)
    start = hypogeon.initial_state(rules).hint()
    assert start.values == {"roll": hypogeon.optimal_points(17, 3)}
    with pytest.raises(ValueError, match="chance"):
        hypogeon.initial_state(rules).apply("roll").hint()


def test_stand_from_and_reply_odds():
    """`stand_from` is the threshold of the optimal rule (None never happens at full size);
    `reply_odds` is seat 1's chance at its best reply and like the others, from the scores."""
    assert hypogeon.stand_from(17, 2) == hypogeon.best_response(17, 2)[0] == 19
    rules = hypogeon.Rules(players=3, target=3, seat1="same")
    best, mine, same, left = hypogeon.reply_odds(rules, (1, 0, 2))
    wins, rounds = hypogeon.game_odds_from(hypogeon.Rules(players=3, target=3), (1, 0, 2))
    assert (best, mine, left) == (hypogeon.best_response(17, 3)[0], wins[0], rounds)
    assert same == hypogeon.game_odds_from(rules, (1, 0, 2))[0][0]


def test_replies_are_every_stand_at_rule_and_the_best_is_their_top():
    """`replies` (the page's chart of your points for every rule j) and `best_response` agree."""
    values = hypogeon.replies(17, 3)
    assert sorted(values) == list(range(2, 22)) and values[18] == hypogeon.points(18, 17, 3)
    best, top = hypogeon.best_response(17, 3)
    assert top == max(values.values()) == values[best]
