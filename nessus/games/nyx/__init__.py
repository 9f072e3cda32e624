"""Nyx: roll symbol dice, keep what matches, and place dreams on a 3x3 matrix (RULES.md part 4).

Each player rolls symbol dice (black: 3 stars, 2 crescents, 1 full moon; white: 2 of each),
rerolls what they like, and spends dice of one symbol to realise the face-up dreams in their
card's shape on a 3x3 matrix, nightmares and spells, or to buy dice; ending a night scores what
it realised, and the most points at the end wins. `report` gives the exact odds of the dice and
the matrix (`odds`), `simulate` whole games of the bots (`policies`, `fast`).

>>> r = report(Rules())  # the rulebook's L-tetromino of full moons, six black dice
>>> r.figures["placements"].exact, round(r.figures["expected_rolls_for_shape"].value, 3)
(Fraction(16, 1), 1.679)
"""

from __future__ import annotations

from nessus.game import Game
from nessus.games.nyx.fast import simulate
from nessus.games.nyx.odds import report
from nessus.games.nyx.policies import policies
from nessus.games.nyx.rules import NAME, Rules
from nessus.games.nyx.state import State, initial_state

__all__ = ["GAME", "NAME", "Rules", "State", "initial_state", "policies", "report", "simulate"]

GAME = Game(
    name=NAME,
    title="Nyx",
    summary="Symbol dice and dreams on a 3x3 matrix: keep what matches, chase a shape, buy black or white dice.",
    Rules=Rules,
    report=report,
    simulate=simulate,
    initial_state=initial_state,
    policies=policies,
    lesson="13-nyx-dreams-on-dice",
    dashboard="nyx.ipynb",
    pitch=(
        "Symbol dice and dreams on a 3x3 matrix: keep one symbol or reroll with the exact expected rolls of "
        "every keep, and place the dream's shape by clicking its cells."
    ),
)
"""This game, as the registry, the command line and the gallery see it."""
