"""The README is a short front door and docs/ the reference: the command line's page is the code's
own (never stale), and every relative link in them leads somewhere."""

import re
from pathlib import Path

import pytest

from nessus import clidoc

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
PAGES = [README, *sorted((ROOT / "docs").glob("*.md"))]
LINK = re.compile(r"\]\(([^)\s]+)\)|<img [^>]*src=\"([^\"]+)\"")
FENCE = re.compile(r"^```.*?^```", re.MULTILINE | re.DOTALL)


def anchors(page: Path) -> set[str]:
    """The heading anchors a forge makes for a Markdown page (GitHub's rule: lower case, spaces
    to hyphens, punctuation dropped)."""
    headings = re.findall(r"^#+ (.+)$", FENCE.sub("", page.read_text(encoding="utf-8")), re.MULTILINE)
    return {re.sub(r"[^\w\- ]", "", h.strip().lower()).replace(" ", "-") for h in headings}


def relative_links(page: Path) -> list[str]:
    """The targets of the page's links and images that are not web addresses, outside code blocks."""
    text = FENCE.sub("", page.read_text(encoding="utf-8"))
    targets = [a or b for a, b in LINK.findall(text)]
    return [t for t in targets if not re.match(r"[a-z]+:", t)]


def test_cli_reference_is_the_codes_own():
    assert clidoc.PATH.read_text(encoding="utf-8") == clidoc.markdown(), "docs/cli.md is stale: run python3 dev.py docs"


@pytest.mark.parametrize("page", clidoc.TABLES, ids=lambda p: p.name)
def test_tables_of_games_are_the_records_own(page):
    text = page.read_text(encoding="utf-8")
    assert text == clidoc.with_games_table(text, page), (
        f"{page.name}'s table of games is stale: run python3 dev.py docs"
    )


def test_readme_is_a_short_front_door():
    text = README.read_text(encoding="utf-8")
    assert len(text.encode()) <= 16 * 1024, f"README.md is {len(text.encode())} bytes; the reference goes in docs/"
    long = [n for n, line in enumerate(text.splitlines(), 1) if len(line) > (300 if line.startswith("|") else 120)]
    assert not long, f"README.md lines too long (prose > 120, table rows > 300 columns): {long}"
    first_block = text.split("```")[1].splitlines()[1:3]
    assert [line.split()[:3] for line in first_block] == [["python3", "dev.py", "serve"], ["python3", "dev.py", "test"]]
    assert text.index("```") < text.index("\n## "), "the README opens with the two commands"


@pytest.mark.parametrize("page", PAGES, ids=[p.relative_to(ROOT).as_posix() for p in PAGES])
def test_relative_links_lead_somewhere(page):
    broken = []
    for target in relative_links(page):
        path, _, anchor = target.partition("#")
        where = (page.parent / path).resolve() if path else page
        if not where.exists():
            broken.append(target)
        elif anchor and where.suffix == ".md" and anchor not in anchors(where):
            broken.append(target)
    assert not broken, f"{page.name}: links to nothing: {broken}"


def test_link_checker_finds_a_broken_link(tmp_path):
    page = tmp_path / "page.md"
    page.write_text("[ok](page.md#title) [gone](missing.md) [web](https://example.org)\n\n# Title\n")
    assert relative_links(page) == ["page.md#title", "missing.md"]
    assert anchors(page) == {"title"}
    assert anchors(clidoc.PATH) >= {"order", "pig", "entheos"}
