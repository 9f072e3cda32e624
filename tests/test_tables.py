"""Precomputed tables: what data/ stores equals a fresh computation; rebuild and check work."""

import types

import polars as pl
import pytest

from nessus import cli, games, precompute, tables


def test_stored_tables_equal_a_fresh_computation():
    assert precompute.check() == []


def test_the_games_with_stored_tables_and_their_size():
    """Nessie's opening, Le Sept fatal's games, Pig's and Le Légit's odds, Entheos' war, all stored; data/ holds
    tables, not caches: together well under a megabyte."""
    assert set(precompute.with_tables()) == {"nessie", "sept", "pig", "legit", "entheos"}
    stored = {p.name: p.stat().st_size for p in tables.DATA.glob("*.parquet")}
    assert sum(stored.values()) < 1_000_000, stored


def test_rebuild_then_check_with_a_game_of_our_own(tmp_path, monkeypatch):
    value = {"x": 1}
    game = types.SimpleNamespace(
        check_tables=None, tables=lambda: {"policy": pl.DataFrame({"state": [0, 1], "action": [value["x"], 2]})}
    )
    monkeypatch.setattr(games, "GAMES", {"toy": game})
    assert precompute.check(data=tmp_path) == ["toy-policy.parquet is missing (run `nessus data rebuild toy`)"]
    assert precompute.rebuild(data=tmp_path) == [tmp_path / "toy-policy.parquet"]
    assert precompute.check(data=tmp_path) == []
    assert tables.load("toy", "policy", tmp_path)["action"].to_list() == [1, 2]
    value["x"] = 3  # the code changed but the stored table did not
    assert precompute.check(data=tmp_path) == [
        "toy-policy.parquet differs from a fresh computation (run `nessus data rebuild toy`)"
    ]
    assert tables.load("toy", "other", tmp_path) is None
    with pytest.raises(ValueError, match=r"game must be one with tables \(toy\), got renard"):
        precompute.rebuild(["renard"], data=tmp_path)


def test_a_long_table_is_checked_on_the_fresh_rows_its_game_gives(tmp_path, monkeypatch):
    rows = {"n": [0, 1, 2]}
    game = types.SimpleNamespace(
        tables=lambda: {"war": pl.DataFrame(rows)}, check_tables=lambda: {"war": pl.DataFrame({"n": rows["n"][:2]})}
    )
    monkeypatch.setattr(games, "GAMES", {"toy": game})
    precompute.rebuild(data=tmp_path)
    assert precompute.check(data=tmp_path) == []
    rows["n"] = [0, 5, 2]  # a first row changed
    assert precompute.check(data=tmp_path) == [
        "toy-war.parquet differs from a fresh computation (run `nessus data rebuild toy`)"
    ]


def test_cli_data_errors(capsys):
    assert cli.main(["data", "rebuild", "renard"]) == 2
    assert "game must be one with tables" in capsys.readouterr().err
    assert cli.main(["data", "frob"]) == 2
