"""The gallery in a real browser (helpers in browser.py, the voila `server` fixture in
conftest.py); each dashboard's own browser test is its game's tests/games/<name>/test_page.py.
This file sorts after tests/games/, so the gallery runs after the pages: its link click takes a
preheated kernel, and the pool refilling would compete with the next page's timings."""

from __future__ import annotations

import re
import time

import pytest
from browser import (
    ARTIFACTS,
    fits,
    no_errors,
    record,
)
from playwright.sync_api import expect

from nessus import games
from nessus.serving import dashboard_path

GALLERY = games.with_dashboards()

pytestmark = pytest.mark.browser


def test_gallery_links_every_dashboard(server, page):
    start = time.perf_counter()
    page.goto(f"{server}/", timeout=30_000)
    page.wait_for_selector("a.nessus-card", timeout=10_000)
    shown = time.perf_counter() - start
    cards = page.locator("a.nessus-card")
    expect(cards).to_have_count(len(GALLERY))
    hrefs = [a.get_attribute("href") for a in cards.all()]
    assert hrefs == [dashboard_path(e.dashboard, server.engine) for e in GALLERY]
    expect(page).to_have_title(re.compile(r"^nessus"))
    for e in GALLERY:
        expect(page.locator("body")).to_contain_text(e.pitch, use_inner_text=True)
    expect(page.locator("text=Start here")).to_have_count(1)
    page.screenshot(path=str(ARTIFACTS / "gallery.png"), full_page=True)
    page.set_viewport_size({"width": 390, "height": 844})
    fits(page, 390)
    page.screenshot(path=str(ARTIFACTS / "gallery-390.png"), full_page=True)
    cards.first.click()
    page.wait_for_selector(".widget-output svg.marks", timeout=90_000)
    expect(page).to_have_url(re.compile(re.escape(dashboard_path(GALLERY[0].dashboard, server.engine)) + "$"))
    old = "voila/render/index.ipynb" if server.engine == "voila" else "index.ipynb"
    page.goto(f"{server}/{old}", timeout=30_000)  # the old gallery address, and the pages' link back
    expect(page).to_have_url(f"{server}/")
    expect(cards).to_have_count(len(GALLERY))
    no_errors(page)
    record("gallery", shown=shown)
