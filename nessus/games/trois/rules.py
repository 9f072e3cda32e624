"""Les Trois's rules: roll 5d6; after each roll set aside at least one die (set-aside dice are
final) and roll the rest, until every die is set aside. Score = the sum of the dice set aside,
every 3 counting 0; lowest wins; 6-6-6-6-6 "shoots the moon" (RULES.md section 5). The
parameters, a turn's score and its legal choices (`set_asides`, each an `Aside`)."""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass
from functools import cache
from itertools import combinations

from nessus.dice import Chosen, Roll
from nessus.rules import GameRules, Param, field

NAME = "trois"
DICE = Param("dice", 5, 1, 6, "dice rolled at the start of a turn")
TARGET = Param("target", 5, 0, 36, "score to stay at or below, for the P(score <= target) policy")
ROUNDS = Param("rounds", 5, 1, 10, "rounds in a simulated game")
PLAYERS = Param("players", 3, 2, 8, "players in a simulated game")


@dataclass(frozen=True)
class Rules(GameRules):
    params = (DICE, TARGET, ROUNDS, PLAYERS)
    dice: int = field(DICE)
    target: int = field(TARGET)
    rounds: int = field(ROUNDS)
    players: int = field(PLAYERS)

    def round_name(self, round_: int) -> str:
        """A round of a game (from 0) in words.

        >>> Rules(rounds=2).round_name(1), Rules(rounds=2).round_name(2)
        ('round 2 of 2', 'tie-break round 1')
        """
        r = self.rounds
        return f"round {round_ + 1} of {r}" if round_ < r else f"tie-break round {round_ + 1 - r}"


def score(dice: Roll) -> int:
    """The points of dice set aside: face value, a 3 counting 0."""
    return sum(0 if d == 3 else d for d in dice)


@cache
def set_asides(roll: Roll) -> tuple[Roll, ...]:
    """Every distinct non-empty choice of dice to set aside from a sorted roll: most dice
    first, then lowest score, then lowest faces."""
    out = {c for r in range(1, len(roll) + 1) for c in combinations(roll, r)}
    return tuple(sorted(out, key=lambda h: (-len(h), score(h), h)))


class Aside(Chosen):
    """The dice set aside from a roll; `str` reads "set aside 3 3"."""

    verb = "set aside"


def as_aside(dice: Hashable) -> Aside:
    """A solver's or a policy's dice to set aside (a sorted tuple) as the protocol's action."""
    if not isinstance(dice, tuple):
        raise TypeError(f"dice to set aside must be a tuple, got {dice!r}")
    return Aside(dice)
