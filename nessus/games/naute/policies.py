"""What a player of Le Naute plays for, and how: the objectives as objects, the optimal and
chasing plays of an expedition, the person's rule "keep cargo dice of 4 or more", and the named
whole-game policies.

An objective (`nessus.game.Objective`) says in words what it is (`text`), what its values are
(`unit`), the figure a chart shows for it (`figure`), the payoff of a cargo (`payoff`, also its
call: the core solver takes it as a function), and from these its best value (`value`), its
optimal policy (`optimal`), the play a player makes for it (`play`) and its value under a cargo
distribution (`expected`): `CargoMean` (the expected cargo) and `Above` (P(cargo > target)).

>>> goal = Above(9)
>>> goal.text, goal.payoff(10), goal.play()(("cargo", 2, (), (4, 5)))
('P(cargo > 9)', 1, (5,))
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import partial
from typing import TYPE_CHECKING, cast

from nessus import game as protocol
from nessus.dist import Dist
from nessus.games.naute.expedition import Action, Keep, Node, Value, keep_options, solved, start
from nessus.games.naute.rules import Rules
from nessus.solver import Expectimax, TurnPolicy

if TYPE_CHECKING:
    from nessus.games.naute.state import State

HEURISTIC_FACE = 4
"""The person's rule keeps the cargo dice showing this face or more."""
MACHINES = {"optimal": "optimal", f"keep {HEURISTIC_FACE} or more": "keep_at_least"}
"""How the machine players may play (a page's words) and the named policy each one is."""


# -- the objectives -------------------------------------------------------------------------------
class Goal:
    """An expedition's objective: `text` in words, `unit` of its values, `figure` (its name in a
    table of figures), `payoff(cargo)` (also its call), and from these the solved expedition,
    its best value, its optimal policy, the play made for it and its value under a cargo
    distribution."""

    @property
    def text(self) -> str:
        raise NotImplementedError

    @property
    def unit(self) -> str:
        raise NotImplementedError

    @property
    def figure(self) -> str:
        raise NotImplementedError

    def payoff(self, final: int) -> Value:
        """The payoff of an expedition's cargo `final` (0 when it stayed in port)."""
        raise NotImplementedError

    def __call__(self, cargo: int) -> Value:
        return self.payoff(cargo)

    def solved(self, cargo_holds: str = "sticky") -> Expectimax:
        """The expedition for the core solver under a cargo rule, played for this objective (kept)."""
        return solved(self, cargo_holds)

    def value(self, rules: Rules | None = None) -> Fraction:
        """The best E[payoff(cargo)] over all ways of playing the cargo, exact."""
        return Fraction(self.solved((rules or Rules()).cargo_holds).value(start()))

    def optimal(self, rules: Rules | None = None) -> TurnPolicy:
        """The policy maximising E[payoff(cargo)] (from the core solver)."""
        return cast(TurnPolicy, self.solved((rules or Rules()).cargo_holds).best)  # best: an Action at a decision

    def play(self, rules: Rules | None = None) -> TurnPolicy:
        """The play a player makes for this objective (by default `optimal`)."""
        return self.optimal(rules)

    def expected(self, cargo: Dist) -> Fraction:
        """E[payoff] when the cargo falls out as `cargo`."""
        return sum((p * self.payoff(cast(int, c)) for c, p in cargo.items()), Fraction(0))


@dataclass(frozen=True)
class CargoMean(Goal):
    """Payoff: the cargo itself (maximise its expectation)."""

    @property
    def text(self) -> str:
        return "the expected cargo"

    @property
    def unit(self) -> str:
        return "expected cargo"

    @property
    def figure(self) -> str:
        return "expected cargo"

    def payoff(self, final: int) -> int:
        return final


@dataclass(frozen=True)
class Above(Goal):
    """Payoff 1 when the cargo is more than `target`, else 0. It is played by `chase_policy`:
    among the moves that beat the target most often, the one with the most expected cargo."""

    target: int

    @property
    def text(self) -> str:
        return f"P(cargo > {self.target})"

    @property
    def unit(self) -> str:
        return "probability"

    @property
    def figure(self) -> str:
        return self.text

    def payoff(self, final: int) -> int:
        return int(final > self.target)

    def play(self, rules: Rules | None = None) -> TurnPolicy:
        return chase_policy(self.target, rules)


# -- optimal and chasing plays ----------------------------------------------------------------------
def optimal(objective: Goal, rules: Rules | None = None) -> TurnPolicy:
    """The policy maximising E[objective(cargo)] (from the core solver)."""
    return objective.optimal(rules)


def beat_policy(target: int, rules: Rules | None = None) -> TurnPolicy:
    """The policy maximising P(cargo > target)."""
    return Above(target).optimal(rules)


def chase_policy(target: int, rules: Rules | None = None) -> TurnPolicy:
    """The policy maximising P(cargo > target) that, among equally good actions, takes the one
    with the highest expected cargo (a chaser who cannot lose by playing for more)."""
    return partial(_chase, Above(target), (rules or Rules()).cargo_holds)


def _chase(objective: Above, cargo_holds: str, state: Node) -> Action:
    if state[0] == "hunt":
        return "roll"
    odds = objective.solved(cargo_holds).hint(state)
    mean = CargoMean().solved(cargo_holds).hint(state)
    return cast(Action, max((a for a, v in odds.values.items() if v == odds.value), key=lambda a: mean.values[a]))


# -- the person's rule ------------------------------------------------------------------------------
def keep_at_least(face: int = HEURISTIC_FACE) -> TurnPolicy:
    """A person's rule: keep every cargo die showing `face` or more, reroll the others while
    rolls are left (stop when none is to be rerolled)."""
    return partial(_keep_at_least, face)


def _keep_at_least(face: int, state: Node) -> Action:
    if state[0] == "hunt":
        return "roll"
    _, _, kept, free = state
    good = tuple(d for d in free if d >= face)
    return "stop" if len(good) == len(free) else tuple(sorted(kept + good))


def legal(policy: TurnPolicy, cargo_holds: str) -> TurnPolicy:
    """`policy` with its choice replaced by the closest legal one under the cargo rule (with
    `both`, keeping some but not all dice becomes rerolling both)."""
    return partial(_legal, policy, cargo_holds)


def _legal(policy: TurnPolicy, cargo_holds: str, state: Node) -> Action:
    action = policy(state)
    if action in ("roll", "stop") or action in keep_options(state[2], state[3], cargo_holds):
        return action
    return ()


def heuristic(rules: Rules | None = None) -> TurnPolicy:
    """Keep every cargo die of 4 or more (as the cargo rule allows), reroll the others."""
    return legal(keep_at_least(HEURISTIC_FACE), (rules or Rules()).cargo_holds)


# -- whole games ------------------------------------------------------------------------------------
def _optimal(state: protocol.State) -> protocol.Action:
    """The simulation's play (`game_kernel`): the expected cargo, except on the last expedition
    where a seat that can still overtake plays `chase_policy` of the gap."""
    s = cast("State", state)
    if not s.crew:
        return "roll"
    return Keep.move(s.objective().play(s.rules)(s.node))


def _keep_at_least_game(state: protocol.State) -> protocol.Action:
    """Keep every cargo die of 4 or more (as the cargo rule allows), reroll the others."""
    s = cast("State", state)
    if not s.crew:
        return "roll"
    return Keep.move(heuristic(s.rules)(s.node))


def policies(rules: Rules | None = None) -> dict[str, protocol.Policy]:
    """ "optimal": the simulation's play (the expected cargo; on the last expedition, beat the
    best other total when it can still be overtaken); "keep_at_least": keep cargo dice of 4 or more."""
    return {"optimal": _optimal, "keep_at_least": _keep_at_least_game}


def machine_policies(machine: str, rules: Rules, seats: range) -> dict[int, protocol.Policy]:
    """The policies of the machine players in `seats` (`machine` one of `MACHINES`), as
    `nessus.play.play` takes them: optimally (for the mean, or to beat the best other total on
    the last expedition), or keeping cargo dice of 4 or more."""
    policy = policies(rules)[MACHINES[machine]]
    return {seat: policy for seat in seats}
