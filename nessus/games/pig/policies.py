"""Ways to play Pig: optimal play to win (value iteration), and hold at 20 (the best for points)."""

from __future__ import annotations

from nessus import game
from nessus import pushluck as core
from nessus.games.pig.odds import HEURISTIC, solution
from nessus.games.pig.rules import Rules
from nessus.games.pig.state import State


def optimal_policy(state: game.State) -> game.Action:
    """Optimal play to win (value iteration; the state's own goal)."""
    assert isinstance(state, State)
    k = state.turn_total
    return "roll" if k == 0 or solution(state.rules).rolls()[state.context, k] else "hold"


def policies(rules: Rules | None = None) -> dict[str, game.Policy]:
    """ "optimal" (to win, value iteration) and "hold_at_20"."""
    return {"optimal": optimal_policy, f"hold_at_{HEURISTIC}": core.hold_at(HEURISTIC)}


def first_holds(state: State) -> dict[int, int]:
    """Optimal play in this turn: for each score of the mover against the other's score now, the
    smallest turn total at which it holds (`hold_boundary`)."""
    theirs, goal = state.scores[1 - state.mover], state.goal
    return {i: core.hold_boundary(solution(state.rules), i * goal + theirs) for i in range(goal)}
