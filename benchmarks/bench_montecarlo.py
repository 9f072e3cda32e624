"""Monte Carlo throughput in dice per second, as ratios measured in one run.

Ours (the game kernels through nessus.montecarlo.run, CIs included) against raw
`numpy.random.Generator.integers(1, 7)` making the same number of dice, and against a plain
Python loop playing the same game. Targets: Le Renard >= 0.5x raw, La Boue >= 0.25x raw,
both >= 50x the plain loop.
"""

from __future__ import annotations

import random
from functools import partial

import numpy as np
from _timing import best_of, faster, record

from nessus import montecarlo
from nessus.chains import RewardChain, Step
from nessus.games import boue, renard

DICE = 30_000_000
LOOP_DICE = 600_000


def raw(n: int, dtype=np.int64) -> float:
    rng = np.random.default_rng(1)
    return best_of(lambda: rng.integers(1, 7, size=n, dtype=dtype))


def expected_boue_dice(dice: int) -> float:
    """E[dice rolled in one turn], exact: the turn chain with reward = dice rolled per step."""
    chain = boue.turn_chain(dice)
    steps = {n: [Step(t.probability, n, t.to) for t in ts] for n, ts in chain.steps.items()}
    return float(RewardChain(steps).mean(dice))


def renard_loop(n_rolls: int) -> None:
    wins = 0
    for _ in range(n_rolls):
        a, b, c = random.randint(1, 6), random.randint(1, 6), random.randint(1, 6)
        wins += a == b == c


def boue_loop(n_turns: int) -> None:
    for _ in range(n_turns):
        free, score = 5, 0
        while free:
            faces = [random.randint(1, 6) for _ in range(free)]
            stuck = sum(1 for f in faces if f in (2, 5))
            if stuck:
                free -= stuck
            else:
                score += sum(faces)


def main() -> None:
    raw64, raw8 = raw(DICE), raw(DICE, np.int8)
    print(
        f"raw numpy integers(1, 7): {DICE / raw64 / 1e6:8.1f} M dice/s (int64), {DICE / raw8 / 1e6:8.1f} M dice/s "
        "(int8)"
    )

    per_turn = expected_boue_dice(5)
    games = {  # dice per trial, ours, the plain loop, target against raw int64
        "Le Renard": (
            3.0,
            lambda n: montecarlo.run(partial(renard.round_kernel, 10), n, 7, progress=False),
            renard_loop,
            0.5,
        ),
        "La Boue": (
            per_turn,
            lambda n: montecarlo.run(partial(boue.turn_kernel, 5), n, 7, progress=False),
            boue_loop,
            0.25,
        ),
    }
    for name, (dice_per_trial, ours, loop, raw_target) in games.items():
        trials = int(DICE / dice_per_trial)
        t_ours = best_of(lambda: ours(trials))
        loop_trials = int(LOOP_DICE / dice_per_trial)
        t_loop = best_of(lambda: loop(loop_trials), repeat=1)
        ours_rate = trials * dice_per_trial / t_ours
        loop_rate = loop_trials * dice_per_trial / t_loop
        print(
            f"{name:10s} {ours_rate / 1e6:8.1f} M dice/s = {ours_rate / (DICE / raw64):.2f}x raw int64 "
            f"({ours_rate / (DICE / raw8):.2f}x raw int8), {ours_rate / loop_rate:.0f}x the plain loop "
            f"({loop_rate / 1e6:.2f} M dice/s)"
        )
        what = f"{name} Monte Carlo (through the runner, CIs included)"
        to_raw = ours_rate / (DICE / raw64)
        record(
            f"{what} against raw `Generator.integers(1, 7)` (int64)",
            f"{ours_rate / 1e6:.0f} M dice/s = {to_raw:.2f}x raw",
            f">= {raw_target:g}x raw",
            to_raw >= raw_target,
        )
        faster(what, [ours_rate / loop_rate], f" (the loop: {loop_rate / 1e6:.2f} M dice/s)")
    print(f"(La Boue rolls {per_turn:.4f} dice per turn on average: exact, from the turn chain)")


if __name__ == "__main__":
    main()
