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

from functools import partial
from typing import Any, cast

import numpy as np

from nessus import montecarlo
from nessus.game import Game
from nessus.games.nessos import fast
from nessus.games.nessos.bots import policies
from nessus.games.nessos.deck import card_text
from nessus.games.nessos.engine import ELIMINATION, NINE_CHARON, NO_CARDS, ROUND_LIMIT, TARGET, State, initial_state
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
from nessus.play import play
from nessus.report import Figure, Report

__all__ = ["GAME", "NAME", "Rules", "State", "initial_state", "policies", "report", "simulate"]

NAME = "nessos"


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


def games_kernel(rules: Rules, rng: np.random.Generator, n: int) -> dict[str, np.ndarray]:
    """n whole games with the rules' bots (`Rules.seat_bots`): how each ended, its rounds, and
    whether each seat won (a shared win counting its share). Naive, bluffing and Bayes bots play
    in the vectorised engine (`nessos.fast`); a table with a `random_legal` bot plays through the
    game protocol's loop (`nessus.play.play`)."""
    if set(rules.seat_bots) <= set(fast.BOTS):
        out = fast.play(rules, rng, n)
        ended = np.array(fast.ENDS, dtype=object)[out["ended"] - 1]
        rounds, shares = out["rounds"], out["shares"]
    else:
        named = policies(rules)
        seats = [named[b] for b in rules.seat_bots]
        ends = [cast(State, play(initial_state(rules), seats, rng)) for _ in range(n)]
        ended = np.array([e.ended for e in ends], dtype=object)
        rounds = np.array([e.rounds for e in ends], dtype=np.int64)
        shares = np.array([[float(r) for r in e.returns()] for e in ends]).reshape(n, rules.players)
    out = {f"p_game_ends_by_{reason}": ended == reason for reason in (TARGET, ELIMINATION, NINE_CHARON)}
    out["p_game_ends_with_no_cards"] = ended == NO_CARDS
    if rules.rounds:
        out["p_game_ends_at_round_limit"] = ended == ROUND_LIMIT
    out["mean_rounds"] = rounds
    for seat, bot in enumerate(rules.seat_bots):
        out[f"win_share_seat_{seat + 1}_{bot}"] = shares[:, seat]
    return out


def simulate(
    rules: Rules | None = None, trials: int = 100_000, seed: int = 0, client: Any = None, progress: Any = None
) -> Report:
    """Fresh hands and whole games of the rules' bots by Monte Carlo, with 95% intervals: the hand
    odds (`p_hand_no_charon`, `p_hand_3plus_charon`, checks of the exact ones), how games end (the
    target, an elimination leaving one player, 9 Charon face up, or no card left in any hand),
    the mean number of rounds, and each seat's win share. Games of naive, bluffing and Bayes
    bots are played by the vectorised engine (`nessos.fast`: hundreds of thousands a second
    without a Bayes bot, tens of thousands with), others by the generic play loop."""
    rules = rules or Rules()
    hands = montecarlo.run(partial(hands_kernel, rules), trials, seed, client=client, progress=progress)
    run = montecarlo.run(partial(games_kernel, rules), trials, seed + 1, client=client, progress=progress)
    estimates = hands.estimates | run.estimates
    return Report(NAME, rules.as_dict(), {k: Figure.estimated(e) for k, e in estimates.items()})


def hands_kernel(rules: Rules, rng: np.random.Generator, n: int) -> dict[str, np.ndarray]:
    """n fresh hands dealt from a shuffled deck: whether each holds no Charon, or 3 or more (the
    Monte Carlo check of the exact hand odds). The deck's Charon are its first cards."""
    d = rules.deck
    dealt = np.argsort(rng.random((n, d.size)), axis=1)[:, : rules.hand_size]
    charon = (dealt < d.charon).sum(axis=1)
    return {"p_hand_no_charon": charon == 0, "p_hand_3plus_charon": charon >= 3}


GAME = Game(
    name=NAME,
    title="Nessos",
    summary="Offer face-down cards and bluff with Charon: is that 7 a Charon? Bayes from what you see.",
    Rules=Rules,
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
"""This game, as the registry, the command line and the gallery see it."""
