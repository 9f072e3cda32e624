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
...     choices=lambda s: (
...         [] if s[1] == "done" else [("keep", (s[0], "done"))] + ([("reroll", "again")] if s[1] == "first" else [])
...     ),
...     chance=lambda after: (
...         [((r[0], "second"), 1) for r, _ in rolls(1).weights()] if after == "again" else [((after[0], "done"), 1)]
...     ),
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
TurnPolicy = Callable[[Any], Hashable]
"""A way to play one turn, for the exact turn solvers (`Expectimax` over a turn's positions): a
position -> the action chosen there. A whole game's policy is `nessus.game.Policy`."""
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


class PolicyIteration:
    """Exact optimal values of a finite game whose play may come back to a state it left (so
    `Expectimax` cannot recurse through it), described like `Expectimax` — `choices(state)`,
    `chance(after)` with positive integer weights, `payoff(state)` once no choice is left — plus
    `step(after)`, a cost or reward counted at each chance step (e.g. 1 a roll, to find the
    expected number of rolls). The value of an after-state is `step(after)` plus the expected
    value of the states chance leads to; play must end with probability 1 under an optimal policy.

    Solved by policy iteration, exactly: a policy (first, value iteration's in floats) is
    evaluated by solving its linear equations with Fractions, then changed in every state where
    another action is strictly better by those exact values, until none is — which proves it
    optimal. Every state reachable from `starts` is solved at construction.

    Roll a die and score its face, or pay 1 to roll again, as often as you like (a face can come
    back, so play cycles):

    >>> game = PolicyIteration(
    ...     starts=[("start",)],
    ...     choices=lambda s: (
    ...         []
    ...         if s[0] == "end"
    ...         else [("roll", ("roll",))] * (s[0] == "start") or [("stop", ("end", s[1])), ("roll", ("roll",))]
    ...     ),
    ...     chance=lambda a: [(a, 1)] if a[0] == "end" else [(("face", f), 1) for f in range(1, 7)],
    ...     payoff=lambda s: s[1],
    ...     step=lambda a: 0 if a[0] == "end" else -1,
    ... )
    >>> game.after_value(("roll",)), game.hint(("face", 2)).best, game.hint(("face", 4)).best
    (Fraction(3, 1), 'roll', 'stop')
    >>> game.hint(("face", 3)).cost("roll")  # at 3, rolling again is as good as stopping
    Fraction(0, 1)
    """

    def __init__(
        self,
        starts: Iterable[Hashable],
        choices: Callable[[Any], Sequence[tuple[Hashable, Hashable]]],
        chance: Callable[[Any], Iterable[tuple[Hashable, int]]],
        payoff: Callable[[Any], Value],
        step: Callable[[Any], Value],
        maximise: bool = True,
    ) -> None:
        self.choices, self.maximise = choices, maximise
        self._moves: dict[Hashable, list[tuple[Hashable, Hashable]]] = {}
        self._outcomes: dict[Hashable, list[tuple[Hashable, Fraction]]] = {}
        self._payoff: dict[Hashable, Fraction] = {}
        self._step: dict[Hashable, Fraction] = {}
        todo = list(starts)
        while todo:
            state = todo.pop()
            if state in self._moves:
                continue
            moves = list(choices(state))
            self._moves[state] = moves
            if not moves:
                self._payoff[state] = Fraction(payoff(state))
            for _, after in moves:
                if after in self._outcomes:
                    continue
                outcomes = list(chance(after))
                total = sum(w for _, w in outcomes)
                if not outcomes or any(not isinstance(w, int) or w <= 0 for _, w in outcomes):
                    raise ValueError(f"chance({after!r}) must give outcomes with positive integer weights")
                self._outcomes[after] = [(s, Fraction(w, total)) for s, w in outcomes]
                self._step[after] = Fraction(step(after))
                todo.extend(s for s, _ in outcomes)
        self.policy = self._first_policy()
        self.iterations = 0
        while True:
            self.iterations += 1
            self._values = self._evaluate(self.policy)
            better = self._improve()
            if not better:
                break
            self.policy.update(better)

    def _better(self, a: Value, b: Value) -> bool:
        return a > b if self.maximise else a < b

    def _first_policy(self) -> dict[Hashable, Hashable]:
        """Value iteration's policy in floats (to about 1e-12): usually already optimal."""
        afters = list(self._outcomes)
        value = dict.fromkeys(afters, 0.0)
        pick = max if self.maximise else min
        for _ in range(100_000):
            state_value = {
                s: pick(value[a] for _, a in moves) if moves else float(self._payoff[s])
                for s, moves in self._moves.items()
            }
            new = {
                a: float(self._step[a]) + sum(float(p) * state_value[s] for s, p in self._outcomes[a]) for a in afters
            }
            change = max((abs(new[a] - value[a]) for a in afters), default=0.0)
            value = new
            if change < 1e-12:
                break
        key = (lambda a: value[a]) if self.maximise else (lambda a: -value[a])
        return {s: max((a for _, a in moves), key=key) for s, moves in self._moves.items() if moves}

    def _evaluate(self, policy: Mapping[Hashable, Hashable]) -> dict[Hashable, Fraction]:
        """Every after-state's exact value when playing `policy`: its linear equations
        V(a) = step(a) + sum over outcomes s of p(s) (payoff(s) if play is over, else V(policy(s))),
        solved by Gauss-Jordan elimination with Fractions."""
        afters = list(self._outcomes)
        index = {a: i for i, a in enumerate(afters)}
        n = len(afters)
        rows = []
        for a in afters:
            row = [Fraction(0)] * (n + 1)
            row[index[a]] += 1
            row[n] = self._step[a]
            for s, p in self._outcomes[a]:
                if s in policy:
                    row[index[policy[s]]] -= p
                else:
                    row[n] += p * self._payoff[s]
            rows.append(row)
        for col in range(n):
            pivot = next((r for r in range(col, n) if rows[r][col] != 0), None)
            if pivot is None:
                raise ValueError("the policy never ends play from some state: no finite value (improper policy)")
            rows[col], rows[pivot] = rows[pivot], rows[col]
            head = rows[col][col]
            rows[col] = [x / head for x in rows[col]]
            for r in range(n):
                if r != col and rows[r][col] != 0:
                    factor = rows[r][col]
                    rows[r] = [x - factor * y for x, y in zip(rows[r], rows[col])]
        return {a: rows[index[a]][n] for a in afters}

    def _improve(self) -> dict[Hashable, Hashable]:
        """The states where an action is strictly better than the policy's, with the best one."""
        better = {}
        for s, moves in self._moves.items():
            if not moves:
                continue
            best = self.policy[s]
            for _, a in moves:
                if self._better(self._values[a], self._values[best]):
                    best = a
            if best != self.policy[s]:
                better[s] = best
        return better

    def after_value(self, after: Hashable) -> Fraction:
        """The optimal value of a post-decision state (exact)."""
        if after not in self._values:
            raise ValueError(f"after must be a post-decision state reachable from the starts, got {after!r}")
        return self._values[after]

    def value(self, state: Hashable) -> Fraction:
        """The optimal value of `state`: its best action's, or its payoff once play is over."""
        if state not in self._moves:
            raise ValueError(f"state must be reachable from the starts, got {state!r}")
        moves = self._moves[state]
        return self._values[self.policy[state]] if moves else self._payoff[state]

    def hint(self, state: Hashable) -> Hint:
        """The exact value of every legal action in `state`; the best is the first listed among
        the optimal ones."""
        moves = self._moves.get(state)
        if moves is None:
            raise ValueError(f"state must be reachable from the starts, got {state!r}")
        if not moves:
            raise ValueError(f"no action is left in state {state!r}: play is over")
        values = {action: self._values[after] for action, after in moves}
        top = self._values[self.policy[state]]
        best = next(action for action, after in moves if self._values[after] == top)
        return Hint(state, values, best, self.maximise)
