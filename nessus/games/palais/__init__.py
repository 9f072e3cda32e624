"""Le Palais: poker dice. Roll 5d6 up to 3 times, setting dice aside between rolls; the best
hand wins the stakes (RULES.md section 1). Hands, best first: palais (five of a kind), tour,
manoir, grande suite, trident, suite, deux paires, paire, faillite.

The parts: `rules` (the parameters), `hands` (the categories and how hands compare), `keep`
(hold any dice, roll the others: the exact solvers, for any number of dice and any payoff),
`policies` (the objectives as objects, the optimal turns, the person's rule and the named
policies), `odds` (the exact figures and `report`), `state` (the game protocol) and `fast`
(Monte Carlo and `simulate`).

>>> state = initial_state(Rules(players=2))
>>> state = state.apply("roll").apply((1, 1, 3, 4, 5))
>>> [str(a) for a in state.legal_actions()[:3]]
['stop', 'hold 1 1 3 4', 'hold 1 1 3 5']
>>> state.hint().best
Hold((1, 1))
>>> state.hint(AtLeast("manoir")).best == state.hint().best, AtLeast("manoir").text
(True, 'P(Manoir or better)')
>>> end = state.apply("stop").apply("roll").apply((2, 2, 2, 6, 6)).apply("stop")
>>> end.is_terminal(), end.returns()
(True, [Fraction(0, 1), Fraction(1, 1)])
"""

from __future__ import annotations

from nessus.game import Game
from nessus.games.palais.fast import simulate
from nessus.games.palais.hands import (
    BEST_FIRST,
    HANDS,
    NAMES,
    category,
    hand_text,
    parse_hand,
    rank,
    strength,
    strongest,
    tie_key,
)
from nessus.games.palais.keep import DICE, ROLLS, SIDES, Hold
from nessus.games.palais.odds import (
    final_hands,
    hand_distribution,
    heads_up,
    p_at_least_within,
    p_beat,
    p_palais_within_3,
    p_single,
    report,
)
from nessus.games.palais.policies import (
    MACHINES,
    AtLeast,
    Beat,
    Goal,
    Outlast,
    beat_policy,
    keep_most_common,
    machine_policies,
    optimal,
    policies,
)
from nessus.games.palais.rules import NAME, PLAYERS, STICKY, TIE_BREAK, Rules
from nessus.games.palais.state import State, initial_state

__all__ = [
    "BEST_FIRST",
    "DICE",
    "GAME",
    "HANDS",
    "MACHINES",
    "NAME",
    "NAMES",
    "PLAYERS",
    "ROLLS",
    "SIDES",
    "STICKY",
    "TIE_BREAK",
    "AtLeast",
    "Beat",
    "Goal",
    "Hold",
    "Outlast",
    "Rules",
    "State",
    "beat_policy",
    "category",
    "final_hands",
    "hand_distribution",
    "hand_text",
    "heads_up",
    "initial_state",
    "keep_most_common",
    "machine_policies",
    "optimal",
    "p_at_least_within",
    "p_beat",
    "p_palais_within_3",
    "p_single",
    "parse_hand",
    "policies",
    "rank",
    "report",
    "simulate",
    "strength",
    "strongest",
    "tie_key",
]

GAME = Game(
    name=NAME,
    title="Le Palais",
    summary="Poker dice: 5d6, up to 3 rolls, set dice aside; the best hand takes the stakes.",
    Rules=Rules,
    report=report,
    simulate=simulate,
    initial_state=initial_state,
    policies=policies,
    lesson="04-le-palais",
    dashboard="le-palais.ipynb",
    pitch=(
        "Poker dice: hold dice between three rolls, alone or against the machine, with the exact value of every hold."
    ),
)
"""This game, as the registry, the command line and the gallery see it."""
