"""Le Sept fatal: the exact one-turn figures (target < 1 s), the optimal two-player game solve
(3 rounds, both tie rules) and whole-game Monte Carlo against a plain Python loop playing the
same games with the same policy table (target >= 50x), measured in one run. The stored games
(3, 4 and 5 rounds) in a fresh process, read from data/ and solved."""

from __future__ import annotations

import random
import time

import numpy as np
from _timing import faster, in_fresh_process, record, timed, under

from nessus.games import sept
from nessus.games.sept import odds

GAMES = 1 << 17
LOOP_GAMES = 4_000


def loop(sol: sept.Solution, n: int) -> int:
    """n games (3 rounds, ties replayed), both optimal, one roll of 2d6 at a time in plain
    Python: how many the first player wins."""
    rolls, index, margin = sol.solved.rolls().tolist(), sol.duel.index.tolist(), sol.duel.margin
    first = 0
    for _ in range(n):
        scores, t = [0, 0], 0
        while True:
            p = t % 2
            lead, k = scores[p] - scores[1 - p], 0
            while True:
                if k and (lead + k > margin or not rolls[index[t][max(lead, -margin) + margin]][k]):
                    break
                s = random.randint(1, 6) + random.randint(1, 6)
                if s == 7:
                    k = 0
                    break
                k += s
            scores[p] += k
            if p == 1 and t >= 5:
                if scores[0] != scores[1]:
                    first += scores[0] > scores[1]
                    break
                t = 6
            else:
                t += 1
    return first


def stored_games() -> None:
    """Each stored game's optimal play in a fresh process (imports included): read and solved."""
    stored, solved = [], []
    for rounds in sept.STORED_ROUNDS:
        code = f"from nessus.games import sept\nsept.solution(sept.Rules(rounds={rounds}))"
        stored.append(in_fresh_process(code))
        solved.append(in_fresh_process(code, stored=False))
        print(
            f"{rounds}-round game (ties replayed), fresh process: from the stored table {stored[-1]:.2f} s, "
            f"solving it {solved[-1]:.2f} s"
        )
    record(
        f"Le Sept fatal's stored games ({' / '.join(map(str, sept.STORED_ROUNDS))} rounds), fresh process",
        f"from data/: {' / '.join(f'{s:.2f}' for s in stored)} s; solving: {' / '.join(f'{s:.1f}' for s in solved)} s",
    )


def main() -> None:
    stored_games()
    one_turn = timed(lambda: (sept.best_hold(), sept.hold_mean(20), sept.turn_distribution(20)))
    print(f"one-turn figures (best hold, hold-at-20 mean and zero): {one_turn:.3f} s")
    under("Le Sept fatal exact one-turn figures (best hold, hold-at-20 mean and zero)", [one_turn], 1.0)
    for ties in ("replay", "half"):
        t = time.perf_counter()
        sol = odds._solve(3, ties)
        print(
            f"3-round game, ties {ties}: solved three times (cut-offs lost / won / leader wins) in "
            f"{time.perf_counter() - t:.2f} s; P(first player wins) = {sol.p_first:.6f}, bracket width "
            f"{sol.high - sol.low:.1e}"
        )
    sol = odds._solve(3, "replay")
    frames = sept.tables(sept.Rules())
    print(f"rebuilt from the stored turn-start table in {timed(lambda: sept.from_tables(frames)):.3f} s")
    t = time.perf_counter()
    sampler = sept.sampler(sol)
    print(f"whole-turn sampler built in {time.perf_counter() - t:.3f} s")
    rng = np.random.default_rng(1)
    margin, rolls = sol.duel.margin, sol.solved.rolls()
    by_turn = min(timed(lambda: sept.duel_turns(3, "replay", margin, sampler, rng, GAMES)) for _ in range(3))
    by_dice = timed(lambda: sept.duel_kernel(3, "replay", margin, rolls, rng, GAMES))
    loop_rate = LOOP_GAMES / timed(lambda: loop(sol, LOOP_GAMES))
    print(
        f"whole optimal games: plain loop {loop_rate:,.0f} games/s; a turn at a time {GAMES / by_turn:,.0f} games/s = "
        f"{GAMES / by_turn / loop_rate:.0f}x; die by die {GAMES / by_dice:,.0f} games/s = "
        f"{GAMES / by_dice / loop_rate:.0f}x; "
        "target >= 50x"
    )
    faster(
        "Le Sept fatal whole optimal games (3 rounds), each turn drawn whole from its exact law",
        [GAMES / by_turn / loop_rate],
        f" ({GAMES / by_turn:,.0f} games/s); die by die {GAMES / by_dice / loop_rate:.0f}x",
    )


if __name__ == "__main__":
    main()
