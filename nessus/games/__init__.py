"""The games. Each module has the same surface:

- `NAME`, `TITLE`, `SUMMARY`: its CLI name, its title and one line about it;
- `Rules`: a frozen dataclass of validated parameters (defaults = RULES.md decisions);
- `report(rules) -> Report`: the exact headline figures;
- `simulate(rules, trials, seed, client=None, progress=None) -> Report`: Monte Carlo figures;
- a step-by-step state so a person can play (see each module).
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator, Mapping
from types import ModuleType

NAMES = ("order", "renard", "boue", "nessie", "palais", "naute", "tresse", "trois", "sept", "pig", "royaumes",
         "legit", "hypogeon")


class _Registry(Mapping[str, ModuleType]):
    """The game modules by name, each imported when first used (so `nessus report order`
    does not import every game's solver)."""

    def __getitem__(self, name: str) -> ModuleType:
        if name not in NAMES:
            raise KeyError(name)
        return importlib.import_module(f"nessus.games.{name}")

    def __iter__(self) -> Iterator[str]:
        return iter(NAMES)

    def __len__(self) -> int:
        return len(NAMES)


GAMES: Mapping[str, ModuleType] = _Registry()


def get(name: str) -> ModuleType:
    """The game module called `name`, or a ValueError listing the games."""
    try:
        return GAMES[name]
    except KeyError:
        raise ValueError(f"unknown game {name!r}; allowed: {', '.join(GAMES)}") from None
