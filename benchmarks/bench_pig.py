"""Pig: the optimal-play solve (goal 100; target < 30 s) and whole-game Monte Carlo against a
plain Python loop playing the same games with the same policy table (target >= 50x), measured
in one run. The vectorised games draw each whole turn from its exact law (`play_turns`, as
`simulate` does); rolling die by die (`play_games`) is shown too."""

from __future__ import annotations

import random
import time

import numpy as np
from _timing import faster, timed, under

from nessus import pushluck as core
from nessus.games import pig

GAMES = 1 << 17
LOOP_GAMES = 4_000


def loop(goal: int, rolls: list[list[bool]], n: int) -> int:
    """n games both optimal, one die at a time in plain Python: how many the first player wins."""
    first = 0
    for _ in range(n):
        scores, mover, k = [0, 0], 0, 0
        while True:
            i, j = scores[mover], scores[1 - mover]
            if k == 0 or rolls[i * goal + j][k]:
                face = random.randint(1, 6)
                if face == 1:
                    mover, k = 1 - mover, 0
                elif i + k + face >= goal:
                    first += mover == 0
                    break
                else:
                    k += face
            else:
                scores[mover] += k
                mover, k = 1 - mover, 0
    return first


def main() -> None:
    race = pig.Race(100)
    t = time.perf_counter()
    solved = core.solve(race, race.blocks(), pig.TOLERANCE)
    solve = time.perf_counter() - t
    print(
        f"Pig goal 100 solved in {solve:.2f} s ({solved.sweeps} sweeps over {int(race.sizes.sum())} states, "
        f"tolerance {pig.TOLERANCE:g}): P(first player wins) = {solved.starts[0]:.6f}; target < 30 s"
    )
    rebuilt = timed(lambda: core.from_starts(race, solved.starts))
    print(f"policy rebuilt from the 10,000 stored turn-start values in {rebuilt:.3f} s")
    under(
        "Pig (goal 100) solved by value iteration to a sweep change < 1e-12",
        [solve],
        30,
        f" ({int(race.sizes.sum()):,} states, {solved.sweeps:,} sweeps); from the stored table {rebuilt:.2f} s",
    )

    rolls = solved.rolls()
    t = time.perf_counter()
    sampler = core.TurnSampler.of(core.turn_table(race, rolls))
    print(f"whole-turn sampler built in {time.perf_counter() - t:.3f} s")
    best = pig.OptimalRolls(100, rolls)
    rng = np.random.default_rng(1)
    by_turn = min(timed(lambda: pig.play_turns(100, (sampler, sampler), rng, GAMES)) for _ in range(3))
    by_dice = timed(lambda: pig.play_games(100, (best, best), rng, GAMES))
    t_loop = timed(lambda: loop(100, rolls.tolist(), LOOP_GAMES))
    loop_rate = LOOP_GAMES / t_loop
    print(
        f"whole optimal games: plain loop {loop_rate:,.0f} games/s; a turn at a time {GAMES / by_turn:,.0f} games/s = "
        f"{GAMES / by_turn / loop_rate:.0f}x; die by die {GAMES / by_dice:,.0f} games/s = "
        f"{GAMES / by_dice / loop_rate:.0f}x; "
        "target >= 50x"
    )
    faster(
        "Pig whole optimal games, each turn drawn whole from its exact law (as `simulate` does)",
        [GAMES / by_turn / loop_rate],
        f" ({GAMES / by_turn:,.0f} games/s); die by die {GAMES / by_dice / loop_rate:.0f}x",
    )


if __name__ == "__main__":
    main()
