"""Le Naute (Ship, Captain and Crew): 5d6, up to 3 rolls. Set aside a 6 (the ship), then a 5
(the captain), then a 4 (the crew) — several may come in one roll; once all three are aside the
two other dice are the cargo and score their sum, and the rolls left may be spent rerolling
cargo (kept dice stay kept under the default cargo rule, "sticky"). No ship, captain and crew
within 3 rolls: the expedition scores 0. A game is `expeditions` rounds for `players`; the
highest total cargo wins (RULES.md section 3).

The parts: `rules` (the dice, the parameters, setting aside), `expedition` (one expedition for
the core solver, for any payoff of the cargo), `policies` (the objectives `CargoMean` and
`Above` as objects, the optimal and chasing plays, the person's rule and the named policies),
`odds` (the exact figures and `report`), `state` (the game protocol) and `fast` (Monte Carlo
and `simulate`); `page` and `views` are the dashboard.

>>> state = initial_state(Rules(players=2, expeditions=1)).roll(dice=(6, 5, 4, 6, 1))
>>> state.cargo, state.hint().best, str(state.hint(Above(8)).best)  # two rolls left: 7 is a good mean, not > 8
(7, 'stop', 'keep 6')
>>> optimal_cargo_mean() == CargoMean().value(), Above(8).text
(True, 'P(cargo > 8)')
"""

from __future__ import annotations

from nessus.game import Game
from nessus.games.naute.expedition import Keep, cargo_states, keep_options
from nessus.games.naute.fast import simulate
from nessus.games.naute.odds import (
    cargo_distributions,
    optimal_cargo_mean,
    p_beat,
    p_qualify_by_roll,
    report,
    score_distribution,
)
from nessus.games.naute.policies import (
    HEURISTIC_FACE,
    MACHINES,
    Above,
    CargoMean,
    Goal,
    beat_policy,
    chase_policy,
    heuristic,
    keep_at_least,
    legal,
    machine_policies,
    optimal,
    policies,
)
from nessus.games.naute.rules import (
    CARGO,
    CARGO_DICE,
    CREWS,
    DICE,
    EXPEDITIONS,
    NAME,
    PLAYERS,
    ROLLS,
    SIDES,
    TOP,
    Rules,
    boarding,
    set_aside,
)
from nessus.games.naute.state import State, initial_state, last_expedition

__all__ = [
    "CARGO",
    "CARGO_DICE",
    "CREWS",
    "DICE",
    "EXPEDITIONS",
    "GAME",
    "HEURISTIC_FACE",
    "MACHINES",
    "NAME",
    "PLAYERS",
    "ROLLS",
    "SIDES",
    "TOP",
    "Above",
    "CargoMean",
    "Goal",
    "Keep",
    "Rules",
    "State",
    "beat_policy",
    "boarding",
    "cargo_distributions",
    "cargo_states",
    "chase_policy",
    "heuristic",
    "initial_state",
    "keep_at_least",
    "keep_options",
    "last_expedition",
    "legal",
    "machine_policies",
    "optimal",
    "optimal_cargo_mean",
    "p_beat",
    "p_qualify_by_roll",
    "policies",
    "report",
    "score_distribution",
    "set_aside",
    "simulate",
]

GAME = Game(
    name=NAME,
    title="Le Naute",
    summary="Ship, captain and crew (6, 5, 4 in order) within 3 rolls; the two other dice are the cargo.",
    Rules=Rules,
    report=report,
    simulate=simulate,
    initial_state=initial_state,
    policies=policies,
    lesson="05-le-naute",
    dashboard="le-naute.ipynb",
    pitch="Ship, captain and crew, then the cargo: every choice's exact value, and the cargo's distribution.",
)
"""This game, as the registry, the command line and the gallery see it."""
