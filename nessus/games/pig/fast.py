"""Pig by Monte Carlo: whole games simulated a turn at a time (`play_turns`), each turn drawn
from its exact law under the player's policy (`core.turn_table`); `play_games` rolls die by
die (tests compare both with exact values). With more than two players a policy sees the best
other score as "the opponent's".
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial

import numpy as np

from nessus import montecarlo
from nessus import pushluck as core
from nessus.games.pig.odds import HEURISTIC, Race, solution
from nessus.games.pig.rules import NAME, Rules
from nessus.report import Figure, Report


# -- roll rules of the vectorised games (`play_games`): (my score, their score, turn total) arrays -> roll?
@dataclass(frozen=True)
class OptimalRolls:
    """Roll when rolling wins more often than holding (ties hold), for `play_games`."""

    goal: int
    rolls: np.ndarray  # [i * goal + j, k]

    def __call__(self, i: np.ndarray, j: np.ndarray, k: np.ndarray) -> np.ndarray:
        return self.rolls[i * self.goal + j, k]


@dataclass(frozen=True)
class HoldAtRolls:
    """The human rule, for `play_games`: roll while the turn total is below `n` (and the goal is
    not reached)."""

    n: int = HEURISTIC

    def __call__(self, i: np.ndarray, j: np.ndarray, k: np.ndarray) -> np.ndarray:
        return np.asarray(k < self.n)


def optimal_rolls(rules: Rules | None = None) -> OptimalRolls:
    """Optimal play to win, for `play_games` (the protocol's policy is `optimal_policy`)."""
    rules = rules or Rules()
    return OptimalRolls(rules.goal, solution(rules).rolls())


def play_games(goal: int, policies: tuple, rng: np.random.Generator, n: int) -> np.ndarray:
    """n whole games at once, a roll at a time, with `policies[p](my score, their score(s) max,
    turn total) -> roll?` for player p (numpy arrays: `OptimalRolls`, `HoldAtRolls`): the winner
    of each (0 = the first player).

    All games advance together, one roll per live game per step; a policy sees the best score
    among the other players as "their score" (exact for two players)."""
    players = len(policies)
    scores = np.zeros((n, players), dtype=np.int64)
    mover = np.zeros(n, dtype=np.int64)
    k = np.zeros(n, dtype=np.int64)
    winner = np.full(n, -1, dtype=np.int64)
    ids = np.arange(n)
    while ids.size:
        mine = scores[ids, mover]
        others = scores[ids].copy()
        others[np.arange(ids.size), mover] = -1
        theirs = others.max(axis=1)
        roll = k == 0
        for p, policy in enumerate(policies):
            sel = (mover == p) & ~roll
            if sel.any():
                roll[sel] = policy(mine[sel], theirs[sel], k[sel])
        face = rng.integers(1, 7, size=ids.size)
        busted = roll & (face == 1)
        k = np.where(roll & ~busted, k + face, k)
        won = roll & ~busted & (mine + k >= goal)
        winner[ids[won]] = mover[won]
        held = ~roll
        scores[ids[held], mover[held]] += k[held]
        ends = busted | held
        mover = np.where(ends, (mover + 1) % players, mover)
        k = np.where(ends, 0, k)
        keep = ~won
        ids, mover, k = ids[keep], mover[keep], k[keep]
    return winner


def play_turns(goal: int, samplers: tuple[core.TurnSampler, ...], rng: np.random.Generator, n: int) -> np.ndarray:
    """n whole games, a turn at a time: player p's turn from (my score, best other score) is
    drawn by `samplers[p]` (from `core.turn_table` of their policy). The winner of each
    game. Equal in law to `play_games` and much faster: one draw per turn instead of one per roll.

    scores[0] is the mover's score, then the next players' in order. Finished games keep being
    played (their results ignored) until a quarter of those left are finished, then dropped."""
    players = len(samplers)
    scores = np.zeros((players, n), dtype=np.int32)
    mover = np.zeros(n, dtype=np.int32)
    winner = np.full(n, -1, dtype=np.int64)
    ids = np.arange(n)
    done = np.zeros(n, dtype=bool)
    same = all(s is samplers[0] for s in samplers)
    while ids.size:
        theirs = scores[1] if players == 2 else scores[1:].max(axis=0)
        c = scores[0] * goal + theirs
        if same:
            banked = samplers[0].draw(c, rng)
        else:
            banked = np.empty(ids.size, dtype=np.int32)
            for p, sampler in enumerate(samplers):
                sel = np.flatnonzero(mover == p)
                banked[sel] = sampler.draw(c[sel], rng)
        total = scores[0] + banked
        won = total >= goal
        first = np.flatnonzero(won & ~done)
        winner[ids[first]] = mover[first]
        done |= won
        total[done] = 0  # a finished game's turn table row stays in range
        scores = np.concatenate([scores[1:], total[None]])  # the next player moves
        mover += 1
        mover[mover == players] = 0
        if 4 * np.count_nonzero(done) >= ids.size:
            keep = ~done
            ids, mover, scores, done = ids[keep], mover[keep], scores[:, keep], done[keep]
    return winner


def turn_scores(n_hold: int, rng: np.random.Generator, n: int) -> np.ndarray:
    """n single turns holding at `n_hold`: the points banked (0 after a 1)."""
    k = np.zeros(n, dtype=np.int64)
    live = np.ones(n, dtype=bool)
    while live.any():
        face = rng.integers(1, 7, size=n)
        bust = live & (face == 1)
        k = np.where(bust, 0, np.where(live, k + face, k))
        live &= ~bust & (k < n_hold)
    return k


def samplers(rules: Rules | None = None) -> tuple[core.TurnSampler, core.TurnSampler]:
    """Whole-turn samplers for (optimal play, hold at 20) at every (my score, their score)."""
    rules = rules or Rules()
    race = Race(rules.goal)
    hold = np.broadcast_to(np.arange(rules.goal) < HEURISTIC, (race.sizes.size, rules.goal))
    return (
        core.TurnSampler.of(core.turn_table(race, solution(rules).rolls())),
        core.TurnSampler.of(core.turn_table(race, hold)),
    )


def game_kernel(
    goal: int, players: int, best: core.TurnSampler, hold: core.TurnSampler, rng: np.random.Generator, n: int
) -> dict[str, np.ndarray]:
    """n two-player optimal games, n `players`-player hold-at-20 games, n optimal-against-hold-
    at-20 games (whole turns drawn by the samplers), and n hold-at-20 turns rolled die by die."""
    return {
        "p_first_player_wins_optimal": play_turns(goal, (best, best), rng, n) == 0,
        "p_first_player_wins_hold_at_20": play_turns(goal, (hold,) * players, rng, n) == 0,
        "p_optimal_first_beats_hold_at_20": play_turns(goal, (best, hold), rng, n) == 0,
        "hold_at_20_turn_mean": turn_scores(HEURISTIC, rng, n),
    }


def simulate(rules: Rules | None = None, trials: int = 100_000, seed: int = 0, client=None, progress=None) -> Report:
    """Monte Carlo of whole games (95% intervals): both optimal; `players` players all holding
    at 20; optimal first player against hold-at-20; and single hold-at-20 turns."""
    rules = rules or Rules()
    kernel = partial(game_kernel, rules.goal, rules.players, *samplers(rules))
    result = montecarlo.run(kernel, trials, seed, client=client, progress=progress)
    return Report(NAME, rules.as_dict(), {k: Figure.estimated(e) for k, e in result.estimates.items()})
