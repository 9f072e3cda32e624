"""Entheos' rules: a bad parameter is named in the error, and every bot they name is a policy."""

from __future__ import annotations

import pytest

from nessus.games import entheos
from nessus.games.entheos.rules import BOT_NAMES


@pytest.mark.parametrize(
    ("field", "value"), [("players", 1), ("players", 7), ("turns", -1), ("war_turns", 61), ("bots", "greedy,wise")]
)
def test_bad_rules_name_the_parameter(field, value):
    with pytest.raises(ValueError, match=field):
        entheos.Rules(**{field: value})


def test_every_bot_the_rules_name_is_a_policy():
    assert set(BOT_NAMES) == set(entheos.policies())
    assert entheos.Rules(bots="card_3,passive").seat_bots == ("card_3", "passive", "card_3", "passive")
