"""Nyx's win-chance hint and its rollout bot (issue 22), measured:
- the fast engine (`nyx.playout`) against the generic play loop: whole games of odds and greedy
  per second, the same games from the same seeds;
- the page's hint (`State.hint(method="rollout")` with the page's seating and `rollout_table`)
  at every one of your decisions in seeded games where you play the hint's move: p50, p95 and
  the slowest, in wall-clock and in the process's CPU time (what an idle core takes), the
  rollouts a move, how often the best move is clear, how often exact; the issue asks for 1 s at
  p95;
- with `--tournament GAMES`: the rollout bot against each other bot at two players, GAMES games
  each, half in each seat (win shares with 95% Wilson intervals, a tie counting half): a
  markdown table for the README.

    python benchmarks/bench_nyx.py [--games 6] [--tournament 120]
"""

from __future__ import annotations

import argparse
import time
from typing import cast

import numpy as np
from _timing import record

from nessus.games.nyx import playout
from nessus.games.nyx.policies import policies, rollout
from nessus.games.nyx.rules import BOTS, Rules
from nessus.games.nyx.state import State, initial_state
from nessus.montecarlo import wilson
from nessus.play import play, tournament
from nessus.rules import seat_names

ENGINE_GAMES = 60
OPPONENTS = ("greedy", "odds", "random_legal")


def engine_speed() -> tuple[float, float]:
    """Games per second of odds against greedy at three players: the play loop, the fast table."""
    rules, named = Rules(players=3), policies()
    names = ("odds", "greedy", "odds")
    t = time.perf_counter()
    loop = [
        cast(State, play(initial_state(rules), [named[b] for b in names], np.random.default_rng(s)))
        for s in range(ENGINE_GAMES)
    ]
    slow = time.perf_counter() - t
    bots = [playout.BOTS[b] for b in names]
    t = time.perf_counter()
    fast = [
        playout.Table(initial_state(rules)).run(bots, playout.Stream(np.random.default_rng(s)))
        for s in range(ENGINE_GAMES)
    ]
    quick = time.perf_counter() - t
    assert [e.scores for e in loop] == [f.score for f in fast], "the fast engine must play the same games"
    return ENGINE_GAMES / slow, ENGINE_GAMES / quick


def page_hints(games: int) -> dict[str, float]:
    """The page's hint at each of your decisions (seat 1, the page's bots at the other seats, you
    playing the hint's move) in `games` seeded games at 2 and 3 players: seconds each, with the
    hint's rollouts, separation and exactness."""
    from nessus.kit.hint import rollout_table

    times, cpu, counts, clear, exact = [], [], [], 0, 0
    for g in range(games):
        players = 2 + g % 2
        rules, named = Rules(players=players), policies()
        table = seat_names(str(BOTS.default), players - 1, tuple(named))
        seats = {p + 1: named[b] for p, b in enumerate(table)}
        model = ("odds", *table)
        state, rng = initial_state(rules), np.random.default_rng(g)
        while True:
            state = cast(State, play(state, seats, rng))
            if state.is_terminal():
                break
            assert isinstance(state, State)
            t, c = time.perf_counter(), time.process_time()
            hint = state.hint(method="rollout", bots=model)
            rollout_table(hint, None, state.describe, "final points")  # type: ignore[arg-type]
            times.append(time.perf_counter() - t)
            cpu.append(time.process_time() - c)
            counts.append(hint.rollouts)  # type: ignore[attr-defined]
            clear += hint.separated  # type: ignore[attr-defined]
            exact += all(v.exact for v in hint.estimates.values())  # type: ignore[attr-defined]
            state = state.apply(hint.best)
    seconds, busy = np.array(times), np.array(cpu)
    return {
        "decisions": len(times),
        "p50": float(np.percentile(seconds, 50)),
        "p95": float(np.percentile(seconds, 95)),
        "max": float(seconds.max()),
        "cpu p50": float(np.percentile(busy, 50)),
        "cpu p95": float(np.percentile(busy, 95)),
        "cpu max": float(busy.max()),
        "rollouts": float(np.mean(counts)),
        "clear": clear / len(times),
        "exact": exact / len(times),
    }


def rollout_tournament(games: int, seed: int = 0) -> list[dict[str, object]]:
    """The rollout bot against each other bot at two players, `games` games each, half in each
    seat; the rollout bot models its opponent as the bot it faces (`Rules.bots`)."""
    rows = []
    for opponent in OPPONENTS:
        wins, played = 0.0, 0
        for seat in (0, 1):
            order = ["rollout", opponent] if seat == 0 else [opponent, "rollout"]
            rules = Rules(players=2, bots=",".join(order))
            named = {"rollout": rollout(), opponent: policies()[opponent]}
            frame = tournament(initial_state(rules), order, games=games // 2, seed=seed + seat, named=named)
            share = float(frame["win_share"][seat])
            wins, played = wins + share * (games // 2), played + games // 2
        low, high = wilson(round(wins), played)
        rows.append({"opponent": opponent, "games": played, "win_share": wins / played, "low": low, "high": high})
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=6, help="seeded games whose decisions the hint is timed at")
    parser.add_argument("--tournament", type=int, default=0, help="games of the rollout bot against each bot")
    args = parser.parse_args()
    loop, fast = engine_speed()
    print(
        f"Nyx whole games (3 players, odds, greedy): play loop {loop:,.1f}/s, table {fast:,.0f}/s = {fast / loop:.0f}x"
    )
    record("Nyx fast engine (nyx.playout), whole games", f"{fast:,.0f} games/s, {fast / loop:.0f}x the play loop")
    h = page_hints(args.games)
    print(
        f"Nyx rollout hint at {h['decisions']:.0f} decisions of {args.games} games: p50 {h['p50']:.2f} s, "
        f"p95 {h['p95']:.2f} s, max {h['max']:.2f} s (the CPU's time: p50 {h['cpu p50']:.2f} s, p95 "
        f"{h['cpu p95']:.2f} s, max {h['cpu max']:.2f} s); {h['rollouts']:.0f} rollouts a move on average, "
        f"best move clear {h['clear']:.0%}, exact {h['exact']:.0%}"
    )
    record(
        "Nyx rollout hint on the page (p95 over a game's decisions)",
        f"p50 {h['p50']:.2f} s, p95 {h['p95']:.2f} s, max {h['max']:.2f} s",
        "p95 <= 1 s",
        h["p95"] <= 1.0,
    )
    if args.tournament:
        print("\n| rollout bot against | games | rollout's win share (95%) |\n| --- | --- | --- |")
        for row in rollout_tournament(args.tournament):
            print(
                f"| {row['opponent']} | {row['games']} | {row['win_share']:.0%} ({row['low']:.0%}–{row['high']:.0%}) |"
            )


if __name__ == "__main__":
    main()
