"""What a player of Le Palais plays for, and how: the objectives as objects, the optimal turns
and the person's rule "keep the most common face", and the named whole-game policies.

An objective (`nessus.game.Objective`) says in words what it is (`text`), what its values
are (`unit`), the payoff of a final hand (`payoff`, also its call: the solvers of
`nessus.games.palais.keep` take it as a function) and the person's rule that plays for it
(`heuristic`): `AtLeast` a hand, `Beat` a hand, and the opener's `Outlast`.

>>> goal = AtLeast("manoir")
>>> goal.text, goal.payoff((2, 2, 5, 5, 5)), goal.heuristic()((1, (), (2, 2, 5, 5, 5)))
('P(Manoir or better)', 1, 'stop')
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction
from functools import cache, partial
from typing import TYPE_CHECKING, cast

import numpy as np

from nessus import game as protocol
from nessus.dice import Roll, check_faces
from nessus.games.palais.hands import BEST_FIRST, HANDS, NAMES, category, hand_text, rank, strength, strength_classes
from nessus.games.palais.keep import DICE, ROLLS, Action, Hold, Node, Solution, Value, layout, solve, solve_matrix
from nessus.games.palais.rules import TIE_BREAK, Rules
from nessus.solver import TurnPolicy

if TYPE_CHECKING:
    from nessus.games.palais.state import State

MACHINES = {"optimal": "optimal", "most common face": "keep_most_common"}
"""How the machine players may play (a page's words) and the named policy each one is."""


# -- the objectives -------------------------------------------------------------------------------
class Goal:
    """A turn's objective: `text` in words, `unit` of its values, `payoff(final hand)` (also its
    call), and `heuristic()`, the person's rule "keep the most common face" played for it."""

    text: str
    unit: str = "probability"

    def payoff(self, final: Roll) -> Value:
        raise NotImplementedError

    def __call__(self, final: Roll) -> Value:
        return self.payoff(final)

    def heuristic(self) -> TurnPolicy:
        """Stop at the goal, else hold every die of the most common face."""
        raise NotImplementedError


@dataclass(frozen=True)
class AtLeast(Goal):
    """Payoff 1 for the hand `hand` or better, 0 otherwise."""

    hand: str

    def __post_init__(self) -> None:
        if self.hand not in HANDS:
            raise ValueError(f"hand must be one of {', '.join(BEST_FIRST)}, got {self.hand!r}")
        words = "P(Palais)" if self.hand == "palais" else f"P({NAMES[self.hand]} or better)"
        object.__setattr__(self, "text", words)

    def payoff(self, final: Roll) -> int:
        return int(rank(final) >= HANDS.index(self.hand))

    def heuristic(self) -> TurnPolicy:
        return keep_most_common(self.hand)


@dataclass(frozen=True)
class Beat(Goal):
    """Payoff 1 for a hand stronger than `target` (under the tie-break variant), `tie` for an
    equal one, 0 for a weaker one."""

    target: Roll
    tie_break: str = "A"
    tie: Fraction = Fraction(0)

    def __post_init__(self) -> None:
        object.__setattr__(self, "target", tuple(sorted(check_faces(self.target, DICE))))
        TIE_BREAK.check(self.tie_break)
        if not 0 <= Fraction(self.tie) <= 1:
            raise ValueError(f"tie must be a number from 0 to 1, got {self.tie!r}")
        tie = ", a tie counting half" if self.tie else ""
        if self.tie_break == "B":
            words = f"P(a better hand than {NAMES[category(self.target)]}{tie})"
        else:
            words = f"P(beating {hand_text(self.target)}{tie})"
        object.__setattr__(self, "text", words)

    def payoff(self, final: Roll) -> Value:
        mine, theirs = strength(final, self.tie_break), strength(self.target, self.tie_break)
        return 1 if mine > theirs else Fraction(self.tie) if mine == theirs else 0

    def heuristic(self) -> TurnPolicy:
        return partial(chase_most_common, self.target, self.tie_break)


@dataclass(frozen=True)
class Outlast(Goal):
    """The opener's payoff: (1 - q(h))**others, q(h) = a chaser's optimal chance of beating h
    (a tie counting half), i.e. P(none of `others` chasers of h beats it)."""

    others: int
    tie_break: str = "A"
    sticky: bool = False

    def __post_init__(self) -> None:
        words = f"P(none of {self.others} later player{'s' if self.others > 1 else ''} beats you)"
        object.__setattr__(self, "text", words)

    def payoff(self, final: Roll) -> Fraction:
        q = chase_odds(self.tie_break, self.sticky)
        keys, _ = strength_classes(self.tie_break)
        return (1 - q[keys.index(strength(final, self.tie_break))]) ** self.others

    def heuristic(self) -> TurnPolicy:
        return keep_most_common("manoir")


# -- optimal turns --------------------------------------------------------------------------------
def optimal(objective: Goal, rules: Rules | None = None) -> TurnPolicy:
    """The policy maximising E[objective(final hand)] (from `solve`)."""
    return solve([objective], (rules or Rules()).sticky_holds).policy()


def beat_policy(target: Roll, rules: Rules | None = None, tie: Fraction | int = 0) -> TurnPolicy:
    """The policy maximising P(beating `target`) (equal hands counting `tie`)."""
    rules = rules or Rules()
    return optimal(Beat(tuple(target), rules.tie_break, Fraction(tie)), rules)


@cache
def chase_solution(tie_break: str = "A", sticky: bool = False) -> Solution:
    """The chasers' policies: column t maximises P(beating a hand of strength class t), a tie
    counting half (payoffs doubled to integers: 2 stronger, 1 equal, 0 weaker)."""
    lay = layout(DICE, sticky)
    keys, cls = strength_classes(tie_break)
    t = np.arange(len(keys))
    pay = (2 * (cls[:, None] > t[None, :]) + (cls[:, None] == t[None, :])).astype(np.int64)
    return solve_matrix(lay, pay, [2] * len(keys), ROLLS)


@cache
def chase_odds(tie_break: str = "A", sticky: bool = False) -> tuple[Fraction, ...]:
    """q(t): a chaser's optimal P(beating a hand of strength class t), a tie counting half."""
    sol = chase_solution(tie_break, sticky)
    return tuple(sol.start_value(t) for t in range(sol.first.shape[0]))


@cache
def opener_solution(players: int, tie_break: str = "A", sticky: bool = False) -> Solution:
    """The opener's policy: maximise (1 - q(h))**(players - 1) (see `Outlast`)."""
    lay = layout(DICE, sticky)
    sol = chase_solution(tie_break, sticky)
    _, cls = strength_classes(tie_break)
    den = 2 * 6 ** (DICE * ROLLS)
    miss = [den - int(x) for x in sol.first]  # (1 - q) * den
    pay = np.array([[miss[c] ** (players - 1)] for c in cls], dtype=object)
    return solve_matrix(lay, pay, [den ** (players - 1)], ROLLS)


# -- the person's rule ----------------------------------------------------------------------------
def keep_most_common(stop_at: str = "palais") -> TurnPolicy:
    """A person's rule: stop once the hand is `stop_at` or better, otherwise hold every die
    showing the most common face (the highest of equally common faces) and roll the rest."""
    return partial(_keep_most_common, AtLeast(stop_at))


def _keep_most_common(floor: AtLeast, state: Node) -> Action:
    left, kept, rolled = state
    if not rolled:
        return "roll"
    hand = tuple(sorted(kept + rolled))
    if floor(hand):
        return "stop"
    counts = Counter(hand)
    face = max(counts, key=lambda f: (counts[f], f))
    hold = tuple(sorted(kept + tuple(d for d in rolled if d == face))) if kept else tuple(d for d in hand if d == face)
    return "stop" if len(hold) == len(hand) else hold


def chase_most_common(target: Roll, tie_break: str, state: Node) -> Action:
    """A person chasing `target`: stop once ahead of it, else hold every die of the most common face."""
    _, kept, rolled = state
    if rolled and strength(tuple(sorted(kept + rolled)), tie_break) > strength(target, tie_break):
        return "stop"
    return cast(Action, keep_most_common("palais")(state))


# -- whole games ----------------------------------------------------------------------------------
def seat_objective(state: State) -> Goal:
    """What the seat to play maximises: P(beating the best hand so far), a tie counting half,
    or for the opener P(no later player beats the hand) (see `Outlast`)."""
    r = state.rules
    target = state.target
    if target is not None:
        return Beat(target, r.tie_break, Fraction(1, 2))
    return Outlast(r.players - 1, r.tie_break, r.sticky_holds)


def _optimal(state: protocol.State) -> protocol.Action:
    """The whole-game play the simulation plays (`game_kernel`): the opener maximises P(no later
    player beats its hand), every later player P(beating the best hand so far), a tie half."""
    s = cast("State", state)
    r = s.rules
    target = s.target
    if target is None:
        return Hold.move(opener_solution(r.players, r.tie_break, r.sticky_holds).action(s.node))
    keys, _ = strength_classes(r.tie_break)
    return Hold.move(
        chase_solution(r.tie_break, r.sticky_holds).action(s.node, keys.index(strength(target, r.tie_break)))
    )


def _keep_most_common_game(state: protocol.State) -> protocol.Action:
    """Keep the most common face: the opener stops at Manoir or better, a later player once
    ahead of the best hand so far; otherwise hold every die of the most common face."""
    s = cast("State", state)
    target = s.target
    if target is None:
        return Hold.move(keep_most_common("manoir")(s.node))
    return Hold.move(chase_most_common(target, s.rules.tie_break, s.node))


def policies(rules: Rules | None = None) -> dict[str, protocol.Policy]:
    """ "optimal": what the whole-game simulation plays (the opener maximises P(no later player
    beats it), the chasers P(beating the best hand so far), a tie counting half);
    "keep_most_common": hold every die of the most common face, the opener stopping at Manoir
    or better, a chaser once ahead."""
    return {"optimal": _optimal, "keep_most_common": _keep_most_common_game}


def machine_policies(machine: str, rules: Rules, seats: Iterable[int]) -> dict[int, protocol.Policy]:
    """The policies of the machine players at `seats` (`machine` one of `MACHINES`), as
    `nessus.play.play` takes them."""
    policy = policies(rules)[MACHINES[machine]]
    return dict.fromkeys(seats, policy)
