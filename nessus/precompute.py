"""Rebuilding and checking the precomputed tables of every game (`nessus data rebuild|check`):
the games whose record has `tables` (see `nessus.tables` for what is stored and why)."""

from __future__ import annotations

from pathlib import Path

import polars as pl

from nessus import games
from nessus.game import Game
from nessus.tables import path


def with_tables() -> dict[str, Game]:
    """The games that have precomputed tables."""
    return {name: game for name, game in games.GAMES.items() if game.tables is not None}


def _chosen(names: list[str] | None) -> dict[str, Game]:
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
        assert game.tables is not None
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
        partial = game.check_tables is not None
        fresh = game.check_tables if game.check_tables is not None else game.tables
        assert fresh is not None
        for table, frame in fresh().items():
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
