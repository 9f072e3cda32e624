"""Nessie's rules: the state file (a file or a dict), read and checked."""

import itertools
import json
from fractions import Fraction

import pytest

from nessus import cli
from nessus.games import nessie
from nessus.games.nessie.cards import CHAIN, LETTERS, Hand, neighbours, sunk, take


def test_state_file(tmp_path):
    state = {
        "row": ["2", "A", "3"],
        "own": {"letters": ["A", "B"], "treasures": [3, 1]},
        "others": [{"letters": ["C"], "treasures": [2]}],
        "discards_seen": ["D", "1"],
    }
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
        ('{"row": ["X"]}', 'row[0] must be a card: "1", "2", "3" (or the numbers 1, 2, 3) or "A".."F"; got "X"'),
        ('{"own": {"letters": ["A", "A"]}}', 'own holds the letter "A" 2 times'),
        (
            '{"row": ["A", "A", "A", "A", "A", "A", "A", "A", "A"]}',
            'the deck holds 8 cards "A" (per_letter=8) but the state shows 9',
        ),
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


# -- states that cannot happen -------------------------------------------------------------------
IMPOSSIBLE = [  # (state, rules, what the one-line message must say)
    ({"row": ["3", "2", "1"]}, {}, "the row's treasures total 6; a row reaching 6 sinks the boat at once"),
    ({"row": ["B", "1", "B", "B"]}, {}, 'the row holds 3 cards "B"'),
    ({"row": ["C", "C"], "own": {"letters": ["C", "D"]}}, {}, 'the row\'s 2 cards "C" and your own "C" make 3'),
    ({"row": ["A"] * 5}, {"per_letter": 4}, 'the deck holds 4 cards "A" (per_letter=4) but the state shows 5'),
    (
        {"own": {"treasures": [3] * 7}, "discards_seen": ["3"]},
        {"threes": 7},
        'the deck holds 7 cards "3" (threes=7) but the state shows 8',
    ),
    ({"own": {"letters": ["E", "E"]}}, {}, 'own holds the letter "E" 2 times'),
    ({"others": [{"letters": ["A", "C"]}]}, {}, "others[0] holds the letters A, C, which cannot be kept together"),
    ({"own": {"letters": list("FEDCBA")}}, {}, "own holds all six letters, so the game is over"),
    ({"others": [{}, {}, {}]}, {"players": 3}, "others lists 3 players, but with players=3 there are only 2 others"),
    (
        {"own": {"treasures": [4]}},
        {},
        'own treasures[0] must be a treasure: "1", "2", "3" or the numbers 1, 2, 3; got 4',
    ),
    ({"own": {"treasures": [1.5]}}, {}, "own treasures[0] must be a treasure"),
    ({"row": ["2", True]}, {}, "row[1] must be a card"),
    ({"discards_seen": [0]}, {}, "discards_seen[0] must be a card"),
    ({"own": {"treasures": "12"}}, {}, 'own treasures must be a list, each item a treasure: "1", "2", "3"'),
    ({"own": {"letters": [1]}}, {}, 'own letters[0] must be a letter "A".."F"; got 1'),
    ({"own": {"letters": ["3"]}}, {}, 'own letters[0] must be a letter "A".."F"; got "3"'),
    ({"others": [{"treasures": ["B"]}]}, {}, "others[0] treasures[0] must be a treasure"),
]


@pytest.mark.parametrize("state, rules, message", IMPOSSIBLE)
def test_impossible_states_are_rejected(state, rules, message):
    with pytest.raises(ValueError) as caught:
        nessie.situation_from_dict(state, nessie.Rules(**rules))
    assert str(caught.value).startswith("state: ") and message in str(caught.value)


@pytest.mark.parametrize("state, rules, message", IMPOSSIBLE)
def test_impossible_state_files_are_one_line_errors(tmp_path, capsys, state, rules, message):
    path = tmp_path / "state.json"
    path.write_text(json.dumps(state))
    sets = [a for name, value in rules.items() for a in ("--set", f"{name}={value}")]
    for command in (["report", "nessie"], ["simulate", "nessie", "--trials", "10"]):
        assert cli.main([*command, *sets, "--set", f"state={path}"]) == 2
        out, err = capsys.readouterr()
        assert out == "" and err.count("\n") == 1 and "Traceback" not in err
        assert err.startswith("nessus: error: state: ") and message in err


def test_treasures_may_be_written_as_numbers():
    """1, 2, 3 as JSON numbers are the cards "1", "2", "3" wherever a treasure can be."""
    words = {
        "row": ["3", "A", "1"],
        "own": {"letters": ["B", "C"], "treasures": ["1", "2"]},
        "others": [{"letters": ["E"], "treasures": ["3", "3"]}],
        "discards_seen": ["2", "F"],
    }
    numbers = {
        "row": [3, "A", 1],
        "own": {"letters": ["B", "C"], "treasures": [1, 2]},
        "others": [{"letters": ["E"], "treasures": [3, 3]}],
        "discards_seen": [2, "F"],
    }
    assert nessie.situation_from_dict(numbers) == nessie.situation_from_dict(words)
    assert nessie.situation_from_dict(numbers).pool["3"] == 12 - 3


def test_a_row_is_rejected_exactly_when_the_engine_says_it_has_sunk():
    """Every row of up to 3 cards, with no letter or an A in front of the player: rejected iff
    nessie.cards.sunk (the rule the game itself applies) says the row sinks that player."""
    kinds = ["1", "2", "3", *LETTERS]
    for size in range(4):
        for row in itertools.product(kinds, repeat=size):
            for letters in ([], ["A"]):
                state = {"row": list(row), "own": {"letters": letters}}
                if sunk(list(row), Hand(letters=letters)):
                    with pytest.raises(ValueError, match="the row has already sunk"):
                        nessie.situation_from_dict(state)
                else:
                    assert nessie.situation_from_dict(state).row == row


def test_held_letters_are_those_the_engine_lets_a_player_keep():
    """A set of letters is accepted iff some order of taking them keeps them all in the engine
    (nessie.cards.take with the chain adjacency), short of all six (the game is then over)."""
    adjacent = neighbours(CHAIN)
    for size in range(1, len(LETTERS) + 1):
        for letters in itertools.combinations(LETTERS, size):
            keepable = any(
                take(Hand(), list(order), adjacent)[0].letters == list(order)
                for order in itertools.permutations(letters)
            )
            state = {"own": {"letters": list(letters)}}
            if keepable and size < len(LETTERS):
                assert nessie.situation_from_dict(state).own_letters == frozenset(letters)
            else:
                with pytest.raises(ValueError, match="cannot be kept together|the game is over"):
                    nessie.situation_from_dict(state)
