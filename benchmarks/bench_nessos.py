"""Nessos whole games, games per second measured in one run:
- the vectorised engine (`nessos.fast`) and the generic play loop (`nessus.play.play` on the
  protocol State), both with naive bots, against a plain Python loop playing the same games (a
  shuffled list, the naive bots written inline): the issue asks for a fast path reaching 50x
  the plain loop;
- one Bayes bot at the table (`bayes,naive,...`): the fast engine (its exact tables filled by a
  first run, as in a long simulation) against the generic loop.
"""

from __future__ import annotations

import random
import time

import numpy as np
from _timing import faster, record, span

from nessus.games import nessos
from nessus.games.nessos import fast
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


def fast_rate(rules: nessos.Rules, bots: list[str], n: int) -> float:
    """Games per second of the fast engine playing n games (after a first run of n / 10)."""
    fast.play(rules, np.random.default_rng(0), n // 10, bots)
    start = time.perf_counter()
    fast.play(rules, np.random.default_rng(1), n, bots)
    return n / (time.perf_counter() - start)


def main() -> None:
    ratios, rates, over_generic, bayes_rates, bayes_over_generic = [], [], [], [], []
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
        vectorised = fast_rate(rules, ["naive"] * players, 300_000)
        fast_bayes = fast_rate(rules, ["bayes"] + ["naive"] * (players - 1), 100_000)
        print(
            f"Nessos, {players} players, naive bots: fast engine {vectorised:,.0f} games/s = {vectorised / plain:.1f}x "
            f"a plain Python loop ({plain:,.0f} games/s; target >= 50x) = {vectorised / generic:,.0f}x the generic "
            f"play loop ({generic:,.0f} games/s, {plain / generic:.1f}x slower than the plain loop); one Bayes bot at "
            f"the table: fast engine {fast_bayes:,.0f} games/s = {fast_bayes / with_bayes:,.0f}x the generic loop "
            f"({with_bayes:,.0f} games/s)",
            flush=True,
        )
        ratios.append(vectorised / plain)
        rates.append(vectorised)
        over_generic.append(vectorised / generic)
        bayes_rates.append(fast_bayes)
        bayes_over_generic.append(fast_bayes / with_bayes)
    faster(
        "Nessos whole games (3, 4, 6 players, naive bots), the vectorised engine `nessos.fast`",
        ratios,
        f" ({span(rates, '{:,.0f}')} games/s; {span(over_generic, '{:,.0f}')}x the generic play loop)",
    )
    record(
        "Nessos whole games with one Bayes bot at the table, `nessos.fast` (its exact tables filled by a first run)",
        f"{span(bayes_rates, '{:,.0f}')} games/s = {span(bayes_over_generic, '{:,.0f}')}x the generic play loop",
    )


if __name__ == "__main__":
    main()
