"""Precomputed tables in data/: what takes more than a second to compute and would otherwise be
solved again in every dashboard kernel: Pig's and Le Sept fatal's optimal policies (3, 4 and 5
rounds), Nessie's first turn (the optimal player's opening) and Le Légit's later players' odds
(its first player's dilemma). Every one is checked equal to a fresh computation.

A game module that has such tables defines `tables(rules=None) -> dict[str, polars.DataFrame]`
(computed for the default rules). A table that takes minutes to build (Entheos' exact war, one
row per war length) may be checked on its first rows only: the game then also defines
`check_tables() -> dict[str, polars.DataFrame]`, fresh first rows that must equal the stored
table's (its tests check the other rows another way). `nessus data rebuild` (`nessus.precompute`) writes each one
to `data/<game>-<name>.parquet`; `nessus data check` recomputes them and reports any
difference (the test suite runs the same check); `load(game, name)` reads a stored table, or None when
there is none, so a game can fall back to computing it.
"""

from __future__ import annotations

from pathlib import Path

import polars as pl

from nessus import paths

DATA = paths.DATA


def path(game: str, name: str, data: Path | None = None) -> Path:
    """Where the table `name` of `game` is stored (in `data`, default data/)."""
    return (data or DATA) / f"{game}-{name}.parquet"


def load(game: str, name: str, data: Path | None = None) -> pl.DataFrame | None:
    """The stored table, or None if it has not been built."""
    target = path(game, name, data)
    return pl.read_parquet(target) if target.exists() else None
