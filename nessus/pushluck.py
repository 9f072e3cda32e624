"""Push-your-luck turns and the two-player games built on them: what Le Sept fatal
(`nessus.games.sept`: two dice, a 7 wipes the turn, three rounds, the higher total wins) and
Pig (`nessus.games.pig`: one die, a 1 wipes the turn, first to 100) share.

A *turn*: roll again and again, adding each roll's points to the turn total; a *bust* roll
wipes the turn total and ends the turn; *holding* banks the turn total and ends the turn. The
first roll of a turn is compulsory (holding on a turn total of 0 is not allowed).

**One turn alone** (`hold_at_mean`, `hold_at_distribution`, `hold_at_chain`, `best_hold`): the
score of "roll while the turn total is below n", exactly.

**Two players** (`TurnGame`, `solve`): a game is described by *contexts* (what is settled when
a turn starts: scores, round, whose turn) and, inside a turn, the turn total k. A state is
(context, k) and its value is the mover's probability of winning (a tie may count 1/2). When
the turn passes, the opponent's winning chance enters as 1 - V, i.e. a coefficient -p and a
reward p: `nessus.solver.value_iteration` iterates these signed, substochastic rows like any
others (the sup-norm argument for convergence only needs absolute row sums below 1 along paths).

**The protocol state** (`TurnState`, `Played`, `hold_at`): a whole two-player game as
`nessus.game.State`; each game's `State` subclasses it with its rules and how a game ends:
both players, every round, the dice as chance with exact weights and every roll kept in the
history, the bust included. What a player plays for is an objective (`Win`, the default, or
`Points`, the turn alone for points): `state.hint(objective)` weighs every move for it.

>>> from nessus.games import pig
>>> state = pig.initial_state(pig.Rules(goal=10))
>>> state.legal_actions()
['roll']
>>> state = state.apply("roll")
>>> state.chance_outcomes()[0]
((1,), Fraction(1, 6))
>>> state = state.apply((6,))
>>> state.turn_total, state.legal_actions()
(6, ['roll', 'hold'])
>>> hint = state.hint()
>>> hint.best, hint.method
('roll', 'value-iteration')
>>> state.hint(Points()).values["hold"]  # for points alone: bank 6
Fraction(6, 1)
>>> state.apply("hold").scores
(6, 0)
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from functools import cache
from typing import TYPE_CHECKING, ClassVar, Protocol, Self, TypeVar, cast

import numpy as np

from nessus import game
from nessus.chains import RewardChain, Step
from nessus.dice import roll_faces, roll_outcomes
from nessus.dist import Dist
from nessus.solver import Hint, value_iteration

if TYPE_CHECKING:
    import polars as pl
    from scipy import sparse

HOLD, ROLL = 0, 1  # action indices (value iteration's argmax takes the first of equals: hold)


@dataclass(frozen=True)
class RollLaw:
    """What one roll does: `gains` = ((points, weight), ...) for the rolls that add points and
    `bust` = the weight of the rolls that wipe the turn (weights count equally likely outcomes)."""

    gains: tuple[tuple[int, int], ...]
    bust: int

    @property
    def weight(self) -> int:
        """The number of equally likely outcomes of one roll."""
        return self.bust + sum(w for _, w in self.gains)

    @property
    def p_bust(self) -> Fraction:
        return Fraction(self.bust, self.weight)

    @property
    def break_even(self) -> Fraction:
        """The turn total at which one more roll neither gains nor loses on average (points)."""
        return Fraction(sum(s * w for s, w in self.gains), self.bust)

    @property
    def top(self) -> int:
        """The most points one roll can add."""
        return max(s for s, _ in self.gains)


def _check_hold(n: int) -> None:
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise ValueError(f"hold must be an integer >= 1, got {n!r}")


def hold_at_mean(roll: RollLaw, n: int) -> Fraction:
    """E[score of one turn] (points) rolling while the turn total is below `n`, exact."""
    _check_hold(n)
    return _hold_at_mean(roll, n)


@cache
def _hold_at_mean(roll: RollLaw, n: int) -> Fraction:
    # In integers: a[k] = E[score from turn total k] * W^(n - k) (W = the roll's weight), so
    # a[k] = sum of w * (a[k + s] W^(s - 1), or (k + s) W^(n - k - 1) once k + s >= n).
    big = roll.weight
    powers = [big**i for i in range(max(n, roll.top) + 1)]
    a: dict[int, int] = {}
    for k in range(n - 1, -1, -1):
        a[k] = sum(w * (a[k + s] * powers[s - 1] if k + s < n else (k + s) * powers[n - k - 1]) for s, w in roll.gains)
    return Fraction(a[0], powers[n])


def hold_at_distribution(roll: RollLaw, n: int) -> Dist:
    """The exact distribution of one turn's score (points; 0 after a bust) rolling while the
    turn total is below `n`."""
    _check_hold(n)
    return _hold_at_distribution(roll, n)


@cache
def _hold_at_distribution(roll: RollLaw, n: int) -> Dist:
    reach = {0: Fraction(1)}
    final: dict[int, Fraction] = {0: Fraction(0)}
    for k in range(n):
        p = reach.pop(k, Fraction(0))
        if not p:
            continue
        final[0] += p * roll.p_bust
        for s, w in roll.gains:
            q = p * Fraction(w, roll.weight)
            if k + s >= n:
                final[k + s] = final.get(k + s, Fraction(0)) + q
            else:
                reach[k + s] = reach.get(k + s, Fraction(0)) + q
    return Dist.from_probabilities({s: p for s, p in final.items() if p})


def hold_at_chain(roll: RollLaw, n: int) -> RewardChain:
    """The turn as a `RewardChain`: state = turn total below n; reaching n or more banks it."""
    _check_hold(n)
    steps: dict[Hashable, list[Step]] = {}
    for k in range(n):
        out = [Step(roll.p_bust, 0, None)]
        for s, w in roll.gains:
            p = Fraction(w, roll.weight)
            out.append(Step(p, k + s, None) if k + s >= n else Step(p, 0, k + s))
        steps[k] = out
    return RewardChain(steps)


def best_hold(roll: RollLaw) -> tuple[int, Fraction]:
    """The smallest n maximising `hold_at_mean(roll, n)`, and that mean (points).

    One more roll at turn total k gains (sum of points x weights - bust weight x k) / weight on
    average, so the best of all policies holds from the break-even total on (the set of totals
    above it is never left); every n up to twice the break-even plus one roll is compared."""
    top = 2 * int(roll.break_even) + roll.top + 1
    best = max(range(1, top + 1), key=lambda n: (hold_at_mean(roll, n), -n))
    return best, hold_at_mean(roll, best)


def points_values(roll: RollLaw, k: int) -> dict[str, Fraction]:
    """The exact expected score of the turn (points) after each legal action at turn total `k`,
    playing for points afterwards (rolling while the turn total is below the break-even, the
    best of all policies, see `best_hold`): {"roll": ..., "hold": k}; no "hold" at k = 0 (the
    first roll is compulsory)."""
    if isinstance(k, bool) or not isinstance(k, int) or k < 0:
        raise ValueError(f"turn total must be an integer >= 0, got {k!r}")
    out = {"roll": _points_roll(roll, k)}
    if k:
        out["hold"] = Fraction(k)
    return out


@cache
def _points_roll(roll: RollLaw, k: int) -> Fraction:
    after = (Fraction(j) if j >= roll.break_even else _points_roll(roll, j) for j in (k + s for s, _ in roll.gains))
    return sum((Fraction(w, roll.weight) * v for (_, w), v in zip(roll.gains, after)), Fraction(0))


# -- two-player games ---------------------------------------------------------------------------
class TurnGame(Protocol):
    """A two-player push-your-luck game over contexts 0..C-1 (see the module docstring).

    Every method is vectorised over numpy arrays of contexts (and turn totals). A next context of
    -1 means the game ends and the mover scores `payoff` (1 = win, 0 = loss, 1/2 = a tie counted
    half); otherwise the opponent moves from that context with turn total 0.
    """

    @property
    def roll(self) -> RollLaw: ...

    @property
    def sizes(self) -> np.ndarray:
        """Context c has the states k = 0 .. sizes[c] - 1."""
        ...

    def hold(self, c: np.ndarray, k: np.ndarray) -> tuple[np.ndarray, np.ndarray]: ...

    def bust(self, c: np.ndarray) -> tuple[np.ndarray, np.ndarray]: ...

    def overflow(self, c: np.ndarray, total: np.ndarray) -> np.ndarray:
        """The mover's value when a roll takes the turn total of c to `total` >= sizes[c]."""
        ...


def offsets(game: TurnGame) -> np.ndarray:
    """The index of state (c, 0) for each context c; state (c, k) is offsets[c] + k."""
    return np.concatenate([[0], np.cumsum(game.sizes)[:-1]]).astype(np.int64)


def states(game: TurnGame) -> tuple[np.ndarray, np.ndarray]:
    """(context, turn total) of every state, in state-index order."""
    sizes = np.asarray(game.sizes, dtype=np.int64)
    ctx = np.repeat(np.arange(sizes.size), sizes)
    k = np.arange(ctx.size) - offsets(game)[ctx]
    return ctx, k


def _passing(next_ctx: np.ndarray, payoff: np.ndarray, start: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Coefficient, column and reward of handing the turn over (or ending the game)."""
    passes = next_ctx >= 0
    col = np.where(passes, start[np.maximum(next_ctx, 0)], 0)
    return np.where(passes, -1.0, 0.0), col, np.where(passes, 1.0, payoff)


def matrices(game: TurnGame) -> tuple[list[sparse.csr_matrix], list[np.ndarray]]:
    """The transitions and rewards of the actions [hold, roll] for `value_iteration`."""
    from scipy import sparse

    ctx, k = states(game)
    n = ctx.size
    start = offsets(game)
    size = np.asarray(game.sizes, dtype=np.int64)[ctx]
    rows, cols, data = [], [], []
    w = 1.0 / game.roll.weight
    roll_reward = np.zeros(n)
    for s, weight in game.roll.gains:
        inside = k + s < size
        idx = np.flatnonzero(inside)
        rows.append(idx)
        cols.append(idx + s)
        data.append(np.full(idx.size, weight * w))
        out = np.flatnonzero(~inside)
        roll_reward[out] += weight * w * game.overflow(ctx[out], k[out] + s)
    bn, bp = game.bust(np.arange(len(game.sizes)))
    coef, col, reward = _passing(bn[ctx], bp[ctx], start)
    pb = game.roll.bust * w
    keep = coef != 0
    rows.append(np.flatnonzero(keep))
    cols.append(col[keep])
    data.append(pb * coef[keep])
    roll_reward += pb * reward
    roll = sparse.csr_matrix((np.concatenate(data), (np.concatenate(rows), np.concatenate(cols))), shape=(n, n))

    hn, hp = game.hold(ctx, k)
    coef, col, hold_reward = _passing(hn, hp, start)
    legal = k >= 1
    keep = legal & (coef != 0)
    hold = sparse.csr_matrix((coef[keep], (np.flatnonzero(keep), col[keep])), shape=(n, n))
    hold_reward = np.where(legal, hold_reward, -np.inf)
    return [hold, roll], [hold_reward, roll_reward]


@dataclass(frozen=True)
class Solved:
    """A solved game: the mover's winning chance at the start of every context's turn, and the
    value of holding and of rolling at every (context, turn total), rebuilt from those starts.

    `q_hold[c, k]`, `q_roll[c, k]` are the mover's winning chances (nan for k >= sizes[c];
    -inf for holding on 0). `sweeps` and `residual` come from value iteration (the largest
    change of the last sweep is below `tolerance`)."""

    starts: np.ndarray
    q_hold: np.ndarray
    q_roll: np.ndarray
    sweeps: int
    residual: float
    tolerance: float

    def rolls(self) -> np.ndarray:
        """Where rolling is strictly better than holding (the optimal action; ties hold);
        computed once (the solution is immutable)."""
        cached = self.__dict__.get("_rolls")
        if cached is None:
            cached = self.q_roll > self.q_hold
            cached.setflags(write=False)
            object.__setattr__(self, "_rolls", cached)
        return cached

    def value(self, c: int, k: int = 0) -> float:
        return float(max(self.q_hold[c, k], self.q_roll[c, k]))


def hold_boundary(solved: Solved, c: int) -> int:
    """The smallest turn total k >= 1 at which optimal play holds in context `c` (the first
    turn total off the context's states when it never holds on them: rolls on to the end).

    Optimal play need not be a threshold (in Pig at 41 against 49 it holds from 22 to 26 and
    rolls again at 27): this is where it *first* holds."""
    row = solved.rolls()[c]  # False past the context's states too (nan values)
    stop = np.flatnonzero(~row[1:])
    return int(stop[0]) + 1 if stop.size else row.size


def turn_values(game: TurnGame, starts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """q_hold, q_roll over [context, turn total] from the turn-start values, by one backward pass
    over the turn total for all contexts at once (exact given the starts: nothing inside a turn
    leads back to a smaller turn total)."""
    sizes = np.asarray(game.sizes, dtype=np.int64)
    c_all = np.arange(sizes.size)
    width = int(sizes.max()) + game.roll.top
    v = np.full((sizes.size, width), np.nan)
    cc, tt = np.nonzero(np.arange(width)[None, :] >= sizes[:, None])
    v[cc, tt] = game.overflow(cc, tt)
    w = 1.0 / game.roll.weight
    bn, bp = game.bust(c_all)
    bust_value = game.roll.bust * w * np.where(bn >= 0, 1.0 - starts[np.maximum(bn, 0)], bp)
    q_hold = np.full((sizes.size, width), np.nan)
    q_roll = np.full((sizes.size, width), np.nan)
    for k in range(int(sizes.max()) - 1, -1, -1):
        live = np.flatnonzero(sizes > k)
        roll = bust_value[live].copy()
        for s, weight in game.roll.gains:
            roll += weight * w * v[live, k + s]
        if k == 0:
            hold = np.full(live.size, -np.inf)
        else:
            hn, hp = game.hold(live, np.full(live.size, k))
            hold = np.where(hn >= 0, 1.0 - starts[np.maximum(hn, 0)], hp)
        q_hold[live, k], q_roll[live, k] = hold, roll
        v[live, k] = np.maximum(hold, roll)
    top = int(sizes.max())
    return q_hold[:, :top], q_roll[:, :top]


def solve(game: TurnGame, blocks: Sequence[np.ndarray], tolerance: float) -> Solved:
    """Solve by value iteration block by block (state-index arrays in solving order)."""
    transitions, rewards = matrices(game)
    result = value_iteration(transitions, rewards, tolerance=tolerance, blocks=blocks)
    starts = result.values[offsets(game)]
    return from_starts(game, starts, result.sweeps, result.residual, tolerance)


def from_starts(
    game: TurnGame, starts: np.ndarray, sweeps: int = 0, residual: float = 0.0, tolerance: float = 0.0
) -> Solved:
    """The solved game rebuilt from stored turn-start values."""
    starts = np.asarray(starts, dtype=float)
    q_hold, q_roll = turn_values(game, starts)
    return Solved(starts, q_hold, q_roll, sweeps, residual, tolerance)


# -- figures and stored tables ------------------------------------------------------------------
def stored_frames(name: str, tables: Sequence[str]) -> dict[str, pl.DataFrame] | None:
    """The tables stored by `nessus data rebuild` (`nessus.tables`) for the default rules, if
    all exist."""
    from nessus import tables as store

    frames = {}
    for t in tables:
        frame = store.load(name, t)
        if frame is None:
            return None
        frames[t] = frame
    return frames


# -- whole games a turn at a time ------------------------------------------------------------------
def turn_table(game: TurnGame, rolls: np.ndarray) -> np.ndarray:
    """cdf[c, o] = P(a turn from context c ends with outcome <= o) when the mover rolls where
    `rolls[c, k]` (always on a turn total of 0). Outcome 0 is a bust; o >= 1 is the turn total
    banked (held, or a roll past the context's last state: reaching the goal in Pig).

    A forward pass over the turn total for all contexts at once, exact up to float rounding: a
    whole turn can then be drawn with one uniform number instead of rolling die by die."""
    sizes = np.asarray(game.sizes, dtype=np.int64)
    width = int(sizes.max()) + game.roll.top
    reach = np.zeros((sizes.size, width))
    reach[:, 0] = 1.0
    out = np.zeros((sizes.size, width))
    w = 1.0 / game.roll.weight
    rows = np.arange(sizes.size)
    for k in range(int(sizes.max())):
        live = rows[sizes > k]
        mass = reach[live, k]
        go = rolls[live, k] | (k == 0)
        out[live[~go], k] += mass[~go]
        live, mass = live[go], mass[go]
        out[live, 0] += mass * game.roll.bust * w
        for s, weight in game.roll.gains:
            inside = k + s < sizes[live]
            reach[live[inside], k + s] += mass[inside] * weight * w
            out[live[~inside], k + s] += mass[~inside] * weight * w
    return np.cumsum(out, axis=1)


@dataclass(frozen=True)
class TurnSampler:
    """Draws whole turns from `turn_table` rows by inversion with a guide table: `guide[c, g]`
    is the first outcome whose cumulative probability exceeds g / G, so a draw starts there and
    moves on at most a step or two."""

    cdf: np.ndarray
    guide: np.ndarray

    @classmethod
    def of(cls, cdf: np.ndarray) -> TurnSampler:
        cdf = cdf / cdf[:, -1:]
        cdf[:, -1] = np.inf  # every draw stops at the last outcome at the latest
        grid = np.arange(cdf.shape[1]) / cdf.shape[1]
        guide = np.stack([np.searchsorted(row, grid, side="right") for row in cdf]).astype(np.int32)
        return cls(cdf, guide)

    def draw(self, c: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        """One turn outcome for each context in `c` (see `turn_table`)."""
        width = self.cdf.shape[1]
        u = rng.random(c.size)
        base = c.astype(np.int64) * width
        o = self.guide.ravel()[base + (u * width).astype(np.int64)]
        flat = self.cdf.ravel()
        todo = np.flatnonzero(flat[base + o] <= u)
        while todo.size:
            o[todo] += 1
            todo = todo[flat[base[todo] + o[todo]] <= u[todo]]
        return o


# -- the protocol state ----------------------------------------------------------------------------
Faces = tuple[int, ...]
MAX_ROLLS = 200
"""The practical bound on the rolls of one turn (`shape().max_length`): a turn lasts longer only
after 200 rolls in a row without the bust, probability (5/6)^200 < 2e-16 whatever the play."""


R = TypeVar("R")


def two_players(rules: R) -> R:
    """The rules, checked for the playable game: it and its optimal play are for two players,
    and `players` sets the simulated games only, so another value is a ValueError here."""
    players = getattr(rules, "players", 2)
    if players != 2:
        raise ValueError(
            f"players must be 2 for the playable game (its optimal play is solved for two), got {players}; "
            "more players are simulated by `simulate`"
        )
    return rules


@dataclass(frozen=True)
class Points:
    """The objective "the most expected points this turn": the turn played alone, for points,
    the goal and the opponent ignored (a `nessus.game.Objective`)."""

    text: ClassVar[str] = "the expected score of this turn"
    unit: ClassVar[str] = "expected turn score"

    def payoff(self, final: TurnState) -> int:
        """The points the last finished turn banked (0 after the bust)."""
        return final.history[-1].banked if final.history else 0

    def hint(self, state: TurnState) -> Hint:
        """The exact expected score of the turn after each legal action (`points_values`)."""
        values: dict[game.Action, Fraction] = {a: v for a, v in points_values(state.LAW, state.turn_total).items()}
        return state._hint(values, "exact")


@dataclass(frozen=True)
class Win:
    """The objective "win the game": `player`'s win share (a tie counted half under `half`), the
    value of each move found by the game's solver (a `nessus.game.Objective`)."""

    player: int = 0
    text: ClassVar[str] = "P(you win)"
    unit: ClassVar[str] = "P(you win)"

    def payoff(self, final: TurnState) -> Fraction:
        """`player`'s win share of a finished game."""
        return final.returns()[self.player]

    def hint(self, state: TurnState) -> Hint:
        """The mover's chance of winning after each legal action, both optimal afterwards."""
        return state._win_hint()


@dataclass(frozen=True)
class Played:
    """One finished turn: whose, every roll (sorted faces; the bust last when it ended the
    turn), how it ended ("hold", "bust", or "goal": Pig's roll reaching the goal) and the
    points banked."""

    player: int
    rolls: tuple[Faces, ...]
    end: str
    banked: int

    @property
    def lost(self) -> int:
        """The turn total the bust wiped (0 when the turn did not end on the bust)."""
        return sum(sum(r) for r in self.rolls[:-1]) if self.end == "bust" else 0


@dataclass(frozen=True, kw_only=True)
class TurnState(game.State):
    """A two-player push-your-luck game (the game protocol): the banked `scores`, the turn
    number (player `turn % 2` moves), the turn total and this turn's rolls, whether the dice are
    rolling (a chance node: the player chose "roll"), every finished turn (`history`, the bust
    rolls included) and the winner (None while play goes on; -1 for a tie counted half).

    Actions: "roll" and "hold" (not before the turn's first roll: it is compulsory); the chance
    outcomes are the sorted faces of the game's dice with their exact probabilities."""

    DICE: ClassVar[int]
    LAW: ClassVar[RollLaw]
    """What one roll of the game's dice does (the points it adds, the bust)."""
    BUST_WORDS: ClassVar[str]
    """The roll that wipes the turn, in words ("a 7")."""
    scores: tuple[int, int] = (0, 0)
    turn: int = 0
    turn_total: int = 0
    rolls: tuple[Faces, ...] = ()
    rolling: bool = False
    history: tuple[Played, ...] = ()
    winner: int | None = None

    @abstractmethod
    def busts(self, dice: Faces) -> bool:
        """Whether this roll wipes the turn."""

    @abstractmethod
    def _next_turn(self, scores: tuple[int, int], history: tuple[Played, ...]) -> Self:
        """The state after the mover's turn ended (the scores and history already updated)."""

    @property
    def mover(self) -> int:
        """The player whose turn it is."""
        return self.turn % 2

    @property
    def _over(self) -> bool:
        return self.winner is not None

    @property
    def lead(self) -> int:
        """The mover's banked score minus the other player's."""
        return self.scores[self.mover] - self.scores[1 - self.mover]

    def current_player(self) -> int:
        if self._over:
            return game.TERMINAL
        return game.CHANCE if self.rolling else self.mover

    def legal_actions(self) -> list[game.Action]:
        if self._over or self.rolling:
            return []
        return ["roll", "hold"] if self.turn_total else ["roll"]

    def chance_outcomes(self) -> list[tuple[game.Action, Fraction]]:
        return roll_outcomes(self.DICE) if self.rolling and not self._over else []

    def _apply(self, action: game.Action) -> Self:
        if action == "roll":
            return replace(self, rolling=True)
        if action == "hold":
            return self._end_turn("hold", self.turn_total, self.rolls)
        dice = cast(Faces, action)
        rolls = self.rolls + (dice,)
        if self.busts(dice):
            return self._end_turn("bust", 0, rolls)
        return self._gain(rolls, self.turn_total + sum(dice))

    def _gain(self, rolls: tuple[Faces, ...], k: int) -> Self:
        """The state after a roll that adds its points (turn total now k)."""
        return replace(self, turn_total=k, rolls=rolls, rolling=False)

    def _end_turn(self, end: str, banked: int, rolls: tuple[Faces, ...]) -> Self:
        scores = list(self.scores)
        scores[self.mover] += banked
        played = Played(self.mover, rolls, end, banked)
        return self._next_turn((scores[0], scores[1]), self.history + (played,))

    def _after_turn(self, scores: tuple[int, int], history: tuple[Played, ...]) -> Self:
        """The next player's turn, nothing rolled yet."""
        return replace(self, scores=scores, turn=self.turn + 1, turn_total=0, rolls=(), rolling=False, history=history)

    def first_turn(self) -> tuple[tuple[Faces, ...], int, str | None]:
        """The game's first turn, as a turn played alone: its rolls, its turn total (the points
        banked once it is over) and how it ended ("hold", "bust", Pig's "goal"; None while it goes on).

        >>> from nessus.games import pig
        >>> state = pig.initial_state().roll(die=5)
        >>> state.first_turn(), state.hold().first_turn()
        ((((5,),), 5, None), (((5,),), 5, 'hold'))
        """
        if self.history:
            played = self.history[0]
            return played.rolls, played.banked, played.end
        return self.rolls, self.turn_total, None

    def turns_of(self, player: int) -> list[Played]:
        """`player`'s finished turns, in order."""
        return [t for t in self.history if t.player == player]

    def rolls_of(self, player: int) -> list[Faces]:
        """Every roll `player` has made in this game, in order (this turn's included).

        >>> from nessus.games import pig
        >>> pig.initial_state().roll(die=5).hold().roll(die=1).roll(die=3).rolls_of(0)
        [(5,), (3,)]
        """
        done = [r for t in self.turns_of(player) for r in t.rolls]
        return done + list(self.rolls) if self.mover == player else done

    def result_text(self, you: int) -> str:
        """A finished game's result for the player `you` against the machine, in words ("" while it goes on).

        >>> from nessus.games import pig
        >>> pig.initial_state(pig.Rules(goal=5)).roll(die=6).result_text(1)
        'The machine wins, 6 to 0.'
        """
        if not self._over:
            return ""
        mine, theirs = self.scores[you], self.scores[1 - you]
        if self.winner == -1:
            return f"A tie, {mine} to {theirs}: half a win each."
        return f"You win, {mine} to {theirs}." if self.winner == you else f"The machine wins, {theirs} to {mine}."

    def _do(self, action: game.Action) -> Self:
        return cast(Self, self.apply(action))

    def roll(self, rng: np.random.Generator | None = None, dice: Sequence[int] | None = None) -> Self:
        """Roll the dice (the given faces, in any order, or drawn with `rng`): the state after them."""
        state = self if self.rolling else self._do("roll")
        return state._do(roll_faces(self.DICE, rng, dice))

    def hold(self) -> Self:
        """Bank the turn total (not allowed before the turn's first roll)."""
        if not self._over and not self.rolling and self.turn_total == 0:
            raise ValueError("hold needs a turn total above 0: the first roll of a turn is compulsory")
        return self._do("hold")

    def returns(self) -> list[Fraction]:
        return game.win_shares(self.scores) if self._over else [Fraction(0), Fraction(0)]

    def hint(self, objective: Points | Win | None = None) -> Hint:
        """The value of each legal action for the player to move, for `objective`: their chance
        of winning the game (`Win()`, the default: `_win_hint`), or the turn played alone for
        points (`Points()`: no opponent, no goal), the exact expected score of the turn after
        each action (`points_values`)."""
        if self.current_player() < 0:
            return super().hint()
        return (objective or Win()).hint(self)

    @abstractmethod
    def _win_hint(self) -> Hint:
        """The mover's chance of winning after each legal action (a decision node)."""

    def _hint(self, values: Mapping[game.Action, Fraction | float], method: str = "value-iteration") -> Hint:
        """The hint of these values (every legal action's): hold when holding is worth at least as much as rolling."""
        best = "hold" if "hold" in values and values["hold"] >= values["roll"] else "roll"
        return Hint(self, dict(values), best, method=method)

    @abstractmethod
    def _stage(self) -> str:
        """Where the game stands (the round, or the goal), in words."""

    def observation(self, player: int) -> str:
        game.check_players([player], self.shape())
        you = f"you are player {player + 1}; scores {self.scores[0]} and {self.scores[1]}"
        if self._over:
            return f"{you}; game over: " + ("a tie" if self.winner == -1 else f"player {(self.winner or 0) + 1} wins")
        rolls = f" ({', '.join(' '.join(map(str, r)) for r in self.rolls)})" if self.rolls else ""
        rolling = ", the dice rolling" if self.rolling else ""
        return f"{you}; {self._stage()}; player {self.mover + 1} to move, turn total {self.turn_total}{rolls}{rolling}"


def hold_at(n: int) -> game.Policy:
    """The policy "roll while the turn total is below n" (the first roll being compulsory)."""
    _check_hold(n)

    def policy(state: game.State) -> game.Action:
        assert isinstance(state, TurnState)
        return "roll" if state.turn_total < n else "hold"

    policy.__name__ = f"hold_at_{n}"
    return policy
