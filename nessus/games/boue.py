"""La Boue (Stuck in the Mud): roll the dice; a roll with no 2 and no 5 scores its total and
the same dice roll again; otherwise it scores nothing and the dice showing 2 or 5 are stuck.
The turn ends when every die is stuck. A game is 3 rounds; highest total wins (RULES.md s. 8).

The turn is an absorbing chain on the number of free dice whose score has unbounded support;
`turn_distribution` gives every P(score = s) exactly and the exact mass beyond the bound.

A whole game (`State`, the game protocol) has no decisions: every roll is a chance node, the
free dice a sorted multiset with its exact weight. One die, two players:

>>> state = initial_state(Rules(dice=1))
>>> len(state.chance_outcomes()), state.apply((6,)).scores
(6, (6, 0))
>>> state.apply((6,)).apply((2,)).turn_over   # a 2 sticks: the turn is over
True
>>> turn_chain(1).mean(1)
Fraction(7, 1)
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass
from fractions import Fraction
from functools import cache, partial
from math import comb

import numpy as np

from nessus import game, montecarlo
from nessus.chains import RewardChain, Step
from nessus.dice import multisets, roll_faces, roll_outcomes
from nessus.dist import TruncatedDist
from nessus.game import Game
from nessus.report import Figure, Report
from nessus.rules import GameRules, Param, field

NAME = "boue"
STUCK = (2, 5)
_FACE_CODE = (np.arange(7) + 128 * np.isin(np.arange(7), STUCK)).astype(np.int32)  # face + 128 if it sticks
ROUNDS = 3
TAIL = 1e-15

DICE = Param("dice", 5, 1, 10, "dice at the start of a turn")
PLAYERS = Param("players", 2, 2, 10, "players in a game (for the tie figure)")


@dataclass(frozen=True)
class Rules(GameRules):
    params = (DICE, PLAYERS)
    dice: int = field(DICE)
    players: int = field(PLAYERS)


def stuck_count(roll: tuple[int, ...]) -> int:
    """How many dice of a roll get stuck (show 2 or 5)."""
    return sum(1 for d in roll if d in STUCK)


@cache
def turn_chain(dice: int) -> RewardChain:
    """The turn as a chain: state = free dice; a clean roll adds its total, else dice stick."""
    steps: dict[Hashable, list[Step]] = {}
    for n in range(1, dice + 1):
        grouped: dict[tuple[int, int | None], Fraction] = {}
        for roll, count in multisets(n):
            k = stuck_count(roll)
            key = (sum(roll), n) if k == 0 else (0, n - k or None)
            grouped[key] = grouped.get(key, Fraction(0)) + Fraction(count, 6**n)
        steps[n] = [Step(p, reward, to) for (reward, to), p in grouped.items()]
    return RewardChain(steps)


def turn_distribution(rules: Rules | None = None, bound: int | None = None, tail_below: float = TAIL) -> TruncatedDist:
    """The exact turn score distribution: to `bound`, or as far as needed for tail < tail_below."""
    rules = rules or Rules()
    chain = turn_chain(rules.dice)
    if bound is not None:
        return chain.distribution(rules.dice, bound=bound)
    return chain.distribution(rules.dice, tail_below=tail_below)


@cache
def game_chain(dice: int, rounds: int = ROUNDS) -> RewardChain:
    """A whole game for one player: state = (round, free dice); when every die is stuck the
    next round starts with all dice free, and the last round's end ends the chain."""
    turn = turn_chain(dice)

    def after(r: int, to: Hashable | None) -> tuple[int, Hashable] | None:
        if to is not None:
            return (r, to)
        return (r + 1, dice) if r < rounds else None

    return RewardChain(
        {
            (r, n): [Step(t.probability, t.reward, after(r, t.to)) for t in steps]
            for r in range(1, rounds + 1)
            for n, steps in turn.steps.items()
        }
    )


def game_total_distribution(
    rules: Rules | None = None, rounds: int = ROUNDS, tail_below: float = TAIL
) -> TruncatedDist:
    """The exact distribution of a player's total over `rounds` turns, with exact tail < tail_below."""
    dice = (rules or Rules()).dice
    return game_chain(dice, rounds).distribution((1, dice), tail_below=tail_below)


def tie_for_first(total: TruncatedDist, players: int) -> tuple[Fraction, Fraction]:
    """Exact bounds [lower, upper] on P(two or more players share the highest total).

    Sums P(max = s and shared) over s <= bound exactly; the rest is at most P(max > bound).
    """
    pmf = total.pmf()
    below = Fraction(0)
    shared = Fraction(0)
    for p in pmf:
        upto = below + p
        shared += upto**players - below**players - players * p * below ** (players - 1)
        below = upto
    return shared, shared + (1 - below**players)


def report(rules: Rules | None = None) -> Report:
    """The exact headline figures (the tie figure is a series: bracketed exactly)."""
    rules = rules or Rules()
    chain = turn_chain(rules.dice)
    turn = turn_distribution(rules, bound=60)
    game = game_total_distribution(rules)
    mean = chain.mean(rules.dice)
    lo, hi = tie_for_first(game, rules.players)
    return Report(
        NAME,
        rules.as_dict(),
        {
            "turn_mean": Figure.of(mean, "expected score of one turn"),
            "turn_variance": Figure.of(chain.variance(rules.dice), "variance of one turn's score"),
            "p_turn_zero": Figure.of(turn.probability(0), "P(a turn scores 0)"),
            "p_turn_at_most_20": Figure.of(turn.cdf(20), "P(a turn scores 20 or less)"),
            "three_round_mean": Figure.of(ROUNDS * mean, "expected total over 3 rounds"),
            "p_three_rounds_at_least_60": Figure.of(game.sf(59), "P(3-round total >= 60)"),
            "p_tie_for_first": Figure.bracket(lo, hi, f"P(tie for the highest 3-round total, {rules.players} players)"),
        },
    )


def turn_scores(dice: int, rng: np.random.Generator, n: int) -> np.ndarray:
    """The scores of n simulated turns (all turns advance together; only free dice are rolled).

    Each roll's dice lie side by side in one flat array; a face is coded face + 128 if it
    sticks, so one cumulative sum gives every roll's code: under 128 it is a clean roll's total,
    otherwise code // 128 dice stuck. A finished turn has no dice and adds 0; finished turns are
    dropped once they are half of those left.
    """
    out = np.zeros(n, dtype=np.int64)
    ids = np.arange(n)
    free = np.full(n, dice, dtype=np.int32)
    score = np.zeros(n, dtype=np.int32)
    live = n
    while live:
        ends = np.cumsum(free)
        codes = _FACE_CODE.take(rng.integers(1, 7, size=int(ends[-1]), dtype=np.int8))
        running = np.zeros(codes.size + 1, dtype=np.int32)
        np.cumsum(codes, out=running[1:])
        roll = running[ends]
        roll[1:] -= running[ends[:-1]]
        score += np.where(roll < 128, roll, 0)
        free -= roll >> 7
        live = int(np.count_nonzero(free))
        if live <= free.size // 2:
            done = free == 0
            out[ids[done]] = score[done]
            keep = ~done
            ids, free, score = ids[keep], free[keep], score[keep]
    return out


def turn_kernel(dice: int, rng: np.random.Generator, n: int) -> dict[str, np.ndarray]:
    """n turns: score, scored zero, scored at most 20."""
    s = turn_scores(dice, rng, n)
    return {"turn_mean": s, "p_turn_zero": s == 0, "p_turn_at_most_20": s <= 20}


def game_kernel(rules: Rules, rng: np.random.Generator, n: int) -> dict[str, np.ndarray]:
    """n games of `players` players x 3 rounds: player 1's total, and whether first place is shared."""
    totals = turn_scores(rules.dice, rng, n * rules.players * ROUNDS).reshape(n, rules.players, ROUNDS).sum(axis=2)
    best = totals.max(axis=1, keepdims=True)
    return {
        "three_round_mean": totals[:, 0],
        "p_three_rounds_at_least_60": totals[:, 0] >= 60,
        "p_tie_for_first": (totals == best).sum(axis=1) > 1,
    }


def simulate(rules: Rules | None = None, trials: int = 100_000, seed: int = 0, client=None, progress=None) -> Report:
    """Monte Carlo figures with 95% confidence intervals (turns, and whole games)."""
    rules = rules or Rules()
    turns = montecarlo.run(partial(turn_kernel, rules.dice), trials, seed, client=client, progress=progress)
    games = montecarlo.run(partial(game_kernel, rules), trials, seed + 1, client=client, progress=progress)
    estimates = turns.estimates | games.estimates
    return Report(NAME, rules.as_dict(), {k: Figure.estimated(e) for k, e in estimates.items()})


# -- the game (the protocol) ---------------------------------------------------------------------
@cache
def _max_rolls(dice: int, turns: int) -> int:
    """Rolls that `turns` turns pass with probability below 1e-15: the bound of the turn's
    number of rolls (a chain on the free dice adding 1 a roll) with tail below 1e-15 / turns,
    times `turns`."""
    steps: dict[Hashable, list[Step]] = {
        n: [Step(Fraction(comb(n, k) * 2 ** (n - k), 3**n), 1, n - k or None) for k in range(n + 1)]
        for n in range(1, dice + 1)
    }
    return turns * RewardChain(steps).distribution(dice, tail_below=1e-15 / turns).bound


@dataclass(frozen=True)
class State(game.State):
    """A whole game (the game protocol): `rounds` rounds, in each every player plays a turn in
    seat order; every roll is a chance node (the free dice, a sorted multiset with its exact
    weight). No decisions.

    `scores` are the players' totals (the turn in play included), `turn` the number of turns
    before the one in play (player `turn % players`, round `turn // players + 1`), and `free`,
    `stuck`, `score` and `rolls` that turn's free dice, stuck dice, score and rolls. A finished
    turn stays in view (free = 0) until the next player's first roll. The returns are the win
    shares of the highest total. A turn could go on for ever; `shape().max_length` is a length
    passed with probability below 1e-15.
    """

    rules: Rules
    scores: tuple[int, ...]
    free: int
    turn: int = 0
    stuck: tuple[int, ...] = ()
    score: int = 0
    rolls: tuple[tuple[int, ...], ...] = ()
    rounds: int = ROUNDS

    @property
    def player(self) -> int:
        """The player (from 0) of the turn in play, or just over."""
        return self.turn % self.rules.players

    @property
    def round(self) -> int:
        """The round (from 1) of the turn in play, or just over."""
        return self.turn // self.rules.players + 1

    @property
    def turn_over(self) -> bool:
        """Every die of the turn in view is stuck."""
        return self.free == 0

    @property
    def last(self) -> tuple[int, ...]:
        """The turn's last roll ((), before its first)."""
        return self.rolls[-1] if self.rolls else ()

    # -- the protocol -------------------------------------------------------------------------------
    def current_player(self) -> int:
        last_turn = self.turn == self.rounds * self.rules.players - 1
        return game.TERMINAL if self.turn_over and last_turn else game.CHANCE

    def legal_actions(self) -> list[game.Action]:
        return []

    def chance_outcomes(self) -> list[tuple[game.Action, Fraction]]:
        if self.is_terminal():
            return []
        return roll_outcomes(self.free or self.rules.dice)

    def _apply(self, action: game.Action) -> State:
        assert isinstance(action, tuple)
        dice: tuple[int, ...] = action
        state = self
        if self.turn_over:
            state = State(self.rules, self.scores, self.rules.dice, self.turn + 1, rounds=self.rounds)
        rolled = state.rolls + (dice,)
        newly = tuple(d for d in dice if d in STUCK)
        if newly:
            return State(
                state.rules,
                state.scores,
                state.free - len(newly),
                state.turn,
                state.stuck + newly,
                state.score,
                rolled,
                state.rounds,
            )
        scores = tuple(s + sum(dice) * (p == state.player) for p, s in enumerate(state.scores))
        return State(
            state.rules, scores, state.free, state.turn, state.stuck, state.score + sum(dice), rolled, state.rounds
        )

    def returns(self) -> list[Fraction]:
        return game.win_shares(self.scores)

    def observation(self, player: int) -> str:
        game.check_players([player], self.shape())
        scores = ", ".join(f"player {p}: {s}" for p, s in enumerate(self.scores, start=1))
        stuck = " ".join(map(str, self.stuck)) or "none"
        last = f", last roll {' '.join(map(str, self.last))}" if self.rolls else ""
        now = (
            f"round {self.round} of {self.rounds}, player {self.player + 1}'s turn: score {self.score}, "
            f"{self.free} dice free, stuck {stuck}{last}"
        )
        end = "; game over" if self.is_terminal() else ("; turn over" if self.turn_over else "")
        return f"you are player {player + 1}; scores {scores}; {now}{end}"

    def shape(self) -> game.Shape:
        r = self.rules
        return game.Shape(
            players=r.players,
            max_actions=0,
            max_chance_outcomes=len(roll_outcomes(r.dice)),
            max_length=_max_rolls(r.dice, r.players * self.rounds),
            min_return=Fraction(0),
            max_return=Fraction(1),
        )

    # -- playing --------------------------------------------------------------------------------------
    def roll(self, rng: np.random.Generator | None = None, dice: tuple[int, ...] | None = None) -> State:
        """Roll the free dice (the given faces in any order, or drawn with `rng`); once a turn is
        over, the next player's first roll."""
        if self.is_terminal():
            raise ValueError("the game is over: every turn has been played")
        n = self.free or self.rules.dice
        return self.apply(roll_faces(n, rng, dice))


def initial_state(rules: Rules | None = None) -> State:
    """The start of a game: player 1 about to roll every die in round 1."""
    rules = rules or Rules()
    return State(rules, (0,) * rules.players, rules.dice, rounds=ROUNDS)


def policies(rules: Rules | None = None) -> dict[str, game.Policy]:
    """No decisions in La Boue: no policies."""
    return {}


GAME = Game(
    name=NAME,
    title="La Boue",
    summary="Stuck in the Mud: every 2 or 5 sticks; score the rolls with none.",
    Rules=Rules,
    report=report,
    simulate=simulate,
    initial_state=initial_state,
    policies=policies,
    lesson="02-la-boue",
    dashboard="la-boue.ipynb",
    pitch="Play a turn of Stuck in the Mud die by die while simulated turns fill in the exact distribution.",
)
"""This game, as the registry, the command line and the gallery see it."""
