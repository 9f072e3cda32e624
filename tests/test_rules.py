"""Parameter kinds: switches and text limited to choices."""

import pytest

from nessus.rules import Param


def test_switch_parameter():
    p = Param("sticky_holds", False, False, True, "held dice stay held", kind=bool)
    assert p.check(True) is True and p.parse(" Yes ") is True and p.parse("0") is False
    for bad in (1, 0, "true", None):
        with pytest.raises(ValueError, match="sticky_holds must be true or false"):
            p.check(bad)
    with pytest.raises(ValueError, match="sticky_holds must be true or false, got 'maybe'"):
        p.parse("maybe")


def test_choice_parameter():
    p = Param("tie_break", "A", 1, 1, "tie-break variant", kind=str, choices=("A", "B"))
    assert p.check("B") == "B" and p.parse(" A ") == "A"
    for bad in ("C", "", 1, None):
        with pytest.raises(ValueError, match="tie_break must be one of A, B"):
            p.check(bad)
