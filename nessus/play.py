"""Machine play for any game on the protocol (`nessus.game`): one loop for every game.

`play` runs a game on from a state, chance drawn exactly from its fractions and each seat's
decisions taken by its policy; it stops at the end, or at the first decision of a seat with
no policy (a person's turn in a dashboard). `tournament` plays many games and gives each
seat's win share with a Wilson interval.

>>> import numpy as np
>>> from nessus import games
>>> end = play(games.get("order").initial_state(), {}, np.random.default_rng(1))
>>> end.is_terminal(), sum(end.returns())
(True, Fraction(1, 1))
>>> palais = games.get("palais")
>>> rules = palais.Rules(players=2)
>>> table = tournament(
...     palais.initial_state(rules), ["optimal", "keep_most_common"], games=100, seed=1, named=palais.policies(rules)
... )
>>> table.columns
['seat', 'policy', 'games', 'win_share', 'low', 'high']
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction

import numpy as np
import polars as pl

from nessus.game import Action, Policy, State
from nessus.montecarlo import CONFIDENCE, check_seed, check_trials, t_interval, wilson

Policies = Mapping[int, Policy] | Sequence[Policy]
OnMove = Callable[[State, Action], None]


def sample(outcomes: Sequence[tuple[Action, Fraction]], rng: np.random.Generator) -> Action:
    """One outcome drawn with its exact probability: a uniform integer below the common
    denominator picks it (no float rounding of the weights)."""
    den = math.lcm(*(p.denominator for _, p in outcomes))
    counts = [p.numerator * (den // p.denominator) for _, p in outcomes]
    if sum(counts) != den:
        raise ValueError(f"chance outcomes must sum to 1, got {Fraction(sum(counts), den)}")
    u = int(rng.integers(den))
    for i, count in enumerate(counts):
        u -= count
        if u < 0:
            return outcomes[i][0]
    raise AssertionError("unreachable: u < den = sum(counts)")


def observed_rng(state: State, seed: int = 0) -> np.random.Generator:
    """A generator seeded by what the player to move sees (`observation`) and `seed`: a bot
    drawing from it is a function of its view, so two states that look the same to it get the
    same move and seeded playthroughs replay."""
    view = state.observation(state.current_player()).encode()
    digest = hashlib.blake2b(view, digest_size=8, key=seed.to_bytes(8, "little")).digest()
    return np.random.default_rng(int.from_bytes(digest, "little"))


def random_legal(seed: int = 0, rng: np.random.Generator | None = None) -> Policy:
    """A uniformly random legal action: drawn from `rng` when given (one stream, as a test's
    random playthrough wants), else from `observed_rng(state, seed)` (so the same view gets the
    same move, as a bot must); a ValueError where no player is to move."""

    def policy(state: State) -> Action:
        if state.current_player() < 0:
            raise ValueError("a policy moves only where a player must decide, not at a chance node or the end")
        actions = state.legal_actions()
        draw = rng if rng is not None else observed_rng(state, seed)
        return actions[int(draw.integers(len(actions)))]

    policy.__name__ = "random_legal"
    return policy


def _seat_policies(policies: Policies) -> dict[int, Policy]:
    return dict(policies) if isinstance(policies, Mapping) else dict(enumerate(policies))


def step(state: State, policies: Policies, rng: np.random.Generator) -> Action | None:
    """The next action from `state`: a chance outcome drawn exactly, or the policy's move of the
    player to move; None at the end or when that player has no policy."""
    if state.is_terminal():
        return None
    if state.is_chance_node():
        return sample(state.chance_outcomes(), rng)
    policy = _seat_policies(policies).get(state.current_player())
    return None if policy is None else policy(state)


def play(
    state: State,
    policies: Policies,
    rng: np.random.Generator,
    on_move: OnMove | None = None,
    max_moves: int | None = None,
    until: Callable[[State], bool] | None = None,
) -> State:
    """Play on from `state` until the game ends, a seat without a policy must decide, or
    `until(state)` is true (e.g. a person's turn comes in a game without decisions); returns
    that state. `policies` gives a policy per seat (a list, or a dict for some seats only);
    `on_move(state, action)` is called before each action is applied (for a game log).
    `max_moves` stops after that many actions (a ValueError: the game did not end)."""
    seats = _seat_policies(policies)
    moves = 0
    while not state.is_terminal():
        if until is not None and until(state):
            return state
        if state.is_chance_node():
            action = sample(state.chance_outcomes(), rng)
        else:
            policy = seats.get(state.current_player())
            if policy is None:
                return state
            action = policy(state)
        if on_move is not None:
            on_move(state, action)
        state = state.apply(action)
        moves += 1
        if max_moves is not None and moves >= max_moves:
            raise ValueError(f"the game did not end within max_moves={max_moves} moves")
    return state


def tournament(
    start: State | Callable[[], State],
    policies: Sequence[Policy | str],
    games: int = 1000,
    seed: int = 0,
    names: Sequence[str] | None = None,
    confidence: float = CONFIDENCE,
    named: Mapping[str, Policy] | None = None,
) -> pl.DataFrame:
    """Play `games` whole games from `start` (a state, or a function making one) with
    `policies[i]` in seat i (a policy, or the name of one in `named`, e.g. the game's
    `GAME.policies(rules)`), and
    return one row per seat: `seat`, `policy`, `games`, and the mean return `win_share` with a
    Wilson interval `low`..`high` (a k-way shared win counts 1/k, so the interval treats the
    shares' sum as the successes) for games with a winner; for the banking games `mean_return`
    (net stakes) with a Student t interval.
    """
    games = check_trials(games)
    seed = check_seed(seed)
    make = start if callable(start) and not isinstance(start, State) else (lambda: start)
    first = make()
    shape = first.shape()
    if len(policies) != shape.players:
        raise ValueError(f"policies must give one policy per seat ({shape.players}), got {len(policies)}")
    named = named or {}
    for p in policies:
        if isinstance(p, str) and p not in named:
            raise ValueError(
                f"policy must be one of the named policies ({', '.join(named) or 'none given'}), got {p!r}"
            )
    seats = [named[p] if isinstance(p, str) else p for p in policies]
    if names is not None:
        labels = list(names)
    else:
        labels = [p if isinstance(p, str) else getattr(p, "__name__", f"policy {i}") for i, p in enumerate(policies)]
    rng = np.random.default_rng(seed)
    totals = np.zeros((games, shape.players))
    for g in range(games):
        end = play(first if g == 0 else make(), seats, rng)
        totals[g] = [float(r) for r in end.returns()]
    rows = []
    for seat in range(shape.players):
        column = totals[:, seat]
        mean = float(column.mean())
        if shape.return_sum == 1:
            low, high = wilson(int(round(column.sum())), games, confidence)
        else:
            low, high = t_interval(mean, float(column.std(ddof=1)) if games > 1 else 0.0, games, confidence)
        rows.append({"seat": seat, "policy": labels[seat], "games": games, "mean": mean, "low": low, "high": high})
    frame = pl.DataFrame(rows)
    return frame.rename({"mean": "win_share" if shape.return_sum == 1 else "mean_return"})
