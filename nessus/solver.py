"""Optimal play: expectimax for games that end (exact), value iteration for games with cycles.

**Expectimax.** Describe a game by hashable states and three functions:

- `choices(state)` -> the legal moves as `[(action, after), ...]`, empty once play is over.
  `after` is the post-decision state: what is settled before chance acts (the dice kept, the
  rolls left). Many moves share an after-state, so values are memoised on it.
- `chance(after)` -> `[(state, weight), ...]` with positive integer weights (e.g. the rolls of
  the dice not kept, from `nessus.dice.rolls`). A move that involves no chance (stopping)
  gives one outcome of weight 1.
- `payoff(state)` -> the value when play is over (int or Fraction: the solver stays exact).

`Expectimax.value(state)` is the optimal expected payoff, `hint(state)` the value of every
legal action (what the optimal player does and what any other choice costs), and
`distribution(state, outcome)` the exact distribution of anything about the final state under
optimal play. The game must end: every path reaches a state without choices.

A one-die game: roll once; keep the face, or (once) roll again and keep that one.

>>> from nessus.dice import rolls
>>> game = Expectimax(
...     choices=lambda s: [] if s[1] == "done" else [("keep", (s[0], "done"))] + ([("reroll", "again")] if s[1] == "first" else []),
...     chance=lambda after: [((r[0], "second"), 1) for r, _ in rolls(1).weights()] if after == "again" else [((after[0], "done"), 1)],
...     payoff=lambda s: s[0],
... )
>>> game.value((4, "first")), game.best((3, "first"))     # keep a 4 or more: 7/2 is the reroll's worth
(Fraction(4, 1), 'reroll')
>>> game.hint((3, "first")).cost("keep")
Fraction(1, 2)

**Value iteration** (`value_iteration`) solves games with cycles (Pig, Le Sept fatal) given as
sparse transition matrices per action: floats, iterated until the largest change is below a
stated tolerance, optionally block by block in an order where later blocks never lead back to
earlier ones (Gauss-Seidel by layers).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from nessus.dist import Dist

Value = Fraction | int
HintValue = Fraction | int | float
"""A hint's values: exact, or floats from value iteration (`Hint.method` says which)."""


@dataclass(frozen=True)
class Hint:
    """What the optimal player does in `state` and what every legal action is worth (payoff
    units; for a probability objective, a probability), and how the values were found:
    `method` is "exact", "value-iteration" (floats within a stated tolerance) or "heuristic"."""

    state: Hashable
    values: Mapping[Hashable, HintValue]
    best: Hashable
    maximise: bool = True
    method: str = "exact"

    @property
    def value(self) -> HintValue:
        return self.values[self.best]

    def cost(self, action: Hashable) -> HintValue:
        """How much worse than the best `action` is (0 for an optimal action)."""
        if action not in self.values:
            raise ValueError(f"action must be one of the legal actions {list(self.values)!r}, got {action!r}")
        gap = self.value - self.values[action]
        return gap if self.maximise else -gap


class Expectimax:
    """Exact optimal values of a finite game (see the module docstring); memoised."""

    def __init__(
        self,
        choices: Callable[[Any], Sequence[tuple[Hashable, Hashable]]],
        chance: Callable[[Any], Iterable[tuple[Hashable, int]]],
        payoff: Callable[[Any], Value],
        maximise: bool = True,
    ) -> None:
        self.choices, self.chance, self.payoff, self.maximise = choices, chance, payoff, maximise
        self._state: dict[Hashable, tuple[Value, Hashable | None]] = {}
        self._after: dict[Hashable, Value] = {}

    def after_value(self, after: Hashable) -> Value:
        """Expected value of a post-decision state (exact)."""
        hit = self._after.get(after)
        if hit is None:
            total, weights = Fraction(0), 0
            for state, weight in self.chance(after):
                if not isinstance(weight, int) or weight <= 0:
                    raise ValueError(f"chance weights must be positive integers, got {weight!r}")
                total += weight * self.value(state)
                weights += weight
            if weights == 0:
                raise ValueError(f"chance({after!r}) has no outcome")
            hit = self._after[after] = total / weights
        return hit

    def _solve(self, state: Hashable) -> tuple[Value, Hashable | None]:
        hit = self._state.get(state)
        if hit is None:
            moves = self.choices(state)
            if not moves:
                hit = (self.payoff(state), None)
            else:
                best_action, best = moves[0][0], self.after_value(moves[0][1])
                for action, after in moves[1:]:
                    v = self.after_value(after)
                    if v > best if self.maximise else v < best:
                        best_action, best = action, v
                hit = (best, best_action)
            self._state[state] = hit
        return hit

    def value(self, state: Hashable) -> Value:
        """The optimal expected payoff from `state`."""
        return self._solve(state)[0]

    def best(self, state: Hashable) -> Hashable | None:
        """The optimal action (the first listed among equals); None once play is over."""
        return self._solve(state)[1]

    def hint(self, state: Hashable) -> Hint:
        """The value of every legal action in `state` and the best one."""
        moves = self.choices(state)
        if not moves:
            raise ValueError(f"no action is left in state {state!r}: play is over")
        return Hint(state, {a: self.after_value(after) for a, after in moves}, self.best(state), self.maximise)

    def distribution(
        self,
        state: Hashable,
        outcome: Callable[[Any], Hashable] | None = None,
        policy: Callable[[Any], Hashable] | None = None,
    ) -> Dist:
        """The exact distribution of `outcome(final state)` (default: the payoff) when playing
        `policy` (default: the optimal one) from `state`."""
        outcome = outcome or self.payoff
        policy = policy or self.best
        memo: dict[Hashable, Dist] = {}

        def dist(s: Hashable) -> Dist:
            if s in memo:
                return memo[s]
            moves = dict(self.choices(s))
            if not moves:
                d = Dist.point(outcome(s))
            else:
                action = policy(s)
                if action not in moves:
                    raise ValueError(f"the policy chose {action!r}, not a legal action in {s!r}")
                parts = [(w, dist(nxt)) for nxt, w in self.chance(moves[action])]
                weights = sum(w for w, _ in parts)
                d = Dist.mixture([(Fraction(w, weights), part) for w, part in parts])
            memo[s] = d
            return d

        return dist(state)


@dataclass(frozen=True)
class Iterated:
    """Result of value iteration: values and the best action index per state, the number of
    sweeps, and the largest change in the last sweep (below the tolerance asked for)."""

    values: np.ndarray
    policy: np.ndarray
    sweeps: int
    residual: float
    tolerance: float


def value_iteration(
    transitions: Sequence[Any],
    rewards: Sequence[np.ndarray],
    tolerance: float = 1e-12,
    max_sweeps: int = 100_000,
    blocks: Sequence[np.ndarray] | None = None,
    start: np.ndarray | None = None,
) -> Iterated:
    """Maximise V = max_a (rewards[a] + transitions[a] @ V) over states 0..n-1.

    `transitions[a]` is an n x n (scipy.sparse or dense) matrix of probabilities for action a
    (a row of zeros where a is illegal or play ends; give an illegal action a reward of -inf).
    Iterates until the largest change of a sweep is below `tolerance`. With `blocks` (arrays of
    state indices, in solving order, each block's transitions leading only into itself or
    into blocks already solved), each block is iterated to the tolerance in turn.
    """
    if not transitions or len(transitions) != len(rewards):
        raise ValueError("transitions and rewards must be non-empty and of the same length (one per action)")
    if not 0 < tolerance < 1:
        raise ValueError(f"tolerance must be a number between 0 and 1, got {tolerance!r}")
    n = transitions[0].shape[0]
    values = np.zeros(n) if start is None else np.array(start, dtype=float)
    policy = np.zeros(n, dtype=np.int64)
    sweeps, residual = 0, 0.0
    order = list(blocks) if blocks is not None else [np.arange(n)]
    for block in order:
        block = np.asarray(block)
        parts = [(t[block], np.asarray(r)[block]) for t, r in zip(transitions, rewards)]
        while True:
            q = np.stack([r + t @ values for t, r in parts])
            new = q.max(axis=0)
            change = float(np.max(np.abs(new - values[block]))) if len(block) else 0.0
            values[block] = new
            sweeps += 1
            if change < tolerance:
                policy[block] = q.argmax(axis=0)
                residual = max(residual, change)
                break
            if sweeps >= max_sweeps:
                raise ValueError(
                    f"value iteration did not reach tolerance {tolerance} in {max_sweeps} sweeps (last change {change})"
                )
    return Iterated(values, policy, sweeps, residual, tolerance)
