"""Le Naute (Ship, Captain and Crew): 5d6, up to 3 rolls. Set aside a 6 (the ship), then a 5
(the captain), then a 4 (the crew) — several may come in one roll; once all three are aside the
two other dice are the cargo and score their sum, and the rolls left may be spent rerolling
cargo. No ship, captain and crew within 3 rolls: the expedition scores 0 (RULES.md section 3).

Decisions: the ship, captain and crew are set aside as soon as they may be (no choice is left
before the crew is aboard: only "roll"). Cargo (parameter `cargo_holds`): "sticky" (default)
any cargo die may be kept, one at a time, and a kept die stays kept; "free": every roll, any
cargo dice may be rerolled, kept ones too; "both": both cargo dice are rerolled or none.

A *state* is `("hunt", left, aboard)` before the crew is aboard (`aboard`: 0 nothing, 1 the
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
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache, partial
from itertools import combinations

import numpy as np

from nessus import montecarlo
from nessus.dice import check_faces, rolls
from nessus.dist import Dist
from nessus.report import Figure, Report
from nessus.rules import GameRules, Param, field
from nessus.solver import Expectimax, Hint

NAME = "naute"
TITLE = "Le Naute"
SUMMARY = "Ship, captain and crew (6, 5, 4 in order) within 3 rolls; the two other dice are the cargo."

DICE, ROLLS, SIDES = 5, 3, 6
SHIP, CAPTAIN, CREW = 6, 5, 4
CREWS = (SHIP, CAPTAIN, CREW)
CARGO_DICE = 2
TOP = 2 * SIDES  # the highest cargo

EXPEDITIONS = Param("expeditions", 3, 1, 6, "expeditions (rounds) in a game")
PLAYERS = Param("players", 4, 2, 10, "players in a whole game (simulated)")
CARGO = Param("cargo_holds", "sticky", 1, 1, "cargo rerolls: sticky = keep dice one at a time for good, free = any cargo die each roll, both = both or none",
              kind=str, choices=("sticky", "free", "both"))

Roll = tuple[int, ...]
State = tuple
Action = str | Roll
Value = Fraction | int
Objective = Callable[[int], Value]
Policy = Callable[[State], Action]


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


def score(state: State) -> int:
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
def sub_multisets(dice: Roll) -> list[Roll]:
    """Every distinct sorted sub-multiset of `dice`."""
    return sorted({c for k in range(len(dice) + 1) for c in combinations(dice, k)})


def keep_options(kept: Roll, free: Roll, cargo_holds: str = "sticky") -> list[Roll]:
    """The cargo dice that may be kept while the others are rerolled (stop excluded), more
    dice first."""
    if cargo_holds == "both":
        options = {()}
    elif cargo_holds == "free":
        options = set(sub_multisets(tuple(sorted(kept + free))))
    else:
        options = {tuple(sorted(kept + s)) for s in sub_multisets(free)}
    return sorted((o for o in options if len(o) < CARGO_DICE), key=lambda o: (-len(o), o))


def after_roll(after: tuple, roll: Roll, cargo_holds: str = "sticky") -> State:
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

    def choices(state: State) -> list[tuple[Action, tuple]]:
        if state[1] == 0:
            return []
        if state[0] == "hunt":
            return [("roll", ("hunt", state[1], state[2]))]
        _, left, kept, free = state
        if not free:
            return []
        return [("stop", ("stop", tuple(sorted(kept + free))))] + [(k, ("keep", left, k)) for k in keep_options(kept, free, cargo_holds)]

    def chance(after: tuple) -> list[tuple[State, int]]:
        if after[0] == "stop":
            return [(("cargo", 0, (), after[1]), 1)]
        n = DICE - after[2] if after[0] == "hunt" else CARGO_DICE - len(after[2])
        out: dict[State, int] = {}
        for r, w in rolls(n).weights():
            nxt = after_roll(after, r, cargo_holds)
            out[nxt] = out.get(nxt, 0) + w
        return list(out.items())

    return Expectimax(choices, chance, lambda s: objective(score(s)))


def start(roll_count: int = ROLLS) -> State:
    """The state before the first roll."""
    return ("hunt", roll_count, 0)


@cache
def _game(objective: Objective, cargo_holds: str) -> Expectimax:
    return game(objective, cargo_holds)


def cargo_states(cargo_holds: str = "sticky") -> list[State]:
    """Every cargo state with a choice to make (left = 1 or 2)."""
    kepts: list[Roll] = [()] + ([(f,) for f in range(1, SIDES + 1)] if cargo_holds == "sticky" else [])
    return [("cargo", left, kept, free) for left in range(1, ROLLS) for kept in kepts for free, _ in rolls(CARGO_DICE - len(kept)).weights()]


# -- the questions of RULES.md -------------------------------------------------------------------
def p_qualify_by_roll(roll_count: int = ROLLS) -> list[Fraction]:
    """[P(ship, captain and crew aboard by roll 1), ..., by roll `roll_count`] (no choice
    affects it)."""
    weights = {0: 1}  # aboard -> weight, over a common total of 6**(5 * rolls made)
    total, done, out = 1, 0, []
    for _ in range(roll_count):
        nxt: dict[int, int] = {}
        for aboard, w in weights.items():
            for r, x in rolls(DICE - aboard).weights():
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


def optimal(objective: Objective, rules: Rules | None = None) -> Policy:
    """The policy maximising E[objective(cargo)] (from the core solver)."""
    return _game(objective, (rules or Rules()).cargo_holds).best


def beat_policy(target: int, rules: Rules | None = None) -> Policy:
    """The policy maximising P(cargo > target)."""
    return optimal(Above(target), rules)


def chase_policy(target: int, rules: Rules | None = None) -> Policy:
    """The policy maximising P(cargo > target) that, among equally good actions, takes the one
    with the highest expected cargo (a chaser who cannot lose by playing for more)."""
    return partial(_chase, Above(target), (rules or Rules()).cargo_holds)


def _chase(objective: Above, cargo_holds: str, state: State) -> Action:
    if state[0] == "hunt":
        return "roll"
    odds = _game(objective, cargo_holds).hint(state)
    mean = _game(CargoMean(), cargo_holds).hint(state)
    return max((a for a, v in odds.values.items() if v == odds.value), key=lambda a: mean.values[a])


def keep_at_least(face: int = 4) -> Policy:
    """A person's rule: keep every cargo die showing `face` or more, reroll the others while
    rolls are left (stop when none is to be rerolled)."""
    return partial(_keep_at_least, face)


def _keep_at_least(face: int, state: State) -> Action:
    if state[0] == "hunt":
        return "roll"
    _, _, kept, free = state
    good = tuple(d for d in free if d >= face)
    return "stop" if len(good) == len(free) else tuple(sorted(kept + good))


def legal(policy: Policy, cargo_holds: str) -> Policy:
    """`policy` with its choice replaced by the closest legal one under the cargo rule (with
    `both`, keeping some but not all dice becomes rerolling both)."""
    return partial(_legal, policy, cargo_holds)


def _legal(policy: Policy, cargo_holds: str, state: State) -> Action:
    action = policy(state)
    if action in ("roll", "stop") or action in keep_options(*state[2:], cargo_holds):
        return action
    return ()


def score_distribution(rules: Rules | None = None, policy: Policy | None = None) -> Dist:
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
    figures["optimal_cargo_mean_when_qualified"] = Figure.of(mean / by_roll[-1], "expected cargo given ship, captain and crew")
    figures["heuristic_cargo_mean"] = Figure.of(heuristic, "expected cargo keeping cargo dice of 4 or more")
    return Report(NAME, rules.as_dict(), figures)


# -- Monte Carlo ------------------------------------------------------------------------------------
MEAN_COLUMN, HEURISTIC_COLUMN = 0, TOP + 1  # columns 1 + t: chase_policy(t), t = 0..TOP - 1
ROLL_CODES = SIDES**DICE  # k dice rolled = a uniform code in [0, 6**k) (base-6 digits, one per die)


def ordered_rolls(k: int) -> list[Roll]:
    """Every ordered roll of k dice, item `code` holding the faces of the code's base-6 digits."""
    return [tuple(code // SIDES**i % SIDES + 1 for i in range(k)) for code in range(SIDES**k)]


@dataclass(frozen=True)
class Machine:
    """Expeditions as table lookups. `states`: every state right after a roll, a finished
    expedition being ("done", cargo); `afters`: what is rolled next ("hunt", left, aboard),
    ("keep", left, kept) or nothing (("stop", cargo), ("stay", cargo) once done).
    `after[offset[a] + code % mod[a]]` is the state the roll `code` leads to (`mod[a]`: 6 to the
    number of dice rolled); `policy[column, state]` the after-state each policy chooses
    (columns: MEAN_COLUMN, 1 + t for chase_policy(t), HEURISTIC_COLUMN)."""

    states: tuple[State, ...]
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


def _finished(state: State) -> State:
    """A state with no roll left, as ("done", cargo)."""
    return ("done", score(state)) if state[1] == 0 else state


@cache
def machine(cargo_holds: str = "sticky") -> Machine:
    """The roll and policy tables under a cargo rule (cached)."""
    done = [("done", c) for c in [0, *range(2, TOP + 1)]]
    hunts = [("hunt", left, a) for left in range(1, ROLLS) for a in range(3)]
    states = tuple(hunts + cargo_states(cargo_holds) + done)
    afters = tuple([("hunt", left, a) for left in range(1, ROLLS + 1) for a in range(3)]
                   + [("keep", left, k) for left in range(1, ROLLS) for k in [(), *((f,) for f in range(1, SIDES + 1))]]
                   + [("stop", c) for _, c in done] + [("stay", c) for _, c in done])
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
        after.extend(index[_finished(after_roll(a, tuple(sorted(roll)), cargo_holds))] for roll in ordered_rolls(k))
    rules = Rules(cargo_holds=cargo_holds)
    policies = [optimal(CargoMean(), rules)] + [chase_policy(t, rules) for t in range(TOP)] + [legal(keep_at_least(4), cargo_holds)]
    where = {a: i for i, a in enumerate(afters)}
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
    return Machine(states, afters, np.array(after, dtype=np.int16), np.array(offset, dtype=np.int32), np.array(mod, dtype=np.int16),
                   policy, cargo, crew, where[("hunt", ROLLS, 0)])


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
# -- playing -------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Expedition:
    """One expedition in progress: rolls still allowed, ship/captain/crew aboard (0 to 3), cargo
    dice kept, cargo dice free (() while waiting to be rolled), every roll, and the score to
    beat (None: play for the expected cargo)."""

    rules: Rules
    left: int = ROLLS
    aboard: int = 0
    kept: Roll = ()
    free: Roll = ()
    history: tuple[Roll, ...] = ()
    stopped: bool = False
    target: int | None = None

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
            raise ValueError(f"kept and free must hold at most {DICE - 3} dice from 1 to 6, got {self.kept!r}, {self.free!r}")
        if self.target is not None and (not isinstance(self.target, int) or isinstance(self.target, bool) or self.target < 0):
            raise ValueError(f"target must be None or an integer >= 0, got {self.target!r}")

    @classmethod
    def start(cls, rules: Rules | None = None, target: int | None = None) -> Expedition:
        """An expedition before its first roll."""
        return cls(rules or Rules(), target=target)

    @property
    def ship(self) -> bool:
        return self.aboard >= 1

    @property
    def captain(self) -> bool:
        return self.aboard >= 2

    @property
    def crew(self) -> bool:
        return self.aboard >= 3

    @property
    def over(self) -> bool:
        """Stopped, or no roll left."""
        return self.stopped or (self.left == 0 and (self.aboard < 3 or bool(self.free)))

    @property
    def pending(self) -> bool:
        """Cargo dice wait to be rolled."""
        return self.aboard == 3 and not self.free and not self.over

    @property
    def cargo(self) -> int:
        """The cargo so far (0 without ship, captain and crew)."""
        return sum(self.kept) + sum(self.free) if self.crew else 0

    @property
    def state(self) -> State:
        """The solver's state."""
        if self.over:
            return ("cargo", 0, (), tuple(sorted(self.kept + self.free))) if self.crew else ("hunt", 0, self.aboard)
        if not self.crew:
            return ("hunt", self.left, self.aboard)
        if self.rules.cargo_holds == "sticky":
            return ("cargo", self.left, self.kept, self.free)
        return ("cargo", self.left, (), tuple(sorted(self.kept + self.free)))

    def roll(self, rng: np.random.Generator | None = None, dice: Sequence[int] | None = None) -> Expedition:
        """Roll the dice in play (or take the given faces): hunting, the 5 - aboard dice;
        with the crew aboard, the cargo dice not kept (after `keep`)."""
        if self.over:
            raise ValueError("the expedition is over: no roll left or stopped")
        if self.crew and self.free:
            raise ValueError("keep some cargo dice (or none) before rolling again, or stop")
        n = DICE - self.aboard if not self.crew else CARGO_DICE - len(self.kept)
        if dice is None:
            if rng is None:
                raise ValueError("give rng or dice")
            dice = [int(x) for x in rng.integers(1, SIDES + 1, size=n)]
        faces = tuple(sorted(check_faces(tuple(dice), n)))
        if self.crew:
            return Expedition(self.rules, self.left - 1, 3, self.kept, faces, self.history + (faces,), False, self.target)
        aboard, cargo = set_aside(self.aboard, faces)
        return Expedition(self.rules, self.left - 1, aboard, (), cargo, self.history + (faces,), False, self.target)

    def keep(self, faces: Sequence[int]) -> Expedition:
        """Keep these cargo dice (those already kept included, under sticky holds) and wait to
        roll the others."""
        if self.over or not self.crew or not self.free:
            raise ValueError("no cargo to keep: " + ("the expedition is over" if self.over else "ship, captain and crew first" if not self.crew else "roll first"))
        want = tuple(sorted(faces))
        allowed = keep_options(self.kept, self.free, self.rules.cargo_holds)
        if want not in allowed:
            raise ValueError(f"faces must be one of the allowed keeps {allowed}, got {faces!r}")
        return Expedition(self.rules, self.left, 3, want, (), self.history, False, self.target)

    def stop(self) -> Expedition:
        """Take the cargo as it is: the expedition is over."""
        if self.over or not self.crew or not self.free:
            raise ValueError("cannot stop: " + ("the expedition is over" if self.over else "ship, captain and crew first" if not self.crew else "roll first"))
        return Expedition(self.rules, 0, 3, self.kept, self.free, self.history, True, self.target)

    def objective(self) -> Objective:
        """What the hint maximises by default: P(cargo > target), or the expected cargo."""
        return CargoMean() if self.target is None else Above(self.target)

    def hint(self, objective: Objective | None = None) -> Hint:
        """Every legal action's exact value (default objective: `objective()`), from the core
        solver; `.best` is the optimal action."""
        if self.over or self.pending:
            raise ValueError("no choice to make: " + ("the expedition is over" if self.over else "roll the cargo dice not kept"))
        return _game(objective or self.objective(), self.rules.cargo_holds).hint(self.state)
