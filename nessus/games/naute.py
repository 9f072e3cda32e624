"""Le Naute (Ship, Captain and Crew): 5d6, up to 3 rolls. Set aside a 6 (the ship), then a 5
(the captain), then a 4 (the crew) — several may come in one roll; once all three are aside the
two other dice are the cargo and score their sum, and the rolls left may be spent rerolling
cargo. No ship, captain and crew within 3 rolls: the expedition scores 0 (RULES.md section 3).

Decisions: the ship, captain and crew are set aside as soon as they may be (no choice is left
before the crew is aboard: only "roll"). Cargo (parameter `cargo_holds`): "sticky" (default)
any cargo die may be kept, one at a time, and a kept die stays kept; "free": every roll, any
cargo dice may be rerolled, kept ones too; "both": both cargo dice are rerolled or none.

A solver *node* is `("hunt", left, aboard)` before the crew is aboard (`aboard`: 0 nothing, 1 the
ship, 2 ship and captain) or `("cargo", left, kept, free)` after (`kept` the cargo dice kept,
`free` those just rolled), `left` being the rolls still allowed; the start is `("hunt", 3, 0)`.
An *action* is "roll" (hunting), "stop", or the cargo dice to keep (a sorted tuple, those
already kept included) while the others are rolled again. States and actions feed the core
solver (`nessus.solver.Expectimax`) for any objective of the score.

Whole games (simulated): `players` players, `expeditions` expeditions in turn; the highest
total cargo wins. Every expedition is played to maximise the expected cargo except the last,
where a player who can still overtake maximises P(own total > the best other total known so
far): the others' totals after their last expedition for earlier seats, after the one before
for later seats (`chase_policy`). Equal highest totals are reported as a shared first place.

The game protocol (`nessus.game`): `Node` is a whole game, every seat's expeditions in turn,
each roll a chance node over the sorted dice with exact weights; the returns are win shares
(equal highest totals share the win). "roll" is the only move while hunting.

>>> state = initial_state(Rules(players=2, expeditions=2))
>>> state = state.apply("roll").apply((1, 3, 4, 5, 6))
>>> state.aboard, state.cargo, [str(a) for a in state.legal_actions()]
(3, 4, ['stop', 'keep 1', 'keep 3', 'keep none'])
>>> state.hint().best  # two rolls left: reroll both for more
Keep(())
>>> after = state.apply("stop")
>>> after.cargos, after.current_player(), after.returns()
((4,), 1, [Fraction(0, 1), Fraction(0, 1)])
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from functools import cache, partial
from typing import Any, cast

import numpy as np

from nessus import game as protocol
from nessus import montecarlo
from nessus.dice import Chosen, Roll, multisets, ordered_rolls, roll_faces, roll_outcomes, rolls, sub_multisets
from nessus.dist import Dist
from nessus.game import Game
from nessus.report import Figure, Report
from nessus.rules import GameRules, Param, field
from nessus.solver import Expectimax, Hint, TurnPolicy

NAME = "naute"
DICE, ROLLS, SIDES = 5, 3, 6
SHIP, CAPTAIN, CREW = 6, 5, 4
CREWS = (SHIP, CAPTAIN, CREW)
CARGO_DICE = 2
TOP = 2 * SIDES  # the highest cargo

EXPEDITIONS = Param("expeditions", 3, 1, 6, "expeditions (rounds) in a game")
PLAYERS = Param("players", 4, 2, 10, "players in a whole game (simulated)")
CARGO = Param(
    "cargo_holds",
    "sticky",
    1,
    1,
    "cargo rerolls: sticky = keep dice one at a time for good, free = any cargo die each roll, both = both or none",
    kind=str,
    choices=("sticky", "free", "both"),
)

Node = tuple
"""A solver state: ("hunt", left, aboard) or ("cargo", left, kept, free)."""
Action = str | Roll
Value = Fraction | int
Objective = Callable[[int], Value]
"""An expedition's play as a function of the solver's node."""


@dataclass(frozen=True)
class Rules(GameRules):
    params = (EXPEDITIONS, PLAYERS, CARGO)
    expeditions: int = field(EXPEDITIONS)
    players: int = field(PLAYERS)
    cargo_holds: str = field(CARGO)


def set_aside(aboard: int, roll: Sequence[int]) -> tuple[int, Roll]:
    """After a hunting roll: how many of ship, captain, crew are aboard, and the cargo dice
    (sorted) if all three are."""
    rest = list(roll)
    while aboard < 3 and CREWS[aboard] in rest:
        rest.remove(CREWS[aboard])
        aboard += 1
    return aboard, tuple(sorted(rest)) if aboard == 3 else ()


def score(state: Node) -> int:
    """The cargo of a finished expedition (0 without ship, captain and crew)."""
    return sum(state[2]) + sum(state[3]) if state[0] == "cargo" else 0


# -- objectives ---------------------------------------------------------------------------------
@dataclass(frozen=True)
class CargoMean:
    """Payoff: the cargo itself (maximise its expectation)."""

    def __call__(self, cargo: int) -> int:
        return cargo


@dataclass(frozen=True)
class Above:
    """Payoff 1 when the cargo is more than `target`, else 0."""

    target: int

    def __call__(self, cargo: int) -> int:
        return int(cargo > self.target)


# -- the game for the core solver ------------------------------------------------------------------
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


def game(objective: Objective, cargo_holds: str = "sticky", roll_count: int = ROLLS) -> Expectimax:
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
def _game(objective: Objective, cargo_holds: str) -> Expectimax:
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


# -- the questions of RULES.md -------------------------------------------------------------------
def p_qualify_by_roll(roll_count: int = ROLLS) -> list[Fraction]:
    """[P(ship, captain and crew aboard by roll 1), ..., by roll `roll_count`] (no choice
    affects it)."""
    weights = {0: 1}  # aboard -> weight, over a common total of 6**(5 * rolls made)
    total, done, out = 1, 0, []
    for _ in range(roll_count):
        nxt: dict[int, int] = {}
        for aboard, w in weights.items():
            for r, x in multisets(DICE - aboard):
                now, _ = set_aside(aboard, r)
                nxt[now] = nxt.get(now, 0) + w * x * 6**aboard  # fewer dice rolled: scale to 6**5
        total *= 6**DICE
        done = done * 6**DICE + nxt.pop(3, 0)
        weights = nxt
        out.append(Fraction(done, total))
    return out


def value(objective: Objective, rules: Rules | None = None) -> Fraction:
    """The best E[objective(cargo)] over all ways of playing the cargo, exact."""
    return Fraction(_game(objective, (rules or Rules()).cargo_holds).value(start()))


def optimal_cargo_mean(rules: Rules | None = None) -> Fraction:
    """The largest expected cargo of an expedition (0 counted when not qualified)."""
    return value(CargoMean(), rules)


def p_beat(target: int, rules: Rules | None = None) -> Fraction:
    """The largest P(cargo > target), over all ways of playing the cargo."""
    return value(Above(target), rules)


def optimal(objective: Objective, rules: Rules | None = None) -> TurnPolicy:
    """The policy maximising E[objective(cargo)] (from the core solver)."""
    return cast(TurnPolicy, _game(objective, (rules or Rules()).cargo_holds).best)  # best: an Action at a decision


def beat_policy(target: int, rules: Rules | None = None) -> TurnPolicy:
    """The policy maximising P(cargo > target)."""
    return optimal(Above(target), rules)


def chase_policy(target: int, rules: Rules | None = None) -> TurnPolicy:
    """The policy maximising P(cargo > target) that, among equally good actions, takes the one
    with the highest expected cargo (a chaser who cannot lose by playing for more)."""
    return partial(_chase, Above(target), (rules or Rules()).cargo_holds)


def _chase(objective: Above, cargo_holds: str, state: Node) -> Action:
    if state[0] == "hunt":
        return "roll"
    odds = _game(objective, cargo_holds).hint(state)
    mean = _game(CargoMean(), cargo_holds).hint(state)
    return cast(Action, max((a for a, v in odds.values.items() if v == odds.value), key=lambda a: mean.values[a]))


def keep_at_least(face: int = 4) -> TurnPolicy:
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


def score_distribution(rules: Rules | None = None, policy: TurnPolicy | None = None) -> Dist:
    """The exact distribution of an expedition's cargo under `policy` (default: the policy
    maximising the expected cargo)."""
    rules = rules or Rules()
    g = _game(CargoMean(), rules.cargo_holds)
    return g.distribution(start(), score, policy and legal(policy, rules.cargo_holds))


def report(rules: Rules | None = None) -> Report:
    """The exact headline figures."""
    rules = rules or Rules()
    by_roll = p_qualify_by_roll()
    mean = optimal_cargo_mean(rules)
    heuristic = score_distribution(rules, keep_at_least(4)).mean()
    figures = {
        "p_qualify": Figure.of(by_roll[-1], "P(ship, captain and crew within 3 rolls)"),
        "optimal_cargo_mean": Figure.of(mean, "expected cargo, playing the cargo to maximise it (0 if not qualified)"),
    }
    for k, p in enumerate(by_roll, 1):
        figures[f"p_qualify_by_roll_{k}"] = Figure.of(p, f"P(ship, captain and crew aboard after {k} roll(s))")
    figures["optimal_cargo_mean_when_qualified"] = Figure.of(
        mean / by_roll[-1], "expected cargo given ship, captain and crew"
    )
    figures["heuristic_cargo_mean"] = Figure.of(heuristic, "expected cargo keeping cargo dice of 4 or more")
    return Report(NAME, rules.as_dict(), figures)


# -- Monte Carlo ------------------------------------------------------------------------------------
MEAN_COLUMN, HEURISTIC_COLUMN = 0, TOP + 1  # columns 1 + t: chase_policy(t), t = 0..TOP - 1
ROLL_CODES = SIDES**DICE  # k dice rolled = a uniform code in [0, 6**k) (base-6 digits, one per die)


@dataclass(frozen=True)
class Machine:
    """Expeditions as table lookups. `states`: every state right after a roll, a finished
    expedition being ("done", cargo); `afters`: what is rolled next ("hunt", left, aboard),
    ("keep", left, kept) or nothing (("stop", cargo), ("stay", cargo) once done).
    `after[offset[a] + code % mod[a]]` is the state the roll `code` leads to (`mod[a]`: 6 to the
    number of dice rolled); `policy[column, state]` the after-state each policy chooses
    (columns: MEAN_COLUMN, 1 + t for chase_policy(t), HEURISTIC_COLUMN)."""

    states: tuple[Node, ...]
    afters: tuple[tuple, ...]
    after: np.ndarray
    offset: np.ndarray
    mod: np.ndarray
    policy: np.ndarray
    cargo: np.ndarray
    crew: np.ndarray
    start: int

    def row(self, a: int) -> np.ndarray:
        """The states an after-state leads to, one per roll code."""
        return self.after[self.offset[a] : self.offset[a] + self.mod[a]]


def _finished(state: Node) -> Node:
    """A state with no roll left, as ("done", cargo)."""
    return ("done", score(state)) if state[1] == 0 else state


@cache
def machine(cargo_holds: str = "sticky") -> Machine:
    """The roll and policy tables under a cargo rule (cached)."""
    done = [("done", c) for c in [0, *range(2, TOP + 1)]]
    hunts = [("hunt", left, a) for left in range(1, ROLLS) for a in range(3)]
    states = tuple(hunts + cargo_states(cargo_holds) + done)
    afters: tuple[tuple[Any, ...], ...] = tuple(
        [("hunt", left, a) for left in range(1, ROLLS + 1) for a in range(3)]
        + [("keep", left, k) for left in range(1, ROLLS) for k in [(), *((f,) for f in range(1, SIDES + 1))]]
        + [("stop", c) for _, c in done]
        + [("stay", c) for _, c in done]
    )
    index = {s: i for i, s in enumerate(states)}
    after: list[int] = []
    offset, mod = [], []
    for a in afters:
        offset.append(len(after))
        if a[0] in ("stop", "stay"):
            mod.append(1)
            after.append(index[("done", a[1])])
            continue
        k = DICE - a[2] if a[0] == "hunt" else CARGO_DICE - len(a[2])
        mod.append(SIDES**k)
        after.extend(
            index[_finished(after_roll(a, tuple(sorted(roll)), cargo_holds))] for roll in ordered_rolls(k).tolist()
        )
    rules = Rules(cargo_holds=cargo_holds)
    policies = (
        [optimal(CargoMean(), rules)]
        + [chase_policy(t, rules) for t in range(TOP)]
        + [legal(keep_at_least(4), cargo_holds)]
    )
    where: dict[tuple[Any, ...], int] = {a: i for i, a in enumerate(afters)}
    policy = np.zeros((len(policies), len(states)), dtype=np.int16)
    for j, s in enumerate(states):
        for c, pol in enumerate(policies):
            if s[0] == "done":
                policy[c, j] = where[("stay", s[1])]
            elif s[0] == "hunt":
                policy[c, j] = where[s]
            else:
                action = pol(s)
                policy[c, j] = where[("stop", score(s)) if action == "stop" else ("keep", s[1], action)]
    cargo = np.array([score(s) if s[0] != "done" else s[1] for s in states], dtype=np.int16)
    crew = np.array([s[0] == "cargo" or (s[0] == "done" and s[1] > 0) for s in states])
    return Machine(
        states,
        afters,
        np.array(after, dtype=np.int16),
        np.array(offset, dtype=np.int32),
        np.array(mod, dtype=np.int16),
        policy,
        cargo,
        crew,
        where[("hunt", ROLLS, 0)],
    )


def _codes(rng: np.random.Generator, n: int) -> np.ndarray:
    return rng.integers(0, ROLL_CODES, size=n, dtype=np.int16)


def expedition(m: Machine, column: np.ndarray | int, rng: np.random.Generator, n: int) -> tuple[np.ndarray, np.ndarray]:
    """n expeditions played by table lookup (`column`: the policy, for all or per expedition):
    the cargo, and the roll on which the crew came aboard (0: never)."""
    state = m.after[m.offset[m.start] + _codes(rng, n)]
    when = m.crew[state].astype(np.int8)
    for made in range(2, ROLLS + 1):
        a = m.policy[column, state]
        state = m.after[m.offset[a] + _codes(rng, n) % m.mod[a]]
        when[(when == 0) & m.crew[state]] = made
    return m.cargo[state], when


def expedition_kernel(m: Machine, rng: np.random.Generator, n: int) -> dict[str, np.ndarray]:
    """n expeditions under the mean-maximising policy, n under the heuristic."""
    cargo, when = expedition(m, MEAN_COLUMN, rng, n)
    out = {"p_qualify": when > 0, "optimal_cargo_mean": cargo}
    for k in range(1, ROLLS + 1):
        out[f"p_qualify_by_roll_{k}"] = (when > 0) & (when <= k)
    out["heuristic_cargo_mean"] = expedition(m, HEURISTIC_COLUMN, rng, n)[0]
    return out


def game_kernel(m: Machine, rules: Rules, rng: np.random.Generator, n: int) -> dict[str, np.ndarray]:
    """n whole games (see the module docstring): who has the highest total alone, and
    whether first place is shared."""
    p = rules.players
    totals = np.zeros((n, p), dtype=np.int16)
    for e in range(rules.expeditions):
        for seat in range(p):
            column: np.ndarray | int = MEAN_COLUMN
            if e == rules.expeditions - 1:
                t = totals[:, [j for j in range(p) if j != seat]].max(axis=1) - totals[:, seat]
                column = np.where((t >= 0) & (t < TOP), 1 + t, MEAN_COLUMN)
            totals[:, seat] += expedition(m, column, rng, n)[0]
    first = totals == totals.max(axis=1, keepdims=True)
    alone = first.sum(axis=1) == 1
    out = {f"p_seat_{k + 1}_wins_{p}_players": alone & first[:, k] for k in range(p)}
    out[f"p_shared_first_{p}_players"] = ~alone
    return out


def simulate(rules: Rules | None = None, trials: int = 100_000, seed: int = 0, client=None, progress=None) -> Report:
    """Monte Carlo figures with 95% confidence intervals: expeditions (mean-maximising play and
    the heuristic) and whole games (seat win probabilities)."""
    rules = rules or Rules()
    m = machine(rules.cargo_holds)
    one = montecarlo.run(partial(expedition_kernel, m), trials, seed, client=client, progress=progress)
    games = montecarlo.run(partial(game_kernel, m, rules), trials, seed + 1, client=client, progress=progress)
    return Report(NAME, rules.as_dict(), {k: Figure.estimated(e) for k, e in (one.estimates | games.estimates).items()})


# -- the game protocol -------------------------------------------------------------------------------
class Keep(Chosen):
    """The cargo dice kept while the others are rolled again; `str` reads "keep 4 6"."""

    verb = "keep"


@dataclass(frozen=True)
class State(protocol.State):
    """A whole game of Le Naute (the game protocol): `expeditions` rounds, each seat one
    expedition per round in seat order; the highest total cargo wins (equal highest totals
    share the win). `cargos` are the finished expeditions' cargo in order of play; the
    expedition being played has `left` rolls allowed, `aboard` of ship, captain and crew, the
    cargo dice `kept` and `free` (just rolled), its rolls in `history`, and `rolling` is True
    while chance rolls.
    """

    rules: Rules
    cargos: tuple[int, ...] = ()
    left: int = ROLLS
    aboard: int = 0
    kept: Roll = ()
    free: Roll = ()
    history: tuple[Roll, ...] = ()
    rolling: bool = False

    def __post_init__(self) -> None:
        if not isinstance(self.left, int) or not 0 <= self.left <= ROLLS:
            raise ValueError(f"left must be an integer from 0 to {ROLLS}, got {self.left!r}")
        if not isinstance(self.aboard, int) or not 0 <= self.aboard <= 3:
            raise ValueError(f"aboard must be an integer from 0 to 3, got {self.aboard!r}")
        if self.aboard and self.left == ROLLS:
            raise ValueError("aboard must be 0 before the first roll")
        cargo = len(self.kept) + len(self.free)
        if self.aboard < 3 and cargo:
            raise ValueError("kept and free must be empty until ship, captain and crew are aboard")
        if cargo > DICE - 3 or any(not isinstance(d, int) or not 1 <= d <= 6 for d in self.kept + self.free):
            raise ValueError(
                f"kept and free must hold at most {DICE - 3} dice from 1 to 6, got {self.kept!r}, {self.free!r}"
            )
        if any(not isinstance(c, int) or not 0 <= c <= TOP for c in self.cargos):
            raise ValueError(f"cargos must be integers from 0 to {TOP}, got {self.cargos!r}")

    # -- where the game stands -------------------------------------------------------------------
    @property
    def seat(self) -> int:
        """The seat whose expedition it is."""
        return len(self.cargos) % self.rules.players

    @property
    def round(self) -> int:
        """The expedition (round) being played, from 0 (`expeditions` once the game is over)."""
        return len(self.cargos) // self.rules.players

    @property
    def _over(self) -> bool:
        """Every expedition has been played."""
        return len(self.cargos) >= self.rules.players * self.rules.expeditions

    def scores(self) -> list[list[int]]:
        """Every seat's cargo, expedition by expedition."""
        p = self.rules.players
        return [list(self.cargos[seat::p]) for seat in range(p)]

    def totals(self) -> list[int]:
        """Every seat's total cargo so far."""
        return [sum(s) for s in self.scores()]

    @property
    def crew(self) -> bool:
        """Ship, captain and crew are aboard."""
        return self.aboard >= 3

    @property
    def cargo(self) -> int:
        """The expedition's cargo so far (0 without ship, captain and crew)."""
        return sum(self.kept) + sum(self.free) if self.crew else 0

    @property
    def target(self) -> int | None:
        """The score the seat to play must beat on the game's last expedition: the best other
        total minus its own, when it can still be overtaken and is not already behind it
        (None: play for the expected cargo)."""
        if self._over or self.round != self.rules.expeditions - 1:
            return None
        totals = self.totals()
        gap = max(t for i, t in enumerate(totals) if i != self.seat) - totals[self.seat]
        return gap if 0 <= gap < TOP else None

    def objective(self) -> CargoMean | Above:
        """What the seat to play maximises: P(cargo > target) on the last expedition, else the expected cargo."""
        target = self.target
        return CargoMean() if target is None else Above(target)

    @property
    def node(self) -> Node:
        """The solver's state of the expedition being played (at a decision)."""
        if not self.crew:
            return ("hunt", self.left, self.aboard)
        if self.rules.cargo_holds == "sticky":
            return ("cargo", self.left, self.kept, self.free)
        return ("cargo", self.left, (), tuple(sorted(self.kept + self.free)))

    # -- the protocol ----------------------------------------------------------------------------
    def current_player(self) -> int:
        if self._over:
            return protocol.TERMINAL
        return protocol.CHANCE if self.rolling else self.seat

    def legal_actions(self) -> list[protocol.Action]:
        if self._over or self.rolling:
            return []
        if not self.crew:
            return ["roll"]
        return ["stop", *(Keep(k) for k in keep_options(self.kept, self.free, self.rules.cargo_holds))]

    def chance_outcomes(self) -> list[tuple[protocol.Action, Fraction]]:
        if self._over or not self.rolling:
            return []
        n = DICE - self.aboard if not self.crew else CARGO_DICE - len(self.kept)
        return roll_outcomes(n)

    def _apply(self, action: protocol.Action) -> State:
        if self.rolling:
            assert isinstance(action, tuple)
            after = self.outcome(action)
            return after._finish() if after.left == 0 else after
        if action == "roll":
            return replace(self, rolling=True)
        if action == "stop":
            return self._finish()
        assert isinstance(action, tuple)
        return replace(self, kept=tuple(sorted(action)), free=(), rolling=True)

    def outcome(self, faces: Sequence[int]) -> State:
        """At a chance node, the expedition once `faces` are rolled, before it is scored (after
        its last roll `apply` goes on to the next expedition; this shows how it ended)."""
        if not self.rolling:
            raise ValueError("no roll is due here: the dice are rolled after roll or keep")
        faces = tuple(sorted(faces))
        if self.crew:
            kept, free = (
                (self.kept, faces) if self.rules.cargo_holds == "sticky" else ((), tuple(sorted(self.kept + faces)))
            )
            return replace(
                self, left=self.left - 1, kept=kept, free=free, history=self.history + (faces,), rolling=False
            )
        aboard, cargo = set_aside(self.aboard, faces)
        return replace(
            self, left=self.left - 1, aboard=aboard, free=cargo, history=self.history + (faces,), rolling=False
        )

    def _finish(self) -> State:
        """The expedition is over with its cargo: the next one starts."""
        return State(self.rules, self.cargos + (self.cargo,))

    def returns(self) -> list[Fraction]:
        if not self._over:
            return [Fraction(0)] * self.rules.players
        return protocol.win_shares(self.totals())

    def observation(self, player: int) -> str:
        protocol.check_players([player], self.shape())
        totals = ", ".join(f"player {s + 1}: {t}" for s, t in enumerate(self.totals()))
        if self._over:
            return f"you are player {player + 1}; the game is over; totals {totals}"
        dice = f", cargo kept {' '.join(map(str, self.kept)) or 'none'}, free {' '.join(map(str, self.free)) or 'none'}"
        return (
            f"you are player {player + 1}; expedition {self.round + 1} of {self.rules.expeditions}, player "
            f"{self.seat + 1} "
            f"to play, roll {len(self.history)} of {ROLLS}, {self.aboard} of ship, captain and crew aboard"
            f"{dice if self.crew else ''}; totals {totals}"
        )

    def shape(self) -> protocol.Shape:
        r = self.rules
        return protocol.Shape(
            players=r.players,
            max_actions=1 + CARGO_DICE + 1,
            max_chance_outcomes=len(rolls(DICE).outcomes),
            max_length=2 * ROLLS * r.players * r.expeditions,
            min_return=Fraction(0),
            max_return=Fraction(1),
        )

    def hint(self, objective: Objective | None = None) -> Hint:
        """Every legal action's exact value for the seat to play (default objective:
        `objective()`; `CargoMean()` or `Above(t)` for another), from the core solver."""
        if self.current_player() < 0:
            return super().hint()
        h = _game(objective or self.objective(), self.rules.cargo_holds).hint(self.node)
        values = {Keep.move(a): v for a, v in h.values.items()}
        return Hint(h.state, values, Keep.move(h.best), h.maximise, "exact")

    # -- convenience: the moves as a person makes them -------------------------------------------
    def roll(self, rng: np.random.Generator | None = None, dice: Sequence[int] | None = None) -> State:
        """Roll the dice in play (the given faces in any order, or drawn with `rng`): hunting,
        the 5 - aboard dice; with the crew aboard, the cargo dice not kept (after `keep`)."""
        if self._over:
            raise ValueError("the game is over")
        state = self.apply("roll") if not self.rolling and not self.crew else self
        if not state.rolling:
            raise ValueError("keep some cargo dice (or none) before rolling again, or stop")
        n = DICE - state.aboard if not state.crew else CARGO_DICE - len(state.kept)
        return state.apply(roll_faces(n, rng, dice))

    def keep(self, faces: Sequence[int]) -> State:
        """Keep these cargo dice (those already kept included, under sticky holds); chance rolls the others next."""
        if self._over or self.rolling or not self.crew:
            raise ValueError(
                "no cargo to keep: "
                + (
                    "the game is over"
                    if self._over
                    else "roll first"
                    if self.rolling
                    else "ship, captain and crew first"
                )
            )
        want = Keep(faces)
        if want not in self.legal_actions():
            allowed = keep_options(self.kept, self.free, self.rules.cargo_holds)
            raise ValueError(f"faces must be one of the allowed keeps {allowed}, got {tuple(faces)!r}")
        return self.apply(want)

    def stop(self) -> State:
        """Take the cargo as it is: the next expedition."""
        if self._over or self.rolling or not self.crew:
            raise ValueError(
                "cannot stop: "
                + (
                    "the game is over"
                    if self._over
                    else "roll first"
                    if self.rolling
                    else "ship, captain and crew first"
                )
            )
        return self.apply("stop")


def initial_state(rules: Rules | None = None) -> State:
    """The start of a game: seat 0's first expedition, before its first roll."""
    return State(rules or Rules())


def last_expedition(target: int, rules: Rules | None = None) -> State:
    """The second seat's expedition in a game of one expedition for two, the first having
    scored `target`: its objective is P(cargo > target) (0 <= target < 12)."""
    rules = rules or Rules()
    return State(Rules(expeditions=1, players=2, cargo_holds=rules.cargo_holds), (target,))


def _optimal(state: protocol.State) -> protocol.Action:
    """The simulation's play (`game_kernel`): the expected cargo, except on the last expedition
    where a seat that can still overtake plays `chase_policy` of the gap."""
    assert isinstance(state, State)
    if not state.crew:
        return "roll"
    target, rules = state.target, state.rules
    policy = optimal(CargoMean(), rules) if target is None else chase_policy(target, rules)
    return Keep.move(policy(state.node))


def _keep_at_least_game(state: protocol.State) -> protocol.Action:
    """Keep every cargo die of 4 or more (as the cargo rule allows), reroll the others."""
    assert isinstance(state, State)
    if not state.crew:
        return "roll"
    return Keep.move(legal(keep_at_least(4), state.rules.cargo_holds)(state.node))


def policies(rules: Rules | None = None) -> dict[str, protocol.Policy]:
    """ "optimal": the simulation's play (the expected cargo; on the last expedition, beat the
    best other total when it can still be overtaken); "keep_at_least": keep cargo dice of 4 or more."""
    return {"optimal": _optimal, "keep_at_least": _keep_at_least_game}


GAME = Game(
    name=NAME,
    title="Le Naute",
    summary="Ship, captain and crew (6, 5, 4 in order) within 3 rolls; the two other dice are the cargo.",
    Rules=Rules,
    report=report,
    simulate=simulate,
    initial_state=initial_state,
    policies=policies,
    lesson="05-le-naute",
    dashboard="le-naute.ipynb",
    pitch="Ship, captain and crew, then the cargo: every choice's exact value, and the cargo's distribution.",
)
"""This game, as the registry, the command line and the gallery see it."""
