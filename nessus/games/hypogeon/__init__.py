"""L'Hypogéon: roll 2d6, then stand or add 1d6 again and again; above 21 the turn scores
nothing. In each round a sole 21 earns 2 points; otherwise the single best total earns 1
point; a tie for the best earns nothing. First to `target` points wins (RULES.md section 10).

The players' turns do not see each other's totals here: each player follows a rule fixed in
advance, so the order of play does not matter. A *stand-at-k* rule stands as soon as the
total is k or more (k = 2: stand on the first roll). A bust is recorded as total 0 (`BUST`).

**Best response.** `best_response` gives the k that maximises a player's expected points in
one round against `players` - 1 opponents who all stand at `stand_at` (the smallest such k on
a tie). A symmetric equilibrium is a k that is its own best response; `equilibria` lists them,
checked against every rule, not only stand-at rules: `optimal_rule` finds the best rule of
any shape with the expectimax solver (it stands or rolls on each total separately).

**Whole games.** `game_odds` gives each seat's exact chance of winning from the start,
`game_odds_from` from any scores (a game in progress).

The parts: `rules` (the parameters, LIMIT and BUST), `odds` (the exact maths of a turn, a
round and whole games, `report`), `state` (whole games as the game protocol, the others' dice
of the round in play hidden until it ends), `policies` (the named policies), `fast` (Monte
Carlo, `simulate`), `page` and `views` (the dashboard; `views` draws the dice, the sheet and
the charts).

>>> from nessus.games import hypogeon
>>> state = hypogeon.initial_state(hypogeon.Rules(players=2, target=1)).roll(dice=(6, 5)).roll(dice=(4,))
>>> state.turn_of(0).total, state.legal_actions(), state.hint().best
(15, ['stand', 'roll'], 'roll')
>>> state = state.stand().roll(dice=(6, 6)).stand()  # player 2: 12 < 15
>>> state.scores, state.is_terminal(), state.returns()
([1, 0], True, [Fraction(1, 1), Fraction(0, 1)])
"""

from nessus.game import Game
from nessus.games.hypogeon.fast import (
    BATCH,
    BUSTED,
    DRAW_BITS,
    game_kernel,
    play_turns,
    round_points,
    simulate,
    turn_kernel,
    turn_table,
)
from nessus.games.hypogeon.odds import (
    best_response,
    best_response_table,
    equilibria,
    exact_figure,
    final_total,
    game_odds,
    game_odds_from,
    mean_if_not_bust,
    optimal_points,
    optimal_rule,
    p_21,
    p_bust,
    points,
    points_for_rule,
    points_for_total,
    replies,
    reply_odds,
    report,
    round_scores,
    seat_rules,
    stand_from,
    stand_totals,
    turn_solver,
)
from nessus.games.hypogeon.policies import (
    BEST_REPLY,
    MACHINES,
    STAND_AT_K,
    equilibria_text,
    machine_policies,
    machines_stand_at,
    opponents_text,
    optimal,
    optimal_text,
    policies,
    rule_text,
    seat_rule,
    standing_at,
)
from nessus.games.hypogeon.rules import BUST, LIMIT, NAME, PLAYERS, SEAT1, STAND_AT, TARGET, Rules
from nessus.games.hypogeon.state import (
    ROLL,
    STAND,
    State,
    TurnRecord,
    final_text,
    initial_state,
    result_text,
    round_line,
    round_text,
    score_round,
)

__all__ = [
    "BATCH",
    "BEST_REPLY",
    "BUST",
    "BUSTED",
    "DRAW_BITS",
    "GAME",
    "LIMIT",
    "MACHINES",
    "NAME",
    "PLAYERS",
    "ROLL",
    "SEAT1",
    "STAND",
    "STAND_AT",
    "STAND_AT_K",
    "TARGET",
    "Rules",
    "State",
    "TurnRecord",
    "best_response",
    "best_response_table",
    "equilibria",
    "equilibria_text",
    "exact_figure",
    "final_text",
    "final_total",
    "game_kernel",
    "game_odds",
    "game_odds_from",
    "initial_state",
    "machine_policies",
    "machines_stand_at",
    "mean_if_not_bust",
    "opponents_text",
    "optimal",
    "optimal_points",
    "optimal_rule",
    "optimal_text",
    "p_21",
    "p_bust",
    "play_turns",
    "points",
    "points_for_rule",
    "points_for_total",
    "policies",
    "replies",
    "reply_odds",
    "report",
    "result_text",
    "round_line",
    "round_points",
    "round_scores",
    "round_text",
    "rule_text",
    "score_round",
    "seat_rule",
    "seat_rules",
    "simulate",
    "stand_from",
    "stand_totals",
    "standing_at",
    "turn_kernel",
    "turn_solver",
    "turn_table",
]

GAME = Game(
    name=NAME,
    title="L'Hypogéon",
    summary="2d6, then 1d6 at a time: get closest to 21 without going over.",
    Rules=Rules,
    report=report,
    simulate=simulate,
    initial_state=initial_state,
    policies=policies,
    lesson="11-l-hypogeon",
    dashboard="l-hypogeon.ipynb",
    pitch=(
        "21 with dice: roll or stand with the exact value of each, alone or to the points target against the "
        "machine, and the best reply to any rule."
    ),
)
"""This game, as the registry, the command line and the gallery see it."""
