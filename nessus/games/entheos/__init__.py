"""Entheos: six heroes in three duels of dice, and the gods who bet on them (RULES.md part 5).

Six heroes, three Achaeans facing three Trojans, fight three duels of dice: each turn every
hero's die steals, rallies, guards, rests or falters. The players are gods who play action cards
(lock, reserve, set face, swap places, swap dice, keep face) to bend the duels; after the last
turn the side with more points wins the war, and its gods turn their favourites' points into
victory points. `report` gives the exact duel and war (`odds`), `simulate` the bots' games (`fast`).

>>> r = report(Rules(turns=2, war_turns=1))
>>> r.figures["duel_mean"].exact, r.figures["p_war_tied"].exact
(Fraction(19, 3), Fraction(3197, 23328))
"""

from __future__ import annotations

from nessus.game import Game
from nessus.games.entheos.fast import interventions, simulate
from nessus.games.entheos.odds import check_tables, report, tables
from nessus.games.entheos.policies import policies
from nessus.games.entheos.rules import NAME, Rules
from nessus.games.entheos.state import State, initial_state

__all__ = [
    "GAME",
    "NAME",
    "Rules",
    "State",
    "initial_state",
    "interventions",
    "policies",
    "report",
    "simulate",
    "tables",
]

GAME = Game(
    name=NAME,
    title="Entheos",
    summary="The Trojan war of hero dice: three duels, points stolen and rallied, gods who bet on heroes.",
    Rules=Rules,
    report=report,
    simulate=simulate,
    initial_state=initial_state,
    policies=policies,
    lesson="14-entheos-war-of-dice",
    dashboard="entheos.ipynb",
    pitch=(
        "Be a god of the Trojan war against bots: roll the heroes' dice, play your action cards, and watch "
        "each duel's exact odds and each god's expected points."
    ),
    tables=tables,
    check_tables=check_tables,
)
"""This game, as the registry, the command line and the gallery see it."""
