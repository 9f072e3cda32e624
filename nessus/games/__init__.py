"""The games. Each module has the same surface:

- `NAME`, `TITLE`, `SUMMARY`: its CLI name, its title and one line about it;
- `Rules`: a frozen dataclass of validated parameters (defaults = RULES.md decisions);
- `report(rules) -> Report`: the exact headline figures;
- `simulate(rules, trials, seed, client=None, progress=None) -> Report`: Monte Carlo figures;
- a step-by-step state so a person can play (see each module).
"""

from __future__ import annotations

from types import ModuleType

from nessus.games import boue, hypogeon, legit, naute, nessie, order, palais, pig, renard, royaumes, sept, tresse, trois

GAMES: dict[str, ModuleType] = {m.NAME: m for m in (
    order, renard, boue, nessie, palais, naute, tresse, trois, sept, pig, royaumes, legit, hypogeon)}


def get(name: str) -> ModuleType:
    """The game module called `name`, or a ValueError listing the games."""
    try:
        return GAMES[name]
    except KeyError:
        raise ValueError(f"unknown game {name!r}; allowed: {', '.join(GAMES)}") from None
