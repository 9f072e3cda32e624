"""Nyx's win-chance hint (`State.hint(method="rollout")`): each move of a few, one per group
(`State.rollout_moves`), valued by the player to move's chance to win (a win share: 1/k for a
k-way tie at the top) and final points, by rollouts on the fast engine (`nyx.playout`) with the
table's bots, or exactly where the game ends soon enough.

What the player cannot see: nothing but the decks' order. Dice, matrices, cards in play and the
discards are public, so each deck's contents are known (every card not seen yet) and the exact
posterior is every order equally likely, the dice fair; the bots play by the public table only.
A rollout's world (`playout.World`) is one order of each deck and one stream of rolls per seat,
drawn from the rollout's seed alone, and every move is tried in the same world (common random
numbers, `nessus.rollout.estimate`). Nothing is drawn from the state's own history: two states
that look the same give the same hint for the same seed.

Exact: once a deck is empty the game ends within the round (at the next draw from it); then each
move's continuation (the bots' moves, every roll and card with its probability) is enumerated
when it has at most `EXACT_LEAVES` end positions, and the hint's values are exact
(`rollout.Value.exactly`).
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any

import numpy as np

from nessus import rollout
from nessus.games.nyx.playout import BOTS, OVER, Stream, Table, World, roll_table

if TYPE_CHECKING:
    from nessus.games.nyx.state import State

FIRST, BATCH, MOST = 24, 24, 96
"""Rollouts a move before the first look and at each look after, and at most."""
CARD_PLAYOUTS = 16_000
"""The page's budget: play-outs in all (every move's) times the cards left in the decks times
the players (a play-out's length follows them: about 0.05 ms each here), so that a hint takes
about half a second whatever the position (`budget`)."""
EXACT_LEAVES = 3000
"""The most end positions `exact` enumerates for one move before giving up (then: rollouts)."""
POSTERIOR = "their exact law (only the decks' order is hidden: each deck shuffled uniformly; fair dice)"
DETERMINISTIC = ("greedy", "odds")
"""The bots `exact` can follow (random_legal draws its moves)."""


def budget(state: State, moves: int) -> int:
    """The page's rollouts a move for `moves` moves: `CARD_PLAYOUTS` shared out, within `FIRST`..`MOST`."""
    length = (len(state.dream_deck) + len(state.spell_deck)) * state.players
    return max(FIRST, min(MOST, CARD_PLAYOUTS // (max(moves, 1) * max(length, 1))))


def seat_bots(state: State, bots: Sequence[str] | None = None) -> tuple[str, ...]:
    """The bot playing each seat in the rollouts: `bots` (one name a seat), by default the rules'
    `seat_bots`; "rollout" plays as odds there. A ValueError naming `bots` otherwise."""
    names = tuple(state.rules.seat_bots if bots is None else bots)
    if len(names) != state.players or any(b not in (*BOTS, "rollout") for b in names):
        raise ValueError(
            f"bots must name one bot a seat ({state.players} seats) among {', '.join(BOTS)}, got {names!r}"
        )
    return tuple("odds" if b == "rollout" else b for b in names)


def opponents_text(player: int, names: Sequence[str]) -> str:
    """The model in words: "the other seats played by the bots (player 2 as odds, player 3 as greedy),
    your later moves as odds"."""
    others = ", ".join(f"player {q + 1} as {b}" for q, b in enumerate(names) if q != player)
    return f"the other seats played by the bots ({others}), your later moves as {names[player]}"


def exact(
    state: State, names: Sequence[str], player: int, leaves: int = EXACT_LEAVES
) -> tuple[Fraction, Fraction] | None:
    """`player`'s exact win chance and expected final points from `state`, the seats played by
    the bots `names` (greedy or odds), every roll and card weighed with its probability; None
    when that takes more than `leaves` end positions."""
    if any(b not in DETERMINISTIC for b in names):
        return None
    bots, budget, unused = [BOTS[b] for b in names], [leaves], Stream(np.random.default_rng(0))

    def value(t: Table) -> tuple[Fraction, Fraction] | None:
        while t.phase != OVER and not t.chance():
            t.apply(bots[t.mover](t, unused))  # greedy and odds draw nothing
        if t.phase == OVER:
            budget[0] -= 1
            share, final = t.result(player)
            return share, Fraction(final)
        branches: list[tuple[Fraction, Any]]
        if t.draws:
            deck = t.decks[t.draws[0][0]]
            branches = [(Fraction(1, len(deck)), c) for c in deck]
        else:
            den, cumulative, dice = roll_table(*t.dice_to_roll())
            branches = [(Fraction(c - b, den), d) for b, c, d in zip([0, *cumulative], cumulative, dice)]
        win = points = Fraction(0)
        for weight, outcome in branches:
            branch = t.copy()
            if t.draws:
                branch.draw(outcome)
            else:
                branch.roll(outcome)
            found = value(branch) if budget[0] > 0 else None
            if found is None:
                return None
            win, points = win + weight * found[0], points + weight * found[1]
        return win, points

    return value(Table(state))


def hint(
    state: State,
    moves: Mapping[Hashable, Any],
    seed: int = 0,
    most: int | None = None,
    bots: Sequence[str] | None = None,
    leaves: int = EXACT_LEAVES,
    first: int = FIRST,
) -> rollout.RolloutHint:
    """Each of `moves` (what the hint names it, to the protocol action tried) valued for the player
    to move (see the module docstring): exact where a deck is empty and every move's `exact` value
    takes at most `leaves` end positions (0: never), else `rollout.estimate` with `first`
    rollouts before the first look, `BATCH` at each look after and at most `most` a move (None: `budget`; a forced
    move: `first` rollouts); the seats played by `seat_bots(bots)`. A ValueError for a bad `seed`
    or `most`."""
    most = budget(state, len(moves)) if most is None else most
    for param, count, low in (("most", most, 2), ("seed", seed, 0)):
        if not isinstance(count, int) or isinstance(count, bool) or count < low:
            raise ValueError(f"{param} must be an integer of at least {low}, got {count!r}")
    player = state.current_player()
    names = seat_bots(state, bots)
    words = opponents_text(player, names)
    found: dict[Hashable, rollout.Value] = {}
    for name, move in moves.items() if leaves and not (state.dream_deck and state.spell_deck) else ():
        known = exact(state.apply(move), names, player, leaves)
        if known is None:
            break
        found[name] = rollout.Value.exactly(float(known[0]), float(known[1]))
    if found and len(found) == len(moves):
        return _settled(state, found, 0, words, seed)
    seats = [BOTS[b] for b in names]

    def play_out(start: Any, seat: int, rng: np.random.Generator) -> tuple[float, float]:
        table = Table(start)
        win, points = table.run(seats, World(rng, table)).result(seat)
        return float(win), float(points)

    model = rollout.Rollouts(lambda s, rng: s, play_out, words, POSTERIOR)
    first = min(first, most)
    if len(moves) > 1:
        return rollout.estimate(state, model, dict(moves), seed, first=first, batch=BATCH, most=most)
    ((name, move),) = moves.items()  # a forced move: its value from `first` rollouts
    after = state.apply(move)
    results = [play_out(after, player, np.random.default_rng([seed, i, 1])) for i in range(first)]
    return _settled(state, {name: rollout.value_of(*zip(*results))}, first, words, seed)


def _settled(
    state: State, values: Mapping[Hashable, rollout.Value], rollouts: int, words: str, seed: int
) -> rollout.RolloutHint:
    """A hint with nothing left to separate: exact values (equal ones are equals, not rivals), or a forced move."""
    best = max(values, key=lambda name: values[name].win)
    wins = {name: v.win for name, v in values.items()}
    return rollout.RolloutHint(
        state,
        wins,
        best,
        True,
        "rollout",
        estimates=values,
        rollouts=rollouts,
        separated=True,
        opponents=words,
        posterior=POSTERIOR,
        seed=seed,
    )
