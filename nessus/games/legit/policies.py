"""How to play Le Légit: the objectives a turn is played for, as objects (`Mean`, `Chase`,
`First`: each says what it is in words, scores a turn's end, solves a turn and hints a move),
the ways of playing a turn compared for an objective (`plays`), and the named policies of the
game (`policies`)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from typing import ClassVar, cast

from nessus import game
from nessus.dist import Dist
from nessus.games.legit.odds import (
    TurnSolver,
    beat_turn,
    first_share,
    first_stops,
    first_turn,
    mean_turn,
    reroll_below,
    score_distribution,
    share,
)
from nessus.games.legit.rules import DICE, Rules
from nessus.games.legit.state import ROLL, State
from nessus.numbers import Kind
from nessus.solver import Hint, TurnPolicy

THRESHOLD = 8
"""The best single "reroll below X" for the mean, with 1, 2 or 3 rerolls."""
SIX = int(DICE.default)
MACHINES = {"optimal, to win": "optimal", "best mean": "best_mean", f"reroll below {THRESHOLD}": "reroll_below"}
"""How the machine players may play (a page's words) and the named policy each one is."""

Final = tuple[int, int]
"""A turn's end: (the total kept, the rerolls used)."""


# -- the objectives ----------------------------------------------------------------------------------
class TurnObjective:
    """What a turn is played for (a `nessus.game.Objective`): `text` in words, `unit` of its
    values, `kind` (scores or probabilities, for `nessus.numbers`), `payoff((total, rerolls
    used))`, and from these the solved turn, its hint, its optimal choice and a policy's value.
    `to_beat`: the score it chases, if any (the chart draws it)."""

    kind: ClassVar[Kind] = "probability"
    to_beat: int | None = None

    @property
    def text(self) -> str:
        raise NotImplementedError

    @property
    def unit(self) -> str:
        raise NotImplementedError

    def payoff(self, final: Final) -> Fraction | int:
        raise NotImplementedError

    def turn(self, dice: int, rerolls: int) -> TurnSolver:
        """The turn of `dice` dice and up to `rerolls` rerolls, solved for this objective."""
        raise NotImplementedError

    def hint(self, state: State) -> Hint:
        """The exact value of each move for the player to move in `state`, for this objective."""
        return state.hint(self)

    def choice(self, rerolls: int) -> TurnPolicy:
        """The optimal keep-or-reroll choice, state ("rolled", rerolls left, dice left, total)."""
        return self.turn(SIX, rerolls).game.best

    def worth(self, rerolls: int) -> Fraction:
        """What a turn is worth before its first roll, played optimally for this objective."""
        return self.turn(SIX, rerolls).value()

    def value(self, rerolls: int, policy: TurnPolicy) -> Fraction:
        """The exact value (in `unit`) of playing `policy` with up to `rerolls` rerolls."""
        scores = score_distribution(Rules(rerolls=rerolls), policy)
        return sum((p * self.payoff((cast(int, s), 0)) for s, p in scores.items()), Fraction(0))


@dataclass(frozen=True)
class Mean(TurnObjective):
    """The objective "the most expected points" for a turn."""

    kind: ClassVar[Kind] = "value"
    text = property(lambda self: "the expected score")
    unit = property(lambda self: "expected score")

    def payoff(self, final: Final) -> int:
        return final[0]

    def turn(self, dice: int, rerolls: int) -> TurnSolver:
        return mean_turn(dice, rerolls)

    def value(self, rerolls: int, policy: TurnPolicy) -> Fraction:
        return score_distribution(Rules(rerolls=rerolls), policy).mean()


@dataclass(frozen=True)
class Chase(TurnObjective):
    """The objective "beat `best`" for a turn: P(score > best) + P(score = best)/2 (a tie for
    first shares the win)."""

    best: int
    text = property(lambda self: f"P(score > {self.best}) + ½ P(score = {self.best})")
    unit = property(lambda self: "probability")
    to_beat = property(lambda self: self.best)

    def payoff(self, final: Final) -> Fraction:
        total = final[0]
        return Fraction(int(total > self.best)) + (Fraction(1, 2) if total == self.best else Fraction(0))

    def turn(self, dice: int, rerolls: int) -> TurnSolver:
        return beat_turn(dice, rerolls, self.best, Fraction(1, 2))


@dataclass(frozen=True)
class First(TurnObjective):
    """The first of `players` players: play for your share of the win, the later players capped
    at the rerolls you use and chasing your score (the round's own goal for seat 1)."""

    players: int
    text = property(lambda self: f"your share of the win, first of {self.players} players")
    unit = property(lambda self: "share of the win")

    def payoff(self, final: Final) -> Fraction:
        return share(SIX, self.players, *final)

    def turn(self, dice: int, rerolls: int) -> TurnSolver:
        return first_turn(dice, rerolls, self.players)

    def hint(self, state: State) -> Hint:
        return state.hint()  # seat 1's own goal in the round

    def value(self, rerolls: int, policy: TurnPolicy) -> Fraction:
        return first_share(Rules(rerolls=rerolls, players=self.players), policy)


Goal = Mean | Chase | First
"""The objectives a turn may be played for."""


def seat_goal(state: State, seat: int) -> Goal:
    """What `seat` plays for in the round: the first player their share of the win, a later one
    beating the best score so far.

    >>> seat_goal(State(Rules(players=3)), 0).text
    'your share of the win, first of 3 players'
    """
    return First(state.rules.players) if seat == 0 else Chase(state.best_so_far)


# -- the ways of playing a turn, compared -------------------------------------------------------------
NO_REROLL, BELOW = "no reroll", f"reroll below {THRESHOLD}"


@dataclass(frozen=True)
class Play:
    """One way of playing: its name, exact score distribution, value for the goal and expected score."""

    name: str
    scores: Dist
    value: Fraction
    mean: Fraction


@cache
def plays(goal: Goal, rerolls: int) -> tuple[Play, ...]:
    """The optimal play for the goal, never rerolling and "reroll below 8" (and, for a goal other
    than the mean, playing for the best mean), each with up to `rerolls` rerolls."""
    rules = Rules(rerolls=rerolls)  # below: "reroll below 0" never rerolls
    ways: list[tuple[str, TurnPolicy]] = [
        ("optimal", goal.choice(rerolls)),
        (NO_REROLL, reroll_below(0)),
        (BELOW, reroll_below(THRESHOLD)),
    ]
    if goal != Mean():
        ways.append(("for the best mean", Mean().choice(rerolls)))
    out = []
    for name, policy in ways:
        scores = score_distribution(rules, policy)
        out.append(Play(name, scores, goal.value(rerolls, policy), scores.mean()))
    return tuple(out)


def keeps_from(choice: TurnPolicy, rerolls_left: int, dice: int) -> int | None:
    """The least total `choice` keeps with `dice` dice and `rerolls_left` rerolls left (None: it never keeps)."""
    keep = [t for t in range(6 * dice + 1) if choice(("rolled", rerolls_left, dice, t)) == "keep"]
    return min(keep) if keep else None


def least_kept(choice: TurnPolicy, rerolls: int, used: int, dice: int) -> str:
    """The least total `choice` keeps after `used` of `rerolls` rerolls with `dice` dice left, in words."""
    least = keeps_from(choice, rerolls - used, dice)
    return "all" if used == rerolls else "none" if least is None else str(least)


DilemmaRow = tuple[int, Fraction, Fraction, Fraction | None, list[tuple[str, str]]]
"""u, the later players' best mean, P(stop after u), the share then, the least totals kept."""


def dilemma_rows(rules: Rules, dice: tuple[int, ...] = (6, 4, 2)) -> list[DilemmaRow]:
    """The first player's dilemma, a row for each number u of rerolls they may use: u, a later
    player's best mean with at most u rerolls, P(the first player stops after u rerolls), their
    share of the win if so (None: never), and for each count of `dice` left the least total kept
    after u rerolls (`least_kept`), playing to win and playing for the mean.

    >>> dilemma_rows(Rules(rerolls=1))[1][4]
    [('all', 'all'), ('all', 'all'), ('all', 'all')]
    """
    choices = (First(rules.players).choice(rules.rerolls), Mean().choice(rules.rerolls))

    def kept(u: int, n: int) -> tuple[str, str]:
        win, mean = (least_kept(choice, rules.rerolls, u, n) for choice in choices)
        return win, mean

    return [(u, Mean().worth(u), p, won, [kept(u, n) for n in dice]) for u, (p, won) in first_stops(rules).items()]


def dilemma_reading(rules: Rules, strong: Callable[[str], str] = str) -> str:
    """The dilemma in words (`strong` marks the words that matter): on the first roll of six dice,
    does the first player playing to win keep from a lower total than a mean chaser, or higher?

    >>> dilemma_reading(Rules(rerolls=0, players=3))
    'No reroll allowed: nobody has a choice, and each of the 3 players wins 1/3 of the time.'
    """
    if rules.rerolls == 0:
        return (
            f"No reroll allowed: nobody has a choice, and each of the {rules.players} players wins 1/{rules.players} "
            "of the time."
        )
    choices = (First(rules.players).choice(rules.rerolls), Mean().choice(rules.rerolls))
    win, mean = (cast(int, keeps_from(choice, rules.rerolls, SIX)) for choice in choices)
    head = (
        f"On the first roll, six dice left: playing to win the first player keeps from {strong(str(win))}, a mean "
        f"chaser from {strong(str(mean))}. "
    )
    if win < mean:
        return head + (
            f"They stop {strong('earlier')}: every reroll they use is one more for each other player, and keeping "
            "now hands them none."
        )
    if win > mean:
        return head + (
            f"They are {strong('pickier')}: against {rules.players - 1} chasers who know the score to beat, a "
            "middling total rarely holds, even if rerolling hands everyone more rerolls."
        )
    return head + "The same threshold: the cap they set and the score they need balance out here."


# -- the named policies of the game ---------------------------------------------------------------------
def _as_state(state: game.State) -> State:
    if not isinstance(state, State):
        raise ValueError(f"a Le Légit state is needed, got {type(state).__name__}")
    return state


def optimal(state: game.State) -> game.Action:
    """The module's optimal play: seat 1 for their share of the win, a later seat to beat the best so far."""
    s = _as_state(state)
    if s.legal_actions() == [ROLL]:
        return ROLL
    return s.solver().game.best(s.position())


def per_turn(choose: Callable[[Rules], TurnPolicy]) -> game.Policy:
    """A policy playing every turn by the turn policy `choose(rules)` (see `TurnPolicy`)."""

    def policy(state: game.State) -> game.Action:
        s = _as_state(state)
        if s.legal_actions() == [ROLL]:
            return ROLL
        return choose(s.rules)(s.position())

    return policy


def machine_policies(machine: str, rules: Rules, seats: Iterable[int]) -> dict[int, game.Policy]:
    """The policies of the machine players at `seats` (`machine` one of `MACHINES`), as
    `nessus.play.play` takes them."""
    policy = policies(rules)[MACHINES[machine]]
    return dict.fromkeys(seats, policy)


def policies(rules: Rules | None = None) -> dict[str, game.Policy]:
    """ "optimal" (`optimal`), "best_mean" (every turn for the best expected score) and the human
    rule "reroll_below" (reroll while the total is below `rules.reroll_below`)."""
    rules = rules or Rules()
    below = reroll_below(rules.reroll_below)
    return {
        "optimal": optimal,
        "best_mean": per_turn(lambda r: Mean().turn(r.dice, r.rerolls).game.best),
        "reroll_below": per_turn(lambda r: below),
    }
