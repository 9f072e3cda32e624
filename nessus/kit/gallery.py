"""The gallery: every dashboard with its one-line description, the lessons, and a "start here"
for the teacher. The server makes it as a static page (no kernel per visitor)."""

from __future__ import annotations

import functools
import html
import json

from nessus import games, paths
from nessus.paths import dashboard_path

STYLE = """
:root{color-scheme:light dark;--fg:#1d1d1f;--bg:#fff;--muted:#555;--card:#f6f7f9;--line:#d0d4da;--link:#2b5d9b}
@media (prefers-color-scheme:dark){:root{--fg:#eee;--bg:#17181a;--muted:#aaa;\
--card:#222428;--line:#3a3d42;--link:#8ab4f8}}
body{font-family:system-ui,-apple-system,"Segoe UI",sans-serif;\
color:var(--fg);background:var(--bg);margin:0;line-height:1.45}
main{max-width:1100px;margin:0 auto;padding:16px}
h1{margin:.2em 0}
a{color:var(--link)}
.cards{display:grid;grid-template-columns:repeat(auto-fill,minmax(280px,1fr));gap:12px}
.nessus-card{display:block;border:1px solid var(--line);border-radius:10px;padding:12px 16px;text-decoration:none;
  color:inherit;background:var(--card)}
.nessus-card b{font-size:1.15em;color:var(--link)}
.start{border-left:4px solid var(--link);padding:4px 14px;margin:12px 0;background:var(--card)}
.join{display:flex;flex-wrap:wrap;gap:16px;align-items:center;border:2px solid var(--link);border-radius:12px;
  padding:12px 16px;margin:12px 0}
.join .url{font-size:clamp(1.6rem,5vw,3.2rem);font-weight:700;word-break:break-all}
.join svg{width:160px;height:160px;background:#fff;padding:6px;border-radius:6px}
ol.lessons li{margin:4px 0}
code{font-size:.95em}
"""


@functools.cache
def lessons() -> tuple[tuple[str, str], ...]:
    """The lessons in notebooks/: (file stem, title from its first heading), in order."""
    found = []
    for path in sorted(paths.NOTEBOOKS.glob("[0-9][0-9]-*.ipynb")):
        cells = json.loads(path.read_text())["cells"]
        lines = ("".join(c["source"]).splitlines() for c in cells if c["cell_type"] == "markdown")
        heading = next((ln for cell in lines for ln in cell if ln.startswith("#")), path.stem)
        found.append((path.stem, heading.lstrip("#").strip()))
    return tuple(found)


def qr_svg(text: str, scale: int = 8) -> str:
    """A QR code of `text` as an inline SVG element (segno, offline)."""
    import segno

    return segno.make(text, error="m").svg_inline(scale=scale, dark="#000", light="#fff")


def _join_box(student_url: str) -> str:
    return (
        "<section class='join' aria-label='How students join'>"
        f"<div>{qr_svg(student_url, scale=6)}</div>"
        f"<div><div>Students, type this address or scan the code:</div>"
        f"<div class='url nessus-student-url'>{html.escape(student_url)}</div></div></section>"
    )


def _lesson_list(published: bool) -> str:
    items = "".join(f"<li><a href='lessons/{stem}.html'>{html.escape(title)}</a></li>" for stem, title in lessons())
    note = (
        f"<p>Shown here without their figures until they are published: <code>{paths.command('publish')}</code> "
        f"runs them (about two minutes). In JupyterLab: <code>{paths.command('lab')}</code>.</p>"
    )
    return f"<ol class='lessons' start='0'>{items}</ol>{'' if published else note}"


def gallery_page(student_url: str | None = None, lessons: bool = False, engine: str = "voila") -> str:
    """The gallery as a whole HTML page: the address students type (with a QR code) when the
    class's network is served, a "start here", the dashboards (their addresses on a server of
    `engine`), and the lessons (with a line on publishing them when they are not)."""
    cards = "".join(
        f"<a class='nessus-card' href='{dashboard_path(g.dashboard or '', engine)}'>"
        f"<b>{html.escape(g.page_title)}</b><br>{html.escape(g.pitch)}</a>"
        for g in games.with_dashboards()
    )
    join = _join_box(student_url) if student_url else ""
    return (
        "<!doctype html><html lang='en'><head><meta charset='utf-8'>"
        "<meta name='viewport' content='width=device-width,initial-scale=1'>"
        f"<title>nessus: the games of Nessus</title><style>{STYLE}</style></head><body><main>"
        "<h1>nessus</h1><p>The dice games of <i>Les jeux populaires de Nessus</i>, with exact odds and "
        "simulations you can watch.</p>"
        f"{join}"
        "<section class='start'><h2>Start here</h2><ol>"
        "<li>Pick today's game below and open it yourself first: every page works alone, on a phone too.</li>"
        "<li>Give the class the address above (start the server with <code>nessus serve --ip 0.0.0.0</code> "
        "to reach the classroom's network), or the game's own address.</li>"
        "<li>For a whole class on one game, start the server with "
        "<code>nessus serve --ip 0.0.0.0 --students 30 --dashboards le-palais</code> a few minutes before "
        "the lesson: every student then gets a page at once.</li>"
        "<li>Each game has a lesson (below) that asks the questions the page answers.</li></ol></section>"
        f"<h2>The games</h2><div class='cards'>{cards}</div>"
        f"<h2>The lessons</h2>{_lesson_list(lessons)}"
        "</main></body></html>"
    )
