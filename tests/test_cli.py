"""The command line: report/simulate/games, the JSON contract, and bad input (always exit code 2,
one line on stderr starting with "nessus: error:", never a traceback)."""

import json
import os
import re
import signal
import subprocess
import sys
import time
from collections import Counter
from fractions import Fraction
from itertools import product

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from nessus import cli, games, montecarlo

HANDS = ("palais", "tour", "manoir", "grande_suite", "trident", "suite", "deux_paires", "paire", "faillite")
REQUIRED = {
    "order": {"p_unique_first_roll", "expected_rounds"},
    "renard": {"p_win", "ev_per_stake", "fair_payout", "house_edge", "p_ruin"},
    "boue": {
        "turn_mean",
        "turn_variance",
        "p_turn_zero",
        "p_turn_at_most_20",
        "three_round_mean",
        "p_three_rounds_at_least_60",
        "p_tie_for_first",
    },
    "palais": {f"p_single_{h}" for h in HANDS} | {f"p_at_least_{h}_within_3" for h in HANDS} | {"p_palais_within_3"},
    "naute": {"p_qualify", "optimal_cargo_mean", "p_qualify_by_roll_1", "p_qualify_by_roll_2", "p_qualify_by_roll_3"},
    "trois": {"optimal_mean", "p_zero_optimal", "p_moon_optimal_for_moon"},
    "sept": {"best_hold", "best_hold_mean", "hold_mean", "p_first_player_wins_optimal"},
    "pig": {"p_first_player_wins_optimal", "hold_at_20_turn_mean"},
    "legit": {"optimal_mean", "no_reroll_mean"},
    "tresse": {"p_win_seat_1", "p_win_seat_2", "p_win_seat_3", "expected_throws"},
    "royaumes": {
        "p_bank_wins_all",
        "p_bank_pays_all",
        "p_player_wins_duel",
        "expected_fines",
        "player_ev",
        "bank_edge",
    },
    "hypogeon": {"p_bust", "p_21", "mean_if_not_bust", "best_stand_at"},
    "nessos": {"deck_size", "charon_count", "p_hand_no_charon", "p_hand_3plus_charon"},
    "nyx": {"p_at_least", "placements", "expected_rolls_for_shape", "p_shape_within"},
    "entheos": {"duel_mean", "duel_p_ahead", "duel_p_tied", "duel_p_zero", "p_achaeans_win", "p_war_tied"},
}
PARAMS = {
    "order": {"players": (2, 10)},
    "renard": {"payout": (1, 100), "stake": (1, 1000), "bankroll": (1, 100_000), "rounds": (1, 1000)},
    "boue": {"dice": (1, 10), "players": (2, 10)},
    "palais": {"players": (2, 10)},
    "naute": {"expeditions": (1, 6), "players": (2, 10)},
    "trois": {"dice": (1, 6), "target": (0, 36), "rounds": (1, 10), "players": (2, 8)},
    "sept": {"hold": (1, 200), "rounds": (1, 5), "players": (2, 6)},
    "pig": {"goal": (1, 100), "players": (2, 8)},
    "legit": {"rerolls": (0, 3), "dice": (1, 8), "players": (2, 6), "target": (0, 48), "reroll_below": (0, 48)},
    "tresse": {"players": (2, 10), "dice": (1, 6)},
    "royaumes": {"players": (1, 10), "rounds": (1, 1000)},
    "hypogeon": {"stand_at": (2, 21), "players": (2, 10), "target": (1, 10)},
    "nessos": {"players": (3, 6), "target": (0, 200), "rounds": (0, 1000), "hand_size": (1, 10), "announced": (0, 10)},
    "nyx": {
        "players": (2, 4),
        "k": (0, 15),
        "dice": (1, 15),
        "rolls": (1, 20),
        "size": (0, 15),
        "nights": (1, 30),
        "games": (2, 100_000),
    },
    "entheos": {
        "players": (2, 6),
        "turns": (0, 60),
        "war_turns": (0, 60),
        "games": (2, 100_000),
        "pairs": (2, 100_000),
    },
}  # the integer parameters and their ranges; switches and choices below
CHOICES = {
    "palais": {"sticky_holds": ("true", "false"), "tie_break": ("A", "B")},
    "naute": {"cargo_holds": ("sticky", "free", "both")},
    "sept": {"ties": ("replay", "half")},
    "hypogeon": {"seat1": ("best", "same")},
    "nessos": {"sender": ("naive", "bluffer")},
    "nyx": {"symbol": ("star", "crescent", "moon"), "colour": ("black", "white"), "shape": ("I2", "L4", "X5")},
}
FRACTIONS = {"royaumes": {"fine"}, "nessos": {"bluff"}}  # exact-fraction parameters (tested in the games' tests)
TEXTS = {
    "nessos": {"hand", "seen", "bots"},
    "nyx": {"blocked", "bots"},
    "entheos": {"bots"},
}  # card, cell and bot lists (tested in the games' tests)
COMMANDS = {"report", "simulate", "serve", "games"}
EXACT = re.compile(r"^-?\d+(/\d+)?$")


def run_cli(capsys, *argv):
    code = cli.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def run_json(capsys, *argv):
    code, out, err = run_cli(capsys, *argv, "--json")
    assert code == 0, err
    return json.loads(out)


def few_counts(game, n=5):
    """`--set NAME=n` for each of the game's own counts of trials beside --trials (`Rules.counts`,
    e.g. Nyx's whole games): a quick simulation."""
    return [a for name in games.get(game).Rules.counts for a in ("--set", f"{name}={n}")]


def check_contract(doc, game, method):
    assert set(doc) == {"game", "rules", "figures"}
    assert doc["game"] == game
    assert set(doc["rules"]) == (
        set(PARAMS[game]) | set(CHOICES.get(game, {})) | FRACTIONS.get(game, set()) | TEXTS.get(game, set())
    )
    for name, fig in doc["figures"].items():
        assert set(fig) == {"exact", "value", "ci", "method", "trials"}, name
        assert fig["method"] in {"exact", "monte-carlo", "value-iteration"}
        assert (fig["trials"] is None) == (fig["method"] != "monte-carlo"), name
        assert fig["method"] == method or (method == "exact" and fig["method"] == "value-iteration")
        if fig["exact"] is not None:
            assert EXACT.match(fig["exact"]), fig["exact"]
            x = Fraction(fig["exact"])
            assert fig["exact"] == (str(x.numerator) if x.denominator == 1 else f"{x.numerator}/{x.denominator}")
            assert fig["value"] == pytest.approx(float(x), rel=1e-12)
            assert fig["ci"] is None
        elif fig["ci"] is not None:
            lo, hi = fig["ci"]
            assert lo <= fig["value"] <= hi
        else:
            assert fig["method"] == "value-iteration"  # floats, accuracy stated in the help


# -- the commands ----------------------------------------------------------------------------------
def test_games_lists_every_game(capsys):
    code, out, err = run_cli(capsys, "games")
    assert code == 0 and err == ""
    lines = out.splitlines()
    assert (
        [line.split()[0] for line in lines]
        == list(games.GAMES)
        == [
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
        ]
    )


@pytest.mark.parametrize("game", sorted(REQUIRED))
def test_report_json_contract_and_required_figures(capsys, game):
    doc = run_json(capsys, "report", game)
    check_contract(doc, game, "exact")
    assert REQUIRED[game] <= set(doc["figures"])


@pytest.mark.parametrize("game", sorted(REQUIRED))
def test_report_table(capsys, game):
    code, out, err = run_cli(capsys, "report", game)
    assert code == 0 and err == ""
    assert out.splitlines()[0].startswith(game)
    for name in REQUIRED[game]:
        assert name in out


def test_report_values_against_hand_derivations(capsys):
    """Order, 2 players: P(unique) = 1 - sum p_k^2 over 2d6; Renard: 1/36, (payout - 35)/36, 35."""
    two = Counter(a + b for a, b in product(range(1, 7), repeat=2))
    tie = sum(Fraction(c, 36) ** 2 for c in two.values())
    doc = run_json(capsys, "report", "order", "--set", "players=2")
    assert doc["rules"] == {"players": 2}
    assert Fraction(doc["figures"]["p_unique_first_roll"]["exact"]) == 1 - tie
    assert Fraction(doc["figures"]["expected_rounds"]["exact"]) == 1 / (1 - tie)
    doc = run_json(capsys, "report", "renard", "--set", "payout=20", "--set", "rounds=5")
    f = doc["figures"]
    assert doc["rules"]["payout"] == 20 and doc["rules"]["rounds"] == 5
    assert f["p_win"]["exact"] == "1/36"
    assert Fraction(f["ev_per_stake"]["exact"]) == Fraction(20 - 35, 36)
    assert Fraction(f["house_edge"]["exact"]) == Fraction(35 - 20, 36)
    assert f["fair_payout"]["exact"] == "35"
    assert f["p_ruin"]["exact"] == "0"  # 50 stakes cannot be lost in 5 rounds


@pytest.mark.parametrize("game", sorted(REQUIRED))
def test_simulate_json_is_reproducible_and_follows_the_contract(capsys, game):
    a = run_json(capsys, "simulate", game, "--trials", "3000", "--seed", "5", *few_counts(game))
    b = run_json(capsys, "simulate", game, "--trials", "3000", "--seed", "5", *few_counts(game))
    assert a == b
    check_contract(a, game, "monte-carlo")
    for fig in a["figures"].values():
        assert fig["exact"] is None
    # every simulated figure that the exact report also has is a named figure of the game
    assert set(a["figures"]) & REQUIRED[game]


def test_simulate_table(capsys):
    code, out, err = run_cli(capsys, "simulate", "order", "--trials", "2000", "--seed", "1", "--set", "players=3")
    assert code == 0 and err == ""
    assert "monte-carlo" in out and "players=3" in out


@pytest.mark.timeout(60)
def test_simulate_with_workers_matches_the_local_run(capsys):
    """A local Dask cluster gives the same figures, to the bit, as the run in this process."""
    local = run_json(capsys, "simulate", "boue", "--trials", "4000", "--seed", "3")
    remote = run_json(capsys, "simulate", "boue", "--trials", "4000", "--seed", "3", "--workers", "1")
    assert remote == local


# -- bad input -------------------------------------------------------------------------------------
def assert_usage_error(code, out, err):
    assert code == 2, (code, out, err)
    assert err.endswith("\n") and err.count("\n") == 1, err
    assert err.startswith("nessus: error:"), err
    assert "Traceback" not in err
    assert out == ""


BAD = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
# no '=' (it would split NAME=VALUE), no NUL (not allowed in a real argv), no leading '-'
plain_text = st.text(st.characters(blacklist_characters="=\x00", blacklist_categories=("Cs",)), max_size=12)


@BAD
@given(
    st.sampled_from(["report", "simulate"]), plain_text.filter(lambda t: t not in games.GAMES and not t.startswith("-"))
)
def test_unknown_game(capsys, command, name):
    code, out, err = run_cli(capsys, command, name)
    assert_usage_error(code, out, err)
    assert "allowed: order, renard, boue" in err or "required" in err


@BAD
@given(st.sampled_from(sorted(PARAMS)), plain_text, st.text(max_size=6))
def test_unknown_parameter(capsys, game, name, value):
    if name.strip() in PARAMS[game]:
        name = name + "x"
    code, out, err = run_cli(capsys, "report", game, "--set", f"{name}={value}")
    assert_usage_error(code, out, err)


def _out_of_range_or_not_an_integer(lo, hi):
    def bad(text):
        try:
            return not lo <= int(text.strip()) <= hi
        except ValueError:
            return True

    return st.one_of(
        st.integers().filter(lambda v: not lo <= v <= hi).map(str),
        st.floats(allow_nan=True, allow_infinity=True).map(str),
        st.text(max_size=8).filter(bad),
    )


@BAD
@given(st.data())
def test_bad_parameter_values(capsys, data):
    game = data.draw(st.sampled_from(sorted(PARAMS)))
    name = data.draw(st.sampled_from(sorted(PARAMS[game])))
    lo, hi = PARAMS[game][name]
    value = data.draw(_out_of_range_or_not_an_integer(lo, hi))
    command = data.draw(st.sampled_from(["report", "simulate"]))
    extra = ["--trials", "10"] if command == "simulate" else []
    code, out, err = run_cli(capsys, command, game, *extra, "--set", f"{name}={value}")
    assert_usage_error(code, out, err)
    assert name in err and f"from {lo} to {hi}" in err


@BAD
@given(st.data())
def test_bad_switch_and_choice_values(capsys, data):
    game = data.draw(st.sampled_from(sorted(CHOICES)))
    name = data.draw(st.sampled_from(sorted(CHOICES[game])))
    allowed = CHOICES[game][name]
    value = data.draw(
        st.text(max_size=8).filter(
            lambda t: t.strip().lower() not in {a.lower() for a in allowed} | {"yes", "no", "1", "0"}
        )
    )
    code, out, err = run_cli(capsys, "report", game, "--set", f"{name}={value}")
    assert_usage_error(code, out, err)
    assert name in err


def test_switch_and_choice_values_are_accepted(capsys):
    for game, params in CHOICES.items():
        for name, allowed in params.items():
            for value in allowed:
                doc = run_json(capsys, "report", game, "--set", f"{name}={value}")
                assert str(doc["rules"][name]).lower() == value.lower()


def _not_a_positive_int(text):
    try:
        return int(text) <= 0
    except ValueError:
        return True


@BAD
@given(
    st.sampled_from(sorted(PARAMS)),
    st.sampled_from(["--trials", "--seed", "--workers"]),
    st.one_of(st.integers(max_value=0).map(str), st.text(max_size=8)).filter(_not_a_positive_int),
)
def test_bad_trials_seed_workers(capsys, game, option, value):
    if option == "--seed" and value.strip().lstrip("0") == "" and value.strip():
        value = "-1"  # "0" is a valid seed
    code, out, err = run_cli(capsys, "simulate", game, option, value)
    assert_usage_error(code, out, err)


def _not_help(token):
    return not (token.startswith("-h") or (token.startswith("--h") and "--help".startswith(token.split("=")[0])))


@BAD
@given(
    st.lists(
        st.text(st.characters(blacklist_characters="\x00", blacklist_categories=("Cs",)), max_size=10).filter(
            lambda t: t not in COMMANDS and _not_help(t)
        ),
        max_size=6,
    )
)
def test_garbage_argv(capsys, argv):
    """Lists of text with no command in them: always a usage error."""
    code, out, err = run_cli(capsys, *argv)
    assert_usage_error(code, out, err)


@pytest.mark.parametrize(
    "argv",
    [
        [],
        ["report"],
        ["simulate"],
        ["report", "order", "--set", "players"],
        ["report", "order", "--set", "=3"],
        ["report", "order", "--bogus"],
        ["simulate", "order", "--trials", "0"],
        ["simulate", "order", "--trials", "-5"],
        ["simulate", "order", "--trials", "1e5"],
        ["simulate", "order", "--seed", "-1"],
        ["report", "renard", "--set", "stake=10", "--set", "bankroll=9"],
        ["report", "boue", "--set", "dice=2.5"],
        ["serve", "--port", "0"],
        ["games", "extra"],
    ],
)
def test_known_bad_inputs(capsys, argv):
    code, out, err = run_cli(capsys, *argv)
    assert_usage_error(code, out, err)


def test_error_names_the_parameter_and_range(capsys):
    code, out, err = run_cli(capsys, "report", "renard", "--set", "payout=0")
    assert_usage_error(code, out, err)
    assert "payout" in err and "from 1 to 100" in err and "got 0" in err


def test_module_entry_point_prints_one_line_and_exits_2():
    done = subprocess.run(
        [sys.executable, "-m", "nessus.cli", "report", "nope"], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.count("\n") == 1 and done.stderr.startswith("nessus: error:")
    assert "unknown game 'nope'" in done.stderr


def test_serve_command_line():
    cmd = cli.serve_command(9000, preheat=False, engine="voila")
    assert cmd[:3] == [sys.executable, "-m", "nessus.serving"]
    assert "--port=9000" in cmd and "--no-browser" in cmd
    assert not any(c.startswith("--preheat") for c in cmd)
    assert "--preheat_kernel=True" in cli.serve_command(engine="voila")  # preheated kernels by default
    assert {"--preheat_kernel=True", "--pool_size=2"} <= set(cli.serve_command(pool_size=2, engine="voila"))
    solara = cli.serve_command(9000, ip="0.0.0.0", max_viewers=7, engine="solara")
    assert solara[:3] == [sys.executable, "-m", "nessus.solara_app"]
    assert {"--port=9000", "--ip=0.0.0.0", "--max-viewers=7"} <= set(solara)


def test_a_report_imports_only_its_own_game():
    """Games are imported on first use, so `nessus report order` stays quick."""
    import subprocess
    import sys

    code = (
        "import sys, contextlib, io; from nessus import cli\n"
        "with contextlib.redirect_stdout(io.StringIO()): cli.main(['report', 'order'])\n"
        "print(sorted({m.split('.')[2] for m in sys.modules if m.startswith('nessus.games.')}))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "['order']"


# -- Ctrl-C and long simulations -------------------------------------------------------------------
LONG_LINE = re.compile(
    r"^nessus: about (.+) for ([\d,]+) trials at ~([\d,.]+) trials/s; "
    r"Ctrl-C stops and prints the figures so far$"
)
STOP_LINE = re.compile(r"^nessus: interrupted after ([\d,]+) of ([\d,]+) trials; figures from those$")
HUGE = 10**12  # hours of work for any game


def _seconds(duration):
    """'4 h 50 min' -> (17400, the unit of its last figure in seconds)."""
    units = {"d": 86400, "h": 3600, "min": 60}
    parts = duration.split()
    pairs = list(zip(map(int, parts[::2]), parts[1::2]))
    return sum(n * units[u] for n, u in pairs), units[pairs[-1][1]]


def _default_sigint() -> None:
    """In the child, before exec: SIGINT back to its default disposition."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def interrupt_after_the_estimate(*argv, wait=1.0, group=False):
    """Start `nessus simulate ...` with a huge --trials, wait for its estimate line, let it run
    `wait` seconds more and send it SIGINT (to its whole process group with `group`, as Ctrl-C in
    a terminal does): (exit code, stdout, stderr lines).

    The child starts with SIGINT at its default disposition whatever this process inherited: a
    background job of a non-interactive shell starts with SIGINT ignored, an ignored signal stays
    ignored across exec, and Python then installs no KeyboardInterrupt handler."""
    child = subprocess.Popen(
        [sys.executable, "-m", "nessus.cli", *argv],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=group,
        preexec_fn=_default_sigint,
    )
    try:
        first = child.stderr.readline()
        time.sleep(wait)
        if group:
            os.killpg(child.pid, signal.SIGINT)
        else:
            child.send_signal(signal.SIGINT)
        out, rest = child.communicate(timeout=120)
    finally:
        child.kill()
    return child.returncode, out, [first.rstrip("\n"), *rest.splitlines()]


def check_estimate(line, trials):
    """The estimate line: the duration said is trials / the rate said, to their rounding."""
    duration, said_trials, rate = LONG_LINE.match(line).groups()
    assert int(said_trials.replace(",", "")) == trials
    seconds, unit = _seconds(duration)
    expected = trials / float(rate.replace(",", ""))
    assert seconds > 60 and abs(seconds - expected) <= unit / 2 + 0.006 * expected, (line, expected)


def check_stop(line, requested):
    done, asked = (int(x.replace(",", "")) for x in STOP_LINE.match(line).groups())
    assert asked == requested and 0 < done < requested
    return done


@pytest.mark.timeout(180)
def test_ctrl_c_prints_the_figures_so_far_as_json(capsys):
    """La Boue makes two runs (turns, then games): the figures after Ctrl-C are those of an
    uninterrupted run of the trials both finished, with the JSON contract plus `interrupted`."""
    code, out, err = interrupt_after_the_estimate("simulate", "boue", "--trials", str(HUGE), "--seed", "3", "--json")
    assert code == cli.INTERRUPTED == 130, err
    assert not any("Traceback" in line for line in err) and len(err) == 2, err
    check_estimate(err[0], HUGE)
    done = check_stop(err[1], HUGE)
    doc = json.loads(out)
    assert doc.pop("interrupted") == {"trials_done": done, "trials_requested": HUGE}
    check_contract(doc, "boue", "monte-carlo")
    assert doc == run_json(capsys, "simulate", "boue", "--trials", str(done), "--seed", "3")


@pytest.mark.timeout(180)
def test_ctrl_c_prints_the_figures_so_far_as_a_table(capsys):
    code, out, err = interrupt_after_the_estimate("simulate", "order", "--trials", str(HUGE), "--seed", "8")
    assert code == 130 and not any("Traceback" in line for line in err) and len(err) == 2, err
    check_estimate(err[0], HUGE)
    done = check_stop(err[1], HUGE)
    assert out.startswith("order (players=4)") and all(name in out for name in REQUIRED["order"])
    assert run_cli(capsys, "simulate", "order", "--trials", str(done), "--seed", "8") == (0, out, "")


@pytest.mark.timeout(180)
def test_ctrl_c_to_the_process_group_with_dask_workers(capsys):
    """The worker processes ignore Ctrl-C: only the two lines, and the figures of a local run."""
    code, out, err = interrupt_after_the_estimate(
        "simulate", "order", "--trials", str(HUGE), "--workers", "2", "--json", wait=3.0, group=True
    )
    assert code == 130 and len(err) == 2, err
    check_estimate(err[0], HUGE)
    done = check_stop(err[1], HUGE)
    doc = json.loads(out)
    assert doc.pop("interrupted")["trials_done"] == done
    assert doc == run_json(capsys, "simulate", "order", "--trials", str(done))


def test_a_simulation_under_a_minute_says_nothing_first(capsys):
    code, out, err = run_cli(capsys, "simulate", "order", "--trials", str(3 * montecarlo.CHUNK + 5), "--json")
    assert code == 0 and err == ""
    assert "interrupted" not in json.loads(out)


def test_duration_and_rate_wording():
    assert [cli._duration(s) for s in (61, 749, 3600, 17_400, 86_400 * 3 + 3600 * 4)] == [
        "1 min",
        "12 min",
        "1 h",
        "4 h 50 min",
        "3 d 4 h",
    ]
    assert [cli._rate(r) for r in (575_123.4, 1_234_567, 99.44, 1_000)] == ["575,000", "1,230,000", "99.4", "1,000"]


def stopping_kernel(kernel, k):
    calls = []

    def stopping(*args):
        calls.append(1)
        if len(calls) == k:
            raise KeyboardInterrupt
        return kernel(*args)

    return stopping


def test_ctrl_c_in_the_fourth_chunk_gives_the_first_three(capsys, monkeypatch):
    """Chunk 0 runs first (timed), then is reused; Ctrl-C during the 4th kernel call (chunk 3):
    the figures of chunks 0-2, exactly `--trials 3 * CHUNK`."""
    from nessus.games.order import fast

    expected = run_cli(capsys, "simulate", "order", "--trials", str(3 * montecarlo.CHUNK), "--json")
    monkeypatch.setattr(fast, "kernel", stopping_kernel(fast.kernel, 4))
    code, out, err = run_cli(capsys, "simulate", "order", "--trials", str(10 * montecarlo.CHUNK), "--json")
    assert code == 130
    doc = json.loads(out)
    assert doc.pop("interrupted") == {"trials_done": 3 * montecarlo.CHUNK, "trials_requested": 10 * montecarlo.CHUNK}
    assert doc == json.loads(expected[1])
    assert {f["trials"] for f in doc["figures"].values()} == {3 * montecarlo.CHUNK}  # those done
    assert err == (
        f"nessus: interrupted after {3 * montecarlo.CHUNK:,} of {10 * montecarlo.CHUNK:,} trials; figures from those\n"
    )


def test_ctrl_c_before_any_chunk_prints_one_line(capsys, monkeypatch):
    from nessus.games.order import fast

    monkeypatch.setattr(fast, "kernel", stopping_kernel(fast.kernel, 1))
    assert run_cli(capsys, "simulate", "order", "--trials", "1000000") == (
        130,
        "",
        "nessus: interrupted after 0 of 1,000,000 trials; no figures\n",
    )


# -- help for a game -------------------------------------------------------------------------------
def _figure_lines(out):
    """The names at the start of the lines of the figures section (help runs on indented deeper)."""
    return {line.split()[0] for line in out.split("\nfigures (")[1].splitlines()[1:] if re.match(r"  \S", line)}


@pytest.mark.parametrize("game", list(games.GAMES))
def test_help_lists_the_games_parameters_and_figures(capsys, game):
    module = games.get(game)
    simulated = module.simulate(module.Rules().fewest_counts(), 100, 1, progress=False).figures
    for command, figures in (("report", module.report(module.Rules()).figures), ("simulate", simulated)):
        code, out, err = run_cli(capsys, command, game, "--help")
        assert code == 0 and err == ""
        assert out.startswith(f"usage: nessus {command} {game} ")
        words = " ".join(out.split())
        for p in module.Rules.params:
            assert re.search(rf"^  {p.name} ", out, re.MULTILINE), p.name
            assert p.help in words and p.allowed() in words
        assert _figure_lines(out) == set(figures)
        assert all(f.help in words for f in figures.values())
        assert ("--trials" in out) == (command == "simulate")


def test_help_names_the_figures_of_the_rules_given(capsys, tmp_path):
    path = tmp_path / "state.json"
    path.write_text(json.dumps({"row": ["2"]}))
    code, out, err = run_cli(capsys, "report", "nessie", "--set", f"state={path}", "--help")
    assert code == 0 and err == "" and f"these rules: state={path}" in out
    rules = games.get("nessie").Rules(state=str(path))
    assert _figure_lines(out) == set(games.get("nessie").report(rules).figures) >= {"p_sink_next"}


@pytest.mark.parametrize("command", ["report", "simulate"])
def test_help_without_a_game_lists_the_games(capsys, command):
    code, out, err = run_cli(capsys, command, "--help")
    assert code == 0 and err == "" and out.startswith(f"usage: nessus {command}")
    assert all(name in out for name in games.GAMES)


@pytest.mark.parametrize("command", ["report", "simulate"])
def test_help_for_an_unknown_game_is_a_usage_error(capsys, command):
    code, out, err = run_cli(capsys, command, "nope", "--help")
    assert_usage_error(code, out, err)
    assert "unknown game 'nope'" in err
