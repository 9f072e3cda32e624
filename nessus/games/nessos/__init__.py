"""Nessos: offer face-down cards, announce their value, and bluff with Charon (RULES.md part 3).

`nessus report nessos --set players=N` gives the deck (`deck_size`, `charon_count`) and a fresh
hand's odds (`p_hand_no_charon`, `p_hand_3plus_charon`). Describe what a receiver sees —
`--set hand=C,7,7,2,10` (its own hand), `--set seen=3,C` (every face-up card) — and it also
gives `p_next_card_charon`; add the offer, `--set announced=7`, with the sender's model
(`--set sender=naive|bluffer`, `--set bluff=1/2`), and it gives `p_charon_given_announce` (the
Bayes posterior, exact) and the expected points of `ev_accept`, `ev_refuse` and `ev_pass` — the
points model of `odds.Valuation`: a creature is worth its value, a Charon costs target / 3,
refusing is worth 0, passed cards come back (refused) with probability 1/2; nothing is assumed
in front of the receiver.

>>> r = report(Rules(players=4, hand="C,7,7,2,10", announced=7))
>>> r.figures["p_charon_given_announce"].exact  # 13 unseen Charon, two unseen 7s, 9 values
Fraction(13, 31)
>>> r.figures["ev_accept"].exact  # 7 points with P 18/31, a Charon's 40/3 with P 13/31
Fraction(-142, 93)

The modules: `deck` (the cards), `rules`, `odds` (hand odds, the posterior and its Bayes table,
chains of offered cards, the values of accept / refuse / pass), `engine` (the whole game on the
game protocol), `bots` (the named policies).
"""

from __future__ import annotations

from nessus.games.nessos.bots import policies
from nessus.games.nessos.deck import card_text
from nessus.games.nessos.engine import State, initial_state
from nessus.games.nessos.odds import (
    Sender,
    Valuation,
    chain_posterior,
    expected_values,
    p_charon_among_next,
    p_hand_3plus_charon,
    p_hand_no_charon,
    unseen_counts,
)
from nessus.games.nessos.rules import Rules
from nessus.report import Figure, Report

__all__ = ["NAME", "SUMMARY", "TITLE", "Rules", "State", "initial_state", "policies", "report"]

NAME = "nessos"
TITLE = "Nessos"
SUMMARY = "Offer face-down cards and bluff with Charon: is that 7 a Charon? Bayes from what you see."


def report(rules: Rules | None = None) -> Report:
    """The exact figures: the deck and a fresh hand's odds; with a receiver's view (`hand`,
    `seen`) the next card's odds; with an offer (`announced`) the posterior that it is Charon
    and the expected points of accepting, refusing and passing it."""
    rules = rules or Rules()
    d = rules.deck
    size = rules.hand_size
    figures = {
        "deck_size": Figure.of(d.size, "cards in the deck"),
        "charon_count": Figure.of(d.charon, "Charon cards in the deck"),
        "p_hand_no_charon": Figure.of(p_hand_no_charon(rules.players, size), "P(a fresh hand holds no Charon)"),
        "p_hand_3plus_charon": Figure.of(
            p_hand_3plus_charon(rules.players, size), "P(a fresh hand holds 3 Charon or more)"
        ),
    }
    hand, seen = rules.hand_cards, rules.seen_cards
    if not (hand or seen or rules.announced):
        return Report(NAME, rules.as_dict(), figures)
    pool = unseen_counts(rules.players, hand, seen)
    figures["p_next_card_charon"] = Figure.of(
        p_charon_among_next(pool, 1, 1), "P(a card the receiver has not seen, e.g. the next drawn, is Charon)"
    )
    if rules.announced:
        announced = (rules.announced,)
        chain = chain_posterior(pool, announced, d.values, Sender(rules.sender, rules.bluff, size))
        values = expected_values(chain, announced, hand, Valuation(goal=rules.goal))
        figures["p_charon_given_announce"] = Figure.of(
            chain.each[0], f"P(the offered card is Charon | announced {rules.announced}), {rules.sender} sender"
        )
        figures["ev_accept"] = Figure.of(values.accept, "expected points of accepting (a Charon costs target/3)")
        figures["ev_refuse"] = Figure.of(values.refuse, "expected points of refusing (the sender takes the card)")
        if values.pass_ is not None:
            added = card_text(values.add) if values.add is not None else "-"
            figures["ev_pass"] = Figure.of(
                values.pass_, f"expected points of adding a {added} and passing (refused back with P 1/2)"
            )
    return Report(NAME, rules.as_dict(), figures)
