"""Entheos by Monte Carlo (`simulate`: `nessus simulate entheos`).

`nessus simulate entheos` gives the war by Monte Carlo (`trials` wars), `games` whole games of
the rules' bots (`bots`) through the game protocol's loop, and what each intervention policy is
worth to a god against passive and against greedy opponents (`interventions`: `pairs` paired
games, the policy or passive play in seat 1, the same chance in both, the difference in seat 1's
victory points with its 95% interval, `<policy>_vs_<opponents>_effect`).
"""

from __future__ import annotations

from functools import partial
from typing import Any, cast

import numpy as np
import polars as pl

from nessus import montecarlo
from nessus.games.entheos import war
from nessus.games.entheos.policies import policies
from nessus.games.entheos.rules import NAME, Rules
from nessus.games.entheos.state import State, initial_state
from nessus.play import play
from nessus.report import Figure, Report

INTERVENTIONS = (
    "greedy",
    "card_1",
    "card_2",
    "card_3",
    "card_4",
    "card_5",
    "card_6",
    "lock_favourite",
    "swap_against_competitor",
)
"""The policies whose worth `interventions` measures against a passive god in the same seat."""
OPPONENTS = ("passive", "greedy")


def simulate(
    rules: Rules | None = None, trials: int = 100_000, seed: int = 0, client: Any = None, progress: Any = None
) -> Report:
    """By Monte Carlo with 95% intervals: `trials` wars without interventions after the rules'
    war length; `rules.games` whole games of the rules' bots through the generic loop (each
    seat's win share and victory points); and what each intervention policy is worth
    (`interventions`, `rules.pairs` pairs of games per policy and opponents). The games are
    played first, so that Ctrl-C during the wars finds them finished."""
    rules = rules or Rules()
    games = montecarlo.run(
        partial(games_kernel, rules), rules.games, seed + 1, client=client, progress=progress, fixed=True
    )
    effects = {}
    for policy in INTERVENTIONS:
        for opponents in OPPONENTS:
            kernel = partial(intervention_kernel, rules, policy, opponents)
            result = montecarlo.run(kernel, rules.pairs, seed + 2, client=client, progress=progress, fixed=True)
            effects[f"{policy}_vs_{opponents}_effect"] = result["effect"]
    wars = montecarlo.run(partial(war.kernel, rules.war_length), trials, seed, client=client, progress=progress)
    estimates = wars.estimates | games.estimates | effects
    return Report(NAME, rules.as_dict(), {k: Figure.estimated(e) for k, e in estimates.items()})


def games_kernel(rules: Rules, rng: np.random.Generator, n: int) -> dict[str, np.ndarray]:
    """n whole games with the rules' bots (`Rules.seat_bots`): each seat's win share (a shared
    win counting its share) and victory points."""
    named = policies(rules)
    seats = [named[b] for b in rules.seat_bots]
    ends = [cast(State, play(initial_state(rules), seats, rng)) for _ in range(n)]
    out = {}
    for seat, bot in enumerate(rules.seat_bots):
        out[f"win_share_seat_{seat + 1}_{bot}"] = np.array([float(e.returns()[seat]) for e in ends])
        out[f"victory_points_seat_{seat + 1}_{bot}"] = np.array([e.victory_points()[seat] for e in ends])
    return out


def intervention_kernel(
    rules: Rules, policy: str, opponents: str, rng: np.random.Generator, n: int
) -> dict[str, np.ndarray]:
    """n pairs of games at the rules' table, seat 1 playing `policy` in one game of a pair and
    `passive` in the other, every other seat `opponents`, both games of a pair drawing their
    chance from the same seed (common random numbers: the same line-up, gods and first dice):
    seat 1's victory points with the policy, without, and the difference (`effect`)."""
    named = policies(rules)
    others = [named[opponents]] * (rules.players - 1)
    seeds = rng.integers(0, 2**63, size=n)
    vp = {name: np.empty(n, dtype=np.int64) for name in (policy, "passive")}
    for i, s in enumerate(seeds):
        for name in vp:
            end = cast(State, play(initial_state(rules), [named[name], *others], np.random.default_rng(int(s))))
            vp[name][i] = end.victory_points()[0]
    return {"victory_points": vp[policy], "victory_points_passive": vp["passive"], "effect": vp[policy] - vp["passive"]}


def interventions(
    rules: Rules | None = None, pairs: int | None = None, seed: int = 0, client: Any = None, progress: Any = None
) -> pl.DataFrame:
    """What each intervention policy (`INTERVENTIONS`) is worth to the god in seat 1 at the
    rules' table, against passive and against greedy opponents: one row per policy and
    opponents with seat 1's mean victory points with the policy and with passive play, and the
    mean `effect` (their difference over `pairs` paired games, default the rules' `pairs`) with
    its 95% interval (`effect_low`, `effect_high`), best first within each opponents."""
    rules = rules or Rules()
    pairs = rules.pairs if pairs is None else pairs
    rows = []
    for opponents in OPPONENTS:
        for policy in INTERVENTIONS:
            kernel = partial(intervention_kernel, rules, policy, opponents)
            result = montecarlo.run(kernel, pairs, seed, client=client, progress=progress)
            effect = result["effect"]
            rows.append(
                {
                    "opponents": opponents,
                    "policy": policy,
                    "victory_points": result["victory_points"].value,
                    "victory_points_passive": result["victory_points_passive"].value,
                    "effect": effect.value,
                    "effect_low": effect.ci[0],
                    "effect_high": effect.ci[1],
                    "pairs": effect.trials,
                }
            )
    return pl.DataFrame(rows).sort(["opponents", "effect"], descending=[True, True])
