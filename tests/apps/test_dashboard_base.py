"""The dashboard base without a browser: a bad value in a field disables the actions it feeds
until it is corrected, the page's settings from its address, the downloads."""

from __future__ import annotations

import base64

from nessus.games.boue.page import BoueDashboard
from nessus.games.renard.page import RenardDashboard
from nessus.kit.common import TableHTML


def test_a_bad_value_disables_roll_until_corrected():
    d = RenardDashboard(seed=1)
    assert not d.roll_button.disabled
    d.fields["stake"].widget.value = "0"
    assert "stake must be an integer from 1 to 1000" in d.messages.widget.value
    assert d.roll_button.disabled and d.play_button.disabled and d.new_button.disabled
    d.payout.value = 12  # another control changed: the bad value still stands
    assert d.roll_button.disabled and "stake" in d.messages.widget.value
    d.fields["stake"].widget.value = "2"
    assert d.messages.widget.value == ""
    assert not d.roll_button.disabled and not d.new_button.disabled
    d.roll_button.click()
    assert d.rules.stake == 2 and d.rules.payout == 12
    assert len(d.table.history) == 1 and d.table.history[-1][1] in (-2, 24)  # played under the corrected rules


def test_a_bad_dice_count_disables_la_boue_roll():
    d = BoueDashboard(seed=1)
    d.dice_field.widget.value = "x"
    assert d.roll_button.disabled and d.messages.widget.value
    d.dice_field.widget.value = "4"
    assert not d.roll_button.disabled and d.rules.dice == 4


def test_settings_from_the_address(monkeypatch):
    monkeypatch.setenv("QUERY_STRING", "projector=1&numbers=percent")
    d = RenardDashboard(seed=1)
    assert "projector" in d.view._dom_classes and "fmt-percent" in d.view._dom_classes
    d.number_format.value = "decimal"
    assert "fmt-decimal" in d.view._dom_classes and "fmt-percent" not in d.view._dom_classes


def test_links_to_the_gallery_and_the_lesson():
    links = RenardDashboard(seed=1).links_html()
    assert "href='index.ipynb'" in links
    assert "lessons/01-le-renard-one-in-36.html" in links


def test_tables_and_charts_can_be_downloaded():
    d = RenardDashboard(seed=1)
    assert "download='le-renard-figures.csv'" in d.figures.value
    href = d.figures.value.split("href='data:text/csv;base64,")[1].split("'")[0]
    text = base64.b64decode(href).decode()
    assert "chance of a triple on one roll,1/36," in text
    assert "download='le-renard-ruin.csv'" in d.ruin_chart.download.value
    w = TableHTML(name="t", value="<p>no table</p>")
    assert w.value == "<p>no table</p>"


def test_no_figure_keys_on_the_page():
    d = RenardDashboard(seed=1)
    for key in ("p_win", "ev_per_stake", "house_edge", "p_ruin"):
        assert key not in d.figures.value.split("<div class='nessus-downloads'>")[0]
