"""The table-game kit's drawing: your seat's row tinted and the scrolling log."""

from nessus.kit.tablegame import log_box, tinted


def test_tinted_row_and_log_box():
    assert tinted(True) == "background:#fff4e5;border-top:1px solid #ddd"
    assert tinted(False, "2px solid #bbb") == "border-top:2px solid #bbb"
    box = log_box([f"line {i}" for i in range(5)], "tresse", 3, "190px", "1.6")
    assert "max-height:190px" in box and "line-height:1.6" in box
    assert "class='nessus-log tresse-log' data-lines='5'" in box
    assert box.index("line 4") < box.index("line 3") and "line 1" not in box
