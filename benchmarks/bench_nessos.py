"""Nessos whole games, games per second measured in one run:
- the vectorised engine (`nessos.fast`) and the generic play loop (`nessus.play.play` on the
  protocol State), both with naive bots, against a plain Python loop playing the same games (a
  shuffled list, the naive bots written inline): the issue asks for a fast path reaching 50x
  the plain loop;
- one Bayes bot at the table (`bayes,naive,...`): the fast engine (its exact tables filled by a
  first run, as in a long simulation) against the generic loop;
- the rollout hint as the dashboard asks for it (`hint_latency`: 4 players, one bot of each kind
  against you, the bluffer sender with q = 1/2, the page's `HINT_MOST`), at every decision of
  your seat over seeded whole games: p50 / p95 / max in seconds, wall clock and CPU.

`python3 benchmarks/bench_nessos.py tournament [GAMES]` plays the README's tournament instead
(`tournament`: the rollout bot against three copies of each other bot, the Bayes bot in its
seat for comparison; about half an hour at 100 games an opponent).
"""

from __future__ import annotations

import random
import sys
import time
from fractions import Fraction

import numpy as np
from _timing import faster, record, span

from nessus.games import nessos
from nessus.games.nessos import fast
from nessus.games.nessos.deck import CHARON, TARGETS, deck
from nessus.games.nessos.odds import Sender
from nessus.montecarlo import wilson
from nessus.play import play, sample
from nessus.play import tournament as play_tournament

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
    latency()


def hint_latency(games: int = 6, players: int = 4, seed: int = 100) -> dict[str, list[float]]:
    """The rollout hint with the dashboard's settings at every decision of seat 1 (played by the
    Bayes bot) in `games` seeded games: its seconds (wall and CPU), rollouts a move, and whether
    the best move was clear."""
    from nessus.games.nessos.page import HINT_MOST, OPPONENTS

    rules = nessos.Rules(players=players)
    named = nessos.policies(rules)
    bots = ("bayes", *(OPPONENTS["one of each"].split(",") * players)[: players - 1])
    sender = Sender("bluffer", Fraction(1, 2), rules.hand_size)
    out: dict[str, list[float]] = {"wall": [], "cpu": [], "rollouts": [], "separated": [], "moves": []}
    for g in range(games):
        rng = np.random.default_rng(seed + g)
        s = nessos.initial_state(rules)
        while not s.is_terminal():
            if s.is_chance_node():
                s = s.apply(sample(s.chance_outcomes(), rng))
                continue
            if s.current_player() == 0:
                wall, cpu = time.perf_counter(), time.process_time()
                hint = s.hint(sender, method="rollout", most=HINT_MOST, bots=bots)
                out["wall"].append(time.perf_counter() - wall)
                out["cpu"].append(time.process_time() - cpu)
                out["rollouts"].append(hint.rollouts)
                out["separated"].append(hint.separated)
                out["moves"].append(len(hint.estimates))
            s = s.apply(named[bots[s.current_player()]](s))
    return out


def latency() -> None:
    """Print and record `hint_latency`."""
    out = hint_latency()
    wall, cpu = np.array(out["wall"]), np.array(out["cpu"])

    def three(t: np.ndarray) -> str:
        return " / ".join(f"{x:.2f}" for x in (np.percentile(t, 50), np.percentile(t, 95), t.max()))

    detail = (
        f"{len(wall)} decisions of 6 games: wall p50 / p95 / max {three(wall)} s (CPU {three(cpu)} s); "
        f"{span(out['rollouts'])} rollouts a move, {span(out['moves'])} moves, the best clear at "
        f"{np.mean(out['separated']):.0%} of the decisions"
    )
    print(f"Nessos rollout hint on the dashboard: {detail}", flush=True)
    record(
        "Nessos rollout hint as the dashboard asks (4 players, one bot of each kind, bluffer sender q = 1/2)",
        detail,
        "p95 <= 1 s",
        float(np.percentile(wall, 95)) <= 1.0,
    )


def tournament(games: int = 100, players: int = 4) -> None:
    """The rollout bot in one seat (each seat in turn, `games` / `players` games each) against
    three copies of each other bot, and the Bayes bot in the same seats for comparison: win shares
    with 95% Wilson intervals (a shared win counts its share), as a markdown table."""
    rules = nessos.Rules(players=players)
    named = nessos.policies(rules)
    each = games // players
    print(f"| against 3 × | rollout (1 seat of {players}) | bayes in the same seat | games, time |")
    print("|---|---|---|---|")
    for opponent in ("naive", "bluffer", "bayes", "random_legal"):
        cells = []
        start = time.perf_counter()
        for me in ("rollout", "bayes"):
            won = 0.0
            for seat in range(players):
                seats = [opponent] * players
                seats[seat] = me
                table = play_tournament(lambda: nessos.initial_state(rules), seats, each, seat, named=named)
                won += float(table["win_share"][seat]) * each
            low, high = wilson(round(won), each * players)
            cells.append(f"{won / (each * players):.0%} ({low:.0%}–{high:.0%})")
        took = time.perf_counter() - start
        print(f"| {opponent} | {cells[0]} | {cells[1]} | {each * players}, {took / 60:.0f} min |", flush=True)


if __name__ == "__main__":
    if sys.argv[1:2] == ["tournament"]:
        tournament(*map(int, sys.argv[2:3]))
    else:
        main()
