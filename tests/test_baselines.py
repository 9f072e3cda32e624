"""Every `nessus report GAME --json` figure recorded before the code moved (issue 10,
`tests/baselines/record.py`) stays equal: exact fractions identical, float-only figures (value
iteration) within the 1e-9 the README states for them, exact brackets within their widths."""

from __future__ import annotations

import json
import re
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


def recorded(game: str, name: str = "defaults") -> dict:
    """The report recorded for `game` under the variant `name`."""
    return json.loads((HERE / f"{game}.json").read_text())[name]


@pytest.mark.parametrize("game,name", CASES, ids=[f"{g}[{n}]" for g, n in CASES])
def test_report_figures_unchanged(game, name, capsys):
    assert cli.main(["report", game, "--json", *args(name)]) == 0
    assert_unchanged(recorded(game, name), json.loads(capsys.readouterr().out))


def assert_unchanged(before: dict, now: dict) -> None:
    """`now` (a report's JSON) has the figures of `before`, each equal within its stated accuracy."""
    assert set(now["figures"]) == set(before["figures"])
    for figure, old in before["figures"].items():
        new = now["figures"][figure]
        assert new["method"] == old["method"], figure
        assert new["exact"] == old["exact"], figure
        if old["exact"] is not None:
            assert new["value"] == old["value"] and new["ci"] == old["ci"], figure
        elif old["ci"] is not None:
            # Both brackets hold the true value: they meet, and their midpoints are at most
            # half their widths apart.
            (lo, hi), (new_lo, new_hi) = old["ci"], new["ci"]
            assert new_lo <= hi and lo <= new_hi, figure
            assert abs(new["value"] - old["value"]) <= (hi - lo + new_hi - new_lo) / 2, figure
        else:
            assert abs(new["value"] - old["value"]) <= FLOAT_ACCURACY, figure


def test_every_report_the_docs_show_has_a_baseline():
    """Each `nessus report GAME --set ...` line of the README and docs/ is a recorded variant."""
    root = HERE.parent.parent
    pages = "".join(p.read_text() for p in [root / "README.md", *sorted((root / "docs").glob("*.md"))])
    shown = re.findall(r"^nessus report (\w+)((?: --set \S+)+)", pages, re.MULTILINE)
    assert shown
    for game, sets in shown:
        name = " ".join(a for a in sets.split() if a != "--set")
        name = re.sub(r"state=\S+", "state=nessie-state.json", name)
        recorded = json.loads((HERE / f"{game}.json").read_text())
        assert any(set(name.split()) == set(n.split()) for n in recorded), (game, name)
