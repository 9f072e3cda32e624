"""Pig: roll one die as often as you like, adding the faces to the turn total; a 1 wipes the
turn total and ends the turn; holding banks it. The first to reach `goal` points wins
(RULES.md section 6, "ordinary Pig").

Decisions: the first roll of a turn is compulsory; a player wins the moment their score plus
turn total reaches the goal (there is nothing left to decide).

Optimal play maximises the chance of winning (Neller & Presser, "Optimal Play of the Dice
Game Pig", 2004): states (my score i, opponent's score j, turn total k), i + k < goal, about
505,000 for goal 100. Value iteration (`nessus.solver.value_iteration`, floats) runs layer by
layer on i + j from the highest down: holding moves to a higher layer, a 1 or a roll stays in
it. `p_first_player_wins_optimal` is P(the first player wins) when both play optimally, in
floats: sweeps stop when the largest change is below 1e-12, which puts the value well within
1e-9 of the limit (a sweep change of 1e-9 would leave errors up to 2e-8). Not exact.

Whole games are simulated a turn at a time (`play_turns`): each turn is drawn from its exact
law under the player's policy (`core.turn_table`); `play_games` rolls die by die (tests
compare both with exact values). With more than two players a policy sees the best other
score as "the opponent's".
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from functools import cache, partial
from typing import TYPE_CHECKING, ClassVar

import numpy as np

from nessus import game, montecarlo
from nessus import pushluck as core
from nessus.game import Game
from nessus.report import Figure, Report
from nessus.rules import GameRules, Param, field
from nessus.solver import Hint

if TYPE_CHECKING:
    import polars as pl

NAME = "pig"
ROLL = core.RollLaw(((2, 1), (3, 1), (4, 1), (5, 1), (6, 1)), 1)
TOLERANCE = 1e-12
ACCURACY = 1e-9  # measured: the 1e-12 solve is within 3e-11 of a 1e-14 one (tests/games/pushluck/test_pig.py)
HEURISTIC = 20
TABLES = ("start_values",)

GOAL = Param("goal", 100, 1, 100, "points needed to win")
PLAYERS = Param("players", 2, 2, 8, "players in the simulated hold-at-20 games")


@dataclass(frozen=True)
class Rules(GameRules):
    params = (GOAL, PLAYERS)
    goal: int = field(GOAL)
    players: int = field(PLAYERS)


# -- the game for the solver ---------------------------------------------------------------------
@dataclass(frozen=True)
class Race:
    """Pig to `goal` as a `TurnGame`: context c = i * goal + j (mover's score i, opponent's j)."""

    goal: int
    roll: core.RollLaw = ROLL

    @property
    def sizes(self) -> np.ndarray:
        i = np.arange(self.goal * self.goal) // self.goal
        return self.goal - i

    def context(self, i: np.ndarray | int, j: np.ndarray | int) -> np.ndarray | int:
        return i * self.goal + j

    def hold(self, c: np.ndarray, k: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        i, j = np.divmod(c, self.goal)
        return j * self.goal + i + k, np.zeros(c.shape)

    def bust(self, c: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        i, j = np.divmod(c, self.goal)
        return j * self.goal + i, np.zeros(c.shape)

    def overflow(self, c: np.ndarray, total: np.ndarray) -> np.ndarray:
        return np.ones(np.broadcast(c, total).shape)  # score + turn total reach the goal: a win

    def blocks(self) -> list[np.ndarray]:
        """State indices by score sum i + j, highest first (Gauss-Seidel by layers)."""
        ctx, _ = core.states(self)
        layer = ctx // self.goal + ctx % self.goal
        order = np.argsort(-layer, kind="stable")
        cuts = np.flatnonzero(np.diff(layer[order])) + 1
        return np.split(order, cuts)


@cache
def _solve(goal: int) -> core.Solved:
    race = Race(goal)
    return core.solve(race, race.blocks(), TOLERANCE)


def solution(rules: Rules | None = None) -> core.Solved:
    """Optimal play for these rules: from the stored table for the default rules when there is
    one (`data/pig-start_values.parquet`, written by `nessus data rebuild`), else solved now (memoised)."""
    rules = rules or Rules()
    stored = _stored()
    if stored is not None and rules.goal == Rules().goal and stored.starts.size == rules.goal**2:
        return stored
    return _solve(rules.goal)


@cache
def _stored() -> core.Solved | None:
    frames = core.stored_frames(NAME, TABLES)
    return from_tables(frames) if frames is not None else None


def tables(rules: Rules | None = None) -> dict[str, pl.DataFrame]:
    """{"start_values": i, j, p_win}: P(the player to move wins) at the start of their turn
    with score i against j, optimal play by both, freshly solved. Every other value (and the
    policy) follows from these by one backward pass over the turn total (`from_tables`)."""
    import polars as pl

    goal = (rules or Rules()).goal
    s = _solve(goal)
    c = np.arange(goal * goal)
    return {
        "start_values": pl.DataFrame(
            {
                "goal": np.full(c.size, goal, dtype=np.int16),
                "i": (c // goal).astype(np.int16),
                "j": (c % goal).astype(np.int16),
                "p_win": s.starts,
            }
        )
    }


def from_tables(frames: dict[str, pl.DataFrame]) -> core.Solved:
    """The solved game rebuilt from `tables()` output (stored or fresh)."""
    f = frames["start_values"].sort(["i", "j"])
    goal = int(f["goal"][0])
    if f.height != goal * goal:
        raise ValueError(f"start_values must have goal^2 = {goal * goal} rows, got {f.height}")
    return core.from_starts(Race(goal), f["p_win"].to_numpy(), tolerance=TOLERANCE)


def hold_at_20_turn_mean() -> Fraction:
    """E[one turn's score] (points) holding at 20, ignoring the goal: exact."""
    return core.hold_at_mean(ROLL, HEURISTIC)


def points_hint(k: int) -> dict[str, Fraction]:
    """One turn played for points (the goal ignored): the exact expected turn score (points)
    after rolling and after holding at turn total k, playing for points afterwards
    (`core.points_values`)."""
    return core.points_values(ROLL, k)


def hold_boundary(i: int, j: int, rules: Rules | None = None) -> int:
    """The smallest turn total k >= 1 at which optimal play holds with score i against j
    (value iteration); goal - i when it rolls on until the goal."""
    goal = (rules or Rules()).goal
    for name, v in (("i", i), ("j", j)):
        if isinstance(v, bool) or not isinstance(v, int) or not 0 <= v < goal:
            raise ValueError(f"{name} must be a score from 0 to {goal - 1}, got {v!r}")
    return core.hold_boundary(solution(rules), i * goal + j)


def report(rules: Rules | None = None) -> Report:
    """Optimal winning chance of the first player (value iteration) and the hold-at-20 turn."""
    rules = rules or Rules()
    s = solution(rules)
    return Report(
        NAME,
        rules.as_dict(),
        {
            "p_first_player_wins_optimal": Figure.approx(
                s.starts[0],
                "P(the first player wins), both optimal; floats: value "
                f"iteration until the largest change of a sweep < {TOLERANCE:g}, within "
                f"{ACCURACY:g} of the limit (tests); not exact",
            ),
            "hold_at_20_turn_mean": Figure.of(
                hold_at_20_turn_mean(), "expected score of one turn holding at 20 (no goal)"
            ),
        },
    )


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


# -- Monte Carlo -------------------------------------------------------------------------------------
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


# -- a game to play ----------------------------------------------------------------------------------
MAX_TURNS_PER_POINT = 4
"""The practical bound on a game's turns (`State.shape`): 4 per point of the goal (402 to
100). Under uniform random play a game to 100 lasts 35 turns on average (61 at most in 300
games, measured), under the named policies fewer; only play that (almost) never holds comes
near the bound."""


@dataclass(frozen=True)
class State(core.TurnState):
    """Two players at Pig (the game protocol, `core.TurnState`): a player wins the moment their
    score plus turn total reaches the goal (the turn ends "goal").

    >>> state = initial_state(Rules(goal=10)).roll(die=6).roll(die=4)
    >>> state.is_terminal(), state.scores, state.returns()
    (True, (10, 0), [Fraction(1, 1), Fraction(0, 1)])
    """

    DICE: ClassVar[int] = 1
    LAW: ClassVar[core.RollLaw] = ROLL
    rules: Rules = Rules()

    @property
    def goal(self) -> int:
        return self.rules.goal

    def busts(self, dice: core.Faces) -> bool:
        return dice[0] == 1

    def roll(
        self, rng: np.random.Generator | None = None, dice: Sequence[int] | None = None, die: int | None = None
    ) -> State:
        """Roll the die (or take the given face, `die`, or `dice` = (face,)): the state after it."""
        if die is not None:
            if isinstance(die, bool) or not isinstance(die, int) or not 1 <= die <= 6:
                raise ValueError(f"die must be an integer from 1 to 6, got {die!r}")
            dice = (die,)
        return super().roll(rng, dice)

    def _gain(self, rolls: tuple[core.Faces, ...], k: int) -> State:
        if self.scores[self.mover] + k >= self.goal:
            return replace(self._end_turn("goal", k, rolls), winner=self.mover)
        return super()._gain(rolls, k)

    def _next_turn(self, scores: tuple[int, int], history: tuple[core.Played, ...]) -> State:
        return self._after_turn(scores, history)

    @property
    def context(self) -> int:
        """The solver's context (`Race`): mover's score * goal + the other's."""
        return self.scores[self.mover] * self.goal + self.scores[1 - self.mover]

    def _win_hint(self) -> Hint:
        """P(the player to move wins) after each legal action, both playing optimally after it
        (value iteration, floats)."""
        s, k = solution(self.rules), self.turn_total
        values: dict[game.Action, float] = {"roll": float(s.q_roll[self.context, k])}
        if k:
            values["hold"] = float(s.q_hold[self.context, k])
        return self._hint(values)

    def first_hold(self) -> int:
        """The smallest turn total at which optimal play holds in this turn (`hold_boundary`)."""
        return core.hold_boundary(solution(self.rules), self.context)

    def _stage(self) -> str:
        return f"turn {self.turn + 1}, first to {self.goal} wins"

    def shape(self) -> game.Shape:
        """Two players, "roll"/"hold", the 6 faces. The game could go on for ever (turn after
        turn wiped by a 1): `max_length` counts `MAX_TURNS_PER_POINT` turns per point of the
        goal and `core.MAX_ROLLS` rolls a turn."""
        turns = MAX_TURNS_PER_POINT * self.goal + 2
        return game.Shape(
            players=2,
            max_actions=2,
            max_chance_outcomes=6,
            max_length=turns * (2 * core.MAX_ROLLS + 1),
            min_return=Fraction(0),
            max_return=Fraction(1),
        )


def initial_state(rules: Rules | None = None) -> State:
    """The start of a two-player game: no points, the first player to roll (`players` sets the
    simulated hold-at-20 games only: `core.two_players`)."""
    return State(core.two_players(rules or Rules()))


def optimal_policy(state: game.State) -> game.Action:
    """Optimal play to win (value iteration; the state's own goal)."""
    assert isinstance(state, State)
    k = state.turn_total
    return "roll" if k == 0 or solution(state.rules).rolls()[state.context, k] else "hold"


def policies(rules: Rules | None = None) -> dict[str, game.Policy]:
    """ "optimal" (to win, value iteration) and "hold_at_20"."""
    return {"optimal": optimal_policy, f"hold_at_{HEURISTIC}": core.hold_at(HEURISTIC)}


GAME = Game(
    name=NAME,
    title="Pig",
    summary="One die, a 1 wipes the turn, first to 100: optimal play by value iteration.",
    Rules=Rules,
    report=report,
    simulate=simulate,
    initial_state=initial_state,
    policies=policies,
    lesson="08-le-sept-fatal",
    dashboard="le-sept-fatal.ipynb",
    tables=tables,
)
"""This game, as the registry, the command line and the gallery see it."""
