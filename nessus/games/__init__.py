"""The games, one folder each (`nessus/games/<name>/`), each declared once by its `GAME`
record (`nessus.game.Game`): its name, title, summary, lesson, dashboard, `Rules`, `report`,
`simulate`, `initial_state` and `policies`. The registry, the command line, the gallery, the
catalogue and the docs read that record.

>>> from nessus import games
>>> legit = games.get("legit")
>>> legit.title, legit.dashboard
('Le Légit', 'le-legit.ipynb')
>>> [g.name for g in games.with_dashboards()][:3]
['renard', 'boue', 'nessie']
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator, Mapping

from nessus.game import Game

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
"""Every game's name, in the order the command line, the gallery and the docs list them."""


class _Registry(Mapping[str, Game]):
    """The games' records by name, each game imported when first used (so `nessus report
    order` does not import every game's solver)."""

    def __getitem__(self, name: str) -> Game:
        if name not in NAMES:
            raise KeyError(name)
        record: Game = importlib.import_module(f"nessus.games.{name}").GAME
        return record

    def __iter__(self) -> Iterator[str]:
        return iter(NAMES)

    def __len__(self) -> int:
        return len(NAMES)


GAMES: Mapping[str, Game] = _Registry()


def get(name: str) -> Game:
    """The game called `name`, or a ValueError listing the games."""
    try:
        return GAMES[name]
    except KeyError:
        raise ValueError(f"unknown game {name!r}; allowed: {', '.join(GAMES)}") from None


def with_dashboards() -> list[Game]:
    """The games that have a dashboard, one per dashboard (Pig is played on Le Sept fatal's),
    in the gallery's order."""
    seen: set[str] = set()
    out = []
    for game in GAMES.values():
        if game.dashboard and game.dashboard not in seen:
            seen.add(game.dashboard)
            out.append(game)
    return out


def of_dashboard(notebook: str) -> Game | None:
    """The game whose dashboard is `notebook` (e.g. "le-legit.ipynb"), or None."""
    return next((g for g in with_dashboards() if g.dashboard == notebook), None)
