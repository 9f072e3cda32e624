"""The games. Each module has the same surface:

- `NAME`, `TITLE`, `SUMMARY`: its CLI name, its title and one line about it;
- `Rules`: a frozen dataclass of validated parameters (defaults = RULES.md decisions);
- `report(rules) -> Report`: the exact headline figures;
- `simulate(rules, trials, seed, client=None, progress=None) -> Report`: Monte Carlo figures;
- the game protocol (`nessus.game`): `initial_state(rules=None)` gives the playable `State`
  (whole games, every player, chance explicit), and `policies(rules=None)` the named ways to
  play it (`policy(state) -> action`).
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator, Mapping
from types import ModuleType

NAMES = (
    "order",
    "renard",
    "boue",
    "nessie",
    "palais",
    "naute",
    "tresse",
    "trois",
    "sept",
    "pig",
    "royaumes",
    "legit",
    "hypogeon",
    "nessos",
    "nyx",
    "entheos",
)


PATHS: dict[str, str] = {"sept": "nessus.games.pushluck.sept", "pig": "nessus.games.pushluck.pig"}
"""Where a game's module lives when it is not `nessus.games.<name>` (a game inside a
subpackage shared with others)."""


class _Registry(Mapping[str, ModuleType]):
    """The game modules by name, each imported when first used (so `nessus report order`
    does not import every game's solver)."""

    def __getitem__(self, name: str) -> ModuleType:
        if name not in NAMES:
            raise KeyError(name)
        return importlib.import_module(PATHS.get(name, f"nessus.games.{name}"))

    def __iter__(self) -> Iterator[str]:
        return iter(NAMES)

    def __len__(self) -> int:
        return len(NAMES)


GAMES: Mapping[str, ModuleType] = _Registry()


def __getattr__(name: str) -> ModuleType:
    """`from nessus.games import pig` finds a game wherever it lives (see `PATHS`)."""
    if name in PATHS:
        return importlib.import_module(PATHS[name])
    raise AttributeError(f"module 'nessus.games' has no attribute {name!r}")


def get(name: str) -> ModuleType:
    """The game module called `name`, or a ValueError listing the games."""
    try:
        return GAMES[name]
    except KeyError:
        raise ValueError(f"unknown game {name!r}; allowed: {', '.join(GAMES)}") from None
