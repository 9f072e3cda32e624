"""Win chances by rollouts, for games with hidden cards: every action of the player to move valued
by its chance of winning (and its expected points), from simulated continuations.

Each rollout draws one *world*: the cards and dice the player cannot see, from their exact
distribution given what the player has seen (`Rollouts.sample`; the game states its model of the
other seats). Every action is then tried in that same world and the game is played out to the end
by the table's bots (`Rollouts.play_out`), with the same random numbers for every action (common
random numbers: the actions are compared on the same deals, so their difference is measured far
more precisely than either value). Rollouts go on in batches until the best action's lead over the
next is clear at 95% (a paired interval on the difference above 0), or `most` rollouts are spent:
then the hint says the two cannot be told apart.

Nothing depends on the clock: the same state, seed and counts give the same hint.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np

from nessus.game import Action, State
from nessus.montecarlo import CONFIDENCE, t_interval, wilson
from nessus.solver import Hint

FIRST, BATCH, MOST = 64, 64, 2048
"""Rollouts before the first look, added at each look, and at most (per action)."""


@dataclass(frozen=True)
class Value:
    """An action's rollout value for the player: mean win share `win` (0..1) and mean `points`
    (the game's own unit), each with its 95% interval, over `n` rollouts; `exact` when a game
    could compute it exactly instead (then the intervals are the value itself and `n` is 0)."""

    win: float
    win_low: float
    win_high: float
    points: float
    points_low: float
    points_high: float
    n: int
    exact: bool = False

    @classmethod
    def exactly(cls, win: float, points: float) -> Value:
        return cls(win, win, win, points, points, points, 0, exact=True)


@dataclass(frozen=True)
class Rollouts:
    """How a game plays rollouts for the player to move in a state.

    `sample(state, rng)` returns a complete state that agrees with everything the player to move
    has seen (a world drawn from the posterior; it must never read what the player cannot see);
    `play_out(state, player, rng)` plays that state to the end with the table's bots and returns
    the player's (win share, points). `opponents` and `posterior` say in words which bots play
    the other seats and what the worlds are drawn from (shown with the hint)."""

    sample: Callable[[State, np.random.Generator], State]
    play_out: Callable[[State, int, np.random.Generator], tuple[float, float]]
    opponents: str
    posterior: str


@dataclass(frozen=True)
class RolloutHint(Hint):
    """A `Hint` with method "rollout": `values` are win chances (0..1); `estimates` holds each
    action's `Value` (win chance and points with intervals), `rollouts` the number per action,
    `separated` whether the best action's lead over the next is clear at 95%, `opponents` and
    `posterior` the model in words, `seed` the seed that replays it."""

    estimates: Mapping[Hashable, Value] = field(default_factory=dict)
    rollouts: int = 0
    separated: bool = False
    opponents: str = ""
    posterior: str = ""
    seed: int = 0

    def words(self, label: Callable[[Hashable], str] = str, limit: int = 4) -> str:
        """The hint in plain words: "accept: 41% to win (38–44%); refuse: 37% (34–40%) …", the
        best first."""
        order = sorted(self.estimates, key=lambda a: -self.estimates[a].win)
        parts = []
        for i, action in enumerate(order[:limit]):
            v = self.estimates[action]
            chance = f"{v.win:.0%}" + (" to win" if i == 0 else "")
            parts.append(f"{label(action)}: {chance}" + ("" if v.exact else f" ({v.win_low:.0%}–{v.win_high:.0%})"))
        more = len(order) - limit
        return "; ".join(parts) + (f"; and {more} more" if more > 0 else "")


def paired_gap(a: Sequence[float], b: Sequence[float], confidence: float = CONFIDENCE) -> tuple[float, float]:
    """The t interval of the mean of a - b over paired rollouts (the same worlds)."""
    d = np.asarray(a, dtype=float) - np.asarray(b, dtype=float)
    if len(d) < 2:
        return (-math.inf, math.inf)
    return t_interval(float(d.mean()), float(d.std(ddof=1)), len(d), confidence)


def value_of(wins: Sequence[float], points: Sequence[float]) -> Value:
    """An action's `Value` from its rollouts' win shares and points (Wilson interval on the win
    shares' sum, t interval on the points)."""
    n = len(wins)
    win = float(np.mean(wins))
    low, high = wilson(round(win * n), n)
    p = np.asarray(points, dtype=float)
    mean = float(p.mean())
    plow, phigh = t_interval(mean, float(p.std(ddof=1)) if n > 1 else 0.0, n)
    return Value(win, low, high, mean, plow, phigh, n)


def estimate(
    state: State,
    rollouts: Rollouts,
    actions: Mapping[Hashable, Action] | None = None,
    seed: int = 0,
    first: int = FIRST,
    batch: int = BATCH,
    most: int = MOST,
) -> RolloutHint:
    """Every action of the player to move valued by rollouts (see the module docstring).

    `actions` maps what the hint names (an action, or a group's label) to the action tried; by
    default every legal action. Rollout i draws its world and plays out from streams seeded by
    (`seed`, i) alone, the same for every action. A ValueError where no player is to move, or for
    counts out of range."""
    player = state.current_player()
    if player < 0:
        raise ValueError("a rollout hint needs a player to move, not a chance node or the end")
    for param, count in (("first", first), ("batch", batch), ("most", most)):
        if not isinstance(count, int) or count < 2:
            raise ValueError(f"{param} must be an integer of at least 2 rollouts, got {count!r}")
    tried = dict(actions) if actions is not None else {a: a for a in state.legal_actions()}
    if not tried:
        raise ValueError("a rollout hint needs at least one action to try")
    wins: dict[Hashable, list[float]] = {name: [] for name in tried}
    points: dict[Hashable, list[float]] = {name: [] for name in tried}
    done, separated = 0, False  # one action too gets its `first` rollouts: a value with its interval
    while done < most and not separated:
        upto = min(most, done + (first if done == 0 else batch))
        for i in range(done, upto):
            world_rng, play_seed = np.random.default_rng([seed, i, 0]), [seed, i, 1]
            world = rollouts.sample(state, world_rng)
            for name, action in tried.items():
                win, pts = rollouts.play_out(world.apply(action), player, np.random.default_rng(play_seed))
                wins[name].append(float(win))
                points[name].append(float(pts))
        done = upto
        separated = _separated(wins)
    estimates = {name: value_of(wins[name], points[name]) for name in tried}
    best = max(tried, key=lambda name: estimates[name].win)
    return RolloutHint(
        state,
        {name: v.win for name, v in estimates.items()},
        best,
        True,
        "rollout",
        estimates=estimates,
        rollouts=done,
        separated=separated,
        opponents=rollouts.opponents,
        posterior=rollouts.posterior,
        seed=seed,
    )


def _separated(wins: Mapping[Hashable, list[float]]) -> bool:
    """Whether the action with the highest mean win share leads every other one at 95% (paired);
    an action that did exactly as well in every world is its equal, not a rival."""
    if len(wins) < 2:
        return True
    means = {name: float(np.mean(w)) for name, w in wins.items()}
    best = max(means, key=means.__getitem__)
    return all(paired_gap(wins[best], w)[0] > 0 for name, w in wins.items() if name != best and w != wins[best])
