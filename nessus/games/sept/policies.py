"""Ways to play Le Sept fatal: optimal play to win (value iteration), and hold at N (the rules'
N, and the best N for points, 35)."""

from __future__ import annotations

from nessus import game
from nessus import pushluck as core
from nessus.games.sept.odds import best_hold, solution
from nessus.games.sept.rules import Rules
from nessus.games.sept.state import State


def optimal_policy(state: game.State) -> game.Action:
    """Optimal play to win (value iteration, `Solution.rolls`; the state's own rules)."""
    assert isinstance(state, State)
    k = state.turn_total
    return "roll" if k == 0 or solution(state.rules).rolls(state.duel_turn, state.lead, k) else "hold"


def policies(rules: Rules | None = None) -> dict[str, game.Policy]:
    """ "optimal" (to win, value iteration), "hold_at_N" for the rules' N (20) and for the best N
    for points (35)."""
    rules = rules or Rules()
    holds = (rules.hold, best_hold()[0])
    return {"optimal": optimal_policy} | {f"hold_at_{n}": core.hold_at(n) for n in holds}


def first_holds(state: State, leads: range = range(-60, 61), cut_off: float = 1e-6) -> dict[int, int]:
    """Optimal play in this turn: for each lead of the mover at the turn's start, the smallest turn
    total at which it holds (`Solution.hold_boundary`). Leads whose chance the cut-off moves by
    more than `cut_off` are left out; the extra round starts level (lead 0 only)."""
    sol, t = solution(state.rules), state.duel_turn
    kept = [x for x in ([0] if t == 2 * state.rules.rounds else leads) if sol.bracket(t, x) <= cut_off]
    return {x: sol.hold_boundary(t, x) for x in kept}
