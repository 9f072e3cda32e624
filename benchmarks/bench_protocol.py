"""The one play loop (`nessus.play.play` on each game's protocol State, chance drawn exactly,
every action checked legal): whole games and actions per second for each game, measured in one
run. The generic loop is what dashboards, tournaments of any policies and OpenSpiel use; Monte
Carlo figures come from the vectorised simulators (the other benchmarks compare those with a
plain Python loop).

Each game is played at its default rules with "optimal" in every seat where the game has it,
else its first named policy, or by chance alone where it has no decision.
"""

from __future__ import annotations

import time

import numpy as np
from _timing import record

from nessus import games
from nessus.game import Action, State
from nessus.play import play

SECONDS = 1.5  # about this long of play per game


def rates(name: str) -> tuple[str, float, float]:
    """The policy played, whole games per second and actions (moves and chance) per second."""
    module = games.get(name)
    start = module.initial_state()
    named = module.policies()
    label = "optimal" if "optimal" in named else next(iter(named), "chance only")
    seats = [named[label]] * start.shape().players if named else []
    rng = np.random.default_rng(1)
    play(start, seats, rng)  # warm the solvers' caches
    actions = 0

    def count(state: State, action: Action) -> None:
        nonlocal actions
        actions += 1

    n, t0 = 0, time.perf_counter()
    while time.perf_counter() - t0 < SECONDS:
        play(start, seats, rng, on_move=count)
        n += 1
    seconds = time.perf_counter() - t0
    return label, n / seconds, actions / seconds


def main() -> None:
    print(f"{'game':9} {'policy':16} {'games/s':>10} {'actions/s':>10}")
    measured = {}
    for name in games.NAMES:
        label, per_game, per_action = rates(name)
        print(f"{name:9} {label:16} {per_game:10,.1f} {per_action:10,.0f}", flush=True)
        measured[name] = per_game, per_action
    record(
        "The one play loop (`nessus.play.play` on the protocol State, every action checked legal, chance drawn "
        "exactly): actions/s, optimal seats where the game has them, else its first policy",
        ", ".join(f"{name} {a / 1000:,.0f} k" for name, (_, a) in measured.items()),
    )
    record(
        "The one play loop: whole games/s",
        ", ".join(f"{name} {g:,.0f}" for name, (g, _) in measured.items()),
    )


if __name__ == "__main__":
    main()
