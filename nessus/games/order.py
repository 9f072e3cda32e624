"""Order of play: everyone rolls 2d6, the highest total starts; players tied for the highest
roll again among themselves until one is highest (RULES.md section 0).

The roll-off is a game without decisions (`State`, the game protocol): each player still tied
rolls 2d6 in turn, a chance node whose outcomes are the sorted pairs with exact weights.

>>> state = initial_state(Rules(players=2))
>>> len(state.chance_outcomes()), sum(p for _, p in state.chance_outcomes())
(21, Fraction(1, 1))
>>> end = state.apply((6, 6)).apply((1, 3))
>>> end.winner, end.history, end.returns()
(1, ({1: 12, 2: 4},), [Fraction(1, 1), Fraction(0, 1)])
>>> expected_rounds(Rules(players=2))
Fraction(648, 575)
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache, partial
from math import comb

import numpy as np

from nessus import game, montecarlo
from nessus.chains import RewardChain, Step
from nessus.dice import check_faces, roll_outcomes, total
from nessus.dist import Dist, TruncatedDist
from nessus.game import Game
from nessus.report import Figure, Report
from nessus.rules import GameRules, Param, field

NAME = "order"
PLAYERS = Param("players", 4, 2, 10, "number of players rolling for first place")


@dataclass(frozen=True)
class Rules(GameRules):
    params = (PLAYERS,)
    players: int = field(PLAYERS)


@cache
def top_ties(players: int) -> Dist:
    """The number of players tied for the highest 2d6 total when `players` players roll."""
    two = total(2)
    out: dict[Hashable, Fraction] = {}
    below = Fraction(0)
    for _, p in two.items():
        for j in range(1, players + 1):
            out[j] = out.get(j, Fraction(0)) + comb(players, j) * p**j * below ** (players - j)
        below += p
    return Dist.from_probabilities(out)


@cache
def rolloff(players: int) -> RewardChain:
    """The roll-off as a chain on 'number of players tied for highest'; each round adds 1."""
    return RewardChain(
        {
            m: [Step(top_ties(m)[j], 1, j if j > 1 else None) for j in range(1, m + 1) if top_ties(m)[j]]
            for m in range(2, players + 1)
        }
    )


def p_unique_first_roll(rules: Rules) -> Fraction:
    """P(one player alone has the highest total on the first roll)."""
    return top_ties(rules.players)[1]


def expected_rounds(rules: Rules) -> Fraction:
    """E[rounds of rolling until one player is highest], the first roll included."""
    return rolloff(rules.players).mean(rules.players)


def rounds(rules: Rules, tail_below: float = 1e-15) -> TruncatedDist:
    """The exact distribution of the number of rounds, with its exact tail."""
    return rolloff(rules.players).distribution(rules.players, tail_below=tail_below)


def report(rules: Rules | None = None) -> Report:
    """The exact headline figures."""
    rules = rules or Rules()
    return Report(
        NAME,
        rules.as_dict(),
        {
            "p_unique_first_roll": Figure.of(p_unique_first_roll(rules), "one player alone is highest at once"),
            "expected_rounds": Figure.of(expected_rounds(rules), "rounds of 2d6 until one player is highest"),
        },
    )


def kernel(players: int, rng: np.random.Generator, n: int) -> dict[str, np.ndarray]:
    """n roll-offs: whether the first roll had a unique highest, and the rounds they took."""
    tied = np.ones((n, players), dtype=bool)
    rounds_taken = np.zeros(n, dtype=np.int64)
    unique_first = np.zeros(n, dtype=bool)
    live = np.arange(n)
    first = True
    while live.size:
        totals = rng.integers(1, 7, size=(live.size, players, 2), dtype=np.int8).sum(axis=2, dtype=np.int8)
        totals = np.where(tied[live], totals, 0)
        still = totals == totals.max(axis=1, keepdims=True)
        tied[live] = still
        rounds_taken[live] += 1
        done = still.sum(axis=1) == 1
        if first:
            unique_first[live] = done
            first = False
        live = live[~done]
    return {"p_unique_first_roll": unique_first, "expected_rounds": rounds_taken}


def simulate(rules: Rules | None = None, trials: int = 100_000, seed: int = 0, client=None, progress=None) -> Report:
    """Monte Carlo figures with 95% confidence intervals."""
    rules = rules or Rules()
    result = montecarlo.run(partial(kernel, rules.players), trials, seed, client=client, progress=progress)
    return Report(NAME, rules.as_dict(), {k: Figure.estimated(e) for k, e in result.estimates.items()})


@cache
def _max_rounds(players: int) -> int:
    """Rounds that a roll-off of `players` passes with probability below 1e-15 (the bound of
    `rounds` with that tail)."""
    return rounds(Rules(players=players)).bound


Rolls = tuple[tuple[int, tuple[int, ...]], ...]
"""One round's rolls: (player from 1, the 2d6 as a sorted pair), in the order rolled."""


@dataclass(frozen=True)
class State(game.State):
    """A roll-off (the game protocol): each player still tied rolls 2d6 in turn (a chance node,
    the dice a sorted pair with its exact weight); when all have rolled, those with the highest
    total stay tied. No decisions. `tied` are the players (from 1) still in, `done` every
    finished round's rolls and `rolling` this round's so far. The returns are 1 to the player
    who starts, 0 to the others (player i is player i + 1 here). A roll-off could go on for
    ever; `shape().max_length` is a length passed with probability below 1e-15.
    """

    rules: Rules
    tied: tuple[int, ...]
    done: tuple[Rolls, ...] = ()
    rolling: Rolls = ()

    @property
    def players(self) -> int:
        return self.rules.players

    @property
    def winner(self) -> int | None:
        """The player who starts, once one is alone at the top."""
        return self.tied[0] if len(self.tied) == 1 else None

    @property
    def history(self) -> tuple[dict[int, int], ...]:
        """Each finished round's totals: {player: 2d6 total}."""
        return tuple({p: sum(d) for p, d in rolled} for rolled in self.done)

    @property
    def roller(self) -> int | None:
        """The player who rolls next (None once a player is alone at the top)."""
        return None if self.winner is not None else self.tied[len(self.rolling)]

    # -- the protocol -------------------------------------------------------------------------------
    def current_player(self) -> int:
        return game.TERMINAL if self.winner is not None else game.CHANCE

    def legal_actions(self) -> list[game.Action]:
        return []

    def chance_outcomes(self) -> list[tuple[game.Action, Fraction]]:
        return [] if self.winner is not None else roll_outcomes(2)

    def _apply(self, action: game.Action) -> State:
        assert isinstance(action, tuple) and self.roller is not None
        rolling = self.rolling + ((self.roller, action),)
        if len(rolling) < len(self.tied):
            return State(self.rules, self.tied, self.done, rolling)
        best = max(sum(d) for _, d in rolling)
        return State(self.rules, tuple(p for p, d in rolling if sum(d) == best), self.done + (rolling,))

    def returns(self) -> list[Fraction]:
        if self.winner is None:
            return [Fraction(0)] * self.players
        return game.winner_returns(self.players, self.winner - 1)

    def observation(self, player: int) -> str:
        game.check_players([player], self.shape())
        past = "; ".join(
            f"round {k}: " + ", ".join(f"player {p} {t}" for p, t in totals.items())
            for k, totals in enumerate(self.history, start=1)
        )
        if self.winner is not None:
            now = f"player {self.winner} starts"
        else:
            now = (
                f"round {len(self.done) + 1}, players {', '.join(map(str, self.tied))} roll"
                + "".join(f"; player {p} rolled {sum(d)}" for p, d in self.rolling)
                + f"; player {self.roller} rolls next"
            )
        return f"you are player {player + 1}; " + (f"{past}; " if past else "") + now

    def shape(self) -> game.Shape:
        n = self.players
        return game.Shape(
            players=n,
            max_actions=0,
            max_chance_outcomes=len(roll_outcomes(2)),
            max_length=n * _max_rounds(n),
            min_return=Fraction(0),
            max_return=Fraction(1),
        )

    # -- playing --------------------------------------------------------------------------------------
    def roll(self, rng: np.random.Generator | None = None, dice: Sequence[tuple[int, int]] | None = None) -> State:
        """Everyone still to roll this round rolls 2d6 (the given pairs, one per player in order,
        or drawn with `rng`); those with the highest total stay tied."""
        if self.winner is not None:
            raise ValueError("the roll-off is over: a player is alone at the top")
        left = len(self.tied) - len(self.rolling)
        if dice is None:
            if rng is None:
                raise ValueError("give rng or dice")
            pairs = (rng.integers(1, 7, size=2) for _ in range(left))
            dice = [(int(a), int(b)) for a, b in pairs]
        if len(dice) != left:
            raise ValueError(f"dice must give one pair for each of the {left} players still to roll, got {dice!r}")
        state = self
        for pair in dice:
            after = state.apply(tuple(sorted(check_faces(pair, 2))))
            assert isinstance(after, State)
            state = after
        return state


def initial_state(rules: Rules | None = None) -> State:
    """The start of a roll-off: every player tied, nobody has rolled."""
    rules = rules or Rules()
    return State(rules, tuple(range(1, rules.players + 1)))


def policies(rules: Rules | None = None) -> dict[str, game.Policy]:
    """No decisions in the roll-off: no policies."""
    return {}


GAME = Game(
    name=NAME,
    title="Order of play (2d6 roll-off)",
    summary="Who starts: everyone rolls 2d6, ties for the highest roll again.",
    Rules=Rules,
    report=report,
    simulate=simulate,
    initial_state=initial_state,
    policies=policies,
    lesson="00-who-starts",
)
"""This game, as the registry, the command line and the gallery see it."""
