"""Every `nessus report GAME --json` figure recorded before the code moved (issue 10,
`tests/baselines/record.py`) stays equal: exact fractions identical, float-only figures (value
iteration, brackets) within the 1e-9 the README states for them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from nessus import cli

HERE = Path(__file__).resolve().parent / "baselines"
FLOAT_ACCURACY = 1e-9
CASES = [
    (path.stem, name)
    for path in sorted(HERE.glob("*.json"))
    if path.stem != "nessie-state"
    for name in json.loads(path.read_text())
]


def args(name: str) -> list[str]:
    """The CLI's `--set` arguments for a recorded variant (state files live beside the baselines)."""
    out: list[str] = []
    for a in [] if name == "defaults" else name.split(" "):
        key, value = a.split("=", 1)
        out += ["--set", f"{key}={HERE / value}" if key == "state" else a]
    return out


def test_every_game_has_a_baseline():
    from nessus import games

    assert {game for game, _ in CASES} == set(games.NAMES)


@pytest.mark.parametrize("game,name", CASES, ids=[f"{g}[{n}]" for g, n in CASES])
def test_report_figures_unchanged(game, name, capsys):
    before = json.loads((HERE / f"{game}.json").read_text())[name]
    assert cli.main(["report", game, "--json", *args(name)]) == 0
    now = json.loads(capsys.readouterr().out)
    assert set(now["figures"]) == set(before["figures"])
    for figure, old in before["figures"].items():
        new = now["figures"][figure]
        assert new["method"] == old["method"], figure
        assert new["exact"] == old["exact"], figure
        if old["exact"] is None:
            assert abs(new["value"] - old["value"]) <= FLOAT_ACCURACY, figure
        else:
            assert new["value"] == old["value"], figure
