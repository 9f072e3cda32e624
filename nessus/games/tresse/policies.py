"""La Tresse's policies: there is no decision (every throw is chance), so none."""

from __future__ import annotations

from nessus import game
from nessus.games.tresse.rules import Rules


def policies(rules: Rules | None = None) -> dict[str, game.Policy]:
    """No decisions in La Tresse: no policies."""
    return {}
