"""Les Royaumes: the bank rolls 2d6; on its best result of a kingdom (2-2, 5-3, 6-6) it wins
every stake, on the lowest (1-1, 3-2, 6-3) it pays every player one stake; otherwise each
player rolls until a result falls in the bank's kingdom, paying a fine for each roll outside
it, and wins a stake if that result ranks strictly above the bank's, else loses one
(RULES.md section 7).

Money is counted in stakes; the fine is a fraction of the stake (parameter `fine`, default
1/10) and is paid to the bank, so the bank's gain is the players' loss. A player's number of
fines in a duel is geometric: P(k fines) = (1 - q)^k q with q = P(a roll lands in the bank's
kingdom), so every figure is an exact fraction and the expected value per round is an exact
affine function of the fine: `ev_at_zero_fine - fine * fines_per_round`.

Whole games are played through the game protocol (`State`, `initial_state`): every move is a
roll, chance with exact weights, and the returns are the players' net stakes.

>>> state = initial_state(Rules(players=1, rounds=1)).roll(dice=(6, 6))  # the bank wins all
>>> state.is_terminal(), state.returns(), player_ev(Fraction(1, 10))
(True, [Fraction(-1, 1)], Fraction(-3097, 11880))
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction
from functools import cache, partial

import numpy as np
import polars as pl

from nessus import game, montecarlo
from nessus.dice import check_faces, raw_bits, roll_outcomes
from nessus.game import Game
from nessus.report import Figure, Report
from nessus.rules import GameRules, Param, field

NAME = "royaumes"
Result = tuple[int, int]  # an unordered 2d6 result, higher die first: (5, 3) is "5-3"

KINGDOMS: dict[str, tuple[Result, ...]] = {
    "Gahanam": ((1, 1), (2, 1), (3, 1), (4, 1), (5, 1), (6, 1), (2, 2)),
    "Teur": ((3, 2), (4, 2), (5, 2), (6, 2), (3, 3), (4, 3), (5, 3)),
    "Elysium": ((6, 3), (4, 4), (5, 4), (6, 4), (5, 5), (6, 5), (6, 6)),
}
"""The 21 results in their kingdoms, each kingdom listed from its lowest result to its highest."""
BANK_WINS_ALL: frozenset[Result] = frozenset({(2, 2), (5, 3), (6, 6)})
BANK_PAYS_ALL: frozenset[Result] = frozenset({(1, 1), (3, 2), (6, 3)})

FINE = Param("fine", Fraction(1, 10), 0, 1, "fine for a roll outside the bank's kingdom, in stakes", kind=Fraction)
PLAYERS = Param("players", 4, 1, 10, "players against the bank (whole-game simulation)")
ROUNDS = Param("rounds", 20, 1, 1000, "rounds in a whole game (simulation)")


@dataclass(frozen=True)
class Rules(GameRules):
    params = (FINE, PLAYERS, ROUNDS)
    fine: Fraction = field(FINE)
    players: int = field(PLAYERS)
    rounds: int = field(ROUNDS)


def result_of(dice: tuple[int, int]) -> Result:
    """The unordered result of two dice, higher die first."""
    return (max(dice), min(dice))


def kingdom_of(result: Result) -> str:
    """The kingdom a result belongs to."""
    for name, results in KINGDOMS.items():
        if result in results:
            return name
    raise ValueError(f"result must be two faces from 1 to 6, higher first, got {result!r}")


def rank_of(result: Result) -> int:
    """The rank of a result within its kingdom: 0 (lowest) to 6 (highest)."""
    return KINGDOMS[kingdom_of(result)].index(result)


def p_result(result: Result) -> Fraction:
    """P(one roll of 2d6 gives this unordered result): 1/36 for a double, 2/36 otherwise."""
    return Fraction(1 if result[0] == result[1] else 2, 36)


def p_kingdom(name: str) -> Fraction:
    """P(one roll of 2d6 lands in the kingdom): 12/36, 13/36, 11/36."""
    return sum((p_result(r) for r in KINGDOMS[name]), Fraction(0))


def bank_outcome(result: Result) -> str:
    """What the bank's result does: "bank wins all", "bank pays all" or "duel"."""
    if result in BANK_WINS_ALL:
        return "bank wins all"
    if result in BANK_PAYS_ALL:
        return "bank pays all"
    return "duel"


def p_player_beats(result: Result) -> Fraction:
    """P(the player's in-kingdom result ranks strictly above the bank's `result`)."""
    name = kingdom_of(result)
    above = KINGDOMS[name][rank_of(result) + 1 :]
    return sum((p_result(r) for r in above), Fraction(0)) / p_kingdom(name)


def fines_expected(result: Result) -> Fraction:
    """E[number of fines a player pays against this bank result] = (1 - q) / q (0 if no duel)."""
    if bank_outcome(result) != "duel":
        return Fraction(0)
    q = p_kingdom(kingdom_of(result))
    return (1 - q) / q


def player_ev_given(result: Result, fine: Fraction) -> Fraction:
    """A player's expected net gain in stakes against this bank result, fines included."""
    outcome = bank_outcome(result)
    if outcome == "bank wins all":
        return Fraction(-1)
    if outcome == "bank pays all":
        return Fraction(1)
    return 2 * p_player_beats(result) - 1 - fine * fines_expected(result)


def all_results() -> list[Result]:
    """The 21 results, kingdom by kingdom, lowest first."""
    return [r for results in KINGDOMS.values() for r in results]


@cache
def _sums() -> dict[str, Fraction]:
    """Exact per-round sums over the bank's result that do not depend on the fine."""
    out = {
        "bank_wins_all": Fraction(0),
        "bank_pays_all": Fraction(0),
        "wins_duel": Fraction(0),
        "fines": Fraction(0),
        "ev_at_zero_fine": Fraction(0),
    }
    for r in all_results():
        p = p_result(r)
        outcome = bank_outcome(r)
        out["bank_wins_all"] += p * (outcome == "bank wins all")
        out["bank_pays_all"] += p * (outcome == "bank pays all")
        if outcome == "duel":
            out["wins_duel"] += p * p_player_beats(r)
        out["fines"] += p * fines_expected(r)
        out["ev_at_zero_fine"] += p * player_ev_given(r, Fraction(0))
    return out


def p_bank_wins_all() -> Fraction:
    """P(the bank rolls 2-2, 5-3 or 6-6) = 4/36."""
    return _sums()["bank_wins_all"]


def p_bank_pays_all() -> Fraction:
    """P(the bank rolls 1-1, 3-2 or 6-3) = 5/36."""
    return _sums()["bank_pays_all"]


def p_player_wins_duel() -> Fraction:
    """P(the bank rolls a duel result and the player beats it), per player per round."""
    return _sums()["wins_duel"]


def fines_per_round() -> Fraction:
    """E[number of fines a player pays in a round] (a count, not money)."""
    return _sums()["fines"]


def player_ev(fine: Fraction) -> Fraction:
    """A player's expected net gain per round, in stakes: ev_at_zero_fine - fine * fines_per_round."""
    return _sums()["ev_at_zero_fine"] - Fraction(fine) * fines_per_round()


def fair_fine() -> Fraction:
    """The fine making the game fair (player_ev = 0); negative when the player is behind already."""
    return _sums()["ev_at_zero_fine"] / fines_per_round()


def duel_table(rules: Rules | None = None) -> pl.DataFrame:
    """One row per bank result: its kingdom and rank, P(bank rolls it), what it does, and for the
    player P(win), expected fines (count) and expected net gain in stakes."""
    rules = rules or Rules()
    rows = [
        (
            f"{r[0]}-{r[1]}",
            kingdom_of(r),
            rank_of(r),
            p_result(r),
            bank_outcome(r),
            p_player_beats(r) if bank_outcome(r) == "duel" else Fraction(int(bank_outcome(r) == "bank pays all")),
            fines_expected(r),
            player_ev_given(r, rules.fine),
        )
        for r in all_results()
    ]
    cols = ("result", "kingdom", "rank", "p_bank_rolls", "outcome", "p_player_wins", "expected_fines", "player_ev")
    data: dict[str, list] = {c: [row[i] for row in rows] for i, c in enumerate(cols)}
    for c in ("p_bank_rolls", "p_player_wins", "expected_fines", "player_ev"):
        data[c + "_exact"] = [str(v) for v in data[c]]
        data[c] = [float(v) for v in data[c]]
    return pl.DataFrame(data)


def report(rules: Rules | None = None) -> Report:
    """The exact headline figures, per player per round, in stakes."""
    rules = rules or Rules()
    ev = player_ev(rules.fine)
    return Report(
        NAME,
        rules.as_dict(),
        {
            "p_bank_wins_all": Figure.of(p_bank_wins_all(), "P(bank rolls 2-2, 5-3 or 6-6 and takes every stake)"),
            "p_bank_pays_all": Figure.of(p_bank_pays_all(), "P(bank rolls 1-1, 3-2 or 6-3 and pays every player)"),
            "p_player_wins_duel": Figure.of(
                p_player_wins_duel(), "P(bank rolls a duel result and the player beats it)"
            ),
            "expected_fines": Figure.of(rules.fine * fines_per_round(), "fines paid per player per round, in stakes"),
            "expected_fine_count": Figure.of(fines_per_round(), "number of off-kingdom rolls per player per round"),
            "player_ev": Figure.of(ev, "player's expected net gain per round, in stakes"),
            "bank_edge": Figure.of(-ev, "bank's expected gain per player per round, in stakes"),
            "fair_fine": Figure.of(fair_fine(), "the fine that makes player_ev 0, in stakes"),
            "mean_bank_net": Figure.of(
                -ev * rules.players * rules.rounds,
                f"bank's expected net over {rules.rounds} rounds against {rules.players} players",
            ),
        },
    )


# -- Monte Carlo -------------------------------------------------------------------------------
def _codes() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """For each ordered pair of dice (index 6*(a-1) + b-1): kingdom (0-2), rank (0-6), outcome
    (0 duel, 1 bank wins all, 2 bank pays all)."""
    names = list(KINGDOMS)
    kingdom, rank, outcome = (np.zeros(36, dtype=np.int8) for _ in range(3))
    for a in range(1, 7):
        for b in range(1, 7):
            r = result_of((a, b))
            i = 6 * (a - 1) + b - 1
            kingdom[i], rank[i] = names.index(kingdom_of(r)), rank_of(r)
            outcome[i] = ("duel", "bank wins all", "bank pays all").index(bank_outcome(r))
    return kingdom, rank, outcome


KINGDOM, RANK, OUTCOME = _codes()


# Rolls come from random bytes: a byte b < 252 = 7 * 36 is the ordered pair of dice b % 36
# (exactly uniform), a byte >= 252 is skipped. A duel reads its rolls a block of bytes at a time
# (4 bytes first, 8 later), the block seen as one little-endian word: byte i at bits 8i to 8i + 7.
_BYTE = np.arange(256)
KINGDOM_OF_BYTE = np.where(_BYTE < 252, KINGDOM[_BYTE % 36], -1).astype(np.int8)
RANK_OF_BYTE = RANK[_BYTE % 36]


def _bytes(rng: np.random.Generator, n: int) -> np.ndarray:
    """n random bytes."""
    return raw_bits(rng, n, 8)


def _pairs(rng: np.random.Generator, n: int) -> np.ndarray:
    """n rolls of 2d6 as ordered-pair indices 6 (a - 1) + (b - 1)."""
    b = _bytes(rng, n)
    while True:
        bad = np.flatnonzero(b >= 252)
        if not bad.size:
            return (b % 36).astype(np.int8)
        b[bad] = _bytes(rng, bad.size)


def _duels(
    rng: np.random.Generator, want: np.ndarray, beat: np.ndarray, width: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """One block of `width` (4 or 8) bytes for each duel against a bank result of kingdom `want`
    and rank `beat`: (settled or not, +1 / -1 if settled, rolls outside the kingdom before the
    settling roll, or in the whole block if none settles)."""
    word = np.dtype(f"<u{width}")
    block = _bytes(rng, want.size * width).reshape(want.size, width)
    hit = (KINGDOM_OF_BYTE.take(block) == want[:, None]).view(word).ravel()  # byte i = 1: roll i settles
    rolled = (block < 252).view(word).ravel()  # byte i = 1: byte i is a roll
    below = (hit & -hit) - word.type(1)  # the bits under the first settling roll (all, if none)
    shift = np.minimum(np.bitwise_count(below), 8 * width - 8).astype(word)
    rank = RANK_OF_BYTE.take((block.view(word).ravel() >> shift) & word.type(255))
    return hit != 0, np.where(rank > beat, 1, -1).astype(np.int8), np.bitwise_count(rolled & below).astype(np.int16)


def play_rounds(rng: np.random.Generator, n: int, players: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """n rounds with `players` players: the bank's pair index (n,), and per player (n, players)
    the result (+1 won a stake, -1 lost one) and the number of fines paid.

    Every duel of every round rolls together: the first roll in the bank's kingdom settles the
    duel, each roll before it costs a fine."""
    bank = _pairs(rng, n)
    outcome = OUTCOME.take(bank)
    won = np.where(outcome == 2, 1, -1).astype(np.int8).repeat(players)
    fines = np.zeros(n * players, dtype=np.int16)
    jobs = np.flatnonzero((outcome == 0).repeat(players))  # flat indices into (n, players)
    against = bank.repeat(players)[jobs]
    want, beat = KINGDOM.take(against), RANK.take(against)
    settled, result, paid = _duels(rng, want, beat, 4)
    won[jobs], fines[jobs] = result, paid
    rest = np.flatnonzero(~settled)
    jobs, want, beat, paid = jobs[rest], want[rest], beat[rest], paid[rest]
    while jobs.size:
        settled, result, more = _duels(rng, want, beat, 8)
        paid += more
        won[jobs[settled]], fines[jobs[settled]] = result[settled], paid[settled]
        rest = ~settled
        jobs, want, beat, paid = jobs[rest], want[rest], beat[rest], paid[rest]
    return bank, won.reshape(n, players), fines.reshape(n, players)


def round_kernel(fine: Fraction, rng: np.random.Generator, n: int) -> dict[str, np.ndarray]:
    """n single rounds, seen by one player: the per-round figures."""
    bank, won, fines = play_rounds(rng, n, 1)
    outcome = OUTCOME.take(bank)
    net = won[:, 0] - float(fine) * fines[:, 0]
    return {
        "p_bank_wins_all": outcome == 1,
        "p_bank_pays_all": outcome == 2,
        "p_player_wins_duel": (outcome == 0) & (won[:, 0] == 1),
        "expected_fines": float(fine) * fines[:, 0],
        "expected_fine_count": fines[:, 0],
        "player_ev": net,
        "bank_edge": -net,
    }


GAME_BATCH = 1 << 18  # player-rounds per batch of games


def game_kernel(rules: Rules, rng: np.random.Generator, n: int) -> dict[str, np.ndarray]:
    """n whole games (`rounds` rounds, `players` players): each seat ahead at the end or not
    (seat 0 is the bank), and the bank's net. Money in units of 1/denominator(fine) stakes, exact."""
    unit, fine_units = rules.fine.denominator, rules.fine.numerator
    per_game = rules.rounds * rules.players
    step = max(1, GAME_BATCH // per_game)
    nets = np.zeros((n, rules.players), dtype=np.int64)
    for start in range(0, n, step):
        m = min(step, n - start)
        _, won, fines = play_rounds(rng, m * rules.rounds, rules.players)
        shape = (m, rules.rounds, rules.players)
        stakes = won.reshape(shape).sum(axis=1, dtype=np.int64)
        nets[start : start + m] = stakes * unit - fines.reshape(shape).sum(axis=1, dtype=np.int64) * fine_units
    bank = -nets.sum(axis=1)
    out = {"p_bank_ahead": bank > 0, "mean_bank_net": bank / unit}
    for i in range(rules.players):
        out[f"p_ahead_seat_{i + 1}"] = nets[:, i] > 0
    return out


def simulate(rules: Rules | None = None, trials: int = 100_000, seed: int = 0, client=None, progress=None) -> Report:
    """Monte Carlo figures with 95% confidence intervals: single rounds, and whole games where
    `p_ahead_seat_<i>` is P(player i ends the game ahead) and `p_bank_ahead` the bank's."""
    rules = rules or Rules()
    one = montecarlo.run(partial(round_kernel, rules.fine), trials, seed, client=client, progress=progress)
    games = montecarlo.run(partial(game_kernel, rules), trials, seed + 1, client=client, progress=progress)
    return Report(NAME, rules.as_dict(), {k: Figure.estimated(e) for k, e in (one.estimates | games.estimates).items()})


# -- the game at the table (the game protocol) -------------------------------------------------
MAX_DUEL_ROLLS = 200
"""A practical bound on the rolls of one duel (each lands in the bank's kingdom with probability
at least 11/36, so a duel outlasts it with probability (25/36)**200 < 1e-31): `shape()` uses it."""


@dataclass(frozen=True)
class State(game.State):
    """A whole game of Les Royaumes (the game protocol): `rounds` rounds of the bank against
    `players` players. Every move is chance: the bank's roll, then each player's rolls in turn
    until one lands in the bank's kingdom (2d6 as sorted pairs, 21 outcomes with exact weights);
    no one decides anything and nothing is hidden. Returns are the players' net stakes (fines
    included; the bank's is minus their sum), so their sum is not constant. A duel could in
    principle go on for ever: `shape()` bounds it by `MAX_DUEL_ROLLS` rolls.

    The round in play (or the last one, until the bank rolls again): `bank` its roll, `rolls[i]`
    player i's rolls (players count from 0), `nets[i]` their net gain in stakes, `fines[i]` the
    fines they paid, `settled` the players done; `round` counts the rounds begun and `totals`
    the players' nets from the rounds before it.

    >>> state = initial_state(Rules(players=2, rounds=1))
    >>> state.to_roll, len(state.chance_outcomes())
    ('bank', 21)
    >>> state = state.roll(dice=(4, 2))
    >>> state.outcome, state.to_roll
    ('duel', 'player 1')
    >>> state = state.roll(dice=(1, 1)).roll(dice=(3, 3)).roll(dice=(3, 2))
    >>> state.is_terminal(), state.returns()
    (True, [Fraction(9, 10), Fraction(-1, 1)])
    """

    rules: Rules
    bank: tuple[int, int] | None = None
    rolls: tuple[tuple[tuple[int, int], ...], ...] = ()
    nets: tuple[Fraction, ...] = ()
    fines: tuple[int, ...] = ()
    settled: int = 0
    round: int = 0
    totals: tuple[Fraction, ...] = ()

    @property
    def bank_result(self) -> Result | None:
        """The bank's unordered result (None before it rolls)."""
        return result_of(self.bank) if self.bank else None

    @property
    def outcome(self) -> str | None:
        """ "bank wins all", "bank pays all" or "duel" once the bank has rolled."""
        return bank_outcome(result_of(self.bank)) if self.bank else None

    @property
    def round_over(self) -> bool:
        """The bank settled everyone at once, or every player has finished their duel."""
        return self.bank is not None and (self.outcome != "duel" or self.settled == self.rules.players)

    @property
    def _over(self) -> bool:
        """The last round is over."""
        return self.round >= self.rules.rounds and self.round_over

    @property
    def to_roll(self) -> str | None:
        """Who rolls next in this round: "bank", "player <i>" (from 1), or None when the round is
        over (the bank's next roll, if rounds are left, begins the next round)."""
        if self.bank is None:
            return "bank"
        return None if self.round_over else f"player {self.settled + 1}"

    @property
    def bank_net(self) -> Fraction:
        """The bank's net gain in the round so far, in stakes."""
        return -sum(self.nets, Fraction(0))

    def banked(self) -> tuple[Fraction, ...]:
        """Each player's net from the rounds finished (this one included once it is over)."""
        if not self.round_over:
            return self.totals
        return tuple(t + n for t, n in zip(self.totals, self.nets))

    def cleared(self) -> State:
        """The table as the next round is announced: the finished round's money carried into
        `totals` and its dice cleared, the bank to roll (the same position: the bank's roll
        leads to the same state from either)."""
        if not self.round_over or self._over:
            raise ValueError("the round is not over yet" if not self._over else "the game is over")
        p = self.rules.players
        return State(self.rules, None, ((),) * p, (Fraction(0),) * p, (0,) * p, 0, self.round, self.banked())

    # -- the protocol ------------------------------------------------------------------------------
    def current_player(self) -> int:
        return game.TERMINAL if self._over else game.CHANCE

    def legal_actions(self) -> list[game.Action]:
        return []

    def chance_outcomes(self) -> list[tuple[game.Action, Fraction]]:
        return [] if self._over else roll_outcomes(2)

    def _apply(self, dice: game.Action) -> State:
        assert isinstance(dice, tuple) and len(dice) == 2
        pair = (int(dice[0]), int(dice[1]))
        p, fine = self.rules.players, self.rules.fine
        if self.bank is None or self.round_over:
            totals = self.banked()
            outcome = bank_outcome(result_of(pair))
            gain = Fraction(0) if outcome == "duel" else Fraction(1 if outcome == "bank pays all" else -1)
            return State(self.rules, pair, ((),) * p, (gain,) * p, (0,) * p, 0, self.round + 1, totals)
        i, bank = self.settled, result_of(self.bank)
        mine = result_of(pair)
        rolls_ = self.rolls[:i] + (self.rolls[i] + (pair,),) + self.rolls[i + 1 :]
        if kingdom_of(mine) != kingdom_of(bank):
            nets = self.nets[:i] + (self.nets[i] - fine,) + self.nets[i + 1 :]
            fines = self.fines[:i] + (self.fines[i] + 1,) + self.fines[i + 1 :]
            return replace(self, rolls=rolls_, nets=nets, fines=fines)
        won = Fraction(1 if rank_of(mine) > rank_of(bank) else -1)
        nets = self.nets[:i] + (self.nets[i] + won,) + self.nets[i + 1 :]
        return replace(self, rolls=rolls_, nets=nets, settled=i + 1)

    def roll(self, rng: np.random.Generator | None = None, dice: tuple[int, int] | None = None) -> State:
        """The next roll (the bank's, then the current player's): the given dice in any order, or
        drawn with `rng`."""
        if self._over:
            raise ValueError("the game is over: every round has been played")
        if dice is None:
            if rng is None:
                raise ValueError("give rng or dice")
            dice = (int(rng.integers(1, 7)), int(rng.integers(1, 7)))
        a, b = check_faces(dice, 2)
        after = self.apply((min(a, b), max(a, b)))
        assert isinstance(after, State)
        return after

    def returns(self) -> list[Fraction]:
        return list(self.banked()) if self._over else [Fraction(0)] * self.rules.players

    def observation(self, player: int) -> str:
        game.check_players([player], self.shape())
        if self.bank is None:
            now = "the bank to roll"
        else:
            bank = result_of(self.bank)
            mine = " ".join(f"{a}-{b}" for b, a in self.rolls[player]) or "none"
            now = (
                f"the bank rolled {bank[0]}-{bank[1]} ({self.outcome}); your rolls {mine}, {self.fines[player]} fines, "
                f"net {self.nets[player]} this round; " + (f"{self.to_roll} to roll" if self.to_roll else "round over")
            )
        return (
            f"round {max(self.round, 1)} of {self.rules.rounds}: {now}; "
            f"nets before this round: {', '.join(str(t) for t in self.totals)}"
        )

    def shape(self) -> game.Shape:
        r = self.rules
        return game.Shape(
            players=r.players,
            max_actions=0,
            max_chance_outcomes=21,
            max_length=r.rounds * (1 + r.players * MAX_DUEL_ROLLS),
            min_return=-r.rounds * (1 + r.fine * MAX_DUEL_ROLLS),
            max_return=Fraction(r.rounds),
            return_sum=None,
        )


def initial_state(rules: Rules | None = None) -> State:
    """The start of a whole game: the bank to roll the first round."""
    rules = rules or Rules()
    p = rules.players
    return State(rules, None, ((),) * p, (Fraction(0),) * p, (0,) * p, 0, 0, (Fraction(0),) * p)


def policies(rules: Rules | None = None) -> dict[str, game.Policy]:
    """No decisions in Les Royaumes: no policies."""
    return {}


def expected_nets(round_: State) -> tuple[Fraction, ...]:
    """Each player's expected net gain for the whole round, in stakes, from the round as it
    stands: what is settled counts as it is, fines already paid included; a duel still to play
    adds `player_ev_given` (the rolls to come do not depend on the fines already paid); before
    the bank's roll, `player_ev`. The bank's is minus their sum."""
    fine, n = round_.rules.fine, round_.rules.players
    if round_.bank_result is None:
        return (player_ev(fine),) * n
    if round_.outcome != "duel":
        return round_.nets
    ev = player_ev_given(round_.bank_result, fine)
    return tuple(net + (ev if i >= round_.settled else 0) for i, net in enumerate(round_.nets))


GAME = Game(
    name=NAME,
    title="Les Royaumes",
    summary="2d6 against a bank: beat its result within the same kingdom; off-kingdom rolls cost a fine.",
    Rules=Rules,
    report=report,
    simulate=simulate,
    initial_state=initial_state,
    policies=policies,
    lesson="09-les-royaumes",
    dashboard="les-royaumes.ipynb",
    pitch=(
        "Duel the bank's 2d6 within its kingdom: exact odds, fines and expected value for any fine, with "
        "running bankrolls."
    ),
)
"""This game, as the registry, the command line and the gallery see it."""
