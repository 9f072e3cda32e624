"""data/games.json is the code's own description of the games, never stale."""

import json

from nessus import catalog, games


def test_stored_catalog_equals_the_code():
    assert json.loads(catalog.PATH.read_text()) == catalog.catalog(), "run: python -m nessus.catalog"


def test_catalog_names_every_game_and_its_figures():
    stored = json.loads(catalog.PATH.read_text())
    assert set(stored) == set(games.GAMES)
    for name, game in games.GAMES.items():
        assert stored[name]["figures"] == list(game.report().figures)
        assert set(stored[name]["parameters"]) == {p.name for p in game.Rules.params}
