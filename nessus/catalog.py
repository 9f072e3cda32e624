"""The game definitions stored in data/games.json: each game's title, summary, parameters
(default, range, help) and the names of its figures. A test keeps the file equal to the code."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path
from typing import Any

from nessus import games, paths
from nessus.rules import Param

PATH = paths.DATA / "games.json"


def _number(x: int | Fraction | bool | str) -> int | bool | str:
    return x if isinstance(x, (int, str)) else str(x)


def _param(p: Param) -> dict[str, Any]:
    out: dict[str, Any] = {"default": _number(p.default), "min": _number(p.lo), "max": _number(p.hi), "help": p.help}
    if p.choices:
        out["choices"] = list(p.choices)
    return out


def catalog() -> dict[str, Any]:
    """Every game's definition, as JSON-ready data."""
    out = {}
    for name, game in games.GAMES.items():
        out[name] = {
            "title": game.title,
            "summary": game.summary,
            "parameters": {p.name: _param(p) for p in game.Rules.params},
            "figures": list(game.report().figures),
        }
    return out


def write(path: Path = PATH) -> None:
    """Write the catalog to data/games.json."""
    path.write_text(json.dumps(catalog(), indent=2, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    write()
