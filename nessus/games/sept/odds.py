"""Le Sept fatal, exactly: one turn alone, and the two-player game solved by value iteration.

**One turn.** "Hold at N" rolls while the turn total is below N. One more roll at turn total k
gains (210 - 6k)/36 points on average, so the best N is 35 (35 and 36 tie; `best_hold` is the
smallest). `hold_mean`, `p_zero_hold` and `turn_distribution` are exact for any N.

**The game** (decisions of this game): two players, `rounds` rounds (3); in each round the
first player takes one turn, then the second; the first roll of a turn is compulsory; the
higher total after the last round wins; a tie is settled by `ties` (`rules`). Each player
maximises their chance of winning (a tie counting half under `half`), knowing the totals.
`p_first_player_wins_optimal` is the first player's chance under optimal play by both.

State: (turn, lead of the player to move at the start of the turn, turn total). Value
iteration (`nessus.solver.value_iteration`) solves the extra round of `replay` (a cycle through
the tie) as one block, then every turn from the last, turn total from the highest: each of
those blocks leads only to blocks already solved. Leads are bounded: a state whose lead plus
turn total exceeds `margin(rounds)` = 50 rounds + 10 points is cut off. Solving with every
cut-off state lost and then won for the first player brackets the true value (the value of
the game is monotone in its end payoffs); the figure's interval is that bracket (of width 0
in floats for 1 to 5 rounds) and its value a third solve where the cut-off leader wins.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from typing import TYPE_CHECKING

import numpy as np

from nessus import pushluck as core
from nessus.dice import total
from nessus.dist import Dist
from nessus.games.sept.rules import NAME, ROUNDS, Rules
from nessus.report import Figure, Report

if TYPE_CHECKING:
    import polars as pl

_TWO = total(2)
ROLL = core.RollLaw(tuple((s, _TWO.weight(s)) for s in range(2, 13) if s != 7), _TWO.weight(7))
MARGIN_PER_ROUND = 50  # leads cut off beyond 50 * rounds + 10 points: the bracket is < 1e-13 wide for 1..5 rounds
TOLERANCE = 1e-12
STORED_ROUNDS = (3, 4, 5)  # games stored in data/ with the default ties: 1-7 s each to solve, too slow for a dashboard


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

    def bracket(self, t: int, lead: int) -> float:
        """The width of the bracket on the mover's chance at the start of turn t with this lead
        (every cut-off state lost, then won, for the first player); 1 off the grid."""
        d = self.duel
        c = d.context(t, lead) if abs(lead) <= d.margin else -1
        return float(abs(self.high_starts[c] - self.low_starts[c])) if c >= 0 else 1.0

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
