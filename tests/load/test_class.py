"""The load test in CI: ten students at once on Le Palais, on Voila (lesson mode) and on Solara
(default settings: `dev.py load --default` runs Voila's default settings, left out of CI for the
suite's time).

The students open the page and wait for the first chart; once every page is up they all press
Roll at the same moment and wait for the page's answer (the roll counter moving on), then all
press Hint and wait for the hint's table. Prints what the class gets (first chart and
click-to-answer p50 / p95 / max, lost pages, the server's CPU per page and per click, the
browsers' apart, the server's memory) and saves it in $NESSUS_ARTIFACTS/load-<engine>-<mode>.json
(`phases`: each phase's seconds per student), the server's log beside it, with a lost page's
screenshot; `python3 dev.py load --students 30 --engine both` runs the full class. Speed is
printed, not asserted: a test fails only when a page is lost (no chart within
classload.PAGE_TIMEOUT seconds), a click is not answered within classload.ANSWER_TIMEOUT seconds,
or a page shows an error.
"""

from __future__ import annotations

import dataclasses
import json

import pytest
from browser import ARTIFACTS
from classload import run_class

STUDENTS = 10


@pytest.mark.browser
@pytest.mark.parametrize(
    ("engine", "lesson", "spread"),
    [("voila", True, 10.0), ("solara", False, 0.0)],
    ids=["voila-lesson-mode", "solara"],
)
def test_ten_students_all_get_a_chart_and_answers(engine, lesson, spread):
    from browser import browser_or_skip

    browser_or_skip()
    result = run_class(STUDENTS, "le-palais", lesson, spread, ARTIFACTS, engine)
    print("\n" + result.summary())
    (ARTIFACTS / f"{result.slug}.json").write_text(json.dumps(dataclasses.asdict(result), indent=2))
    pages = result.phases[0]
    assert result.lost == 0 and len(pages.seconds) == STUDENTS, result.summary()
    assert [p.name for p in result.phases] == ["pages", "Roll", "Hint"], result.summary()
    for clicks in result.clicks():
        assert clicks.count == len(clicks.seconds) == STUDENTS, result.summary()
    assert not result.errors, result.summary()
