"""Le Renard: stake, roll 3d6 against the bank; a triple wins `payout` times the stake (net),
anything else loses the stake (RULES.md section 2).

Money is counted in whole units. The player keeps playing while the bankroll covers a stake;
*ruin* is the bankroll falling below one stake (reaching 0 when the stake divides it).

>>> rules = Rules(payout=10, bankroll=50, rounds=100)
>>> p_win(), ev_per_stake(rules), fair_payout()
(Fraction(1, 36), Fraction(-25, 36), Fraction(35, 1))
>>> initial_state(Rules(rounds=1)).apply((6, 6, 6)).returns()
[Fraction(10, 1)]
"""

from nessus.game import Game
from nessus.games.renard.fast import bankroll_kernel, round_kernel, simulate, triples
from nessus.games.renard.odds import (
    bankroll_after,
    ev_per_stake,
    fair_payout,
    is_triple,
    net_gain,
    p_ruin,
    p_win,
    report,
    ruin_by_round,
)
from nessus.games.renard.rules import BANKROLL, NAME, PAYOUT, ROUNDS, STAKE, Rules
from nessus.games.renard.state import State, initial_state, policies

__all__ = [
    "BANKROLL",
    "GAME",
    "NAME",
    "PAYOUT",
    "ROUNDS",
    "STAKE",
    "Rules",
    "State",
    "bankroll_after",
    "bankroll_kernel",
    "ev_per_stake",
    "fair_payout",
    "initial_state",
    "is_triple",
    "net_gain",
    "p_ruin",
    "p_win",
    "policies",
    "report",
    "round_kernel",
    "ruin_by_round",
    "simulate",
    "triples",
]

GAME = Game(
    name=NAME,
    title="Le Renard",
    summary="Roll 3d6 against the bank: a triple pays `payout` times the stake.",
    Rules=Rules,
    report=report,
    simulate=simulate,
    initial_state=initial_state,
    policies=policies,
    lesson="01-le-renard-one-in-36",
    dashboard="le-renard.ipynb",
    pitch="Bet against the bank on a triple: roll, watch your bankroll, and see the exact ruin odds.",
)
"""This game, as the registry, the command line and the gallery see it."""
