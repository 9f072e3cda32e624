"""The nessie game module: report figures vs simulation and a hand count, the state file."""

import json
from fractions import Fraction

import pytest

from scipy.stats import norm

from nessus import cli, montecarlo
from nessus.games import nessie
from nessus.games.nessie_odds import Situation

SEED = 11


def test_first_reveals_by_hand():
    """One card never sinks; two cards sink only as 3 + 3: (12 * 11) / (84 * 83)."""
    figures = nessie.report().figures
    assert figures["p_sink_by_reveal_1"].exact == 0
    assert figures["p_sink_by_reveal_2"].exact == Fraction(12 * 11, 84 * 83)


def test_sink_curve_is_increasing_to_near_certainty():
    values = [nessie.report().figures[f"p_sink_by_reveal_{k}"].exact for k in range(1, 13)]
    assert values == sorted(values) and values[-1] > Fraction(98, 100)


def test_exact_figures_lie_in_the_simulated_intervals():
    """A player who never stops, revealing 200,000 shuffled decks (fixed seed: deterministic).

    The 12 curve points are checked together, so each gets a Wilson interval at the Bonferroni
    level 1 - 0.05/12: all hold at once with probability >= 95%. The mean uses its t interval
    at the same level."""
    trials, level = 200_000, 1 - 0.05 / 13
    exact = nessie.report().figures
    simulated = nessie.simulate(trials=trials, seed=SEED).figures
    for k in range(1, 13):
        name = f"p_sink_by_reveal_{k}"
        lo, hi = montecarlo.wilson(round(simulated[name].value * trials), trials, confidence=level)
        assert lo <= exact[name].value <= hi, (name, exact[name].value, (lo, hi))
    mean = simulated["expected_reveals_until_sink"]
    half = (mean.ci[1] - mean.ci[0]) / 2 * norm.ppf(0.5 + level / 2) / norm.ppf(0.975)
    assert abs(exact["expected_reveals_until_sink"].value - mean.value) <= half


def test_expected_reveals_is_the_sum_of_survival_probabilities():
    """E[T] = sum over r >= 0 of P(T > r); checked against the curve (P(T > r) = 1 - p_sink_by_r)
    plus the survival beyond 12 reveals, computed the same way for a 2-letter toy deck by hand."""
    toy = Situation({"A": 3, "3": 2}, (), frozenset())
    # Orders of A,A,A,3,3: sink at reveal 2 iff 3,3 first (2/20 of ordered pairs) ...
    # enumerate all 5!/(3!2!) = 10 equally likely arrangements instead:
    from itertools import permutations

    arrangements = set(permutations("AAA33"))
    def sink_at(order):
        t = a = 0
        for i, c in enumerate(order, 1):
            t += 3 if c == "3" else 0
            a += c == "A"
            if t >= 6 or a >= 3:
                return i
    expected = Fraction(sum(sink_at(o) for o in arrangements), len(arrangements))
    assert nessie.expected_reveals_until_sink(toy) == expected


def test_state_file(tmp_path):
    state = {"row": ["2", "A", "3"], "own": {"letters": ["A", "B"], "treasures": [3, 1]},
             "others": [{"letters": ["C"], "treasures": [2]}], "discards_seen": ["D", "1"]}
    path = tmp_path / "state.json"
    path.write_text(json.dumps(state))
    figures = nessie.report(nessie.Rules(state=str(path))).figures
    # 73 unseen cards; sinking next: any of the 30 treasures left (row holds 5) or one of 6 A's.
    assert figures["p_sink_next"].exact == Fraction(36, 73)
    assert all(f"p_sink_within_{k}" in figures for k in range(1, 13))


@pytest.mark.parametrize(
    "content, message",
    [
        ("not json", "is not JSON"),
        ('{"row": ["X"]}', "row must be a list of cards"),
        ('{"own": {"letters": ["A", "A"]}}', "cannot repeat a letter"),
        ('{"row": ["A", "A", "A", "A", "A", "A", "A", "A", "A"]}', "more cards than the deck holds"),
        ('{"colour": 1}', "keys row, own, others, discards_seen"),
    ],
)
def test_bad_state_files_are_one_line_errors(tmp_path, capsys, content, message):
    path = tmp_path / "state.json"
    path.write_text(content)
    assert cli.main(["report", "nessie", "--set", f"state={path}"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("nessus: error:") and message in err[0]


def test_missing_state_file(capsys):
    assert cli.main(["report", "nessie", "--set", "state=/no/such/file.json"]) == 2
    assert "cannot read" in capsys.readouterr().err


def test_situation_from_dict_equals_the_file(tmp_path):
    state = {"row": ["1", "B"], "own": {"letters": ["C"], "treasures": [2]}}
    path = tmp_path / "s.json"
    path.write_text(json.dumps(state))
    assert nessie.situation(nessie.Rules(state=str(path))) == nessie.situation_from_dict(state)
