"""Entheos, measured in one run: `nessus report entheos` in a fresh process (the war read from
data/, then solved afresh for 3 turns); the war's exact chain by turn (the first turns; the
whole 10 turns take minutes: `nessus data rebuild entheos`); a duel's odds for the dashboard
(`war.next_turn` from a new position); the vectorised war simulation (wars/s); whole games
through the generic play loop with passive and greedy bots (games/s) and on the fast engine
(`playout`); and the rollout hint's time over every decision of whole games (p50, p95, max).

`python benchmarks/bench_entheos.py hints [bots …]` times the hint alone;
`python benchmarks/bench_entheos.py tournament [games] [bots]` plays the rollout bot in seat 1
against three of each bot (default 40 games each, the page's bots), and greedy in its seat on the
same seed, and prints the README's table."""

from __future__ import annotations

import sys
import time
from typing import cast

import numpy as np
from _timing import best_of, in_fresh_process, record, span, timed, under

from nessus.games import entheos
from nessus.games.entheos import playout, rollouts, war
from nessus.games.entheos.policies import PLAIN_NAMES
from nessus.games.entheos.state import State
from nessus.play import play, tournament
from nessus.rules import seat_names

SECONDS = 3.0


def games_per_second(players: int, bot: str) -> float:
    rules = entheos.Rules(players=players)
    seats = [entheos.policies(rules)[bot]] * players
    rng, n, start = np.random.default_rng(0), 0, time.perf_counter()
    while time.perf_counter() - start < SECONDS:
        play(entheos.initial_state(rules), seats, rng)
        n += 1
    return n / (time.perf_counter() - start)


def fast_games_per_second(players: int, bot: str) -> float:
    """Whole games a second on the fast engine (`playout.finish`) from a game's first decision."""
    rules = entheos.Rules(players=players)
    rng = np.random.default_rng(0)
    start_state = cast(State, play(entheos.initial_state(rules), [], rng))
    n, start = 0, time.perf_counter()
    while time.perf_counter() - start < SECONDS:
        playout.finish(playout.Table.of(start_state), [bot] * players, rng)
        n += 1
    return n / (time.perf_counter() - start)


def hint_times(games: int = 3, players: int = 4, bots: str = "greedy") -> tuple[list[float], list[float], list[int]]:
    """The rollout hint's seconds (wall clock, and this process's CPU) and rollout counts at every
    decision of seat 1 in `games` seeded games (seat 1 playing the hint's move, the others
    `bots`, one name or several round the table), as the page computes it."""
    rules = entheos.Rules(players=players)
    named, table = entheos.policies(rules), seat_names(bots, players - 1, tuple(named_bots()))
    wall, cpu, counts = [], [], []
    for seed in range(games):
        state, rng = entheos.initial_state(rules), np.random.default_rng(seed)
        while not state.is_terminal():
            state = cast(State, play(state, {p + 1: named[b] for p, b in enumerate(table)}, rng))
            if state.is_terminal():
                break
            start, used = time.perf_counter(), time.process_time()
            hint = rollouts.hint(state, bots)
            wall.append(time.perf_counter() - start)
            cpu.append(time.process_time() - used)
            counts.append(hint.rollouts)
            state = state.apply(hint.best)
    return wall, cpu, counts


def named_bots() -> list[str]:
    return list(entheos.policies())


def rollout_tournament(games: int = 40, bots: tuple[str, ...] = tuple(PLAIN_NAMES), players: int = 4) -> str:
    """The rollout bot in seat 1 against `players` - 1 of each bot, `games` games each: a markdown
    table of its win share and the bots' mean share, with 95% intervals, and greedy's share in
    seat 1 on the same seed, the control (a fair share is 1/players)."""
    named = entheos.policies(entheos.Rules(players=players))
    rows = [
        "| against | games | rollout's win share (95%) | each bot's (mean) | greedy in its seat, same deals (95%) |",
        "| --- | --- | --- | --- | --- |",
    ]
    for bot in bots:
        shares = []
        for first in ("rollout", "greedy"):
            frame = tournament(
                lambda: entheos.initial_state(entheos.Rules(players=players)),
                [first] + [bot] * (players - 1),
                games,
                seed=7,
                named=named,
            )
            r = frame.row(0, named=True)
            shares.append(f"{r['win_share']:.0%} ({r['low']:.0%}–{r['high']:.0%})")
            if first == "rollout":
                shares.append(f"{frame[1:]['win_share'].to_numpy().mean():.0%}")
        rows.append(f"| {PLAIN_NAMES.get(bot, bot)} | {games} | " + " | ".join(shares) + " |")
        print(rows[-1], flush=True)
    return "\n".join(rows)


def percentile(values: list[float], q: float) -> float:
    return float(np.percentile(values, q))


def main() -> None:
    stored = in_fresh_process("from nessus.games import entheos\nentheos.report()")
    fresh = in_fresh_process(
        "from nessus.games import entheos\nentheos.report(entheos.Rules(war_turns=3))", stored=False
    )
    print(f"report, fresh process: {stored:.2f} s (war from data/); without data/, 3 turns of war solved {fresh:.2f} s")
    under(
        "Entheos `report`, fresh process, the war read from data/",
        [stored],
        1.0,
        f"; without data/, 3 turns of war solved {fresh:.2f} s",
    )
    start = time.perf_counter()
    for w in war.chain(5):
        print(f"  war after {w.turns} turns: {len(w.residues):,} positions, {time.perf_counter() - start:.1f} s so far")
    record(
        f"Entheos war's exact chain, the first {w.turns} turns",
        f"{time.perf_counter() - start:.1f} s ({len(w.residues):,} positions after turn {w.turns})",
    )
    places = (0, 1, 2, 5, 3, 4)
    first = timed(lambda: war.next_turn((6, 7, 8, 5, 4, 6), places))
    again = best_of(lambda: war.next_turn((2, 9, 8, 5, 4, 9), places))
    print(f"next_turn: {first * 1000:.1f} ms for a new line-up, {again * 1000:.1f} ms for a new position")
    rng = np.random.default_rng(1)
    n = 200_000
    took = best_of(lambda: war.kernel(8, rng, n))
    print(f"war simulation (8 turns, vectorised): {n / took:,.0f} wars/s")
    record(
        "Entheos duel odds for the dashboard (`war.next_turn`); the war simulated (8 turns, vectorised)",
        f"{first * 1000:.1f} ms a new line-up, {again * 1000:.1f} ms a new position; {n / took:,.0f} wars/s",
    )
    by_bot: dict[str, list[float]] = {"passive": [], "greedy": []}
    for players in (2, 4, 6):
        rates = {bot: games_per_second(players, bot) for bot in by_bot}
        print(f"generic play loop, {players} players: " + ", ".join(f"{b} {r:,.0f} games/s" for b, r in rates.items()))
        for bot, rate in rates.items():
            by_bot[bot].append(rate)
    record(
        "Entheos whole games through the generic play loop, 2, 4, 6 players",
        ", ".join(f"{bot} bots {span(rates)} games/s" for bot, rates in by_bot.items()),
    )

    fast = {bot: [fast_games_per_second(p, bot) for p in (2, 4, 6)] for bot in ("passive", "greedy")}
    record(
        "Entheos whole games on the fast engine (`playout`), 2, 4, 6 players",
        ", ".join(f"{bot} bots {span(rates)} games/s" for bot, rates in fast.items()),
    )
    wall, cpu, counts = hint_times()
    p50, p95 = percentile(wall, 50), percentile(wall, 95)
    made = f"{min(counts)}-{max(counts)} rollouts a move (0: exact)"
    busy = f"CPU p50 {percentile(cpu, 50):.2f} s, p95 {percentile(cpu, 95):.2f} s, max {max(cpu):.2f} s"
    print(f"rollout hint: p50 {p50:.2f} s, p95 {p95:.2f} s, max {max(wall):.2f} s ({busy}); {made}")
    under(
        "Entheos rollout hint, every decision of 3 games at 4 players against greedy (p95)",
        [p95],
        1.0,
        f"; p50 {p50:.2f} s, max {max(wall):.2f} s; {busy}; {made}",
    )


if __name__ == "__main__":
    if sys.argv[1:2] == ["hints"]:
        for table in sys.argv[2:] or ["greedy"]:
            wall, cpu, counts = hint_times(bots=table)
            print(
                f"{table}: {len(wall)} decisions; wall p50 {percentile(wall, 50):.2f} p95 {percentile(wall, 95):.2f} "
                f"max {max(wall):.2f} s; CPU p50 {percentile(cpu, 50):.2f} p95 {percentile(cpu, 95):.2f} "
                f"max {max(cpu):.2f} s; rollouts {min(counts)}-{max(counts)} (median {int(np.median(counts))})"
            )
    elif sys.argv[1:2] == ["tournament"]:
        games = int(sys.argv[2]) if len(sys.argv) > 2 else 40
        print(rollout_tournament(games, tuple(sys.argv[3].split(",")) if len(sys.argv) > 3 else tuple(PLAIN_NAMES)))
    else:
        main()
