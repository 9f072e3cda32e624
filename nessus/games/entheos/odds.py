"""Entheos's exact figures (`report`: `nessus report entheos`).

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
"""

from __future__ import annotations

from fractions import Fraction
from functools import partial

import polars as pl

from nessus import montecarlo
from nessus.games.entheos import war
from nessus.games.entheos.duel import duel
from nessus.games.entheos.heroes import GODS, START_POINTS
from nessus.games.entheos.rules import GAME_TURNS, NAME, Rules
from nessus.report import Figure, Report
from nessus.tables import load as load_table

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
