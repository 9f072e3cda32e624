"""Nessos: offer face-down cards, announce their value, and bluff with Charon (RULES.md part 3).

The first player offers a card face down to another player, announcing its value (the truth for
a creature, any value for Charon); the receiver accepts it, refuses it (it goes in front of the
sender) or adds a card and passes them on. Creatures score their value, and a third Charon in
front of a player puts them out. Is that 7 a Charon? Bayes, exactly, from what the receiver sees:

>>> r = report(Setup(players=4, hand="C,7,7,2,10", announced=7))
>>> r.figures["p_charon_given_announce"].exact  # 13 unseen Charon, two unseen 7s, 9 values
Fraction(13, 31)
>>> r.figures["ev_accept"].exact  # 7 points with P 18/31, a Charon's 40/3 with P 13/31
Fraction(-142, 93)

`nessus report nessos --set players=N` gives the deck (`deck_size`, `charon_count`) and a fresh
hand's odds (`p_hand_no_charon`, `p_hand_3plus_charon`). Describe what a receiver sees —
`--set hand=C,7,7,2,10` (its own hand), `--set seen=3,C` (every face-up card) — and it also
gives `p_next_card_charon`; add the offer, `--set announced=7`, with the sender's model
(`--set sender=naive|bluffer`, `--set bluff=1/2`), and it gives `p_charon_given_announce` (the
Bayes posterior, exact) and the expected points of `ev_accept`, `ev_refuse` and `ev_pass` — the
points model of `odds.Valuation`: a creature is worth its value, a Charon costs target / 3,
refusing is worth 0, passed cards come back (refused) with probability 1/2; nothing is assumed
in front of the receiver.

The modules: `deck` (the cards), `rules` (the game's `Rules`, and the command line's `Setup`),
`odds` (hand odds, the posterior and its Bayes table, chains of offered cards, the values of
accept / refuse / pass, the `report` of a `Question`), `actions` (the moves), `state` (the whole
game on the game protocol), `policies` (the named bots), `fast` (many games at once),
`simulation` (`simulate`), `rollouts` (every move's chance to win, by rollouts on the
posterior), `exploit` (the bots against best responses, through OpenSpiel); the page: `page`
and `views`.
"""

from __future__ import annotations

from nessus.game import Game
from nessus.games.nessos.odds import Question, Sender, Valuation, report
from nessus.games.nessos.policies import policies
from nessus.games.nessos.rules import NAME, Rules, Setup
from nessus.games.nessos.simulation import simulate
from nessus.games.nessos.state import State, initial_state

__all__ = [
    "GAME",
    "NAME",
    "Question",
    "Rules",
    "Sender",
    "Setup",
    "State",
    "Valuation",
    "initial_state",
    "policies",
    "report",
    "simulate",
]

GAME = Game(
    name=NAME,
    title="Nessos",
    summary="Offer face-down cards and bluff with Charon: is that 7 a Charon? Bayes from what you see.",
    Rules=Setup,
    report=report,
    simulate=simulate,
    initial_state=initial_state,
    policies=policies,
    lesson="12-nessos-is-that-7-a-charon",
    dashboard="nessos.ipynb",
    pitch=(
        "Offer cards face down and bluff with Charon against bots, with the exact chance that a card offered "
        "to you is Charon and the value of accepting, refusing or passing it."
    ),
)
"""This game, as the registry, the command line and the gallery see it (its `Rules` are the
command line's `Setup`; a `State` plays by `Setup.rules`)."""
