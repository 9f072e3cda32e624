"""Nyx by Monte Carlo.

`nessus simulate nyx` plays `games` whole games of the rules' bots (`bots`: greedy, odds,
random_legal, rollout) through the game protocol's loop — each seat's win share and the game's
length in rounds — and checks `p_shape_within` and the dice gains by Monte Carlo (`trials`
chases), the chase played by its exact optimal keeps. The rollout bot's own play-outs run on
the fast table of `nyx.playout` (the same games as this loop plays with greedy and odds).
"""

from __future__ import annotations

from functools import cache, partial
from typing import Any, cast

import numpy as np

from nessus import montecarlo
from nessus.games.nyx.odds import START, dice_bought, shape_within
from nessus.games.nyx.policies import policies
from nessus.games.nyx.rules import NAME, Rules
from nessus.games.nyx.state import State, initial_state
from nessus.play import play
from nessus.report import Figure, Report


def simulate(
    rules: Rules | None = None, trials: int = 100_000, seed: int = 0, client: Any = None, progress: Any = None
) -> Report:
    """By Monte Carlo with 95% intervals: `p_shape_within` with the rules' dice and with one
    more die of each colour (`trials` chases, each keep the exact optimal one), and `rules.games`
    whole games of the rules' bots through the generic play loop (played first, so that Ctrl-C
    during the chases finds them finished): each seat's win share and the mean number of rounds."""
    rules = rules or Rules()
    games = montecarlo.run(
        partial(games_kernel, rules), rules.games, seed + 1, client=client, progress=progress, fixed=True
    )
    chase = montecarlo.run(partial(chase_kernel, rules), trials, seed, client=client, progress=progress)
    estimates = chase.estimates | games.estimates
    return Report(NAME, rules.as_dict(), {k: Figure.estimated(e) for k, e in estimates.items()})


@cache
def _outcomes(size: int, black: int, white: int, rolls: int, after: tuple) -> tuple[list, np.ndarray]:
    """The chance outcomes of an after-state of the chase and their cumulative weights."""
    outcomes = list(shape_within(size, black, white, rolls).chance(after))
    return [s for s, _ in outcomes], np.cumsum([w for _, w in outcomes])


def _chase_once(size: int, black: int, white: int, rolls: int, rng: np.random.Generator) -> bool:
    """One chase played by its exact optimal keeps: whether the shape's dice were got in time."""
    game = shape_within(size, black, white, rolls)
    state: tuple = START
    while True:
        moves = dict(game.choices(state))
        if not moves:
            return bool(game.payoff(state))
        after = moves[game.best(state)]
        states, cumulative = _outcomes(size, black, white, rolls, after)
        state = states[int(np.searchsorted(cumulative, rng.integers(cumulative[-1]), side="right"))]


def chase_kernel(rules: Rules, rng: np.random.Generator, n: int) -> dict[str, np.ndarray]:
    """n chases of `chase_size` dice of one symbol within `rolls` rolls with the rules' dice,
    and with one more die of each colour that can be bought: whether each succeeded."""
    black, white = rules.black_white
    size, rolls = rules.chase_size, rules.rolls
    out = {"p_shape_within": np.array([_chase_once(size, black, white, rolls, rng) for _ in range(n)])}
    for colour, (b, w) in dice_bought(*rules.black_white).items():
        out[f"p_shape_within_one_more_{colour}"] = np.array([_chase_once(size, b, w, rolls, rng) for _ in range(n)])
    return out


def games_kernel(rules: Rules, rng: np.random.Generator, n: int) -> dict[str, np.ndarray]:
    """n whole games with the rules' bots (`Rules.seat_bots`): each seat's win share (a shared
    win counting its share) and the rounds played (turns per player)."""
    named = policies(rules)
    seats = [named[b] for b in rules.seat_bots]
    ends = [cast(State, play(initial_state(rules), seats, rng)) for _ in range(n)]
    out = {"mean_rounds": np.array([e.turn / rules.players for e in ends])}
    for seat, bot in enumerate(rules.seat_bots):
        out[f"win_share_seat_{seat + 1}_{bot}"] = np.array([float(e.returns()[seat]) for e in ends])
    return out
