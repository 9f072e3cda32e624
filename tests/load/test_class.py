"""The load test in CI: ten students at once, in lesson mode and with default settings.

Every student presses Roll once the first chart is drawn and waits for the page's answer (the
roll counter moving on). Prints what the class gets (first chart and Roll-to-answer p50 / p95 /
max, lost pages, server and browser CPU per page, kernel memory) and saves it in
test-artifacts/load-<mode>.json (`first_chart` and `answer`: each student's seconds);
`python3 dev.py load --students 30` runs the full class. Speed is printed, not asserted: the test
fails only when a page is lost (no chart within classload.PAGE_TIMEOUT seconds), a Roll is not
answered within classload.ANSWER_TIMEOUT seconds, or a page shows an error.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest
from classload import run_class

STUDENTS = 10
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"


@pytest.mark.browser
@pytest.mark.parametrize("lesson", [True, False], ids=["lesson-mode", "default-settings"])
def test_ten_students_all_get_a_chart(lesson):
    from browser import browser_or_skip

    browser_or_skip()
    ARTIFACTS.mkdir(exist_ok=True)
    mode = "lesson" if lesson else "default"
    result = run_class(
        STUDENTS, "le-palais", lesson=lesson, spread=10.0 if lesson else 0.0, log=ARTIFACTS / f"load-{mode}-voila.log"
    )
    print("\n" + result.summary())
    (ARTIFACTS / f"load-{mode}.json").write_text(json.dumps(dataclasses.asdict(result), indent=2))
    assert result.lost == 0 and len(result.first_chart) == STUDENTS, result.summary()
    assert len(result.answer) == STUDENTS, result.summary()
    assert not result.errors, result.summary()
