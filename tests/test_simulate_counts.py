"""`nessus simulate GAME`: every Monte Carlo figure says, in the table and in the JSON, how many
trials it rests on, and that is what was asked: `--trials`, or one of the game's own counts
(`Rules.counts`, e.g. `--set games=N` for Nyx's whole games), never a cap of its own."""

import json

import pytest

from nessus import cli, games

TRIALS = (2_345, 2_346)  # above any cap the games had (Nyx played at most 2,000 games)
COUNTS = ((2, 3), (3, 2))  # each of the game's own counts, in order, in each run: never equal within a run


def asked(run: int, game: str) -> dict[str, int]:
    """The trials asked for in run 0 or 1, by the parameter that asks for them."""
    counts = games.get(game).Rules.counts
    assert len(counts) <= len(COUNTS[run])
    return {"trials": TRIALS[run]} | dict(zip(counts, COUNTS[run]))


def simulate(capsys, game: str, ask: dict[str, int], as_json: bool) -> str:
    sets = [a for name, n in ask.items() if name != "trials" for a in ("--set", f"{name}={n}")]
    json_flag = ["--json"] if as_json else []
    code = cli.main(["simulate", game, "--trials", str(ask["trials"]), "--seed", "4", *sets, *json_flag])
    out, err = capsys.readouterr()
    assert code == 0, err
    return out


def table_trials(text: str) -> dict[str, int]:
    """Each figure's trials from the table: its row's last column, under the header's `trials`."""
    header, rule, *rows = text.splitlines()[1:]
    assert header.split()[-1] == "trials"
    return {row.split()[0]: int(row.split()[-1].replace(",", "")) for row in rows}


@pytest.mark.timeout(300)
@pytest.mark.parametrize("game", games.NAMES)
def test_every_figure_rests_on_the_trials_asked_for(capsys, game):
    """Two runs asking for different trials: each figure's count is the value of one parameter
    in the first run (the JSON), and of the same parameter in the second (the table)."""
    first, second = asked(0, game), asked(1, game)
    doc = json.loads(simulate(capsys, game, first, as_json=True))
    followed = {}
    for name, figure in doc["figures"].items():
        assert figure["method"] == "monte-carlo", name
        by = [parameter for parameter, n in first.items() if n == figure["trials"]]
        assert len(by) == 1, (name, figure["trials"], first)
        followed[name] = by[0]
    counted = table_trials(simulate(capsys, game, second, as_json=False))
    assert counted == {name: second[parameter] for name, parameter in followed.items()}
    assert set(followed.values()) == set(first)  # every count asked for is used
