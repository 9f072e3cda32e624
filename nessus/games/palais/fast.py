"""Le Palais by Monte Carlo: single rolls, turns and whole games played by table lookup
(`nessus.games.palais.keep.machine`), and `simulate()`.

Whole games: seat 1, the *opener*, maximises P(no later player beats its hand), counting each
later player's chance `q(h)` of beating hand h as (1 - q(h))**(players - 1); every later player
*chases*: maximises P(beating the best hand so far), a tie counting half. Equal best hands
(identical dice under tie-break A, the same category under B) roll off: each wins with the same
probability (a roll-off of 5d6 between them is symmetric).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache, partial

import numpy as np

from nessus import montecarlo
from nessus.games.palais.hands import BEST_FIRST, HANDS, rank, strength_classes
from nessus.games.palais.keep import ROLLS, Machine, codes, extend, machine, play, policy_table
from nessus.games.palais.odds import at_least_solution
from nessus.games.palais.policies import chase_solution, keep_most_common, opener_solution
from nessus.games.palais.rules import NAME, Rules
from nessus.report import Figure, Report


@dataclass(frozen=True)
class Tables:
    """What the kernels look up: the roll table, the hands' ranks and strength classes, and
    each policy's holds (`extend`ed; [state, column] for left = 1, 2)."""

    machine: Machine
    players: int
    rank: np.ndarray
    strength: np.ndarray
    at_least: tuple[np.ndarray | None, ...]
    heuristics: tuple[np.ndarray | None, ...]
    chase: tuple[np.ndarray | None, ...]
    opener: tuple[np.ndarray | None, ...]


@cache
def kernel_tables(rules: Rules) -> Tables:
    """The lookup tables of every policy the simulation plays."""
    m = machine(rules.sticky_holds)
    _, cls = strength_classes(rules.tie_break)
    heuristics = [policy_table(keep_most_common(s), rules.sticky_holds) for s in ("palais", "manoir")]
    both = (None,) + tuple(np.concatenate([t[left] for t in heuristics], axis=1) for left in range(1, ROLLS))
    return Tables(
        m,
        rules.players,
        rank=np.array([rank(h) for h in m.layout.hands], dtype=np.int8),
        strength=cls,
        at_least=extend(m, at_least_solution(rules.sticky_holds).best),
        heuristics=extend(m, both),
        chase=extend(m, chase_solution(rules.tie_break, rules.sticky_holds).best),
        opener=extend(m, opener_solution(rules.players, rules.tie_break, rules.sticky_holds).best),
    )


def turn_kernel(tables: Tables, rng: np.random.Generator, n: int) -> dict[str, np.ndarray]:
    """n single rolls and n turns under each objective's optimal policy and the heuristics."""
    m = tables.machine
    out: dict[str, np.ndarray] = {}
    single = tables.rank[m.hand[m.row(m.roll_all)[codes(rng, n)]]]
    for h in BEST_FIRST:
        out[f"p_single_{h}"] = single == HANDS.index(h)
    for h in BEST_FIRST:
        k = HANDS.index(h)
        out[f"p_at_least_{h}_within_3"] = tables.rank[play(m, tables.at_least, k, rng, n)] >= k
    out["p_palais_within_3"] = out["p_at_least_palais_within_3"]
    for column, (stop_at, name) in enumerate(
        [("palais", "p_palais_within_3"), ("manoir", "p_at_least_manoir_within_3")]
    ):
        out[f"{name}_keep_most_common"] = tables.rank[play(m, tables.heuristics, column, rng, n)] >= HANDS.index(
            stop_at
        )
    return out


def game_kernel(tables: Tables, rng: np.random.Generator, n: int) -> dict[str, np.ndarray]:
    """n whole games: the opener then the chasers; which seat takes the stakes, and whether a
    roll-off decided it."""
    m = tables.machine
    best = np.full(n, -1, dtype=np.int16)
    tied = np.zeros(n, dtype=np.int16)
    winner = np.zeros(n, dtype=np.int8)
    for seat in range(tables.players):
        hands = play(m, tables.opener, 0, rng, n) if seat == 0 else play(m, tables.chase, best, rng, n)
        s = tables.strength[hands]
        better, equal = s > best, s == best
        tied = np.where(better, 1, tied + equal).astype(np.int16)
        take = better | (equal & (rng.random(n) * tied < 1))  # each of the tied is equally likely
        winner[take] = seat
        best = np.maximum(best, s)
    p = tables.players
    out = {f"p_seat_{k + 1}_wins_{p}_players": winner == k for k in range(p)}
    out[f"p_rolloff_{p}_players"] = tied > 1
    return out


def simulate(rules: Rules | None = None, trials: int = 100_000, seed: int = 0, client=None, progress=None) -> Report:
    """Monte Carlo figures with 95% confidence intervals: single rolls, turns under each
    optimal policy and the heuristics, and whole games (seat win probabilities)."""
    rules = rules or Rules()
    tables = kernel_tables(rules)
    turns = montecarlo.run(partial(turn_kernel, tables), trials, seed, client=client, progress=progress)
    games = montecarlo.run(partial(game_kernel, tables), trials, seed + 1, client=client, progress=progress)
    return Report(
        NAME, rules.as_dict(), {k: Figure.estimated(e) for k, e in (turns.estimates | games.estimates).items()}
    )
