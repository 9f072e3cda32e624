"""Entheos, measured in one run: `nessus report entheos` in a fresh process (the war read from
data/, then solved afresh for 3 turns); the war's exact chain by turn (the first turns; the
whole 10 turns take minutes: `nessus data rebuild entheos`); a duel's odds for the dashboard
(`war.next_turn` from a new position); the vectorised war simulation (wars/s); and whole games
through the generic play loop with passive and greedy bots (games/s)."""

from __future__ import annotations

import time

import numpy as np
from _timing import best_of, in_fresh_process, record, span, timed, under

from nessus.games import entheos
from nessus.games.entheos import war
from nessus.play import play

SECONDS = 3.0


def games_per_second(players: int, bot: str) -> float:
    rules = entheos.Rules(players=players)
    seats = [entheos.policies(rules)[bot]] * players
    rng, n, start = np.random.default_rng(0), 0, time.perf_counter()
    while time.perf_counter() - start < SECONDS:
        play(entheos.initial_state(rules), seats, rng)
        n += 1
    return n / (time.perf_counter() - start)


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


if __name__ == "__main__":
    main()
