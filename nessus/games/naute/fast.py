"""Le Naute by Monte Carlo: expeditions and whole games as table lookups (`machine`), vectorised
over many trials, and `simulate` (95% confidence intervals).

Whole games: `players` players, `expeditions` expeditions in turn; the highest total cargo wins.
Every expedition is played to maximise the expected cargo except the last, where a player who
can still overtake maximises P(own total > the best other total known so far): the others'
totals after their last expedition for earlier seats, after the one before for later seats
(`chase_policy`). Equal highest totals are reported as a shared first place.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache, partial
from typing import Any

import numpy as np

from nessus import montecarlo
from nessus.dice import ordered_rolls
from nessus.games.naute.expedition import Node, after_roll, cargo_states, score
from nessus.games.naute.policies import CargoMean, chase_policy, keep_at_least, legal, optimal
from nessus.games.naute.rules import CARGO_DICE, DICE, NAME, ROLLS, SIDES, TOP, Rules
from nessus.report import Figure, Report

MEAN_COLUMN, HEURISTIC_COLUMN = 0, TOP + 1  # columns 1 + t: chase_policy(t), t = 0..TOP - 1
ROLL_CODES = SIDES**DICE  # k dice rolled = a uniform code in [0, 6**k) (base-6 digits, one per die)


@dataclass(frozen=True)
class Machine:
    """Expeditions as table lookups. `states`: every state right after a roll, a finished
    expedition being ("done", cargo); `afters`: what is rolled next ("hunt", left, aboard),
    ("keep", left, kept) or nothing (("stop", cargo), ("stay", cargo) once done).
    `after[offset[a] + code % mod[a]]` is the state the roll `code` leads to (`mod[a]`: 6 to the
    number of dice rolled); `policy[column, state]` the after-state each policy chooses
    (columns: MEAN_COLUMN, 1 + t for chase_policy(t), HEURISTIC_COLUMN)."""

    states: tuple[Node, ...]
    afters: tuple[tuple, ...]
    after: np.ndarray
    offset: np.ndarray
    mod: np.ndarray
    policy: np.ndarray
    cargo: np.ndarray
    crew: np.ndarray
    start: int

    def row(self, a: int) -> np.ndarray:
        """The states an after-state leads to, one per roll code."""
        return self.after[self.offset[a] : self.offset[a] + self.mod[a]]


def _finished(state: Node) -> Node:
    """A state with no roll left, as ("done", cargo)."""
    return ("done", score(state)) if state[1] == 0 else state


@cache
def machine(cargo_holds: str = "sticky") -> Machine:
    """The roll and policy tables under a cargo rule (cached)."""
    done = [("done", c) for c in [0, *range(2, TOP + 1)]]
    hunts = [("hunt", left, a) for left in range(1, ROLLS) for a in range(3)]
    states = tuple(hunts + cargo_states(cargo_holds) + done)
    afters: tuple[tuple[Any, ...], ...] = tuple(
        [("hunt", left, a) for left in range(1, ROLLS + 1) for a in range(3)]
        + [("keep", left, k) for left in range(1, ROLLS) for k in [(), *((f,) for f in range(1, SIDES + 1))]]
        + [("stop", c) for _, c in done]
        + [("stay", c) for _, c in done]
    )
    index = {s: i for i, s in enumerate(states)}
    after: list[int] = []
    offset, mod = [], []
    for a in afters:
        offset.append(len(after))
        if a[0] in ("stop", "stay"):
            mod.append(1)
            after.append(index[("done", a[1])])
            continue
        k = DICE - a[2] if a[0] == "hunt" else CARGO_DICE - len(a[2])
        mod.append(SIDES**k)
        after.extend(
            index[_finished(after_roll(a, tuple(sorted(roll)), cargo_holds))] for roll in ordered_rolls(k).tolist()
        )
    rules = Rules(cargo_holds=cargo_holds)
    policies = (
        [optimal(CargoMean(), rules)]
        + [chase_policy(t, rules) for t in range(TOP)]
        + [legal(keep_at_least(4), cargo_holds)]
    )
    where: dict[tuple[Any, ...], int] = {a: i for i, a in enumerate(afters)}
    policy = np.zeros((len(policies), len(states)), dtype=np.int16)
    for j, s in enumerate(states):
        for c, pol in enumerate(policies):
            if s[0] == "done":
                policy[c, j] = where[("stay", s[1])]
            elif s[0] == "hunt":
                policy[c, j] = where[s]
            else:
                action = pol(s)
                policy[c, j] = where[("stop", score(s)) if action == "stop" else ("keep", s[1], action)]
    cargo = np.array([score(s) if s[0] != "done" else s[1] for s in states], dtype=np.int16)
    crew = np.array([s[0] == "cargo" or (s[0] == "done" and s[1] > 0) for s in states])
    return Machine(
        states,
        afters,
        np.array(after, dtype=np.int16),
        np.array(offset, dtype=np.int32),
        np.array(mod, dtype=np.int16),
        policy,
        cargo,
        crew,
        where[("hunt", ROLLS, 0)],
    )


def _codes(rng: np.random.Generator, n: int) -> np.ndarray:
    return rng.integers(0, ROLL_CODES, size=n, dtype=np.int16)


def expedition(m: Machine, column: np.ndarray | int, rng: np.random.Generator, n: int) -> tuple[np.ndarray, np.ndarray]:
    """n expeditions played by table lookup (`column`: the policy, for all or per expedition):
    the cargo, and the roll on which the crew came aboard (0: never)."""
    state = m.after[m.offset[m.start] + _codes(rng, n)]
    when = m.crew[state].astype(np.int8)
    for made in range(2, ROLLS + 1):
        a = m.policy[column, state]
        state = m.after[m.offset[a] + _codes(rng, n) % m.mod[a]]
        when[(when == 0) & m.crew[state]] = made
    return m.cargo[state], when


def expedition_kernel(m: Machine, rng: np.random.Generator, n: int) -> dict[str, np.ndarray]:
    """n expeditions under the mean-maximising policy, n under the heuristic."""
    cargo, when = expedition(m, MEAN_COLUMN, rng, n)
    out = {"p_qualify": when > 0, "optimal_cargo_mean": cargo}
    for k in range(1, ROLLS + 1):
        out[f"p_qualify_by_roll_{k}"] = (when > 0) & (when <= k)
    out["heuristic_cargo_mean"] = expedition(m, HEURISTIC_COLUMN, rng, n)[0]
    return out


def game_kernel(m: Machine, rules: Rules, rng: np.random.Generator, n: int) -> dict[str, np.ndarray]:
    """n whole games (see the module docstring): who has the highest total alone, and
    whether first place is shared."""
    p = rules.players
    totals = np.zeros((n, p), dtype=np.int16)
    for e in range(rules.expeditions):
        for seat in range(p):
            column: np.ndarray | int = MEAN_COLUMN
            if e == rules.expeditions - 1:
                t = totals[:, [j for j in range(p) if j != seat]].max(axis=1) - totals[:, seat]
                column = np.where((t >= 0) & (t < TOP), 1 + t, MEAN_COLUMN)
            totals[:, seat] += expedition(m, column, rng, n)[0]
    first = totals == totals.max(axis=1, keepdims=True)
    alone = first.sum(axis=1) == 1
    out = {f"p_seat_{k + 1}_wins_{p}_players": alone & first[:, k] for k in range(p)}
    out[f"p_shared_first_{p}_players"] = ~alone
    return out


def simulate(rules: Rules | None = None, trials: int = 100_000, seed: int = 0, client=None, progress=None) -> Report:
    """Monte Carlo figures with 95% confidence intervals: expeditions (mean-maximising play and
    the heuristic) and whole games (seat win probabilities)."""
    rules = rules or Rules()
    m = machine(rules.cargo_holds)
    one = montecarlo.run(partial(expedition_kernel, m), trials, seed, client=client, progress=progress)
    games = montecarlo.run(partial(game_kernel, m, rules), trials, seed + 1, client=client, progress=progress)
    return Report(NAME, rules.as_dict(), {k: Figure.estimated(e) for k, e in (one.estimates | games.estimates).items()})
