"""Nyx's rules: a bad parameter is named in the error."""

from __future__ import annotations

import pytest

from nessus.games import nyx


@pytest.mark.parametrize(
    ("params", "message"),
    [
        ({"blocked": "1,10"}, "blocked must be cells 1 to 9"),
        ({"k": 7}, "k must be at most dice = 6"),
        ({"size": 7}, "size must be at most dice = 6"),
        ({"shape": "Q4"}, "shape must be one of"),
        ({"bots": "odds,clever"}, "bots must name bots among greedy, odds, random_legal"),
    ],
)
def test_bad_rules_name_the_parameter(params, message):
    with pytest.raises(ValueError, match=message):
        nyx.Rules(**params)
