"""Dashboards: ipywidgets + altair apps over the engine, served by Voila from `dashboards/`.

Each dashboard notebook in `dashboards/` is one call: `from nessus.apps import renard; renard.app()`.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Entry:
    """A dashboard in the gallery: its notebook, title and one-line description."""

    notebook: str
    title: str
    description: str


GALLERY: tuple[Entry, ...] = (
    Entry("le-renard.ipynb", "Le Renard", "Bet against the bank on a triple: roll, watch your bankroll, and see the exact ruin odds."),
    Entry("la-boue.ipynb", "La Boue", "Play a turn of Stuck in the Mud die by die while simulated turns fill in the exact distribution."),
    Entry("nessie.ipynb", "Nessie", "Push your luck card by card against automatic opponents, with your exact odds of sinking beside you."),
    Entry("le-palais.ipynb", "Le Palais", "Poker dice: hold dice between three rolls, alone or against the machine, with the exact value of every hold."),
    Entry("le-naute.ipynb", "Le Naute", "Ship, captain and crew, then the cargo: every choice's exact value, and the cargo's distribution."),
)
