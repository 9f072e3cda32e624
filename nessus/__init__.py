"""nessus: exact odds, optimal play and Monte Carlo checks for the games of Nessus.

The core, re-exported here (each imported when first used, so that `nessus report order`
starts fast):

- exact distributions: `Dist`, `TruncatedDist` (an unbounded one with its exact tail mass);
- Markov chains with rewards: `RewardChain`;
- optimal play: `Expectimax` (exact), `value_iteration` (floats, games with cycles), `Hint`;
- figures: `Report`, `Figure`;
- the game protocol: `State`, `Shape`, `Policy`, `CHANCE`, `TERMINAL`, and `play`,
  `tournament` for machine play; the games themselves in `games`.

>>> import nessus
>>> nessus.Dist.uniform(range(1, 7)).mean()
Fraction(7, 2)
>>> sorted(nessus.games.NAMES)[:3]
['boue', 'entheos', 'hypogeon']
"""

from __future__ import annotations

import importlib
from typing import Any

__version__ = "0.1.0"

_WHERE = {
    "Dist": "nessus.dist",
    "TruncatedDist": "nessus.dist",
    "RewardChain": "nessus.chains",
    "Expectimax": "nessus.solver",
    "value_iteration": "nessus.solver",
    "Hint": "nessus.solver",
    "Report": "nessus.report",
    "Figure": "nessus.report",
    "State": "nessus.game",
    "Shape": "nessus.game",
    "Policy": "nessus.game",
    "CHANCE": "nessus.game",
    "TERMINAL": "nessus.game",
    "play": "nessus.play",
    "tournament": "nessus.play",
}

__all__ = ["__version__", "games", *_WHERE]


def __getattr__(name: str) -> Any:
    if name == "games":
        return importlib.import_module("nessus.games")
    if name in _WHERE:
        return getattr(importlib.import_module(_WHERE[name]), name)
    raise AttributeError(f"module 'nessus' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(__all__)
