"""Le Légit as the dashboard plays it: the goals a turn is played for and what each play is
worth, the ways of playing compared, the machine's policy and turn, and the hint (no widget)."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import cache

from nessus.dist import Dist
from nessus.game import Policy
from nessus.games import legit
from nessus.games.legit import Chase, Mean
from nessus.numbers import Kind
from nessus.solver import Hint, TurnPolicy

DICE = int(legit.DICE.default)
TOP = 6 * DICE
THRESHOLD = 8  # the best single "reroll below X" for the mean, with 1, 2 or 3 rerolls
TO_WIN, FOR_MEAN, BELOW = "optimal, to win", "best mean", f"reroll below {THRESHOLD}"
MACHINES = (TO_WIN, FOR_MEAN, BELOW)
NO_REROLL = "no reroll"


# -- goals and policies ------------------------------------------------------------------------------
@dataclass(frozen=True)
class First:
    """The first of `players` players: play for your share of the win, the later players capped
    at the rerolls you use and chasing your score."""

    players: int


Goal = Mean | Chase | First


def goal_text(goal: Goal) -> str:
    """The goal in words."""
    if isinstance(goal, Mean):
        return "the expected score"
    if isinstance(goal, Chase):
        return f"P(score > {goal.best}) + ½ P(score = {goal.best})"
    return f"your share of the win, first of {goal.players} players"


def unit(goal: Goal) -> str:
    """What the goal's values are."""
    return (
        "expected score" if isinstance(goal, Mean) else "probability" if isinstance(goal, Chase) else "share of the win"
    )


def kind(goal: Goal) -> Kind:
    """Whether the goal's values are probabilities (a chance, a share of the win) or scores."""
    return "value" if isinstance(goal, Mean) else "probability"


def solved(goal: Goal, rerolls: int) -> legit.TurnSolver:
    """The solved turn for the goal with up to `rerolls` rerolls."""
    if isinstance(goal, Mean):
        return legit.mean_turn(DICE, rerolls)
    if isinstance(goal, Chase):
        return legit.beat_turn(DICE, rerolls, goal.best, Fraction(1, 2))
    return legit.first_turn(DICE, rerolls, goal.players)


def optimal(goal: Goal, rerolls: int) -> TurnPolicy:
    """The optimal keep-or-reroll choice for the goal, state ("rolled", rerolls left, dice left, total)."""
    return solved(goal, rerolls).game.best


def turn_value(goal: Goal, rerolls: int) -> Fraction:
    """What a turn is worth before its first roll, played optimally for the goal."""
    return solved(goal, rerolls).value()


def goal_value(goal: Goal, rerolls: int, policy: TurnPolicy) -> Fraction:
    """The exact value of the goal (see `unit`) when playing `policy` with up to `rerolls` rerolls."""
    if isinstance(goal, First):
        return legit.first_share(legit.Rules(rerolls=rerolls, players=goal.players), policy)
    scores = legit.score_distribution(legit.Rules(rerolls=rerolls), policy)
    if isinstance(goal, Mean):
        return scores.mean()
    return scores.prob(lambda s: s > goal.best) + scores.prob(lambda s: s == goal.best) / 2


@dataclass(frozen=True)
class Line:
    """One way of playing: its name, exact score distribution, goal value and expected score."""

    name: str
    scores: Dist
    value: Fraction
    mean: Fraction


@cache
def lines(goal: Goal, rerolls: int) -> tuple[Line, ...]:
    """The optimal play for the goal, never rerolling and "reroll below 8" (and, for a goal other
    than the mean, playing for the best mean), each with up to `rerolls` rerolls."""
    rules = legit.Rules(rerolls=rerolls)  # below: "reroll below 0" never rerolls
    plays: list[tuple[str, TurnPolicy]] = [
        ("optimal", optimal(goal, rerolls)),
        (NO_REROLL, legit.reroll_below(0)),
        (BELOW, legit.reroll_below(THRESHOLD)),
    ]
    if not isinstance(goal, Mean):
        plays.append(("for the best mean", optimal(Mean(), rerolls)))
    out = []
    for name, policy in plays:
        scores = legit.score_distribution(rules, policy)
        out.append(Line(name, scores, goal_value(goal, rerolls, policy), scores.mean()))
    return tuple(out)


def hint_for(state: legit.State, goal: Goal) -> Hint:
    """`state.hint()` for the goal: the round's (the first player's share, or beating the best so
    far), the expected score, or beating a score."""
    return state.hint(None if isinstance(goal, First) else goal)


def machine_policy(machine: str, rules: legit.Rules) -> Policy:
    """How a machine player chooses (`legit.policies`): optimally for its goal (the first
    player's share, or beating the best so far), for the best mean, or rerolling below 8."""
    name = {TO_WIN: "optimal", FOR_MEAN: "best_mean", BELOW: "reroll_below"}[machine]
    return legit.policies(legit.Rules(rerolls=rules.rerolls, players=rules.players, reroll_below=THRESHOLD))[name]
