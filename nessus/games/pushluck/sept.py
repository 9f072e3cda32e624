"""Le Sept fatal: roll 2d6 as often as you like, adding the totals to the turn total; a roll
totalling 7 wipes the turn total and ends the turn (RULES.md section 6).

**One turn.** "Hold at N" rolls while the turn total is below N. One more roll at turn total k
gains (210 - 6k)/36 points on average, so the best N is 35 (35 and 36 tie; `best_hold` is the
smallest). `hold_mean`, `p_zero_hold` and `turn_distribution` are exact for any N.

**The game** (decisions of this module): two players, `rounds` rounds (3); in each round the
first player takes one turn, then the second; the first roll of a turn is compulsory; the
higher total after the last round wins. A tie is settled by `ties`:

- `replay` (default, as Les Trois settles ties): one more round, first player first, as often
  as needed until the totals differ;
- `half`: the tie counts half a win for each.

Each player maximises their chance of winning (a tie counting half under `half`), knowing the
totals. `p_first_player_wins_optimal` is the first player's chance under optimal play by both.

State: (turn, lead of the player to move at the start of the turn, turn total). Value
iteration (`nessus.solver.value_iteration`) solves the extra round of `replay` (a cycle through
the tie) as one block, then every turn from the last, turn total from the highest: each of
those blocks leads only to blocks already solved. Leads are bounded: a state whose lead plus
turn total exceeds `margin(rounds)` = 50 rounds + 10 points is cut off. Solving with every
cut-off state lost and then won for the first player brackets the true value (the value of
the game is monotone in its end payoffs); the figure's interval is that bracket (of width 0
in floats for 1 to 5 rounds) and its value a third solve where the cut-off leader wins.

Whole games are simulated a turn at a time: each turn is drawn from its exact law under the
optimal policy (`core.turn_table`); `duel_kernel` rolls die by die (tests compare both).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction
from functools import cache, partial
from typing import TYPE_CHECKING, ClassVar

import numpy as np

from nessus import game, montecarlo
from nessus import pushluck as core
from nessus.dice import total
from nessus.dist import Dist
from nessus.game import Game
from nessus.report import Figure, Report
from nessus.rules import GameRules, Param, field
from nessus.solver import Hint

if TYPE_CHECKING:
    import polars as pl

NAME = "sept"
_TWO = total(2)
ROLL = core.RollLaw(tuple((s, _TWO.weight(s)) for s in range(2, 13) if s != 7), _TWO.weight(7))
MARGIN_PER_ROUND = 50  # leads cut off beyond 50 * rounds + 10 points: the bracket is < 1e-13 wide for 1..5 rounds
TOLERANCE = 1e-12
STORED_ROUNDS = (3, 4, 5)  # games stored in data/ with the default ties: 1-7 s each to solve, too slow for a dashboard

HOLD = Param("hold", 20, 1, 200, "hold-at-N: roll while the turn total is below N")
ROUNDS = Param("rounds", 3, 1, 5, "rounds in a game (one turn per player each)")
TIES = Param(
    "ties",
    "replay",
    4,
    6,
    "a tie after the last round: replay one more round, or half a win each",
    kind=str,
    choices=("replay", "half"),
)
PLAYERS = Param("players", 2, 2, 6, "players in the simulated hold-at-N games")


@dataclass(frozen=True)
class Rules(GameRules):
    params = (HOLD, ROUNDS, TIES, PLAYERS)
    hold: int = field(HOLD)
    rounds: int = field(ROUNDS)
    ties: str = field(TIES)
    players: int = field(PLAYERS)


# -- one turn ------------------------------------------------------------------------------------
def hold_mean(n: int) -> Fraction:
    """E[one turn's score] (points) holding at n."""
    return core.hold_at_mean(ROLL, n)


def turn_distribution(n: int) -> Dist:
    """The exact distribution of one turn's score (points; 0 after a 7) holding at n."""
    return core.hold_at_distribution(ROLL, n)


def best_hold() -> tuple[int, Fraction]:
    """The smallest N maximising the expected turn score, and that score (points)."""
    return core.best_hold(ROLL)


def points_hint(k: int) -> dict[str, Fraction]:
    """One turn played for points: the exact expected turn score (points) after rolling and
    after holding at turn total k, playing for points afterwards (`core.points_values`)."""
    return core.points_values(ROLL, k)


# -- the game for the solver -----------------------------------------------------------------------
@dataclass(frozen=True)
class Duel:
    """Le Sept fatal for two players as a `TurnGame`.

    Turns 0 .. 2*rounds - 1 (the first player's are even), then under `replay` the extra round's
    turns 2*rounds (first player, lead 0 only) and 2*rounds + 1 (second player, lead <= 0). A
    context is (turn, lead of the mover at the turn's start); its states are the turn totals k
    with lead + k <= margin. `edge` is the first player's value at a cut-off state (None: the
    leader, the player to move, wins).
    """

    rounds: int = 3
    ties: str = "replay"
    margin: int = 160
    edge: float | None = None
    roll: core.RollLaw = ROLL

    @property
    def index(self) -> np.ndarray:
        """[turn, lead + margin] -> context (-1 where there is none)."""
        return self._layout()[0]

    def _layout(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        return _layout(self.rounds, self.ties, self.margin)

    @property
    def turn(self) -> np.ndarray:
        return self._layout()[1]

    @property
    def lead(self) -> np.ndarray:
        return self._layout()[2]

    @property
    def sizes(self) -> np.ndarray:
        return self.margin - self.lead + 1

    def last(self, t: np.ndarray) -> np.ndarray:
        """Whether turn t ends the game (unless tied)."""
        return (t == 2 * self.rounds - 1) | (t == 2 * self.rounds + 1)

    def hold(self, c: np.ndarray, k: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        t, final = self.turn[c], self.lead[c] + k
        nxt = np.where(t == 2 * self.rounds + 1, -1, t + 1)
        ctx = np.where(
            self.last(t), -1, self.index[np.clip(nxt, 0, None), np.clip(self.margin - final, 0, 2 * self.margin)]
        )
        payoff = np.where(final > 0, 1.0, np.where(final < 0, 0.0, 0.5))
        if self.ties == "replay":
            ctx = np.where(self.last(t) & (final == 0), self.index[2 * self.rounds, self.margin], ctx)
        return ctx, payoff

    def bust(self, c: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        return self.hold(c, np.zeros_like(c))

    def overflow(self, c: np.ndarray, total: np.ndarray) -> np.ndarray:
        t = self.turn[c]
        if self.edge is None:
            cut = np.ones(t.shape)
        else:
            cut = np.where(t % 2 == 0, self.edge, 1.0 - self.edge)
        return np.where(self.last(t), 1.0, cut)  # in a last turn a lead above 0 holds and wins

    def blocks(self) -> list[np.ndarray]:
        """The extra round (a cycle through the tie) first, then turn by turn from the last and
        turn total by turn total from the highest."""
        ctx, k = core.states(self)
        t = self.turn[ctx]
        regular = t < 2 * self.rounds
        extra = np.flatnonzero(~regular)
        key = (t * (2 * self.margin + 2) + k)[regular]
        idx = np.flatnonzero(regular)
        order = idx[np.argsort(-key, kind="stable")]
        cuts = np.flatnonzero(np.diff(key[np.argsort(-key, kind="stable")])) + 1
        return ([extra] if extra.size else []) + np.split(order, cuts)

    def context(self, t: int, lead: int) -> int:
        return int(self.index[t, lead + self.margin])


@cache
def _layout(rounds: int, ties: str, margin: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    width = 2 * margin + 1
    leads = np.arange(-margin, margin + 1)
    turns, lead = [np.repeat(np.arange(2 * rounds), width)], [np.tile(leads, 2 * rounds)]
    if ties == "replay":
        turns += [np.array([2 * rounds]), np.full(margin + 1, 2 * rounds + 1)]
        lead += [np.array([0]), np.arange(-margin, 1)]
    turn, lead_all = np.concatenate(turns), np.concatenate(lead)
    index = np.full((2 * rounds + 2, width), -1, dtype=np.int64)
    index[turn, lead_all + margin] = np.arange(turn.size)
    return index, turn, lead_all


def margin(rounds: int) -> int:
    """The lead (points) beyond which states are cut off."""
    return MARGIN_PER_ROUND * rounds + 10


@dataclass(frozen=True)
class Solution:
    """The solved duel (cut-off leaders win), and the turn-start values with every cut-off
    state lost (`low_starts`) and won (`high_starts`) for the first player."""

    duel: Duel
    solved: core.Solved
    low_starts: np.ndarray
    high_starts: np.ndarray

    @property
    def low(self) -> float:
        """A lower bound on the first player's winning chance."""
        return float(self.low_starts[self.duel.context(0, 0)])

    @property
    def high(self) -> float:
        """An upper bound on the first player's winning chance."""
        return float(self.high_starts[self.duel.context(0, 0)])

    @property
    def p_first(self) -> float:
        return self.solved.value(self.duel.context(0, 0), 0)

    def hold_boundary(self, t: int, lead: int) -> int:
        """The smallest turn total k >= 1 at which optimal play holds in turn t (the mover's
        lead at the turn's start: `lead`), as `rolls` decides off the grid."""
        d = self.duel
        if lead > d.margin:
            return 1
        if lead < -d.margin:
            return d.margin - lead + 1
        c = d.context(t, lead)
        if c < 0:
            raise ValueError(f"turn {t} has no lead {lead} (the extra round starts level)")
        return core.hold_boundary(self.solved, c)

    def rolls(self, t: int, lead: int, k: int) -> bool:
        """The optimal action at (turn, mover's lead, turn total): roll? (off the grid: a
        mover ahead by more than the margin holds, one behind by more rolls)."""
        if lead + k > self.duel.margin:
            return False
        if lead < -self.duel.margin:
            return True
        return bool(self.solved.rolls()[self.duel.context(t, lead), k])


@cache
def _solve(rounds: int, ties: str, cut: int | None = None) -> Solution:
    cut = margin(rounds) if cut is None else cut
    main = Duel(rounds, ties, cut)
    bounds = []
    for edge in (0.0, 1.0):
        d = Duel(rounds, ties, cut, edge)
        bounds.append(core.solve(d, d.blocks(), TOLERANCE).starts)
    return Solution(main, core.solve(main, main.blocks(), TOLERANCE), bounds[0], bounds[1])


def solution(rules: Rules | None = None) -> Solution:
    """Optimal play for these rules: from the stored table when there is one (the default ties
    and 3, 4 or 5 rounds: `data/sept-start_values*.parquet`, written by `nessus data rebuild`),
    else solved now (memoised)."""
    rules = rules or Rules()
    stored = _stored(rules.rounds) if rules.ties == Rules().ties and rules.rounds in STORED_ROUNDS else None
    if stored is not None and (rules.rounds, rules.ties) == (stored.duel.rounds, stored.duel.ties):
        return stored
    return _solve(rules.rounds, rules.ties)


def table_name(rounds: int) -> str:
    """The stored table of the `rounds`-round game: "start_values" for the default 3 rounds,
    "start_values_<rounds>_rounds" for the others."""
    return "start_values" if rounds == ROUNDS.default else f"start_values_{rounds}_rounds"


@cache
def _stored(rounds: int) -> Solution | None:
    frames = core.stored_frames(NAME, (table_name(rounds),))
    return None if frames is None else from_tables({"start_values": frames[table_name(rounds)]})


def tables(rules: Rules | None = None) -> dict[str, pl.DataFrame]:
    """{"start_values": rounds, ties, margin, turn, lead, p_win, p_win_low, p_win_high}: the
    mover's winning chance at the start of each turn given their lead, optimal play by both
    (cut-off leaders win; and with every cut-off state lost / won for the first player),
    freshly solved for `rules`. The policy follows from these (`from_tables`). Without rules,
    every stored game: the default one and the other `STORED_ROUNDS` (`table_name`)."""
    if rules is None:
        return {table_name(r): _start_values(Rules(rounds=r)) for r in STORED_ROUNDS}
    return {"start_values": _start_values(rules)}


def _start_values(rules: Rules) -> pl.DataFrame:
    """The "start_values" table of `rules`, freshly solved."""
    import polars as pl

    sol = _solve(rules.rounds, rules.ties)
    d = sol.duel
    n = d.turn.size
    return pl.DataFrame(
        {
            "rounds": np.full(n, d.rounds, dtype=np.int16),
            "ties": [d.ties] * n,
            "margin": np.full(n, d.margin, dtype=np.int16),
            "turn": d.turn.astype(np.int16),
            "lead": d.lead.astype(np.int16),
            "p_win": sol.solved.starts,
            "p_win_low": sol.low_starts,
            "p_win_high": sol.high_starts,
        }
    )


def from_tables(frames: dict[str, pl.DataFrame]) -> Solution:
    """The solution rebuilt from `tables()` output (stored or fresh)."""
    f = frames["start_values"]
    d = Duel(int(f["rounds"][0]), str(f["ties"][0]), int(f["margin"][0]))
    order = d.index[f["turn"].to_numpy(), f["lead"].to_numpy() + d.margin]
    if f.height != d.turn.size or np.any(order < 0):
        raise ValueError("start_values does not match the layout of its rounds, ties and margin")
    starts = {col: np.empty(f.height) for col in ("p_win", "p_win_low", "p_win_high")}
    for col, arr in starts.items():
        arr[order] = f[col].to_numpy()
    return Solution(
        d, core.from_starts(d, starts["p_win"], tolerance=TOLERANCE), starts["p_win_low"], starts["p_win_high"]
    )


def report(rules: Rules | None = None) -> Report:
    """Exact one-turn figures, and the optimal two-player game (value iteration, bracketed)."""
    rules = rules or Rules()
    n, mean = best_hold()
    sol = solution(rules)
    tie = "a tie replays a round" if rules.ties == "replay" else "a tie counts half"
    return Report(
        NAME,
        rules.as_dict(),
        {
            "best_hold": Figure.of(n, "smallest N maximising the expected turn score (points)"),
            "best_hold_mean": Figure.of(mean, "expected turn score holding at best_hold (points)"),
            "hold_mean": Figure.of(hold_mean(rules.hold), f"expected turn score holding at {rules.hold} (points)"),
            "p_zero_hold": Figure.of(turn_distribution(rules.hold)[0], f"P(a turn scores 0) holding at {rules.hold}"),
            "p_first_player_wins_optimal": Figure.approx(
                sol.p_first,
                f"P(the first player wins), 2 players, {rules.rounds} rounds, {tie}, both optimal; floats: value "
                f"iteration to a sweep change < {TOLERANCE:g}, interval = bracket over leads cut off beyond "
                f"{sol.duel.margin} points; not exact",
                (min(sol.low, sol.p_first), max(sol.high, sol.p_first)),
            ),  # float rounding can put them 1e-16 apart
        },
    )


# -- Monte Carlo -------------------------------------------------------------------------------------
def _two_dice(rng: np.random.Generator, n: int) -> np.ndarray:
    return rng.integers(1, 7, size=n, dtype=np.int64) + rng.integers(1, 7, size=n, dtype=np.int64)


def duel_kernel(rounds: int, ties: str, margin: int, rolls: np.ndarray, rng: np.random.Generator, n: int) -> np.ndarray:
    """n two-player games, both optimal (policy table `rolls[context, k]`): whether the first
    player wins (under `half`, a tie is decided by a fair coin so the mean is the share)."""
    d = Duel(rounds, ties, margin)
    index = d.index
    last_regular = 2 * rounds - 1
    totals = np.zeros((n, 2), dtype=np.int64)
    t = np.zeros(n, dtype=np.int64)
    k = np.zeros(n, dtype=np.int64)
    first_wins = np.zeros(n, dtype=bool)
    ids = np.arange(n)
    while ids.size:
        p = t % 2
        lead = totals[ids, p] - totals[ids, 1 - p]
        inside = (lead >= -margin) & (lead + k <= margin)
        c = index[t, np.clip(lead + margin, 0, 2 * margin)]
        roll = np.where(inside, rolls[np.maximum(c, 0), np.clip(k, 0, rolls.shape[1] - 1)], lead < -margin)
        roll |= k == 0
        s = _two_dice(rng, ids.size)
        bust = roll & (s == 7)
        k = np.where(roll & ~bust, k + s, k)
        ends = bust | ~roll
        banked = np.where(bust, 0, k)
        totals[ids[ends], p[ends]] += banked[ends]
        over = ends & ((t == last_regular) | (t == last_regular + 2))
        diff = totals[ids, 0] - totals[ids, 1]
        tied = over & (diff == 0)
        if ties == "half":
            first_wins[ids[tied]] = rng.random(int(tied.sum())) < 0.5
            done = over
        else:
            done = over & ~tied
        first_wins[ids[over & (diff > 0)]] = True
        t = np.where(ends, np.where(tied & (ties == "replay"), 2 * rounds, t + 1), t)
        k = np.where(ends, 0, k)
        keep = ~done
        ids, t, k = ids[keep], t[keep], k[keep]
    return first_wins


def duel_turns(
    rounds: int, ties: str, margin: int, sampler: core.TurnSampler, rng: np.random.Generator, n: int
) -> np.ndarray:
    """n two-player games, both optimal, a whole turn at a time (drawn by `sampler`, from
    `core.turn_table` of the optimal policy): whether the first player wins (under `half`
    a tie is a fair coin). Equal in law to `duel_kernel` (but for leads beyond the margin, held
    as they come: probability below 1e-13) and much faster."""
    index = Duel(rounds, ties, margin).index
    last = 2 * rounds - 1
    diff = np.zeros(n, dtype=np.int64)  # first player's total minus the second's
    t = np.zeros(n, dtype=np.int64)
    first_wins = np.zeros(n, dtype=bool)
    ids = np.arange(n)
    while ids.size:
        second = t % 2 == 1
        lead = np.where(second, -diff, diff)
        c = index[t, np.clip(lead, -margin, margin) + margin]
        banked = sampler.draw(c, rng)
        diff += np.where(second, -banked, banked)
        over = second & (t >= last)
        tied = over & (diff == 0)
        first_wins[ids[over & (diff > 0)]] = True
        if ties == "half":
            coin = np.flatnonzero(tied)
            first_wins[ids[coin]] = rng.random(coin.size) < 0.5
            done = over
        else:
            done = over & ~tied
        t = np.where(tied, 2 * rounds, t + 1)
        keep = ~done
        ids, t, diff = ids[keep], t[keep], diff[keep]
    return first_wins


def hold_games(hold: int, rounds: int, players: int, rng: np.random.Generator, n: int) -> np.ndarray:
    """n games of `players` players all holding at `hold` for `rounds` rounds: totals [n, players]."""
    scores = hold_turns(hold, rng, n * players * rounds).reshape(n, players, rounds)
    return scores.sum(axis=2)


def hold_turns(hold: int, rng: np.random.Generator, n: int) -> np.ndarray:
    """n single turns holding at `hold`: the points banked (0 after a 7)."""
    k = np.zeros(n, dtype=np.int64)
    ids = np.arange(n)
    out = np.zeros(n, dtype=np.int64)
    while ids.size:
        s = _two_dice(rng, ids.size)
        bust = s == 7
        k = k + s
        done = bust | (k >= hold)
        out[ids[done & ~bust]] = k[done & ~bust]
        ids, k = ids[~done], k[~done]
    return out


def game_kernel(
    rules: Rules, margin: int, sampler: core.TurnSampler, rng: np.random.Generator, n: int
) -> dict[str, np.ndarray]:
    """n single hold-at-N turns and n `players`-player hold-at-N games (rolled die by die), and
    n optimal duels (a whole turn at a time)."""
    turns = hold_turns(rules.hold, rng, n)
    totals = hold_games(rules.hold, rules.rounds, rules.players, rng, n)
    best = totals.max(axis=1)
    return {
        "hold_mean": turns,
        "p_zero_hold": turns == 0,
        "p_first_player_wins_optimal": duel_turns(rules.rounds, rules.ties, margin, sampler, rng, n),
        "p_first_alone_highest_hold": (totals[:, 0] == best) & ((totals == best[:, None]).sum(axis=1) == 1),
        "p_tie_for_highest_hold": (totals == best[:, None]).sum(axis=1) > 1,
    }


def sampler(sol: Solution) -> core.TurnSampler:
    """Whole-turn sampler of the optimal policy at every (turn, lead)."""
    return core.TurnSampler.of(core.turn_table(sol.duel, sol.solved.rolls()))


def simulate(rules: Rules | None = None, trials: int = 100_000, seed: int = 0, client=None, progress=None) -> Report:
    """Monte Carlo (95% intervals): single hold-at-N turns; two-player games both optimal;
    `players`-player games all holding at N (first player alone highest, or a tie for highest)."""
    rules = rules or Rules()
    sol = solution(rules)
    kernel = partial(game_kernel, rules, sol.duel.margin, sampler(sol))
    result = montecarlo.run(kernel, trials, seed, client=client, progress=progress)
    return Report(NAME, rules.as_dict(), {k: Figure.estimated(e) for k, e in result.estimates.items()})


# -- a game to play ----------------------------------------------------------------------------------
EXTRA_ROUNDS = 40
"""The practical bound on the extra rounds of `replay` (`State.shape`): a round is tied with
probability 0.01 to 0.03 under the named policies and uniform random play (measured; about
0.1 when both hold after one roll), so 40 more ties in a row are out of reach. Only play that
never holds ties for ever (0 to 0)."""


@dataclass(frozen=True)
class State(core.TurnState):
    """Two players at Le Sept fatal (the game protocol, `core.TurnState`): the turn number is
    0 for the first player's first turn, and from 2 * rounds on counts the extra rounds after a
    tie; `winner` is -1 for a tie under `half`.

    >>> state = initial_state(Rules(rounds=1)).roll(dice=(6, 6)).hold()
    >>> state.scores, state.mover, state.legal_actions()
    ((12, 0), 1, ['roll'])
    >>> state.roll(dice=(3, 4)).returns()
    [Fraction(1, 1), Fraction(0, 1)]
    """

    DICE: ClassVar[int] = 2
    LAW: ClassVar[core.RollLaw] = ROLL
    rules: Rules = Rules()

    def busts(self, dice: core.Faces) -> bool:
        return sum(dice) == 7

    @property
    def duel_turn(self) -> int:
        """The solver's turn (`Duel`): the turn number, the extra rounds sharing the last two."""
        rounds = self.rules.rounds
        return self.turn if self.turn < 2 * rounds else 2 * rounds + self.mover

    @property
    def round(self) -> int:
        """The round being played (1, 2, ...; beyond `rounds`: an extra round)."""
        return self.turn // 2 + 1

    def _next_turn(self, scores: tuple[int, int], history: tuple[core.Played, ...]) -> State:
        nxt = self._after_turn(scores, history)
        if not (self.mover == 1 and self.turn >= 2 * self.rules.rounds - 1):
            return nxt
        if scores[0] != scores[1]:
            return replace(nxt, winner=int(scores[1] > scores[0]))
        return replace(nxt, winner=-1) if self.rules.ties == "half" else nxt

    def _win_hint(self) -> Hint:
        """The mover's winning chance after each legal action, both optimal afterwards (a tie
        counting half under `half`), by value iteration (floats). Off the solved grid (a lead
        beyond the margin, probability below 1e-13) the hint is the rule `Solution.rolls`
        plays there (the player ahead holds, the one behind rolls), 1 for its action and 0 for
        the other: method "heuristic"."""
        sol = solution(self.rules)
        d, t, lead, k = sol.duel, self.duel_turn, self.lead, self.turn_total
        c = d.context(t, lead) if -d.margin <= lead and lead + k <= d.margin else -1
        if c < 0:
            best = "roll" if k == 0 or sol.rolls(t, lead, k) else "hold"
            return self._hint({a: float(a == best) for a in self.legal_actions()}, "heuristic")
        values: dict[game.Action, float] = {"roll": float(sol.solved.q_roll[c, k])}
        if k:
            values["hold"] = float(sol.solved.q_hold[c, k])
        return self._hint(values)

    def first_hold(self) -> int:
        """The smallest turn total at which optimal play holds in this turn (`Solution.hold_boundary`)."""
        return solution(self.rules).hold_boundary(self.duel_turn, self.lead)

    def _stage(self) -> str:
        rounds = self.rules.rounds
        stage = f"round {self.round} of {rounds}" if self.round <= rounds else f"extra round {self.round - rounds}"
        ties = "a tie replays a round" if self.rules.ties == "replay" else "a tie counts half"
        return f"{stage}, the higher total wins ({ties})"

    def shape(self) -> game.Shape:
        """Two players, "roll"/"hold", the 21 rolls of 2d6. The game could go on for ever (a turn
        without a 7, ties after ties): `max_length` counts `core.MAX_ROLLS` rolls a turn and,
        under `replay`, `EXTRA_ROUNDS` extra rounds."""
        rounds = self.rules.rounds + (EXTRA_ROUNDS if self.rules.ties == "replay" else 0)
        return game.Shape(
            players=2,
            max_actions=2,
            max_chance_outcomes=21,
            max_length=2 * rounds * (2 * core.MAX_ROLLS + 1),
            min_return=Fraction(0),
            max_return=Fraction(1),
        )


def initial_state(rules: Rules | None = None) -> State:
    """The start of a two-player game: no points, the first player to roll (`players` sets the
    simulated hold-at-N games only: `core.two_players`)."""
    return State(core.two_players(rules or Rules()))


def optimal_policy(state: game.State) -> game.Action:
    """Optimal play to win (value iteration, `Solution.rolls`; the state's own rules)."""
    assert isinstance(state, State)
    k = state.turn_total
    return "roll" if k == 0 or solution(state.rules).rolls(state.duel_turn, state.lead, k) else "hold"


def policies(rules: Rules | None = None) -> dict[str, game.Policy]:
    """ "optimal" (to win, value iteration), "hold_at_N" for the rules' N (20) and for the best N
    for points (35)."""
    rules = rules or Rules()
    holds = (rules.hold, best_hold()[0])
    return {"optimal": optimal_policy} | {f"hold_at_{n}": core.hold_at(n) for n in holds}


GAME = Game(
    name=NAME,
    title="Le Sept fatal",
    summary="Roll 2d6 until you hold; a 7 wipes the turn: best hold and optimal 3-round play.",
    Rules=Rules,
    report=report,
    simulate=simulate,
    initial_state=initial_state,
    policies=policies,
    lesson="08-le-sept-fatal",
    dashboard="le-sept-fatal.ipynb",
    pitch=(
        "Push your luck with two dice (a 7 wipes the turn) or Pig's one die: one turn for points with exact "
        "odds, or a game against the machine with your chance of winning."
    ),
    page_title="Le Sept fatal (and Pig)",
    tables=tables,
)
"""This game, as the registry, the command line and the gallery see it."""
