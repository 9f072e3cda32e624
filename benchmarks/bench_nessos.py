"""Nessos whole games: the generic play loop (`nessus.play.play` on the protocol State, naive
bots, cards dealt exactly from the counted pile) against a plain Python loop playing the same
games (a shuffled list, the naive bots written inline), games per second measured in one run;
and the Bayes bot's cost per game.

The issue asks for a fast path when the generic loop is under 50x a plain loop: the ratio
printed here says whether one is needed (the generic loop does more per move than a plain loop,
checking every action and keeping every state).
"""

from __future__ import annotations

import random
import time

import numpy as np

from nessus.games import nessos
from nessus.games.nessos.deck import CHARON, TARGETS, deck
from nessus.play import play

SECONDS = 3.0


def plain_game(players: int, rng: random.Random) -> str:
    """One game of naive bots, written the straightforward way: how it ended."""
    d = deck(players)
    cards = [CHARON] * d.charon + [v for v in d.values for _ in range(4)]
    rng.shuffle(cards)
    hands = [[cards.pop() for _ in range(5)] for _ in range(players)]
    fronts: list[list[int]] = [[] for _ in range(players)]
    out = [False] * players
    token, goal = 0, TARGETS[players]
    while True:
        me = token
        if hands[me]:
            card = hands[me].pop(rng.randrange(len(hands[me])))
            eligible = [p for p in range(players) if p != me and not out[p]]
            to = rng.choice(eligible)
            who = me if fronts[to].count(CHARON) >= 2 else to
            fronts[who].append(card)
            if fronts[who].count(CHARON) >= 3:
                out[who], hands[who] = True, []
                if out.count(False) == 1:
                    return "elimination"
            elif sum(fronts[who]) + 10 * min(fronts[who].count(v) for v in (1, 2, 3)) >= goal:
                return "target"
            if sum(f.count(CHARON) for f in fronts) >= 9:
                return "nine_charon"
            for i in range(players):
                p = (me + i) % players
                while not out[p] and len(hands[p]) < 5 and cards:
                    hands[p].append(cards.pop())
        if not any(hands[p] for p in range(players) if not out[p]):
            return "no_cards"
        token = (token + 1) % players
        while out[token]:
            token = (token + 1) % players


def rate(run_one) -> float:
    """Games per second of `run_one()` over about SECONDS."""
    n, t0 = 0, time.perf_counter()
    while time.perf_counter() - t0 < SECONDS:
        run_one()
        n += 1
    return n / (time.perf_counter() - t0)


def main() -> None:
    for players in (3, 4, 6):
        rules = nessos.Rules(players=players)
        named = nessos.policies(rules)
        rng = np.random.default_rng(1)
        naive = [named["naive"]] * players
        bayes = [named["bayes"]] + [named["naive"]] * (players - 1)
        generic = rate(lambda: play(nessos.initial_state(rules), naive, rng))
        with_bayes = rate(lambda: play(nessos.initial_state(rules), bayes, rng))
        r = random.Random(1)
        plain = rate(lambda: plain_game(players, r))
        print(
            f"Nessos, {players} players, naive bots: generic play loop {generic:,.0f} games/s, plain Python loop "
            f"{plain:,.0f} games/s: the generic loop is {plain / generic:.1f}x slower (a fast path would need "
            f">= 50x the plain loop: not built); one Bayes bot at the table: {with_bayes:,.0f} games/s",
            flush=True,
        )


if __name__ == "__main__":
    main()
