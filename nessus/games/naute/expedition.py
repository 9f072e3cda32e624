"""One expedition of Le Naute for the core solver (`nessus.solver.Expectimax`), for any payoff
of the cargo.

Decisions: the ship, captain and crew are set aside as soon as they may be (no choice is left
before the crew is aboard: only "roll"). Cargo (parameter `cargo_holds`): "sticky" (default)
any cargo die may be kept, one at a time, and a kept die stays kept; "free": every roll, any
cargo dice may be rerolled, kept ones too; "both": both cargo dice are rerolled or none.

A solver *node* is `("hunt", left, aboard)` before the crew is aboard (`aboard`: 0 nothing, 1 the
ship, 2 ship and captain) or `("cargo", left, kept, free)` after (`kept` the cargo dice kept,
`free` those just rolled), `left` being the rolls still allowed; the start is `("hunt", 3, 0)`.
An *action* is "roll" (hunting), "stop", or the cargo dice to keep (a sorted tuple, those
already kept included) while the others are rolled again.

>>> g = game(lambda cargo: cargo)  # maximise the expected cargo
>>> g.hint(("cargo", 1, (), (1, 6))).best  # one roll left: keep the 6, reroll the 1
(6,)
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from functools import cache

from nessus.dice import Chosen, Roll, multisets, rolls, sub_multisets
from nessus.games.naute.rules import CARGO_DICE, DICE, ROLLS, SIDES, set_aside
from nessus.solver import Expectimax

Node = tuple
"""A solver state: ("hunt", left, aboard) or ("cargo", left, kept, free)."""
Action = str | Roll
Value = Fraction | int
Payoff = Callable[[int], Value]
"""What an expedition is played for, as a function of its cargo (an objective's call)."""


class Keep(Chosen):
    """The cargo dice kept while the others are rolled again; `str` reads "keep 4 6"."""

    verb = "keep"


def score(state: Node) -> int:
    """The cargo of a finished expedition (0 without ship, captain and crew)."""
    return sum(state[2]) + sum(state[3]) if state[0] == "cargo" else 0


def keep_options(kept: Roll, free: Roll, cargo_holds: str = "sticky") -> list[Roll]:
    """The cargo dice that may be kept while the others are rerolled (stop excluded), more
    dice first."""
    options: set[Roll]
    if cargo_holds == "both":
        options = {()}
    elif cargo_holds == "free":
        options = set(sub_multisets(tuple(sorted(kept + free))))
    else:
        options = {tuple(sorted(kept + s)) for s in sub_multisets(free)}
    return sorted((o for o in options if len(o) < CARGO_DICE), key=lambda o: (-len(o), o))


def after_roll(after: tuple, roll: Roll, cargo_holds: str = "sticky") -> Node:
    """The state after rolling `roll` (sorted) from the after-state ("hunt", left, aboard) or
    ("keep", left, kept cargo dice)."""
    if after[0] == "hunt":
        _, left, aboard = after
        now, cargo = set_aside(aboard, roll)
        return ("cargo", left - 1, (), cargo) if now == 3 else ("hunt", left - 1, now)
    _, left, kept = after
    if cargo_holds == "sticky":
        return ("cargo", left - 1, kept, roll)
    return ("cargo", left - 1, (), tuple(sorted(kept + roll)))


def game(objective: Payoff, cargo_holds: str = "sticky", roll_count: int = ROLLS) -> Expectimax:
    """Le Naute for the core solver: maximise E[objective(cargo)] (states as in the module
    docstring; `roll_count` rolls at most)."""

    def choices(state: Node) -> list[tuple[Action, tuple]]:
        if state[1] == 0:
            return []
        if state[0] == "hunt":
            return [("roll", ("hunt", state[1], state[2]))]
        _, left, kept, free = state
        if not free:
            return []
        return [("stop", ("stop", tuple(sorted(kept + free))))] + [
            (k, ("keep", left, k)) for k in keep_options(kept, free, cargo_holds)
        ]

    def chance(after: tuple) -> list[tuple[Node, int]]:
        if after[0] == "stop":
            return [(("cargo", 0, (), after[1]), 1)]
        n = DICE - after[2] if after[0] == "hunt" else CARGO_DICE - len(after[2])
        out: dict[Node, int] = {}
        for r, w in multisets(n):
            nxt = after_roll(after, r, cargo_holds)
            out[nxt] = out.get(nxt, 0) + w
        return list(out.items())

    return Expectimax(choices, chance, lambda s: objective(score(s)))


def start(roll_count: int = ROLLS) -> Node:
    """The state before the first roll."""
    return ("hunt", roll_count, 0)


@cache
def solved(objective: Payoff, cargo_holds: str) -> Expectimax:
    """`game(objective, cargo_holds)`, kept (its values are remembered between calls)."""
    return game(objective, cargo_holds)


def cargo_states(cargo_holds: str = "sticky") -> list[Node]:
    """Every cargo state with a choice to make (left = 1 or 2)."""
    kepts: list[Roll] = [()] + ([(f,) for f in range(1, SIDES + 1)] if cargo_holds == "sticky" else [])
    return [
        ("cargo", left, kept, free)
        for left in range(1, ROLLS)
        for kept in kepts
        for free, _ in rolls(CARGO_DICE - len(kept)).weights()
    ]
