"""Publish the lessons as a static site that works offline (`nessus publish`).

Every lesson in `notebooks/` is executed in a fresh kernel, then made static:

- each altair chart (a Vega-Lite output) becomes an inline SVG drawn by vl-convert, here, at
  publish time (nbconvert alone would show "<VegaLite 5 object>");
- $...$ and $$...$$ in markdown become MathML, which browsers draw natively (no MathJax, no
  CDN); an expression latex2mathml cannot read is shown as code;
- each widget becomes a note linking to the lesson's live dashboard, followed by what its
  Output widgets showed with the controls at their starting values (charts as SVG too).

The pages use nbconvert's `lab` template without its CDN scripts (require.js, MathJax, the
widget manager, mermaid): nothing is loaded from the internet.
"""

from __future__ import annotations

import html
import re
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import nbformat
import vl_convert
from jinja2 import DictLoader
from latex2mathml.converter import convert
from nbclient import NotebookClient
from nbclient.exceptions import CellExecutionError
from nbconvert import HTMLExporter
from nbformat import NotebookNode

from nessus import games, paths
from nessus.game import Game
from nessus.kernels import install_channel_fix

LESSONS = paths.NOTEBOOKS
SITE = paths.SITE
DASHBOARDS_URL = (
    "../voila/render/"  # as `nessus serve` serves them: site/ under /lessons/, dashboards under /voila/render/
)
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
WIDGET_STATE = "application/vnd.jupyter.widget-state+json"
VEGALITE = re.compile(r"application/vnd\.vegalite\.v\d+\+json")
CELL_TIMEOUT = 600

MATH = re.compile(
    r"(?P<code>```.*?```|`[^`\n]*`)"
    r"|\$\$(?P<block>.+?)\$\$"
    r"|(?<![\\$\w])\$(?P<inline>[^\s$](?:[^$\n]*[^\s$\\])?)\$(?![\w$])",
    re.S,
)

TEMPLATE = """{%- extends 'index.html.j2' -%}
{%- block html_head_js -%}{%- endblock html_head_js -%}
{%- block jupyter_widgets -%}{%- endblock jupyter_widgets -%}
{%- block html_head_js_mathjax -%}{%- endblock html_head_js_mathjax -%}
{%- block html_head_js_mermaidjs -%}{%- endblock html_head_js_mermaidjs -%}
{%- block extra_css -%}
<style type="text/css">
nav.nessus-nav { margin: 1em 0 0 1em; font-family: var(--jp-ui-font-family); }
.nessus-widget-note { border-left: 4px solid #4c78a8; background: #f2f6fb; padding: 0.4em 1em; }
.jp-RenderedSVG svg { max-width: 100%; height: auto; }
math { font-size: 1.15em; }
math[display="block"] { margin: 0.6em 0; }
</style>
{%- endblock extra_css -%}
{%- block body_header -%}
{{ super() }}
<nav class="nessus-nav"><a href="index.html">&larr; All lessons</a></nav>
{%- endblock body_header -%}
{% block data_svg scoped -%}
<div class="jp-RenderedSVG jp-OutputArea-output {{ extra_class }}" data-mime-type="image/svg+xml">
{{ output.data['image/svg+xml'] }}
</div>
{%- endblock data_svg %}
"""

INDEX = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<title>Nessus: the lessons</title>
<style>
body {{ font-family: system-ui, sans-serif; max-width: 46em; margin: 2em auto; padding: 0 1em; line-height: 1.5; }}
li {{ margin: 0.6em 0; }}
.name {{ color: #666; font-size: 0.9em; }}
</style>
</head>
<body>
<h1>Nessus: the lessons</h1>
<p>Exact odds of the dice and card games of Nessus, counted by hand, checked by the engine and
by simulation. Each page is a lesson run from top to bottom; its controls are live in the
dashboards (<code>{serve}</code>) and in JupyterLab (<code>{lab}</code>).</p>
<ul>
{items}
</ul>
</body>
</html>
"""


class LessonFailed(Exception):
    """A lesson raised an error while it was executed."""


@dataclass(frozen=True)
class Page:
    """A published lesson: its notebook's name (without .ipynb), title and HTML file."""

    name: str
    title: str
    path: Path


def lessons(names: Sequence[str] = (), folder: Path = LESSONS) -> list[Path]:
    """The lesson notebooks named (by file name, stem or number, e.g. "01"), or all of them."""
    every = sorted(folder.glob("[0-9]*.ipynb"))
    if not names:
        return every
    chosen = []
    for name in names:
        found = [p for p in every if name in (p.name, p.stem) or p.stem.startswith(f"{name}-")]
        if len(found) != 1:
            raise ValueError(f"unknown lesson {name!r}; allowed: {', '.join(p.stem for p in every)}")
        chosen.append(found[0])
    return chosen


class _Client(NotebookClient):
    """A NotebookClient with the channel fix Voila's executor gets (nessus.serving)."""


install_channel_fix(_Client)


def dashboard_for(lesson: str) -> Game | None:
    """The gallery entry of a lesson's dashboard (the lesson named by its stem), if it has one."""
    return next((g for g in games.with_dashboards() if g.lesson == lesson), None)


def execute(nb: NotebookNode, path: Path, timeout: int = CELL_TIMEOUT) -> None:
    """Run every cell of `nb`, read from `path`, in a fresh kernel in its folder, keeping widget state."""
    try:
        _Client(
            nb, timeout=timeout, kernel_name="python3", resources={"metadata": {"path": str(path.parent)}}
        ).execute()
    except CellExecutionError as e:
        raise LessonFailed(f"lesson {path.name} failed: {e}") from e


def vegalite_version(spec: dict[str, Any]) -> str | None:
    """The Vega-Lite version vl-convert should use for `spec` ("5.20" for altair 5.5), or None for its latest."""
    found = re.search(r"/v(\d+)\.(\d+)", spec.get("$schema", ""))
    version = f"{found[1]}.{found[2]}" if found else None
    return version if version in vl_convert.get_vegalite_versions() else None


def chart_svg(spec: dict[str, Any], prefix: str = "") -> str:
    """A Vega-Lite spec drawn as SVG offline; element ids get `prefix` so charts on one page do not clash."""
    svg = vl_convert.vegalite_to_svg(spec, vl_version=vegalite_version(spec))
    if prefix:
        svg = re.sub(r'\bid="([^"]+)"', rf'id="{prefix}\1"', svg)
        svg = re.sub(r"url\(#([^)]+)\)", rf"url(#{prefix}\1)", svg)
        svg = re.sub(r'href="#([^"]+)"', rf'href="#{prefix}\1"', svg)
    return svg


def latex_html(latex: str, display: bool) -> str:
    """One TeX expression as MathML, or as readable code when latex2mathml cannot convert it."""
    try:
        return convert(latex.strip(), display="block" if display else "inline").replace("\n", " ")
    except Exception:
        return f"<code>{html.escape(latex.strip())}</code>"


def math_to_mathml(markdown: str) -> str:
    """Markdown with every $...$ and $$...$$ (outside code) replaced by MathML."""

    def replace(m: re.Match[str]) -> str:
        if m["code"] is not None:
            return m["code"]
        if m["block"] is not None:
            return latex_html(m["block"], display=True)
        return latex_html(m["inline"], display=False)

    return MATH.sub(replace, markdown)


def widget_note(url: str, dashboard: Game | None, snapshot: bool) -> NotebookNode:
    """The HTML output that stands for a widget: where to play with it live (its dashboard, or the gallery)."""
    target = url + (dashboard.dashboard if dashboard and dashboard.dashboard else paths.GALLERY)
    where = f"the <b>{html.escape(dashboard.page_title)}</b> dashboard" if dashboard else "the dashboards gallery"
    text = (
        f'<div class="nessus-widget-note"><p>Interactive controls stand here in the notebook. '
        f'Play with them live in <a href="{html.escape(target)}">{where}</a> '
        f"(<code>{paths.command('serve')}</code>), or open this lesson in JupyterLab "
        f"(<code>{paths.command('lab')}</code>)."
        + (" With the controls at their starting values, it showed:" if snapshot else "")
        + "</p></div>"
    )
    return nbformat.v4.new_output("display_data", data={"text/html": text})


def _output_models(model_id: str, state: dict[str, Any], seen: set[str]) -> list[str]:
    """The Output widgets inside the widget `model_id` (itself included), in display order."""
    if model_id in seen or model_id not in state:
        return []
    seen.add(model_id)
    model = state[model_id]
    if model.get("model_name") == "OutputModel":
        return [model_id]
    found = []
    for child in model.get("state", {}).get("children", []):
        found += _output_models(str(child).removeprefix("IPY_MODEL_"), state, seen)
    return found


@dataclass
class Staticizer:
    """Turns a notebook's live outputs into static ones (see the module docstring)."""

    state: dict[str, Any]
    dashboards_url: str = DASHBOARDS_URL
    dashboard: Game | None = None
    log: Callable[[str], None] = print
    charts: int = 0

    def outputs(self, outputs: Iterable[dict[str, Any]], seen: set[str] | None = None) -> list[NotebookNode]:
        """The static version of a list of outputs."""
        seen = set() if seen is None else seen
        result = []
        for out in outputs:
            out = nbformat.from_dict(out)
            data = out.get("data", {})
            if WIDGET_VIEW in data:
                models = _output_models(data[WIDGET_VIEW]["model_id"], self.state, seen)
                inner = [o for m in models for o in self.outputs(self.state[m]["state"].get("outputs", []), seen)]
                result += [widget_note(self.dashboards_url, self.dashboard, bool(inner)), *inner]
                continue
            chart = next((k for k in data if VEGALITE.fullmatch(k)), None)
            if chart is not None:
                self.charts += 1
                out.data = self.chart(data[chart])
            elif "text/markdown" in data:
                data["text/markdown"] = math_to_mathml(data["text/markdown"])
            if out.get("output_type") == "execute_result":
                out = nbformat.v4.new_output("display_data", data=out.data, metadata=out.get("metadata", {}))
            result.append(out)
        return result

    def chart(self, spec: dict[str, Any]) -> dict[str, str]:
        """A chart's static output: its SVG, or a visible note when Vega-Lite rejects the spec."""
        try:
            return {"image/svg+xml": chart_svg(spec, prefix=f"chart{self.charts}-")}
        except ValueError as e:
            reason = " ".join(re.split(r"\s+at\s", str(e), maxsplit=1)[0].split())
            self.log(f"publish: chart {self.charts} could not be drawn: {reason}")
            return {
                "text/html": (
                    f'<pre class="nessus-chart-error">This chart could not be drawn: {html.escape(reason)}</pre>'
                )
            }


def title_of(nb: NotebookNode, default: str) -> str:
    """The lesson's title: the text of its first markdown heading."""
    for cell in nb.cells:
        if cell.cell_type == "markdown":
            for line in cell.source.splitlines():
                if line.startswith("#"):
                    return re.sub(r"[*`]", "", line.lstrip("#")).strip()
    return default


def make_static(
    nb: NotebookNode, lesson: str, dashboards_url: str = DASHBOARDS_URL, log: Callable[[str], None] = print
) -> NotebookNode:
    """A copy of an executed lesson with static charts, MathML, widget notes and its title set."""
    nb = nbformat.from_dict(nb)
    state = nb.metadata.pop("widgets", {}).get(WIDGET_STATE, {}).get("state", {})
    static = Staticizer(state, dashboards_url, dashboard_for(lesson), log)
    for cell in nb.cells:
        if cell.cell_type == "markdown":
            cell.source = math_to_mathml(cell.source)
        elif cell.cell_type == "code":
            cell.outputs = static.outputs(cell.outputs)
    nb.metadata["title"] = title_of(nb, lesson)
    return nb


def render_html(nb: NotebookNode) -> str:
    """A static notebook as one self-contained HTML page (nbconvert's lab template, no CDN scripts)."""
    exporter = HTMLExporter(
        template_name="lab",
        extra_loaders=[DictLoader({"nessus-lesson.html.j2": TEMPLATE})],
        template_file="nessus-lesson.html.j2",
    )
    body, _ = exporter.from_notebook_node(nb)
    return body


def write_index(pages: Sequence[Page], out: Path, dashboards_url: str = DASHBOARDS_URL) -> Path:
    """index.html listing the published lessons, with a link to each one's dashboard."""
    items = []
    for page in pages:
        item = (
            f'<li><a href="{html.escape(page.path.name)}">{html.escape(page.title)}</a> '
            f'<span class="name">{html.escape(page.name)}</span>'
        )
        dashboard = dashboard_for(page.name)
        if dashboard and dashboard.dashboard:
            item += (
                f' &middot; <a href="{html.escape(dashboards_url + dashboard.dashboard)}">'
                f"{html.escape(dashboard.page_title)} dashboard</a>"
            )
        items.append(item + "</li>")
    path = out / "index.html"
    path.write_text(
        INDEX.format(items="\n".join(items), serve=paths.command("serve"), lab=paths.command("lab")), encoding="utf-8"
    )
    return path


def published(out: Path) -> list[Page]:
    """The lesson pages already in `out` (so that publishing a subset keeps the others listed)."""
    pages = []
    for path in sorted(out.glob("[0-9]*.html")):
        found = re.search(r"<title>(.*?)</title>", path.read_text(encoding="utf-8"), re.S)
        pages.append(Page(path.stem, html.unescape(found[1].strip()) if found else path.stem, path))
    return pages


def _logged_in(log: Callable[[str], None], lesson: str) -> Callable[[str], None]:
    """`log`, each message followed by the lesson it is about."""
    return lambda message: log(f"{message} (in {lesson})")


def publish(
    names: Sequence[str] = (),
    out: Path = SITE,
    dashboards_url: str = DASHBOARDS_URL,
    timeout: int = CELL_TIMEOUT,
    log: Callable[[str], None] = print,
) -> list[Page]:
    """Execute the lessons named (default: all), write their pages and index.html into `out`."""
    chosen = lessons(names)
    out.mkdir(parents=True, exist_ok=True)
    pages = []
    for path in chosen:
        start = time.monotonic()
        nb = nbformat.read(path, as_version=4)
        execute(nb, path, timeout)
        static = make_static(nb, path.stem, dashboards_url, _logged_in(log, path.name))
        page = Page(path.stem, static.metadata["title"], out / f"{path.stem}.html")
        page.path.write_text(render_html(static), encoding="utf-8")
        log(f"publish: {path.name} -> {page.path} ({time.monotonic() - start:.0f} s)")
        pages.append(page)
    index = write_index(published(out), out, dashboards_url)
    log(f"publish: {index}")
    return pages
