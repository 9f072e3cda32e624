"""Precomputed tables in data/: what takes more than a second to compute and would otherwise be
solved again in every dashboard kernel: Pig's and Le Sept fatal's optimal policies (3, 4 and 5
rounds), Nessie's first turn (the optimal player's opening) and Le Légit's later players' odds
(its first player's dilemma). Every one is checked equal to a fresh computation.

A game module that has such tables defines `tables(rules=None) -> dict[str, polars.DataFrame]`
(computed for the default rules). A table that takes minutes to build (Entheos' exact war, one
row per war length) may be checked on its first rows only: the game then also defines
`check_tables() -> dict[str, polars.DataFrame]`, fresh first rows that must equal the stored
table's (its tests check the other rows another way). `nessus data rebuild` writes each one to
`data/<game>-<name>.parquet`; `nessus data check` recomputes them and reports any difference
(the test suite runs the same check); `load(game, name)` reads a stored table, or None when
there is none, so a game can fall back to computing it.
"""

from __future__ import annotations

from pathlib import Path
from types import ModuleType

import polars as pl

from nessus import games, paths

DATA = paths.DATA


def path(game: str, name: str, data: Path | None = None) -> Path:
    """Where the table `name` of `game` is stored (in `data`, default data/)."""
    return (data or DATA) / f"{game}-{name}.parquet"


def with_tables() -> dict[str, ModuleType]:
    """The games that have precomputed tables."""
    return {name: game for name, game in games.GAMES.items() if hasattr(game, "tables")}


def _chosen(names: list[str] | None) -> dict[str, ModuleType]:
    available = with_tables()
    if not names:
        return available
    unknown = [n for n in names if n not in available]
    if unknown:
        raise ValueError(f"game must be one with tables ({', '.join(available) or 'none'}), got {', '.join(unknown)}")
    return {n: available[n] for n in names}


def rebuild(names: list[str] | None = None, data: Path | None = None) -> list[Path]:
    """Recompute and store the tables of the named games (default: all); returns the files."""
    written = []
    for name, game in _chosen(names).items():
        for table, frame in game.tables().items():
            target = path(name, table, data)
            frame.write_parquet(target)
            written.append(target)
    return written


def check(names: list[str] | None = None, data: Path | None = None) -> list[str]:
    """Recompute the tables and compare with the stored ones: the list of problems (empty when
    every stored table equals a fresh computation)."""
    problems = []
    for name, game in _chosen(names).items():
        partial = hasattr(game, "check_tables")
        for table, frame in (game.check_tables() if partial else game.tables()).items():
            target = path(name, table, data)
            if not target.exists():
                problems.append(f"{target.name} is missing (run `nessus data rebuild {name}`)")
                continue
            stored = pl.read_parquet(target)
            if partial and stored.height > frame.height:
                stored = stored.head(frame.height)
            if not stored.equals(frame):
                problems.append(f"{target.name} differs from a fresh computation (run `nessus data rebuild {name}`)")
    return problems


def load(game: str, name: str, data: Path | None = None) -> pl.DataFrame | None:
    """The stored table, or None if it has not been built."""
    target = path(game, name, data)
    return pl.read_parquet(target) if target.exists() else None
