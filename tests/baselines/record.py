"""Record `nessus report GAME --json` for every game at its defaults and at the README's
`--set` variants, before code moves (issue 10). `tests/test_baselines.py` checks every figure
stays equal. Re-record only when a figure is meant to change:

    .venv/bin/python tests/baselines/record.py [GAME ...]

A new game records its own when it joins (Nessos, issue 11).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
NESSIE_STATE = HERE / "nessie-state.json"

VARIANTS: dict[str, list[list[str]]] = {
    "order": [[], ["players=6"], ["players=10"]],
    "renard": [[], ["payout=20"], ["payout=35", "rounds=10"]],
    "boue": [[], ["dice=3", "players=4"]],
    "nessie": [[], ["players=4"], [f"state={NESSIE_STATE}"]],
    "palais": [[], ["sticky_holds=true", "tie_break=B"], ["players=4"]],
    "naute": [[], ["cargo_holds=free"], ["expeditions=2", "players=3"]],
    "tresse": [[], ["players=3", "dice=2"], ["players=6"]],
    "trois": [[], ["dice=4", "target=8"], ["rounds=2", "players=3"]],
    "sept": [[], ["hold=25"], ["rounds=1", "ties=half"]],
    "pig": [[], ["goal=30"], ["players=3", "goal=20"]],
    "royaumes": [[], ["fine=0"], ["players=4", "rounds=50"]],
    "legit": [[], ["rerolls=1", "dice=4"], ["players=4", "target=20"]],
    "hypogeon": [[], ["stand_at=16", "players=3"], ["seat1=same"]],
    "nessos": [
        [],
        ["players=3"],
        ["hand=C,7,7,2,10", "announced=7"],
        ["players=5", "hand=C,7,7,2,10", "announced=7", "seen=3,C", "sender=bluffer", "bluff=1/3"],
    ],
    "nyx": [[], ["symbol=star", "k=3", "rolls=2", "colour=white"], ["shape=P5", "blocked=1,5"], ["size=5", "dice=8"]],
    "entheos": [[], ["turns=3"], ["players=2"], ["turns=10", "players=2"], ["players=6", "turns=20"], ["war_turns=2"]],
}


def key(args: list[str]) -> str:
    """The baseline's name for these `--set` arguments."""
    return " ".join(a.replace(str(HERE) + "/", "") for a in args) or "defaults"


def report(game: str, args: list[str]) -> dict:
    """The `--json` report of `game` with these `--set` arguments (the CLI's own output)."""
    command = [sys.executable, "-m", "nessus.cli", "report", game, "--json"]
    for a in args:
        command += ["--set", a]
    return json.loads(subprocess.run(command, check=True, capture_output=True, text=True).stdout)


def main(games: list[str]) -> None:
    for game, variants in VARIANTS.items():
        if games and game not in games:
            continue
        recorded = {key(args): report(game, args) for args in variants}
        (HERE / f"{game}.json").write_text(json.dumps(recorded, indent=1, sort_keys=True) + "\n")
        print(game, len(recorded))


if __name__ == "__main__":
    main(sys.argv[1:])  # the games to record (default: all)
