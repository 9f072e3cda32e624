"""Nessos by Monte Carlo: `simulate`, the figures of fresh hands and of whole games of the bots
`Setup.bots` (naive, bluffing and Bayes bots on the vectorised engine `fast`, others through the
game protocol's loop).

>>> r = simulate(Setup(players=3, bots="bayes,naive"), trials=2_000, seed=1)
>>> 0 < r.figures["win_share_seat_1_bayes"].value < 1
True
"""

from __future__ import annotations

from functools import partial
from typing import Any, cast

import numpy as np

from nessus import montecarlo
from nessus.games.nessos.fast import BOTS, ENDS, play
from nessus.games.nessos.policies import policies
from nessus.games.nessos.rules import NAME, Rules, Setup
from nessus.games.nessos.state import ELIMINATION, NINE_CHARON, NO_CARDS, ROUND_LIMIT, TARGET, State, initial_state
from nessus.play import play as play_loop
from nessus.report import Figure, Report


def games_kernel(setup: Setup, rng: np.random.Generator, n: int) -> dict[str, np.ndarray]:
    """n whole games with the setup's bots (`Setup.seat_bots`): how each ended, its rounds, and
    whether each seat won (a shared win counting its share). Naive, bluffing and Bayes bots play
    in the vectorised engine (`play`); a table with a `random_legal` bot plays through the game
    protocol's loop (`nessus.play.play`)."""
    rules, bots = setup.rules, setup.seat_bots
    if set(bots) <= set(BOTS):
        out = play(rules, rng, n, bots)
        ended = np.array(ENDS, dtype=object)[out["ended"] - 1]
        rounds, shares = out["rounds"], out["shares"]
    else:
        named = policies(rules)
        seats = [named[b] for b in bots]
        ends = [cast(State, play_loop(initial_state(rules), seats, rng)) for _ in range(n)]
        ended = np.array([e.ended for e in ends], dtype=object)
        rounds = np.array([e.rounds for e in ends], dtype=np.int64)
        shares = np.array([[float(r) for r in e.returns()] for e in ends]).reshape(n, rules.players)
    out = {f"p_game_ends_by_{reason}": ended == reason for reason in (TARGET, ELIMINATION, NINE_CHARON)}
    out["p_game_ends_with_no_cards"] = ended == NO_CARDS
    if rules.rounds:
        out["p_game_ends_at_round_limit"] = ended == ROUND_LIMIT
    out["mean_rounds"] = rounds
    for seat, bot in enumerate(bots):
        out[f"win_share_seat_{seat + 1}_{bot}"] = shares[:, seat]
    return out


def hands_kernel(rules: Rules, rng: np.random.Generator, n: int) -> dict[str, np.ndarray]:
    """n fresh hands dealt from a shuffled deck: whether each holds no Charon, or 3 or more (the
    Monte Carlo check of the exact hand odds). The deck's Charon are its first cards."""
    d = rules.deck
    dealt = np.argsort(rng.random((n, d.size)), axis=1)[:, : rules.hand_size]
    charon = (dealt < d.charon).sum(axis=1)
    return {"p_hand_no_charon": charon == 0, "p_hand_3plus_charon": charon >= 3}


def simulate(
    setup: Setup | None = None, trials: int = 100_000, seed: int = 0, client: Any = None, progress: Any = None
) -> Report:
    """Fresh hands and whole games of the setup's bots by Monte Carlo, with 95% intervals: the hand
    odds (`p_hand_no_charon`, `p_hand_3plus_charon`, checks of the exact ones), how games end (the
    target, an elimination leaving one player, 9 Charon face up, or no card left in any hand),
    the mean number of rounds, and each seat's win share. Games of naive, bluffing and Bayes
    bots are played by the vectorised engine (`play`: hundreds of thousands a second without a
    Bayes bot, tens of thousands with), others by the generic play loop."""
    setup = setup or Setup()
    hands = montecarlo.run(partial(hands_kernel, setup.rules), trials, seed, client=client, progress=progress)
    run = montecarlo.run(partial(games_kernel, setup), trials, seed + 1, client=client, progress=progress)
    estimates = hands.estimates | run.estimates
    return Report(NAME, setup.as_dict(), {k: Figure.estimated(e) for k, e in estimates.items()})
