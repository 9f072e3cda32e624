"""The command line's reference, game by game (`docs/cli.md`), and the tables of games in the
README and docs/layout.md, written from the code itself (the games' `GAME` records).

Each game's title and summary, its parameters (`Rules.params`: help, allowed values, default)
and the figures `nessus report` and `nessus simulate` give, through the same functions as
`nessus report|simulate GAME --help`, so the page cannot drift from the code; the tables of
games between `<!-- games -->` and `<!-- /games -->` from each game's record and folder.
`python3 dev.py docs` writes them; `tests/test_docs.py` fails when one is stale.

>>> print(cell("P(score <= 5), `nessus simulate` | *_effect"))
P(score &lt;= 5), `nessus simulate` \\| \\*\\_effect
"""

from __future__ import annotations

import re
import textwrap
from collections.abc import Sequence
from pathlib import Path

from nessus import cli, games, paths

PATH = paths.PACKAGE.parent / "docs" / "cli.md"
"""Where the reference goes: docs/ beside nessus/ in a checkout (the wheel carries no docs)."""

_MARKUP = re.compile(r"([\\*_\[\]])")


def cell(text: str) -> str:
    """`text` as one Markdown table cell: code spans kept, markup characters outside them
    escaped, and `|` escaped everywhere (it would end the cell)."""
    parts = text.split("`")
    for i in range(0, len(parts), 2):  # outside code spans
        parts[i] = _MARKUP.sub(r"\\\1", parts[i]).replace("<", "&lt;")
    return "`".join(parts).replace("|", "\\|")


def _paragraph(text: str) -> list[str]:
    """A paragraph in lines of at most 100 columns (Markdown joins them again)."""
    return textwrap.wrap(text, 100, break_long_words=False, break_on_hyphens=False)


def _table(header: tuple[str, ...], rows: Sequence[tuple[str, ...]]) -> list[str]:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    return lines + ["| " + " | ".join(row) + " |" for row in rows]


def _figures(figures: dict[str, str]) -> list[str]:
    return _table(("figure", "what it is"), [(f"`{name}`", cell(text)) for name, text in figures.items()])


def _simulated(name: str, report: dict[str, str], simulated: dict[str, str]) -> list[str]:
    """What `nessus simulate` gives: the report's figures it estimates (named), and a table of the
    others (a figure whose help differs from the report's counts as another)."""
    same = [figure for figure, text in simulated.items() if report.get(figure) == text]
    others = {figure: text for figure, text in simulated.items() if figure not in same}
    if same == list(report):
        named = "every figure of the report"
    elif same:
        named = "the report's " + ", ".join(f"`{figure}`" for figure in same)
    else:
        named = "none of the report's figures"
    intro = f"`nessus simulate {name}` (Monte Carlo, 95% intervals): {named}"
    if not others:
        return _paragraph(intro + ".")
    return [*_paragraph(intro + ", and:"), "", *_figures(others)]


def game_section(name: str) -> list[str]:
    """The Markdown lines of one game: its title, summary, parameters and figures."""
    game = games.get(name)
    rules = game.Rules()
    defaults = cli.parameter_defaults(game)
    report = cli.figure_help("report", game, rules)
    params = [(f"`{p.name}`", cell(p.allowed()), f"`{defaults[p.name]}`", cell(p.help)) for p in game.Rules.params]
    return [
        f"## {name}",
        "",
        *_paragraph(f"**{cell(game.title)}**: {cell(game.summary)}"),
        "",
        *_table(("parameter", "allowed", "default", "what it sets"), params),
        "",
        f"`nessus report {name}` (exact):",
        "",
        *_figures(report),
        "",
        *_simulated(name, report, cli.figure_help("simulate", game, rules)),
        "",
    ]


def markdown() -> str:
    """The whole reference page."""
    head = [
        "# The command line, game by game",
        "",
        "<!-- Written by `python3 dev.py docs` from the code (nessus/clidoc.py); do not edit by hand. -->",
        "",
        "Every game takes its parameters as `--set NAME=VALUE` (repeat for several), in `nessus report`",
        "and in `nessus simulate` alike; a value out of range is one line naming the allowed values, exit",
        "code 2. The figures are those of the default rules: where a figure is one per seat or per",
        "player count, `nessus report GAME --set NAME=VALUE --help` lists them for the rules given.",
        "How the commands behave (the JSON contract, Ctrl-C, Nessie's state file) is in",
        "[command-line.md](command-line.md).",
        "",
        *_paragraph("Games: " + ", ".join(f"[{name}](#{name})" for name in games.GAMES) + "."),
        "",
    ]
    body = [line for name in games.GAMES for line in game_section(name)]
    return "\n".join(head + body).rstrip("\n") + "\n"


ROOT = paths.PACKAGE.parent
TABLES = (ROOT / "README.md", ROOT / "docs" / "layout.md")
"""The pages holding a table of the games (between `<!-- games -->` and `<!-- /games -->`)."""
START, END = "<!-- games -->", "<!-- /games -->"


def _relative(target: Path, page: Path) -> str:
    """The address of `target` (a path in the checkout) as written in `page`."""
    return Path(*([".."] * len(page.parent.relative_to(ROOT).parts)), target.relative_to(ROOT)).as_posix()


def _link(text: str, target: Path, page: Path) -> str:
    """A Markdown link from `page` to `target`, or "—" when there is no such file."""
    return f"[{text}]({_relative(target, page)})" if target.exists() else "—"


def games_table(page: Path) -> str:
    """The table of the games for `page`: each game's command-line name, title, lesson,
    dashboard, its folder, its page and its tests, from its `GAME` record."""
    cli_md = ROOT / "docs" / "cli.md"
    rows = [
        "| CLI | game | lesson | dashboard | home (`nessus/games/`) | page | tests |",
        "|---|---|---|---|---|---|---|",
    ]
    for name, game in games.GAMES.items():
        home = ROOT / "nessus" / "games" / name
        lesson = game.lesson or ""
        row = [
            f"[`{name}`]({_relative(cli_md, page)}#{name})",
            cell(game.title),
            _link(lesson[:2], paths.NOTEBOOKS / f"{lesson}.ipynb", page) if lesson else "—",
            _link((game.dashboard or "").removesuffix(".ipynb"), paths.DASHBOARDS / (game.dashboard or "-"), page),
            _link(f"{name}/", home, page),
            _link("page.py", home / "page.py", page),
            _link(f"games/{name}/", ROOT / "tests" / "games" / name, page),
        ]
        rows.append("| " + " | ".join(row) + " |")
    return "\n".join(rows)


def with_games_table(text: str, page: Path) -> str:
    """`text` with its table of games (between the markers) written afresh."""
    head, rest = text.split(START, 1)
    _, tail = rest.split(END, 1)
    return f"{head}{START}\n{games_table(page)}\n{END}{tail}"


def write(path: Path = PATH) -> None:
    """Write the reference to docs/cli.md and the tables of games in the README and docs/layout.md."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(markdown(), encoding="utf-8")
    for page in TABLES:
        page.write_text(with_games_table(page.read_text(encoding="utf-8"), page), encoding="utf-8")


if __name__ == "__main__":
    write()
