"""Where nessus finds its own files and writes the user's.

Its own files are the game data (`data/`), the dashboards (`dashboards/`) and the lessons
(`notebooks/`). In a checkout they are the folders beside `nessus/`; installed from the wheel they
are the same folders inside the package, under `nessus/_share/` (the build maps them there, see
`pyproject.toml`). What the user makes (the published lessons, a copy of the lessons to edit)
goes where the user can write: the checkout itself, or, installed, `$NESSUS_HOME` (default
`~/.local/share/nessus`, or `$XDG_DATA_HOME/nessus`).

>>> (DATA / "games.json").is_file(), (DASHBOARDS / "nessie.ipynb").is_file()
(True, True)
>>> [p.name for p in NOTEBOOKS.glob("00-*.ipynb")]
['00-who-starts.ipynb']
"""

from __future__ import annotations

import os
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent
SHARE = PACKAGE / "_share"
INSTALLED = SHARE.is_dir()
"""Whether this is an installed wheel (its files under `nessus/_share/`) rather than a checkout."""

ROOT = SHARE if INSTALLED else PACKAGE.parent
DATA = ROOT / "data"
DASHBOARDS = ROOT / "dashboards"
NOTEBOOKS = ROOT / "notebooks"
GALLERY = "index.ipynb"
"""The gallery's address under `voila/render/` (a page the server makes, not a notebook)."""


def user_home() -> Path:
    """The folder for what the user makes: the checkout, or (installed) `$NESSUS_HOME`, else
    `$XDG_DATA_HOME/nessus`, else `~/.local/share/nessus`."""
    if not INSTALLED:
        return ROOT
    if os.environ.get("NESSUS_HOME"):
        return Path(os.environ["NESSUS_HOME"]).expanduser()
    xdg = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(xdg).expanduser() / "nessus"


SITE = user_home() / "site"
"""The published lessons (`nessus publish`), which `nessus serve` serves under `/lessons/`."""


def copy_lessons(folder: Path) -> list[Path]:
    """Copy the lessons into `folder` (made if missing), keeping any already there (the user's
    edits); returns the files copied."""
    import shutil

    folder.mkdir(parents=True, exist_ok=True)
    copied = []
    for lesson in sorted(NOTEBOOKS.glob("*.ipynb")):
        target = folder / lesson.name
        if not target.exists():
            shutil.copyfile(lesson, target)
            copied.append(target)
    return copied


def command(verb: str) -> str:
    """What the user types to run `nessus VERB` here (`serve`, `lab`, `publish`): the tool's
    command when installed, `python3 dev.py VERB` in a checkout (which installs it first)."""
    return f"nessus {verb}" if INSTALLED else f"python3 dev.py {verb}"


ENGINES = ("solara", "voila")
"""The servers that run the pages: Solara (every page in one process) or Voila (a kernel a page)."""


def dashboard_path(name: str, engine: str) -> str:
    """A dashboard's address on a server of `engine`, from the server's root.

    >>> dashboard_path("le-palais", "voila"), dashboard_path("le-palais.ipynb", "solara")
    ('voila/render/le-palais.ipynb', 'le-palais')
    """
    stem = name.removesuffix(".ipynb")
    if engine not in ENGINES:
        raise ValueError(f"engine must be one of {', '.join(ENGINES)}; got {engine!r}")
    return f"voila/render/{stem}.ipynb" if engine == "voila" else stem
