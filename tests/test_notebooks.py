"""The notebooks: each lesson and dashboard runs top to bottom in a fresh kernel without an
error and without a bare `False` shown (a check that does not hold: lessons state their checks with
`nessus.lesson.check`, which fails the cell, but a comparison left at the end of a cell would only
show `False`), and every notebook in the repository is committed without outputs.

Widget callbacks (`interactive_output`) run once when a cell displays them; what they print
lands in the Output widget's state, so errors there are looked for too.
"""

from __future__ import annotations

import re
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

from nessus.kernels import install_channel_fix
from nessus.publish import chart_svg

ROOT = Path(__file__).resolve().parent.parent
RUN = sorted([*ROOT.glob("notebooks/*.ipynb"), *ROOT.glob("dashboards/*.ipynb")])
SKIP_DIRS = {"build", "dist", "node_modules", "test-artifacts"}
WIDGET_STATE = "application/vnd.jupyter.widget-state+json"
VEGALITE = "application/vnd.vegalite.v5+json"
CELL_TIMEOUT = 300
ANSI = re.compile(r"\x1b\[[0-9;]*m")
BARE_FALSE = {"False", "np.False_"}  # Python's and numpy's


def repo_notebooks() -> list[Path]:
    """Every .ipynb in the repository, outside hidden folders (.venv, .git, checkpoints) and build output."""
    found = []
    for path in ROOT.rglob("*.ipynb"):
        parts = path.relative_to(ROOT).parts[:-1]
        if not any(p.startswith(".") or p in SKIP_DIRS for p in parts):
            found.append(path)
    return sorted(found)


def _ident(path: Path) -> str:
    return str(path.relative_to(ROOT))


class _Client(NotebookClient):
    """A NotebookClient with the channel fix the dashboards server uses (nessus.serving)."""


install_channel_fix(_Client)


def _problems(outputs: list, where: str) -> list[str]:
    """Error outputs, stderr streams carrying a traceback, a result that is a bare `False`, and charts
    Vega-Lite cannot draw (a field name with a quote, say: the browser then shows an error instead of the chart)."""
    found = []
    for out in outputs:
        if out.get("output_type") == "execute_result" and out.get("data", {}).get("text/plain") in BARE_FALSE:
            found.append(f"{where}: shows a bare False (a check that does not hold)")
        spec = out.get("data", {}).get(VEGALITE)
        if spec is not None:
            try:
                chart_svg(spec)
            except ValueError as e:
                found.append(f"{where}: a chart Vega-Lite cannot draw: {str(e).splitlines()[0]}")
        if out.get("output_type") == "error":
            trace = ANSI.sub("", "\n".join(out.get("traceback", [])))
            found.append(f"{where}: {out.get('ename')}: {out.get('evalue')}\n{trace}")
        elif out.get("output_type") == "stream" and out.get("name") == "stderr" and "Traceback" in out.get("text", ""):
            found.append(f"{where}: traceback on stderr\n{out['text']}")
    return found


def test_problems_finds_a_bare_false():
    shown = [
        {"output_type": "execute_result", "data": {"text/plain": "True"}, "metadata": {}},
        {"output_type": "execute_result", "data": {"text/plain": "(False, 3)"}, "metadata": {}},
        {"output_type": "stream", "name": "stdout", "text": "False"},
    ]
    assert _problems(shown, "cell 1") == []
    bare = [{"output_type": "execute_result", "data": {"text/plain": text}, "metadata": {}} for text in BARE_FALSE]
    assert _problems([*shown, *bare], "cell 7") == ["cell 7: shows a bare False (a check that does not hold)"] * 2


def test_notebooks_are_found():
    names = {p.name for p in RUN}
    assert {"01-le-renard-one-in-36.ipynb", "02-la-boue.ipynb"} <= names


@pytest.mark.parametrize("path", RUN, ids=_ident)
def test_notebook_runs(path: Path):
    nb = nbformat.read(path, as_version=4)
    client = _Client(
        nb,
        timeout=CELL_TIMEOUT,
        kernel_name="python3",
        allow_errors=True,  # run every cell, then report all the errors at once
        resources={"metadata": {"path": str(path.parent)}},
    )
    client.execute()
    problems = []
    for i, cell in enumerate(nb.cells):
        if cell.cell_type == "code":
            problems += _problems(cell.outputs, f"cell {i}")
    state = nb.metadata.get("widgets", {}).get(WIDGET_STATE, {}).get("state", {})
    for model_id, model in state.items():
        if model.get("model_name") == "OutputModel":
            problems += _problems(model.get("state", {}).get("outputs", []), f"output widget {model_id}")
    assert not problems, f"{_ident(path)}:\n" + "\n\n".join(problems)


@pytest.mark.parametrize("path", repo_notebooks(), ids=_ident)
def test_notebook_committed_without_outputs(path: Path):
    nb = nbformat.read(path, as_version=4)
    dirty = [
        i
        for i, cell in enumerate(nb.cells)
        if cell.cell_type == "code" and (cell.get("outputs") != [] or cell.get("execution_count") is not None)
    ]
    assert not dirty, f"{_ident(path)}: cells {dirty} have outputs or an execution count; clear them before committing"
