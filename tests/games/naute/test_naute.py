"""Le Naute (RULES.md section 3) against independent computations written here:

- brute-force expectimax over ORDERED dice: every ordered roll, ship/captain/crew found by
  scanning positions, every subset of cargo positions kept (sticky, free and both rules), for 1,
  2 and 3 rolls and several objectives (expected cargo, P(cargo > t), P(qualify));
- the first roll by inclusion-exclusion: P(6, 5 and 4 among 5 dice) = 205/1296;
- small cargo decisions worked by hand;
- a whole 2-player, 1-expedition game, exactly from the two players' cargo distributions.
"""

from collections import Counter
from fractions import Fraction
from functools import cache
from itertools import product

import numpy as np
import pytest
from checks import assert_rejected, bad_cases, coverage
from hypothesis import given, settings
from hypothesis import strategies as st

from nessus.games import naute
from nessus.play import play

F = Fraction
RULES = ("sticky", "free", "both")


# -- independent references ----------------------------------------------------------------------
def board(aboard: int, roll: tuple) -> tuple[int, tuple]:
    """Scan the positions for the 6, then the 5, then the 4: (aboard, the dice left)."""
    used = [False] * len(roll)
    for face in (6, 5, 4)[aboard:]:
        pos = next((i for i, d in enumerate(roll) if d == face and not used[i]), None)
        if pos is None:
            break
        used[pos] = True
        aboard += 1
    return aboard, tuple(d for d, u in zip(roll, used) if not u)


def brute(payoff, rule: str, rolls: int = 3, cargo_policy=None) -> Fraction:
    """E[payoff(cargo)] over ordered dice, the cargo played optimally (or by `cargo_policy`,
    a function (left, kept, free) -> mask of the cargo positions to keep, or None to stop)."""

    @cache
    def cargo(left: int, kept: tuple, free: tuple) -> Fraction:
        stop = F(payoff(sum(kept) + sum(free)))
        if left == 0 or not free:
            return stop
        dice = kept + free

        def reroll(mask: int) -> Fraction:
            chosen = tuple(d for i, d in enumerate(dice) if mask >> i & 1)
            n = len(dice) - len(chosen)
            return sum((cargo(left - 1, chosen, new) for new in product(range(1, 7), repeat=n)), F(0)) / 6**n

        if cargo_policy is not None:
            mask = cargo_policy(left, kept, free)
            return stop if mask is None else reroll(mask)
        best = stop
        for mask in range(2 ** len(dice) - 1):
            kept_mask = (1 << len(kept)) - 1
            if rule == "sticky" and mask & kept_mask != kept_mask:
                continue
            if rule == "both" and mask:
                continue
            best = max(best, reroll(mask))
        return best

    @cache
    def hunt(left: int, aboard: int) -> Fraction:
        if left == 0:
            return F(payoff(0))
        n = 5 - aboard
        total = F(0)
        for roll in product(range(1, 7), repeat=n):
            now, rest = board(aboard, roll)
            total += cargo(left - 1, (), rest) if now == 3 else hunt(left - 1, now)
        return total / 6**n

    return hunt(rolls, 0)


def keep_four_or_more(left, kept, free):
    """The heuristic for the brute force: keep the free cargo dice of 4 or more."""
    low = [i for i, d in enumerate(free) if d < 4]
    if not low:
        return None
    return (1 << len(kept)) - 1 | sum(1 << (len(kept) + i) for i, d in enumerate(free) if d >= 4)


# -- qualifying ---------------------------------------------------------------------------------------
def test_set_aside_in_order():
    assert naute.set_aside(0, (6, 5, 4, 2, 3)) == (3, (2, 3))
    assert naute.set_aside(0, (5, 4, 4, 1, 2)) == (0, ())  # no ship: neither captain nor crew
    assert naute.set_aside(0, (6, 4, 4, 1, 2)) == (1, ())  # a ship but no captain: the 4 waits
    assert naute.set_aside(1, (5, 5, 4, 6)) == (3, (5, 6))
    assert naute.set_aside(2, (4, 4, 4)) == (3, (4, 4))


def test_first_roll_by_inclusion_exclusion():
    """P(a 6, a 5 and a 4 among 5 dice) = 1 - 3 (5/6)^5 + 3 (4/6)^5 - (3/6)^5 = 1230/7776."""
    p = 1 - 3 * F(5, 6) ** 5 + 3 * F(4, 6) ** 5 - F(3, 6) ** 5
    assert p == F(205, 1296) == naute.p_qualify_by_roll()[0]


@pytest.mark.parametrize("rolls", [1, 2, 3])
def test_p_qualify_by_roll_against_ordered_brute_force(rolls):
    assert naute.p_qualify_by_roll(rolls)[-1] == brute(lambda c: int(c > 0), "sticky", rolls)
    assert naute.p_qualify_by_roll(3)[:rolls] == naute.p_qualify_by_roll(rolls)


def test_report_figures_are_the_brute_force_values():
    figures = naute.report().figures
    by_roll = [brute(lambda c: int(c > 0), "sticky", k) for k in (1, 2, 3)]
    assert [figures[f"p_qualify_by_roll_{k}"].exact for k in (1, 2, 3)] == by_roll
    assert figures["p_qualify"].exact == by_roll[-1]
    mean = brute(lambda c: c, "sticky")
    assert figures["optimal_cargo_mean"].exact == mean
    assert figures["optimal_cargo_mean_when_qualified"].exact == mean / by_roll[-1]
    assert figures["heuristic_cargo_mean"].exact == brute(lambda c: c, "sticky", cargo_policy=keep_four_or_more)
    assert figures["heuristic_cargo_mean"].exact < mean


# -- optimal play against brute force ------------------------------------------------------------------
@pytest.mark.parametrize("rule", RULES)
@pytest.mark.parametrize("rolls", [1, 2, 3])
def test_expected_cargo_against_ordered_brute_force(rule, rolls):
    value = naute.game(naute.CargoMean(), rule, rolls).value(naute.start(rolls))
    assert value == brute(lambda c: c, rule, rolls)


@settings(max_examples=12, deadline=None)
@given(st.integers(-1, 12), st.sampled_from(RULES), st.integers(2, 3))
def test_p_beat_against_ordered_brute_force(target, rule, rolls):
    value = naute.game(naute.Above(target), rule, rolls).value(naute.start(rolls))
    assert value == brute(lambda c: int(c > target), rule, rolls)
    if rolls == 3:
        assert naute.p_beat(target, naute.Rules(cargo_holds=rule)) == value


def test_p_beat_edges_and_order():
    p = [naute.p_beat(t) for t in range(-1, 13)]
    assert p == sorted(p, reverse=True)
    assert p[0] == 1  # even staying in port (0) beats -1
    assert p[1] == p[2] == naute.p_qualify_by_roll()[-1] > p[3]  # every cargo is at least 2
    assert p[-1] == 0


def test_both_rule_loses_expected_cargo_and_free_gains_nothing():
    """Free rerolls of kept dice are never worth it for the expected cargo; forcing both dice
    to be rerolled together costs."""
    sticky, free, both = (naute.optimal_cargo_mean(naute.Rules(cargo_holds=r)) for r in RULES)
    assert free == sticky > both


def test_cargo_decisions_by_hand():
    """One roll left. 4-4: stop 8, keep a 4 and roll 4 + 7/2, roll both 7. 6-1: keep the 6."""
    g = naute.game(naute.CargoMean())
    hint = g.hint(("cargo", 1, (), (4, 4)))
    assert hint.values == {"stop": 8, (4,): F(15, 2), (): 7} and hint.best == "stop"
    hint = g.hint(("cargo", 1, (), (1, 6)))
    assert hint.values == {"stop": 7, (1,): F(9, 2), (6,): F(19, 2), (): 7} and hint.best == (6,)
    two = g.hint(("cargo", 2, (6,), (1,)))  # keep the 6; the 1 may be rolled twice: 6 + 17/4
    assert two.values == {"stop": 7, (6,): 6 + F(17, 4)}


def test_score_distribution_and_policies():
    d = naute.score_distribution()
    assert d.mean() == naute.optimal_cargo_mean()
    assert d[0] == 1 - naute.p_qualify_by_roll()[-1] and d[1] == 0 and max(d.outcomes) == 12
    h = naute.score_distribution(policy=naute.keep_at_least(4))
    assert h.mean() == naute.report().figures["heuristic_cargo_mean"].exact
    chase = naute.chase_policy(9)
    beat9 = naute.score_distribution(policy=chase)
    assert beat9.prob(lambda c: c > 9) == naute.p_beat(9)
    assert beat9.mean() <= d.mean()
    assert chase(("cargo", 2, (), (5, 5))) == "stop"  # 10 already beats 9
    assert chase(("cargo", 2, (), (4, 5))) == (5,)  # 9 does not: keep the 5, two tries for a 5 or 6
    assert naute.beat_policy(9)(("cargo", 1, (), (6, 4))) == "stop"


def test_legal_replaces_a_partial_keep_under_both():
    policy = naute.legal(naute.keep_at_least(4), "both")
    assert policy(("cargo", 1, (), (6, 1))) == ()
    assert policy(("cargo", 1, (), (6, 5))) == "stop"
    assert policy(("hunt", 2, 1)) == "roll"


# -- whole games -----------------------------------------------------------------------------------------
def one_expedition_duel(rule: str) -> dict[str, Fraction]:
    """Two players, one expedition: seat 1 chases 0 (every cargo beats it), seat 2 chases seat 1's
    cargo s (P(cargo > s) first, then the expected cargo; for s = 12 the expected cargo)."""
    rules = naute.Rules(cargo_holds=rule)
    first = naute.score_distribution(rules, naute.chase_policy(0, rules))
    second = {
        s: naute.score_distribution(rules, naute.chase_policy(s, rules) if s < 12 else None) for s in first.outcomes
    }
    win2 = sum((p * second[s].prob(lambda c, s=s: c > s) for s, p in first.items()), F(0))
    tie = sum((p * second[s][s] for s, p in first.items()), F(0))
    return {"p_seat_1_wins_2_players": 1 - win2 - tie, "p_seat_2_wins_2_players": win2, "p_shared_first_2_players": tie}


# Fixed seeds: deterministic. SEED = 0 is one where every interval below covers (checked when
# written); the coverage test asserts the intervals' coverage over 40 replications.
SEED = 0


@pytest.mark.parametrize("rule", RULES)
def test_simulation_agrees_with_exact(rule):
    rules = naute.Rules(cargo_holds=rule, expeditions=1, players=2)
    exact = {k: f.value for k, f in naute.report(rules).figures.items()} | {
        k: float(v) for k, v in one_expedition_duel(rule).items()
    }
    sim = naute.simulate(rules, trials=50_000, seed=SEED).figures
    common = set(exact) & set(sim)
    assert len(common) == 9
    for name in common:
        lo, hi = sim[name].ci
        assert lo <= exact[name] <= hi, (name, exact[name], sim[name].ci)


def test_simulation_coverage():
    rules = naute.Rules(expeditions=1, players=2)
    exact = {k: f.value for k, f in naute.report(rules).figures.items()} | {
        k: float(v) for k, v in one_expedition_duel("sticky").items()
    }
    covered, need = coverage(lambda seed: naute.simulate(rules, trials=2000, seed=seed).figures, exact)
    assert len(covered) >= 9
    assert all(c >= need for c in covered.values()), covered


def seat_wins_by_enumeration(rules) -> tuple[list[float], float]:
    """P(each seat has the highest total alone) and P(a shared first place), by carrying the
    distribution of every player's total through the game, each expedition's cargo drawn from
    the core solver's exact distribution under the policy the player uses. Floats."""
    n, last = rules.players, rules.expeditions - 1
    pmf = {None: naute.score_distribution(rules)} | {
        t: naute.score_distribution(rules, naute.chase_policy(t, rules)) for t in range(12)
    }
    pmf = {k: [(c, float(p)) for c, p in d.items()] for k, d in pmf.items()}
    joint = {(0,) * n: 1.0}
    for e in range(rules.expeditions):
        for seat in range(n):
            new: dict[tuple, float] = {}
            for totals, p in joint.items():
                t = max(totals[:seat] + totals[seat + 1 :]) - totals[seat]
                for c, q in pmf[t if e == last and 0 <= t < 12 else None]:
                    after = totals[:seat] + (totals[seat] + c,) + totals[seat + 1 :]
                    new[after] = new.get(after, 0.0) + p * q
            joint = new
    wins, shared = [0.0] * n, 0.0
    for totals, p in joint.items():
        best = max(totals)
        if totals.count(best) > 1:
            shared += p
        else:
            wins[totals.index(best)] += p
    return wins, shared


def test_whole_games_match_the_enumeration():
    """Three players, two expeditions: the simulated seats against the enumeration, 40
    replications of 2000 games, each interval covering often enough."""
    rules = naute.Rules(players=3, expeditions=2)
    wins, shared = seat_wins_by_enumeration(rules)
    assert sum(wins) + shared == pytest.approx(1, abs=1e-12)
    assert wins[0] < wins[1] < wins[2]  # later seats chase with more knowledge
    exact = {f"p_seat_{k + 1}_wins_3_players": w for k, w in enumerate(wins)} | {"p_shared_first_3_players": shared}
    covered, need = coverage(lambda seed: naute.simulate(rules, trials=2000, seed=seed).figures, exact)
    assert len(covered) == 4
    assert all(c >= need for c in covered.values()), covered


def test_enumeration_agrees_with_the_exact_duel():
    wins, shared = seat_wins_by_enumeration(naute.Rules(players=2, expeditions=1))
    duel = one_expedition_duel("sticky")
    assert wins[0] == pytest.approx(float(duel["p_seat_1_wins_2_players"]), abs=1e-12)
    assert shared == pytest.approx(float(duel["p_shared_first_2_players"]), abs=1e-12)


@pytest.mark.parametrize("rule", RULES)
def test_the_roll_table_is_the_solver_chance(rule):
    """Counting the 6**k ordered codes of each after-state by the state they lead to gives the
    core game's chance weights (every roll of the simulation is a fair roll of the dice)."""
    m = naute.machine(rule)
    g = naute.game(naute.CargoMean(), rule)
    index = {s: i for i, s in enumerate(m.states)}
    for i, a in enumerate(m.afters):
        if a[0] in ("stop", "stay"):
            assert m.mod[i] == 1 and m.states[m.row(i)[0]] == ("done", a[1])
            continue
        counted = Counter(m.row(i).tolist())
        expected: Counter = Counter()
        for nxt, w in g.chance(a):
            expected[index[("done", naute.score(nxt)) if nxt[1] == 0 else nxt]] += w
        assert counted == expected, a


def test_the_policy_table_and_exact_play_through_the_tables():
    """The tables give each policy's action in every cargo state, and pushing exact
    probabilities through them reproduces the exact cargo distribution and P(qualify by roll)."""
    rules = naute.Rules()
    m = naute.machine("sticky")
    for j, state in enumerate(m.states):
        if state[0] != "cargo":
            continue
        for column, policy in [
            (naute.MEAN_COLUMN, naute.optimal(naute.CargoMean(), rules)),
            (1 + 7, naute.chase_policy(7, rules)),
        ]:
            a = policy(state)
            assert m.afters[m.policy[column, j]] == (
                ("stop", naute.score(state)) if a == "stop" else ("keep", state[1], a)
            )
    p = {m.states[int(s)]: F(c, 6**5) for s, c in Counter(m.row(m.start).tolist()).items()}
    crew = [sum(q for s, q in p.items() if s[0] == "cargo")]
    for _ in range(2):
        nxt: Counter = Counter()
        for s, q in p.items():
            a = m.policy[naute.MEAN_COLUMN, m.states.index(s)]
            for s_next in m.row(a).tolist():
                nxt[m.states[s_next]] += q / int(m.mod[a])
        p = nxt
        crew.append(sum(q for s, q in p.items() if s[0] == "cargo" or (s[0] == "done" and s[1] > 0)))
    assert crew == naute.p_qualify_by_roll()
    assert all(s[0] == "done" for s in p)
    assert {s[1]: q for s, q in p.items()} == dict(naute.score_distribution().items())


# -- the playable game (the protocol State) ------------------------------------------------------
def test_an_expedition_step_by_step():
    e = naute.initial_state()
    assert e.hint().values.keys() == {"roll"}
    e = e.roll(dice=(6, 4, 4, 1, 2))
    assert e.aboard == 1 and e.cargo == 0 and e.left == 2
    assert e.hint().best == "roll"
    with pytest.raises(ValueError, match="ship, captain and crew first"):
        e.keep(())
    e = e.roll(dice=(5, 4, 3, 6))
    assert e.crew and e.free == (3, 6) and e.cargo == 9 and e.left == 1
    hint = e.hint()
    assert hint.best == (6,) and hint.values[(6,)] == 6 + F(7, 2) and str(hint.best) == "keep 6"
    assert set(hint.values) == set(e.legal_actions()) and hint.method == "exact"
    e = e.keep((6,))
    assert e.is_chance_node()
    e = e.roll(dice=(2,))
    assert e.cargos == (8,) and e.seat == 1 and e.left == 3
    assert e.scores()[0] == [8] and e.totals() == [8, 0, 0, 0]


def test_an_expedition_that_stays_in_port_scores_zero():
    e = naute.last_expedition(5)
    assert e.target == 5 and e.objective() == naute.Above(5)
    for roll in [(1, 1, 1, 1, 1), (5, 4, 3, 2, 1), (2, 2, 2, 2, 2)]:
        e = e.roll(dice=roll)
    assert e.is_terminal() and e.cargos == (5, 0) and e.returns() == [1, 0]
    with pytest.raises(ValueError, match="over"):
        e.hint()


def test_expedition_rules_of_keeping():
    e = naute.last_expedition(9).roll(dice=(6, 5, 4, 1, 3))
    assert e.objective() == naute.Above(9)
    assert e.hint().values == naute.game(naute.Above(9)).hint(("cargo", 2, (), (1, 3))).values
    e = e.keep((3,)).roll(dice=(6,))
    with pytest.raises(ValueError, match="allowed keeps"):
        e.keep((6,))  # sticky: the 3 stays kept
    assert e.stop().cargos == (9, 9) and e.stop().returns() == [F(1, 2), F(1, 2)]
    free = naute.initial_state(naute.Rules(cargo_holds="free")).roll(dice=(6, 5, 4, 1, 3)).keep((3,)).roll(dice=(6,))
    assert free.keep((6,)).kept == (6,)
    both = naute.initial_state(naute.Rules(cargo_holds="both")).roll(dice=(6, 5, 4, 1, 3))
    with pytest.raises(ValueError, match="allowed keeps"):
        both.keep((3,))
    with pytest.raises(ValueError, match="give rng or dice"):
        naute.initial_state().roll()
    rng = np.random.default_rng(0)
    e = naute.initial_state()
    while not e.cargos:
        e = e.stop() if e.crew and e.free and not e.rolling else e.roll(rng)
    assert 0 <= e.cargos[0] <= 12


def test_the_optimal_policy_chases_on_the_last_expedition():
    optimal = naute.policies()["optimal"]
    e = naute.last_expedition(10).roll(dice=(4, 5, 5, 5, 6))  # cargo 5 5, two rolls left: 10 does not beat 10
    assert optimal(e) == naute.chase_policy(10)(e.node)
    first = naute.initial_state().roll(dice=(4, 5, 5, 5, 6))
    assert first.target is None and optimal(first) == naute.optimal(naute.CargoMean())(first.node)
    assert naute.policies()["keep_at_least"](first) == "stop"


def test_fast_simulator_agrees_with_the_generic_loop():
    """game_kernel's P(seat k has the highest total alone) against whole games played by
    `nessus.play.play` with the protocol's "optimal" policy: within 99.9% intervals of both."""
    rules = naute.Rules(players=2, expeditions=2)
    n_fast, n_loop, z = 20_000, 600, 3.29
    fast = naute.game_kernel(naute.machine(rules.cargo_holds), rules, np.random.default_rng(4), n_fast)
    rng = np.random.default_rng(5)
    policy = naute.policies(rules)["optimal"]
    ends = [play(naute.initial_state(rules), [policy] * 2, rng) for _ in range(n_loop)]
    for seat in range(2):
        a = float(fast[f"p_seat_{seat + 1}_wins_2_players"].mean())
        b = sum(end.returns()[seat] == 1 for end in ends) / n_loop
        se = (a * (1 - a) / n_fast + b * (1 - b) / n_loop) ** 0.5
        assert abs(a - b) <= z * se, (seat, a, b)


# -- rules --------------------------------------------------------------------------------------------
RANGES = {"expeditions": (1, 6), "players": (2, 10)}


@settings(max_examples=40, deadline=None)
@given(bad_cases(RANGES))
def test_rules_reject_bad_values(case):
    assert_rejected(naute.Rules, RANGES, case)


@pytest.mark.parametrize("value", ["loose", "", None, 1])
def test_rules_reject_a_bad_cargo_rule(value):
    with pytest.raises(ValueError, match="cargo_holds must be one of sticky, free, both"):
        naute.Rules(cargo_holds=value)


def test_rules_from_strings():
    rules = naute.Rules.from_strings({"expeditions": "6", "players": "2", "cargo_holds": "both"})
    assert (rules.expeditions, rules.players, rules.cargo_holds) == (6, 2, "both")


@pytest.mark.parametrize(
    "fields, message",
    [
        ({"left": 4}, "left must be an integer from 0 to 3"),
        ({"left": 2, "aboard": 4}, "aboard must be an integer from 0 to 3"),
        ({"aboard": 2}, "aboard must be 0 before the first roll"),
        ({"left": 1, "aboard": 2, "kept": (6,)}, "kept and free must be empty"),
        ({"left": 1, "aboard": 3, "kept": (6, 6), "free": (1,)}, "at most 2 dice"),
        ({"left": 1, "aboard": 3, "free": (7,)}, "at most 2 dice from 1 to 6"),
        ({"cargos": (13,)}, "cargos must be integers from 0 to 12"),
    ],
)
def test_impossible_expeditions_are_refused(fields, message):
    with pytest.raises(ValueError, match=message):
        naute.State(naute.Rules(), **fields)
