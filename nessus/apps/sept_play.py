"""Le Sept fatal and Pig as the dashboard plays them: the two games, a turn alone, their exact
one-turn figures and solved two-player games, and the machine's policy (no widget). A game is
the game's protocol state (`sept.State`, `pig.State`): the machine plays it through
`nessus.play.play`, and its hints are `state.hint()`."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import cache, cached_property, partial

import polars as pl

from nessus import pushluck as core
from nessus.game import Policy
from nessus.games.pushluck import pig, sept
from nessus.numbers import number_html, number_text

SEPT, PIG = "Le Sept fatal", "Pig"
MACHINES = ("optimal (to win)", "hold at N")
BUST = "#b00020"
CUT_OFF = 1e-6  # a turn start whose bracket is wider than this is shown as shaken by the cut-off

State = sept.State | pig.State
Solution = sept.Solution | core.Solved
Rolls = tuple[tuple[int, ...], ...]
APPROX = partial(number_html, approx=True)  # a chance found by value iteration (a float): a decimal, never a fraction


@dataclass(frozen=True)
class Kind:
    """What differs between the two games on this page."""

    name: str
    fresh: State  # a game not yet begun (a value: the turn alone is its first turn)
    dice: int
    bust_face: str  # the roll that wipes the turn, in words
    widest: int  # the chart of expected scores shows N = 1 .. widest

    @property
    def roll(self) -> core.RollLaw:
        """What one roll does (the game's `LAW`)."""
        return self.fresh.LAW

    def busts(self, faces: tuple[int, ...]) -> bool:
        """Whether this roll wipes the turn (the game's own rule)."""
        return self.fresh.busts(faces)

    @cached_property
    def best(self) -> tuple[int, Fraction]:
        """The best hold for points and its expected turn score (exact)."""
        return core.best_hold(self.roll)


KINDS = {
    SEPT: Kind(SEPT, sept.initial_state(), 2, "a 7", 90),
    PIG: Kind(PIG, pig.initial_state(), 1, "a 1", 60),
}


def alone(state: State) -> tuple[Rolls, int, str | None]:
    """Your turn played alone, the first turn of `state`: its rolls, the turn total (the points
    banked once it is over), and how it ended ("hold", "bust", Pig's "goal"; None while it goes on)."""
    if state.history:
        played = state.history[0]
        return played.rolls, played.banked, played.end
    return state.rolls, state.turn_total, None


# -- exact one-turn figures (cached: the charts are redrawn often) ----------------------------------
@cache
def turn_frame(name: str, n: int) -> pl.DataFrame:
    """The exact distribution of one turn's score holding at n: `value`, `probability`, `exact`."""
    d = core.hold_at_distribution(KINDS[name].roll, n)
    return pl.DataFrame(
        {
            "value": [str(s) for s in d.outcomes],
            "probability": [float(d[s]) for s in d.outcomes],
            "exact": [number_text(d[s]) for s in d.outcomes],
        }
    )


@cache
def means_frame(name: str) -> pl.DataFrame:
    """The exact expected turn score holding at N, for N = 1 .. the chart's widest: `N`, `mean`, `exact`."""
    kind = KINDS[name]
    means = [core.hold_at_mean(kind.roll, n) for n in range(1, kind.widest + 1)]
    return pl.DataFrame(
        {"N": range(1, kind.widest + 1), "mean": [float(m) for m in means], "exact": [number_text(m) for m in means]}
    )


# -- the two-player games, solved by value iteration ------------------------------------------------
_solved: set[tuple[str, int]] = set()  # the games solved (or read) in this kernel


def solving_text(name: str, size: int) -> str:
    """What the page says while it solves a game; "" when the game is stored in data/ or solved already."""
    stored = size in sept.STORED_ROUNDS if name == SEPT else size == pig.GOAL.default
    if (name, size) in _solved or stored:
        return ""
    what = f"{size} round{'s' if size > 1 else ''}" if name == SEPT else f"Pig to {size}"
    return f"Solving {what} by value iteration (once per session; a few seconds)…"


def new_game(name: str, size: int) -> tuple[Solution, State]:
    """Optimal play for `size` rounds (Le Sept fatal) or goal `size` (Pig), stored for the default rules, else
    solved once per kernel (the engines memoise), and a new game."""
    _solved.add((name, size))
    if name == SEPT:
        rules = sept.Rules(rounds=size)
        return sept.solution(rules), sept.initial_state(rules)
    return pig.solution(pig.Rules(goal=size)), pig.initial_state(pig.Rules(goal=size))


def machine_policy(name: str, hold: int | None) -> Policy:
    """The machine's way to play: optimal for its winning chance (`hold` None), or hold at `hold`."""
    if hold is not None:
        return core.hold_at(hold)
    return sept.optimal_policy if name == SEPT else pig.optimal_policy


def bracket(sol: sept.Solution, t: int, lead: int) -> float:
    """The width of the bracket on the mover's chance at the start of turn t with this lead
    (every cut-off state lost, then won, for the first player); 1 off the grid."""
    d = sol.duel
    c = d.context(t, lead) if abs(lead) <= d.margin else -1
    return float(abs(sol.high_starts[c] - sol.low_starts[c])) if c >= 0 else 1.0


def method_note(game: State, sol: Solution) -> str:
    """How the winning chances were computed, and how accurate they are here."""
    if isinstance(game, sept.State) and isinstance(sol, sept.Solution):
        width = bracket(sol, game.duel_turn, game.lead)
        return (
            "≈: floats, not exact: value iteration until the largest change of a sweep is below "
            f"{sept.TOLERANCE:g}; leads "
            f"beyond ±{sol.duel.margin} points are cut off: solving with every cut-off state lost, then won, brackets "
            f"your chance at the start of this turn in an interval of width {width:.1g}."
        )
    return (
        f"≈: floats, not exact: value iteration until the largest change of a sweep is below {pig.TOLERANCE:g}, within "
        f"{pig.ACCURACY:g} of the exact values."
    )


# -- words and HTML ---------------------------------------------------------------------------------
