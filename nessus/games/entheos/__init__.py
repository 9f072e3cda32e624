"""Entheos: six heroes in three duels of dice, and the gods who bet on them (RULES.md part 5).

`nessus report entheos` gives, exactly:
- the isolated duel after `turns` turns (two heroes with the rulebook's face table, 6 points
  each, yellow and mauve acting within the duel), by the Markov chain on their points:
  `duel_mean` (hero A's expected points: 6 + turns/6), `duel_p_ahead` (A strictly ahead),
  `duel_p_tied`, `duel_p_zero` (A at 0 points);
- the war without interventions after `war_turns` turns (0: the game's length for `players`,
  10 down to 6 turns): `p_achaeans_win`, `p_trojans_win`, `p_war_tied`, `hero_mean_points`
  (each hero's expected points, 6 + T/2) and each god's expected victory points
  `god_<name>_ev`, exact by the chain on the six heroes' points (`war`; `war_positions` says how
  many positions it holds), read from data/entheos-war.parquet for up to 10 turns (the chain
  takes about 6 minutes). Longer wars are simulated (`WAR_TRIALS` wars, 95% intervals, fixed
  seed), which the report says.

`nessus simulate entheos` gives the war by Monte Carlo (`trials` wars), `games` whole games of
the rules' bots (`bots`) through the game protocol's loop, and what each intervention policy is
worth to a god against passive and against greedy opponents (`interventions`: `pairs` paired
games, the policy or passive play in seat 1, the same chance in both, the difference in seat 1's
victory points with its 95% interval, `<policy>_vs_<opponents>_effect`).

>>> r = report(Rules(turns=2, war_turns=1))
>>> r.figures["duel_mean"].exact, r.figures["p_war_tied"].exact
(Fraction(19, 3), Fraction(3197, 23328))
"""

from __future__ import annotations

from fractions import Fraction
from functools import partial
from typing import Any, cast

import numpy as np
import polars as pl

from nessus import montecarlo
from nessus.game import Game
from nessus.games.entheos import war
from nessus.games.entheos.bots import policies
from nessus.games.entheos.duel import duel
from nessus.games.entheos.engine import State, initial_state
from nessus.games.entheos.heroes import GODS, START_POINTS
from nessus.games.entheos.rules import GAME_TURNS, Rules
from nessus.play import play
from nessus.report import Figure, Report
from nessus.tables import load as load_table

__all__ = [
    "GAME",
    "NAME",
    "Rules",
    "State",
    "initial_state",
    "interventions",
    "policies",
    "report",
    "simulate",
    "tables",
]

NAME = "entheos"
WAR_TRIALS = 200_000
"""Wars simulated by `report` when the war is too long for the exact chain."""


def report(rules: Rules | None = None) -> Report:
    """The duel's exact figures and the war's (see the module docstring)."""
    rules = rules or Rules()
    one = duel(rules.turns)
    t = rules.turns
    figures = {
        "duel_mean": Figure.of(one.mean_a(), f"hero A's expected points after {t} turns of an isolated duel (6 + T/6)"),
        "duel_p_ahead": Figure.of(one.p_ahead(), f"P(hero A strictly ahead of B after {t} turns)"),
        "duel_p_tied": Figure.of(one.p_tied(), f"P(the two heroes tied after {t} turns)"),
        "duel_p_zero": Figure.of(one.p_zero(), f"P(hero A at 0 points after {t} turns)"),
    }
    return Report(NAME, rules.as_dict(), figures | war_figures(rules))


WAR_TABLE = max(GAME_TURNS.values())
"""The exact war is stored for 0..10 turns (`tables`: the chain takes about 6 minutes)."""
QUICK = 3
"""Turns of war solved on the spot when the stored table is missing."""


def tables() -> dict[str, pl.DataFrame]:
    """The exact war without interventions after 0..10 turns (`war.table`), stored in data/."""
    return {"war": war.table(WAR_TABLE)}


def check_tables() -> dict[str, pl.DataFrame]:
    """The stored war's first rows, computed afresh (the later rows take minutes: the tests check
    them against a simulation)."""
    return {"war": war.table(2)}


def war_row(turns: int) -> dict[str, Fraction] | None:
    """The exact war after `turns` turns from the stored table (or solved now for a few turns);
    None when it is not known exactly."""
    stored = load_table(NAME, "war")
    if stored is not None and turns < stored.height:
        row = stored.row(turns, named=True)
    elif turns <= QUICK:
        row = war.table(turns).row(turns, named=True)
    else:
        return None
    return {k: Fraction(v) for k, v in row.items() if k not in ("turns", "positions")} | {
        "positions": Fraction(row["positions"])
    }


def war_figures(rules: Rules) -> dict[str, Figure]:
    """The war without interventions after the rules' war length: exact by the chain (stored
    for up to 10 turns), else simulated with 95% intervals."""
    turns = rules.war_length
    helps = {
        "p_achaeans_win": "P(the Achaeans end with more points)",
        "p_trojans_win": "P(the Trojans end with more points)",
        "p_war_tied": "P(the sides end level: every god scores)",
        "hero_mean_points": "each hero's expected points (6 + T/2)",
    } | {f"god_{g.name.lower()}_ev": f"{g.name}'s expected victory points" for g in GODS}
    row = war_row(turns)
    if row is not None:
        figures = {
            k: Figure.of(row[k], f"{h} after {turns} turns of war, exact by the chain") for k, h in helps.items()
        }
        figures["war_positions"] = Figure.of(
            row["positions"], f"positions of the war after {turns} turns (the three duels unordered)"
        )
        return figures
    result = montecarlo.run(partial(war.kernel, turns), WAR_TRIALS, 0)
    note = f"after {turns} turns of war, simulated ({WAR_TRIALS:,} wars, no exact table that long)"
    figures = {"hero_mean_points": Figure.of(START_POINTS + Fraction(turns, 2), f"{helps['hero_mean_points']} {note}")}
    return figures | {
        k: Figure.estimated(e, f"{helps.get(k, k.replace('_', ' '))} {note}") for k, e in result.estimates.items()
    }


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


GAME = Game(
    name=NAME,
    title="Entheos",
    summary="The Trojan war of hero dice: three duels, points stolen and rallied, gods who bet on heroes.",
    Rules=Rules,
    report=report,
    simulate=simulate,
    initial_state=initial_state,
    policies=policies,
    lesson="14-entheos-war-of-dice",
    dashboard="entheos.ipynb",
    pitch=(
        "Be a god of the Trojan war against bots: roll the heroes' dice, play your action cards, and watch "
        "each duel's exact odds and each god's expected points."
    ),
    tables=tables,
    check_tables=check_tables,
)
"""This game, as the registry, the command line and the gallery see it."""
