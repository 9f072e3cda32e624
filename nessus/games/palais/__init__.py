"""Le Palais: poker dice. Roll 5d6 up to 3 times, setting dice aside between rolls; the best
hand wins the stakes (RULES.md section 1).

Hands, best first: palais (five of a kind), tour (four), manoir (three and a pair), grande
suite (1-2-3-4-5 or 2-3-4-5-6), trident (three), suite (four in sequence), deux paires, paire,
faillite. A roll's hand is the best category it qualifies for.

A *state* is `(left, kept, rolled)`: the rolls still allowed, the dice set aside, the dice just
rolled (`(3, (), ())` before the first roll; `left = 0` once play is over). An *action* is
`"roll"` (the first roll), `"stop"`, or the dice to set aside (a sorted tuple) while the others
are rolled again. With `sticky_holds` the set-aside dice stay aside, so a hold must contain
`kept`; without it (the default) any dice of the hand may be held.

Two solvers give the same exact values (the tests check every state), both in
`nessus.games.palais.keep` (any number of dice, any payoff of the final hand): the core
`Expectimax` (`game`, used for hints) and `solve`, the same backward induction on integer
arrays, which solves many objectives at once for the report and the simulation's tables.

Whole games (simulated): seat 1, the *opener*, maximises P(no later player beats its hand),
counting each later player's chance `q(h)` of beating hand h as (1 - q(h))**(players - 1); every
later player *chases*: maximises P(beating the best hand so far), a tie counting half. Equal
best hands (identical dice under tie-break A, the same category under B) roll off: each wins
with the same probability (a roll-off of 5d6 between them is symmetric).

The game protocol (`nessus.game`): `State` is a whole game, every seat's turn in order, each
roll a chance node over the sorted dice with exact weights; equal best hands share the win
(1/k each: the roll-off's odds). Its solver node (`State.node`) is the triple above.

>>> state = initial_state(Rules(players=2))
>>> state = state.apply("roll").apply((1, 1, 3, 4, 5))
>>> [str(a) for a in state.legal_actions()[:3]]
['stop', 'hold 1 1 3 4', 'hold 1 1 3 5']
>>> state.hint().best
Hold((1, 1))
>>> end = state.apply("stop").apply("roll").apply((2, 2, 2, 6, 6)).apply("stop")
>>> end.is_terminal(), end.returns()
(True, [Fraction(0, 1), Fraction(1, 1)])
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from functools import cache, partial
from typing import cast

import numpy as np

from nessus import game as protocol
from nessus import montecarlo
from nessus.dice import Chosen, Roll, check_faces, roll_faces, roll_outcomes, rolls
from nessus.dist import Dist
from nessus.game import Game
from nessus.games.palais.keep import (
    DICE,
    ROLLS,
    SIDES,  # noqa: F401 - a rule of the game (the dice's faces), read by its dashboard
    Action,
    Machine,
    Node,
    Objective,
    Solution,
    Value,
    codes,
    extend,
    final_weights,
    game,
    hold_options,
    layout,
    machine,
    play,
    policy_table,
    solve,
    solve_matrix,
)
from nessus.report import Figure, Report
from nessus.rules import GameRules, Param, field
from nessus.solver import Expectimax, Hint, TurnPolicy

NAME = "palais"
HANDS = ("faillite", "paire", "deux_paires", "suite", "trident", "grande_suite", "manoir", "tour", "palais")
BEST_FIRST = HANDS[::-1]
RUNS = ({1, 2, 3, 4}, {2, 3, 4, 5}, {3, 4, 5, 6})

STICKY = Param("sticky_holds", False, False, True, "set-aside dice stay aside (may not be rerolled later)", kind=bool)
TIE_BREAK = Param(
    "tie_break",
    "A",
    1,
    1,
    "equal hands: A = higher dice win, B = tied players roll 5d6 once",
    kind=str,
    choices=("A", "B"),
)
PLAYERS = Param("players", 4, 2, 10, "players in a whole game (simulated)")


@dataclass(frozen=True)
class Rules(GameRules):
    params = (STICKY, TIE_BREAK, PLAYERS)
    sticky_holds: bool = field(STICKY)
    tie_break: str = field(TIE_BREAK)
    players: int = field(PLAYERS)


# -- hands ----------------------------------------------------------------------------------------
def category(hand: Sequence[int]) -> str:
    """The best category five dice qualify for (a name from HANDS)."""
    counts = sorted(Counter(hand).values(), reverse=True)
    faces = set(hand)
    if counts[0] == 5:
        return "palais"
    if counts[0] == 4:
        return "tour"
    if counts[:2] == [3, 2]:
        return "manoir"
    if faces in ({1, 2, 3, 4, 5}, {2, 3, 4, 5, 6}):
        return "grande_suite"
    if counts[0] == 3:
        return "trident"
    if any(run <= faces for run in RUNS):
        return "suite"
    if counts[:2] == [2, 2]:
        return "deux_paires"
    if counts[0] == 2:
        return "paire"
    return "faillite"


def rank(hand: Sequence[int]) -> int:
    """The category's rank: 0 (faillite) to 8 (palais)."""
    return HANDS.index(category(hand))


def tie_key(hand: Sequence[int]) -> tuple[int, ...]:
    """Variant A's order: the rank, then the dice that make the category, then the rest, highest
    first (a suite: its run, then the odd die). Distinct hands have distinct keys."""
    cat = category(hand)
    counts = Counter(hand)
    if cat == "suite":
        run = next(r for r in reversed(RUNS) if r <= set(hand))
        rest = list(hand)
        for f in run:
            rest.remove(f)
        return (HANDS.index(cat), *sorted(run, reverse=True), *rest)
    faces = sorted(counts, key=lambda f: (counts[f], f), reverse=True)
    return (HANDS.index(cat), *(f for f in faces for _ in range(counts[f])))


def strength(hand: Sequence[int], tie_break: str = "A") -> tuple[int, ...]:
    """What two hands are compared by: the full key (variant A) or the rank alone (variant B)."""
    return tie_key(hand) if tie_break == "A" else (rank(hand),)


@cache
def strength_classes(tie_break: str = "A") -> tuple[tuple[tuple[int, ...], ...], np.ndarray]:
    """The distinct strengths, weakest first, and each hand's class index (hands in `layout` order)."""
    hands = layout(DICE, False).hands
    keys = sorted({strength(h, tie_break) for h in hands})
    index = {k: i for i, k in enumerate(keys)}
    return tuple(keys), np.array([index[strength(h, tie_break)] for h in hands], dtype=np.int16)


def p_single() -> dict[str, Fraction]:
    """P(each hand) on a single roll of 5d6, best first."""
    d = rolls(DICE).map(category)
    return {h: d[h] for h in BEST_FIRST}


# -- objectives ---------------------------------------------------------------------------------
@dataclass(frozen=True)
class AtLeast:
    """Payoff 1 for the hand `hand` or better, 0 otherwise."""

    hand: str

    def __post_init__(self) -> None:
        if self.hand not in HANDS:
            raise ValueError(f"hand must be one of {', '.join(BEST_FIRST)}, got {self.hand!r}")

    def __call__(self, roll: Roll) -> int:
        return int(rank(roll) >= HANDS.index(self.hand))


@dataclass(frozen=True)
class Beat:
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

    def __call__(self, roll: Roll) -> Value:
        mine, theirs = strength(roll, self.tie_break), strength(self.target, self.tie_break)
        return 1 if mine > theirs else Fraction(self.tie) if mine == theirs else 0


@dataclass(frozen=True)
class Outlast:
    """The opener's payoff: (1 - q(h))**others, q(h) = a chaser's optimal chance of beating h
    (a tie counting half), i.e. P(none of `others` chasers of h beats it)."""

    others: int
    tie_break: str = "A"
    sticky: bool = False

    def __call__(self, roll: Roll) -> Fraction:
        q = chase_odds(self.tie_break, self.sticky)
        keys, _ = strength_classes(self.tie_break)
        return (1 - q[keys.index(strength(roll, self.tie_break))]) ** self.others


# -- solving and playing ------------------------------------------------------------------------
@cache
def _game(objective: Objective, sticky: bool) -> Expectimax:
    return game(objective, sticky)


def hand_distribution(policy: TurnPolicy, rules: Rules | None = None) -> Dist:
    """The exact distribution of the final hand (sorted dice) when playing `policy`."""
    rules = rules or Rules()
    w = final_weights(policy_table(policy, rules.sticky_holds), rules.sticky_holds)
    hands = layout(DICE, rules.sticky_holds).hands
    return Dist({hands[i]: int(x) for i, x in enumerate(w) if x})


# -- the questions of RULES.md -------------------------------------------------------------------
@cache
def at_least_solution(sticky: bool = False) -> Solution:
    """The nine "at least <hand>" objectives, columns in HANDS order (weakest first)."""
    return solve([AtLeast(h) for h in HANDS], sticky)


def p_at_least_within(hand: str, rules: Rules | None = None) -> Fraction:
    """The largest P(hand `hand` or better within 3 rolls), over all ways of holding."""
    AtLeast(hand)
    return at_least_solution((rules or Rules()).sticky_holds).start_value(HANDS.index(hand))


def p_palais_within_3(rules: Rules | None = None) -> Fraction:
    """The largest P(five of a kind within 3 rolls)."""
    return p_at_least_within("palais", rules)


def p_beat(target: Sequence[int], rules: Rules | None = None, tie: Fraction | int = 0) -> Fraction:
    """The largest P(a hand stronger than `target`) within 3 rolls under the rules' tie-break
    (an equal hand counting `tie`, e.g. 1/2 for a roll-off)."""
    rules = rules or Rules()
    return solve([Beat(tuple(target), rules.tie_break, Fraction(tie))], rules.sticky_holds).start_value()


def beat_policy(target: Sequence[int], rules: Rules | None = None, tie: Fraction | int = 0) -> TurnPolicy:
    """The policy maximising P(beating `target`) (equal hands counting `tie`)."""
    rules = rules or Rules()
    return solve([Beat(tuple(target), rules.tie_break, Fraction(tie))], rules.sticky_holds).policy()


def optimal(objective: Objective, rules: Rules | None = None) -> TurnPolicy:
    """The policy maximising E[objective(final hand)] (from `solve`)."""
    return solve([objective], (rules or Rules()).sticky_holds).policy()


def keep_most_common(stop_at: str = "palais") -> TurnPolicy:
    """A person's rule: stop once the hand is `stop_at` or better, otherwise hold every die
    showing the most common face (the highest of equally common faces) and roll the rest."""
    floor = AtLeast(stop_at)
    return partial(_keep_most_common, floor)


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


def heads_up(rules: Rules | None = None) -> Fraction:
    """P(the opener wins a two-player game against a chaser), exact: E[1 - q(h)] over the
    opener's final hand under its optimal holds (the rules' `players` is not used)."""
    rules = rules or Rules()
    return opener_solution(2, rules.tie_break, rules.sticky_holds).start_value()


def report(rules: Rules | None = None) -> Report:
    """The exact headline figures."""
    rules = rules or Rules()
    figures = {f"p_single_{h}": Figure.of(p, f"P({h}) on one roll of 5d6") for h, p in p_single().items()}
    sol = at_least_solution(rules.sticky_holds)
    figures["p_palais_within_3"] = Figure.of(
        sol.start_value(HANDS.index("palais")), "P(palais within 3 rolls), holding to maximise it"
    )
    for h in BEST_FIRST:
        figures[f"p_at_least_{h}_within_3"] = Figure.of(
            sol.start_value(HANDS.index(h)), f"P({h} or better within 3 rolls), holding to maximise it"
        )
    for stop_at in ("palais", "manoir"):
        w = final_weights(policy_table(keep_most_common(stop_at), rules.sticky_holds), rules.sticky_holds)
        reach = sum(int(x) for x, h in zip(w, layout(DICE, rules.sticky_holds).hands) if AtLeast(stop_at)(h))
        name = "p_palais_within_3" if stop_at == "palais" else f"p_at_least_{stop_at}_within_3"
        figures[f"{name}_keep_most_common"] = Figure.of(
            Fraction(reach, 6 ** (DICE * ROLLS)),
            f"the same, stopping at {stop_at} or better, else holding the most common face",
        )
    return Report(NAME, rules.as_dict(), figures)


# -- Monte Carlo ------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Tables:
    """What the kernels look up: the roll table, the hands' ranks and strength classes, and
    each policy's holds (`extend`ed; [state, column] for left = 1, 2)."""

    machine: Machine
    players: int
    rank: np.ndarray
    strength: np.ndarray
    at_least: tuple[np.ndarray | None, ...]
    heuristics: tuple[np.ndarray | None, ...]
    chase: tuple[np.ndarray | None, ...]
    opener: tuple[np.ndarray | None, ...]


@cache
def kernel_tables(rules: Rules) -> Tables:
    """The lookup tables of every policy the simulation plays."""
    m = machine(rules.sticky_holds)
    _, cls = strength_classes(rules.tie_break)
    heuristics = [policy_table(keep_most_common(s), rules.sticky_holds) for s in ("palais", "manoir")]
    both = (None,) + tuple(np.concatenate([t[left] for t in heuristics], axis=1) for left in range(1, ROLLS))
    return Tables(
        m,
        rules.players,
        rank=np.array([rank(h) for h in m.layout.hands], dtype=np.int8),
        strength=cls,
        at_least=extend(m, at_least_solution(rules.sticky_holds).best),
        heuristics=extend(m, both),
        chase=extend(m, chase_solution(rules.tie_break, rules.sticky_holds).best),
        opener=extend(m, opener_solution(rules.players, rules.tie_break, rules.sticky_holds).best),
    )


def turn_kernel(tables: Tables, rng: np.random.Generator, n: int) -> dict[str, np.ndarray]:
    """n single rolls and n turns under each objective's optimal policy and the heuristics."""
    m = tables.machine
    out: dict[str, np.ndarray] = {}
    single = tables.rank[m.hand[m.row(m.roll_all)[codes(rng, n)]]]
    for h in BEST_FIRST:
        out[f"p_single_{h}"] = single == HANDS.index(h)
    for h in BEST_FIRST:
        k = HANDS.index(h)
        out[f"p_at_least_{h}_within_3"] = tables.rank[play(m, tables.at_least, k, rng, n)] >= k
    out["p_palais_within_3"] = out["p_at_least_palais_within_3"]
    for column, (stop_at, name) in enumerate(
        [("palais", "p_palais_within_3"), ("manoir", "p_at_least_manoir_within_3")]
    ):
        out[f"{name}_keep_most_common"] = tables.rank[play(m, tables.heuristics, column, rng, n)] >= HANDS.index(
            stop_at
        )
    return out


def game_kernel(tables: Tables, rng: np.random.Generator, n: int) -> dict[str, np.ndarray]:
    """n whole games: the opener then the chasers; which seat takes the stakes, and whether a
    roll-off decided it."""
    m = tables.machine
    best = np.full(n, -1, dtype=np.int16)
    tied = np.zeros(n, dtype=np.int16)
    winner = np.zeros(n, dtype=np.int8)
    for seat in range(tables.players):
        hands = play(m, tables.opener, 0, rng, n) if seat == 0 else play(m, tables.chase, best, rng, n)
        s = tables.strength[hands]
        better, equal = s > best, s == best
        tied = np.where(better, 1, tied + equal).astype(np.int16)
        take = better | (equal & (rng.random(n) * tied < 1))  # each of the tied is equally likely
        winner[take] = seat
        best = np.maximum(best, s)
    p = tables.players
    out = {f"p_seat_{k + 1}_wins_{p}_players": winner == k for k in range(p)}
    out[f"p_rolloff_{p}_players"] = tied > 1
    return out


def simulate(rules: Rules | None = None, trials: int = 100_000, seed: int = 0, client=None, progress=None) -> Report:
    """Monte Carlo figures with 95% confidence intervals: single rolls, turns under each
    optimal policy and the heuristics, and whole games (seat win probabilities)."""
    rules = rules or Rules()
    tables = kernel_tables(rules)
    turns = montecarlo.run(partial(turn_kernel, tables), trials, seed, client=client, progress=progress)
    games = montecarlo.run(partial(game_kernel, tables), trials, seed + 1, client=client, progress=progress)
    return Report(
        NAME, rules.as_dict(), {k: Figure.estimated(e) for k, e in (turns.estimates | games.estimates).items()}
    )


# -- the game protocol -------------------------------------------------------------------------------
class Hold(Chosen):
    """The dice held while the others are rolled again; `str` reads "hold 4 4"."""

    verb = "hold"


@dataclass(frozen=True)
class State(protocol.State):
    """A whole game of Le Palais (the game protocol): the seats play in order, each one turn of
    up to three rolls; the best hand wins, equal best hands sharing the win (the roll-off's
    odds). `hands` and `rolls_made` are the finished seats' hands and rolls; the turn of the
    seat to play has `left` rolls allowed, the dice `kept` aside, the dice `rolled`, every roll
    of the turn in `history`, and `rolling` is True while chance rolls the dice not kept.

    Decisions: "roll" (the first roll of a turn), then "stop" or a `Hold`; a turn ends after
    its third roll or a stop.
    """

    rules: Rules
    hands: tuple[Roll, ...] = ()
    rolls_made: tuple[int, ...] = ()
    left: int = ROLLS
    kept: Roll = ()
    rolled: Roll = ()
    history: tuple[Roll, ...] = ()
    rolling: bool = False

    # -- where the game stands -------------------------------------------------------------------
    @property
    def seat(self) -> int:
        """The seat whose turn it is (`players` once the game is over)."""
        return len(self.hands)

    @property
    def _over(self) -> bool:
        """Every seat has played."""
        return self.seat >= self.rules.players

    def turn_over(self, seat: int) -> bool:
        """Whether `seat` has played its turn."""
        return self.seat > seat

    @property
    def hand(self) -> Roll:
        """The five dice (sorted) of the turn being played, once rolled."""
        if not self.rolled:
            raise ValueError("no hand yet: roll first")
        return tuple(sorted(self.kept + self.rolled))

    @property
    def category(self) -> str:
        """The category of the turn's hand."""
        return category(self.hand)

    @property
    def target(self) -> Roll | None:
        """The strongest hand of the seats that have played (None for the opener)."""
        if not self.hands:
            return None
        return self.hands[strongest(self.hands, self.rules.tie_break)[0]]

    @property
    def node(self) -> Node:
        """The solver's state of the turn being played (at a decision)."""
        if self.rules.sticky_holds or not self.rolled:
            return (self.left, self.kept, self.rolled)
        return (self.left, (), self.hand)

    def objective(self) -> Beat | Outlast:
        """What the seat to play maximises: P(beating the best hand so far), a tie counting half,
        or for the opener P(no later player beats the hand) (see `Outlast`)."""
        r = self.rules
        target = self.target
        if target is not None:
            return Beat(target, r.tie_break, Fraction(1, 2))
        return Outlast(r.players - 1, r.tie_break, r.sticky_holds)

    def winners(self) -> list[int]:
        """The seats with the strongest hand once every seat has played (more than one: a roll-off)."""
        return strongest(self.hands, self.rules.tie_break) if self._over else []

    # -- the protocol ----------------------------------------------------------------------------
    def current_player(self) -> int:
        if self._over:
            return protocol.TERMINAL
        return protocol.CHANCE if self.rolling else self.seat

    def legal_actions(self) -> list[protocol.Action]:
        if self._over or self.rolling:
            return []
        if not self.rolled:
            return ["roll"]
        return ["stop", *(Hold(h) for h in hold_options(self.kept, self.rolled, self.rules.sticky_holds))]

    def chance_outcomes(self) -> list[tuple[protocol.Action, Fraction]]:
        if self._over or not self.rolling:
            return []
        return roll_outcomes(DICE - len(self.kept))

    def _apply(self, action: protocol.Action) -> State:
        if self.rolling:
            assert isinstance(action, tuple)
            rolled, left = tuple(sorted(action)), self.left - 1
            if left == 0:
                return self._finish(tuple(sorted(self.kept + rolled)), len(self.history) + 1)
            return replace(self, left=left, rolled=rolled, history=self.history + (rolled,), rolling=False)
        if action == "roll":
            return replace(self, rolling=True)
        if action == "stop":
            return self._finish(self.hand, len(self.history))
        assert isinstance(action, tuple)
        return replace(self, kept=tuple(sorted(action)), rolled=(), rolling=True)

    def _finish(self, hand: Roll, rolls_made: int) -> State:
        """The turn is over with `hand`: the next seat's turn starts."""
        return State(self.rules, self.hands + (hand,), self.rolls_made + (rolls_made,))

    def returns(self) -> list[Fraction]:
        if not self._over:
            return [Fraction(0)] * self.rules.players
        top = self.winners()
        return [Fraction(1, len(top)) if seat in top else Fraction(0) for seat in range(self.rules.players)]

    def observation(self, player: int) -> str:
        protocol.check_players([player], self.shape())
        done = "; ".join(f"player {s + 1}: {' '.join(map(str, h))} ({category(h)})" for s, h in enumerate(self.hands))
        if self._over:
            now = "the game is over"
        else:
            dice = (
                f", kept {' '.join(map(str, self.kept)) or 'none'}, rolled {' '.join(map(str, self.rolled)) or 'none'}"
            )
            now = f"player {self.seat + 1} to play, roll {len(self.history)} of {ROLLS}{dice if self.history else ''}"
        return f"you are player {player + 1}; {now}" + (f"; hands: {done}" if done else "")

    def shape(self) -> protocol.Shape:
        return protocol.Shape(
            players=self.rules.players,
            max_actions=2**DICE,
            max_chance_outcomes=len(rolls(DICE).outcomes),
            max_length=2 * ROLLS * self.rules.players,
            min_return=Fraction(0),
            max_return=Fraction(1),
        )

    def hint(self, objective: Objective | None = None) -> Hint:
        """Every legal action's exact value for the seat to play (default objective:
        `objective()`; any other, e.g. `AtLeast("manoir")`, for a turn played for it), from the
        core solver; `.best` is the optimal action."""
        if self.current_player() < 0:
            return super().hint()
        h = _game(objective or self.objective(), self.rules.sticky_holds).hint(self.node)
        values = {Hold.move(a): v for a, v in h.values.items()}
        return Hint(h.state, values, Hold.move(h.best), h.maximise, "exact")

    # -- convenience: the moves as a person makes them -------------------------------------------
    def roll(self, rng: np.random.Generator | None = None, dice: Sequence[int] | None = None) -> State:
        """Roll the dice not set aside (the given faces in any order, or drawn with `rng`): the
        first roll of a turn, or the roll after `hold`."""
        state = self.apply("roll") if not self.rolling and not self.history and not self._over else self
        if not state.rolling:
            raise ValueError(
                "the game is over" if self._over else "hold some dice (or none) before rolling again, or stop"
            )
        n = DICE - len(state.kept)
        return state.apply(roll_faces(n, rng, dice))

    def hold(self, faces: Sequence[int]) -> State:
        """Set `faces` aside (with sticky holds, including those already aside); chance rolls the others next."""
        if not self.rolled or self.rolling:
            raise ValueError("roll before holding dice")
        want = Hold(faces)
        if want not in self.legal_actions():
            allowed = hold_options(self.kept, self.rolled, self.rules.sticky_holds)
            raise ValueError(f"faces must be one of the allowed holds {allowed}, got {tuple(faces)!r}")
        return self.apply(want)

    def stop(self) -> State:
        """Keep the hand as it is: the next seat's turn."""
        if not self.rolled or self.rolling:
            raise ValueError("roll before stopping")
        return self.apply("stop")


def strongest(hands: Sequence[Roll], tie_break: str = "A") -> list[int]:
    """The places of the strongest hands (more than one: a tie)."""
    key = [strength(h, tie_break) for h in hands]
    return [i for i, k in enumerate(key) if k == max(key)]


def initial_state(rules: Rules | None = None) -> State:
    """The start of a game: the opener (seat 0) to roll."""
    return State(rules or Rules())


def _optimal(state: protocol.State) -> protocol.Action:
    """The whole-game play the simulation plays (`game_kernel`): the opener maximises P(no later
    player beats its hand), every later player P(beating the best hand so far), a tie half."""
    assert isinstance(state, State)
    r = state.rules
    target = state.target
    if target is None:
        return Hold.move(opener_solution(r.players, r.tie_break, r.sticky_holds).action(state.node))
    keys, _ = strength_classes(r.tie_break)
    return Hold.move(
        chase_solution(r.tie_break, r.sticky_holds).action(state.node, keys.index(strength(target, r.tie_break)))
    )


def chase_most_common(target: Roll, tie_break: str, state: Node) -> Action:
    """A person chasing `target`: stop once ahead of it, else hold every die of the most common face."""
    _, kept, rolled = state
    if rolled and strength(tuple(sorted(kept + rolled)), tie_break) > strength(target, tie_break):
        return "stop"
    return cast(Action, keep_most_common("palais")(state))


def _keep_most_common_game(state: protocol.State) -> protocol.Action:
    """Keep the most common face: the opener stops at Manoir or better, a later player once
    ahead of the best hand so far; otherwise hold every die of the most common face."""
    assert isinstance(state, State)
    target = state.target
    if target is None:
        return Hold.move(keep_most_common("manoir")(state.node))
    return Hold.move(chase_most_common(target, state.rules.tie_break, state.node))


def policies(rules: Rules | None = None) -> dict[str, protocol.Policy]:
    """ "optimal": what the whole-game simulation plays (the opener maximises P(no later player
    beats it), the chasers P(beating the best hand so far), a tie counting half);
    "keep_most_common": hold every die of the most common face, the opener stopping at Manoir
    or better, a chaser once ahead."""
    return {"optimal": _optimal, "keep_most_common": _keep_most_common_game}


GAME = Game(
    name=NAME,
    title="Le Palais",
    summary="Poker dice: 5d6, up to 3 rolls, set dice aside; the best hand takes the stakes.",
    Rules=Rules,
    report=report,
    simulate=simulate,
    initial_state=initial_state,
    policies=policies,
    lesson="04-le-palais",
    dashboard="le-palais.ipynb",
    pitch=(
        "Poker dice: hold dice between three rolls, alone or against the machine, with the exact value of every hold."
    ),
)
"""This game, as the registry, the command line and the gallery see it."""
