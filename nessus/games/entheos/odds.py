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

From a position of a game (the page's odds): where they start (`start`: the heroes' points
before this turn's dice, or this turn resolved as the dice lie), each duel after the next turn
(`next_turn`) or alone to the end (`Position.duel_odds`), each god's expected victory points to
the end simulated without interventions (`simulate`, `WARS` wars), or exactly once no turn is
left (`final_figures`; both: `Position.figures`); and these as the rows of the page's charts
(`duel_frame`, `gods_frame`).
"""

from __future__ import annotations

import zlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache, partial

import numpy as np
import polars as pl

from nessus import montecarlo
from nessus.dist import Dist
from nessus.games.entheos import war
from nessus.games.entheos.duel import Duel, duel
from nessus.games.entheos.heroes import GODS, HERO_NAMES, HEROES, SIDES, START_POINTS
from nessus.games.entheos.rules import GAME_TURNS, NAME, Rules
from nessus.games.entheos.state import OVER, State
from nessus.numbers import number_text
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


# -- from a position of a game ----------------------------------------------------------------------
SIDE_NAME = tuple(side.capitalize() for side in SIDES)
"""The two sides in words: Achaeans, Trojans."""
AHEAD = ("Achaean ahead", "level", "Trojan ahead")
"""A duel's lead in words (the lead view of `duel_frame`)."""
WARS = 20_000
"""Wars simulated for each god's expected victory points from a position (about 0.05 s)."""


@dataclass(frozen=True)
class Position:
    """Where the odds start: the heroes' `points` and `places`, the turns `left`, in `words`, and
    a short `tag` ("turn 2 of 8, before the dice")."""

    points: tuple[int, ...]
    places: tuple[int, ...]
    left: int
    words: str
    tag: str

    @property
    def duels(self) -> list[tuple[int, int]]:
        """Each duel's points at the position: (the hero at place i's, the hero at place 3 + i's)."""
        return [(self.points[self.places[i]], self.points[self.places[i + 3]]) for i in range(3)]

    @property
    def names(self) -> list[str]:
        """Each duel in words: "2. Achilles vs Paris" (the heroes at places i and 3 + i)."""
        return [f"{i + 1}. {HERO_NAMES[self.places[i]]} vs {HERO_NAMES[self.places[i + 3]]}" for i in range(3)]

    def duel_odds(self, alone: bool) -> list[Duel]:
        """Each duel's exact distribution of its heroes' points: after the next turn of the war
        (`next_turn`), or `alone` to the end (`duel.duel`); as they stand once no turn is left."""
        if not self.left:
            return [Duel(0, Dist({pair: 1})) for pair in self.duels]
        if alone:
            return [duel(self.left, start=pair) for pair in self.duels]
        return [Duel(1, d) for d in next_turn(self.points, self.places)]

    def figures(self, mine: tuple[int, ...]) -> Mapping[str, WarFigure]:
        """The war's figures from here, your gods being `mine`: `simulate`d while turns are left,
        else exact (`final_figures`)."""
        return simulate(self.left, self.points, self.places, mine) if self.left else final_figures(self.points, mine)


def turns(n: int) -> str:
    """ "1 turn", "7 turns"."""
    return f"{n} turn{'s' if n != 1 else ''}"


def start(s: State, rolled: bool) -> Position:
    """Where the odds start: the heroes' points before this turn's dice; once they are `rolled`,
    this turn resolved as they lie (the cards revealed so far, no more)."""
    left = s.turns - s.turn
    turn = f"turn {s.turn + 1} of {s.turns}"
    if s.phase == OVER:
        return Position(s.points, s.places, 0, "the war is over: the final points", "the war is over")
    if not rolled:
        words = f"the heroes' points now, {turns(left)} to go"
        return Position(s.points, s.places, left, words, f"{turn}, before the dice")
    words = f"this turn resolved as the dice lie (cards revealed so far, no more), then {turns(left - 1)}"
    return Position(s.resolution(), s.places, left - 1, words, f"{turn}, as the dice lie")


@lru_cache(maxsize=256)
def next_turn(points: tuple[int, ...], places: tuple[int, ...]) -> tuple[Dist, ...]:
    """`war.next_turn`, remembered (a class asks for the same positions)."""
    return tuple(war.next_turn(points, places))


def war_kernel(
    turns: int,
    points: tuple[int, ...],
    places: tuple[int, ...],
    mine: tuple[int, ...],
    rng: np.random.Generator,
    n: int,
) -> dict[str, np.ndarray]:
    """`war.kernel` from the position, plus your victory points (`you_vp`: your gods' sum)."""
    out = war.kernel(turns, rng, n, points=points, places=places)
    out["you_vp"] = sum((out[f"god_{GODS[g].name.lower()}_ev"] for g in mine), np.zeros(n, dtype=np.int64))
    return out


@lru_cache(maxsize=128)
def simulate(
    turns: int, points: tuple[int, ...], places: tuple[int, ...], mine: tuple[int, ...]
) -> dict[str, montecarlo.Estimate]:
    """`WARS` wars from the position (a seed of its own: the same position, the same figures)."""
    seed = zlib.crc32(repr((turns, points, places, mine)).encode())
    return montecarlo.run(partial(war_kernel, turns, points, places, mine), WARS, seed).estimates


WarFigure = montecarlo.Estimate | int
"""A figure of the war from a position: simulated (an Estimate) or, once no turn is left, exact."""


def final_figures(points: Sequence[int], mine: Sequence[int]) -> dict[str, WarFigure]:
    """The war's figures when no turn is left (`war.kernel`'s names): who wins (1 or 0), each god's
    victory points, yours (`you_vp`), exactly."""
    a = sum(points[h] for h in range(6) if HEROES[h].side == 0)
    t = sum(points) - a
    named = dict(zip(HERO_NAMES, points, strict=True))
    totals = (a, t)
    gods = {
        g: god.victory_points(named) if totals[god.side] >= totals[1 - god.side] else 0 for g, god in enumerate(GODS)
    }
    out: dict[str, WarFigure] = {"p_achaeans_win": int(a > t), "p_trojans_win": int(t > a), "p_war_tied": int(a == t)}
    out |= {f"god_{GODS[g].name.lower()}_ev": vp for g, vp in gods.items()}
    out["you_vp"] = sum(gods[g] for g in mine)
    return out


# -- the charts' data ----------------------------------------------------------------------------
def duel_frame(at: Position, duels: Sequence[Duel], view: str) -> pl.DataFrame:
    """The duels' exact distributions from the position `at` as rows: `view` "lead" (the Achaean
    hero's points minus the Trojan's) or "points" (each hero's points), with the exact probability
    as text and `now`, the position's value."""
    rows: dict[str, list] = {"duel": [], "x": [], "hero": [], "probability": [], "exact": [], "now": []}
    for i, (name, one, (a, b)) in enumerate(zip(at.names, duels, at.duels, strict=True)):
        achaean, trojan, dist = HERO_NAMES[at.places[i]], HERO_NAMES[at.places[i + 3]], one.dist
        parts: list[tuple[str, Dist, int]]
        if view == "lead":
            parts = [("lead", dist.map(lambda ab: ab[0] - ab[1]), a - b)]
        else:
            parts = [(achaean, dist.map(lambda ab: ab[0]), a), (trojan, dist.map(lambda ab: ab[1]), b)]
        for hero, d, now in parts:
            for x, p in sorted(d.items()):
                rows["duel"].append(name)
                rows["x"].append(x)
                rows["hero"].append(hero)
                rows["probability"].append(float(p))
                rows["exact"].append(number_text(p))
                rows["now"].append(now)
    frame = pl.DataFrame(rows)
    if view == "lead":
        return frame.with_columns(
            ahead=pl.when(pl.col("x") > 0)
            .then(pl.lit(AHEAD[0]))
            .when(pl.col("x") < 0)
            .then(pl.lit(AHEAD[2]))
            .otherwise(pl.lit(AHEAD[1]))
        )
    side = {n: SIDE_NAME[h.side] for n, h in zip(HERO_NAMES, HEROES, strict=True)}
    return frame.with_columns(ahead=pl.col("hero").replace_strict(side, return_dtype=pl.String))


def gods_frame(estimates: Mapping[str, WarFigure], mine: Sequence[int]) -> pl.DataFrame:
    """Each god's expected victory points with its 95% interval (or exact); yours marked."""
    rows: dict[str, list] = {"god": [], "side": [], "ev": [], "low": [], "high": [], "yours": []}
    for g, god in enumerate(GODS):
        e = estimates[f"god_{god.name.lower()}_ev"]
        rows["god"].append(god.name + (" (yours)" if g in mine else ""))
        rows["side"].append(SIDE_NAME[god.side])
        value, low, high = (e.value, *e.ci) if isinstance(e, montecarlo.Estimate) else (e, e, e)
        rows["ev"].append(round(value, 3))
        rows["low"].append(round(low, 3))
        rows["high"].append(round(high, 3))
        rows["yours"].append(g in mine)
    return pl.DataFrame(rows)
