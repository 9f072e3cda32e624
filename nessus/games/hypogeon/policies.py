"""How to play L'Hypogéon: stand at k (`standing_at`), the optimal rule of any shape against
the opponents' k (`optimal`), each seat its rule of `seat_rules` (`seat_rule`), the named
policies of the game (`policies`), the page's machine players (`MACHINES`, `machines_stand_at`,
`machine_policies`), and the rules in words (`rule_text`, `optimal_text`, `opponents_text`,
`equilibria_text`), the figures of a rule against its best reply (`rule_figures`)."""

from __future__ import annotations

from fractions import Fraction
from typing import cast

from nessus import game
from nessus.games.hypogeon.odds import (
    best_response,
    equilibria,
    mean_if_not_bust,
    p_21,
    p_bust,
    points,
    seat_rules,
    stand_from,
    stand_totals,
    turn_solver,
)
from nessus.games.hypogeon.rules import Rules
from nessus.games.hypogeon.state import ROLL, STAND, State


def standing_at(k: int) -> game.Policy:
    """The rule "stand at k": roll while the total is below k (k = 2: stand on the first roll)."""

    def policy(state: game.State) -> game.Action:
        turn = _as_state(state).playing
        return ROLL if turn is None or turn.total < k else STAND

    policy.__name__ = f"stand at {k}"
    return policy


def _as_state(state: game.State) -> State:
    if not isinstance(state, State):
        raise ValueError(f"an L'Hypogéon state is needed, got {type(state).__name__}")
    return state


def optimal(state: game.State) -> game.Action:
    """The optimal rule of any shape against opponents standing at `stand_at` (`optimal_rule`)."""
    s = _as_state(state)
    turn = s.playing
    if turn is None:
        return ROLL
    return cast(game.Action, turn_solver(s.rules.stand_at, s.rules.players).best(turn.total))


def seat_rule(state: game.State) -> game.Action:
    """Each seat stands at its k of `seat_rules` (seat 1 per `seat1`, the others at `stand_at`)."""
    s = _as_state(state)
    return standing_at(seat_rules(s.rules)[s.current_player()])(s)


def policies(rules: Rules | None = None) -> dict[str, game.Policy]:
    """ "optimal" (`optimal`), "stand_at" (stand at `stand_at`), "best_stand_at" (stand at
    `best_response` to it) and "seat_rules" (each seat its rule of `seat_rules`, as in
    `game_odds` and the simulated games)."""
    rules = rules or Rules()
    return {
        "optimal": optimal,
        "stand_at": standing_at(rules.stand_at),
        "best_stand_at": standing_at(best_response(rules.stand_at, rules.players)[0]),
        "seat_rules": seat_rule,
    }


STAND_AT_K, BEST_REPLY = "stand at k", "best reply to k"
MACHINES = (STAND_AT_K, BEST_REPLY)
"""How the machine players of the page play, in words: they stand at k, or at the best reply to k."""


def machines_stand_at(machine: str, k: int, players: int) -> int:
    """The k the machine players stand at when they play `machine` (one of MACHINES) with the page's k.

    >>> machines_stand_at(STAND_AT_K, 17, 2), machines_stand_at(BEST_REPLY, 17, 2)
    (17, 19)
    """
    return best_response(k, players)[0] if machine == BEST_REPLY else k


def machine_policies(rules: Rules) -> dict[int, game.Policy]:
    """The machine players of the page (every seat but seat 1, yours), standing at `stand_at`."""
    return dict.fromkeys(range(1, rules.players), standing_at(rules.stand_at))


def rule_text(k: int) -> str:
    """The rule "stand at k" in words ("stand on the first roll" for k = 2)."""
    return "stand on the first roll" if k == 2 else f"stand at {k}"


def optimal_text(opponents_stand_at: int, players: int) -> str:
    """The optimal rule of any shape against `players` - 1 opponents standing at k, in words
    ("stand from 19 on, roll below")."""
    k = stand_from(opponents_stand_at, players)
    if k is not None:
        return f"stand from {k} on, roll below"
    return "stand on " + ", ".join(map(str, stand_totals(opponents_stand_at, players))) + ", roll on the other totals"


def opponents_text(n: int, k: int) -> str:
    """The n - 1 opponents in words: "2 opponents standing at 17"."""
    return f"{n - 1} opponent{'s' if n > 2 else ''} standing at {k}"


def rule_figures(k: int, best: int, n: int) -> list[tuple[str, Fraction, Fraction]]:
    """The figures of standing at k and at the best reply `best` to k, for `n` players: (words, at k,
    at best), P(bust), P(21), the mean final total when not bust, the expected points per round.

    >>> [words for words, at_k, at_best in rule_figures(17, 19, 2)][::3]
    ['P(bust)', 'expected points per round against 1 opponent standing at 17']
    """
    return [
        ("P(bust)", p_bust(k), p_bust(best)),
        ("P(21)", p_21(k), p_21(best)),
        ("mean final total when not bust", mean_if_not_bust(k), mean_if_not_bust(best)),
        (f"expected points per round against {opponents_text(n, k)}", points(k, k, n), points(best, k, n)),
    ]


def equilibria_text(players: int) -> str:
    """The symmetric equilibria of `players` players in words (`equilibria`)."""
    eq = equilibria(players)
    if not eq:
        return f"For {players} players no k is its own best reply: there is no symmetric equilibrium in stand-at rules."
    return (
        f"Standing at {' or '.join(map(str, eq))} is a symmetric equilibrium for {players} players: nobody gains by "
        "another rule of any shape."
    )
