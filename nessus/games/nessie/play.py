"""Playing Nessie well: what a stop is worth, reveal-or-stop, the rules of play as policies,
and tournaments between them.

Values are in treasure points. A stop takes the best run ending at the last revealed card
(`best_take`). Each Nessie card kept counts `letter_value` too: a stated scoring of Nessie
progress, by default 10/6 everywhere (the +10 for all six letters spread over them); pass
letter_value=0 to count treasure only.

A rule answers "reveal another card?" from what the player can see (`Rule.reveals`) and then
takes the best run; each rule is a protocol policy (`rule(state) -> action`). Two human rules
(`stop_at`, `stop_when_risky`), a one-step look-ahead, and the optimal single-turn rule
(`nessie.optimal.optimal`).

>>> from nessus.games.nessie import initial_state
>>> state = initial_state().reveal("2").reveal("3")
>>> stop_at(2)(state), stop_at(3)(state)
(Stop(take=2), 'reveal')
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass
from fractions import Fraction
from numbers import Integral, Rational, Real
from typing import TYPE_CHECKING

import numpy as np

from nessus.games.nessie.engine import CHAIN, REVEAL, Hand, Stop, neighbours, take
from nessus.games.nessie.odds import Card, Situation, p_sink_within

if TYPE_CHECKING:
    import polars as pl

    from nessus.game import Action
    from nessus.game import State as GameState

LETTER_VALUE = Fraction(10, 6)


def take_value(
    hand: Hand, row: tuple[Card, ...], n: int, adjacency=CHAIN, letter_value: Fraction = LETTER_VALUE
) -> Fraction:
    """The value of taking the last n row cards: treasure gained minus treasure lost, plus
    letter_value per Nessie card kept."""
    after, _ = take(hand, list(row[len(row) - n :][::-1]), neighbours(adjacency))
    return Fraction(sum(after.treasures) - sum(hand.treasures)) + letter_value * (
        len(after.letters) - len(hand.letters)
    )


def best_take(
    hand: Hand, row: tuple[Card, ...], adjacency=CHAIN, letter_value: Fraction = LETTER_VALUE
) -> tuple[int, Fraction]:
    """(n, value): the run of the last n cards worth most (the shortest such run)."""
    best_n, best = 0, Fraction(0)
    for n in range(1, len(row) + 1):
        v = take_value(hand, row, n, adjacency, letter_value)
        if v > best:
            best_n, best = n, v
    return best_n, best


def _sinks(s: Situation, card: Card) -> bool:
    return Situation(s.pool, s.row + (card,), s.own_letters).sunk()


@dataclass(frozen=True)
class Choice:
    """The odds panel: P(sink next), P(sink within 3), stop now vs reveal one more and stop."""

    p_sink_next: Fraction
    p_sink_within_3: Fraction
    stop_value: Fraction
    stop_take: int
    reveal_one_value: Fraction

    @property
    def reveal(self) -> bool:
        """Does revealing one more (then stopping at the best take) beat stopping now?"""
        return self.reveal_one_value > self.stop_value


def choice(s: Situation, hand: Hand, adjacency=CHAIN, letter_value: Fraction = LETTER_VALUE) -> Choice:
    """Stop now (best take) against reveal exactly one more card and then take the best run."""
    if s.own_letters != frozenset(hand.letters):
        raise ValueError(
            f"the situation's letters {sorted(s.own_letters)} and the hand's {sorted(hand.letters)} differ"
        )
    n, stop = best_take(hand, s.row, adjacency, letter_value)
    total = s.pool_size
    reveal = Fraction(0)
    for card, count in s.pool.items():
        if count and not _sinks(s, card):
            reveal += Fraction(count, total) * best_take(hand, s.row + (card,), adjacency, letter_value)[1]
    return Choice(p_sink_within(s, 1), p_sink_within(s, 3), stop, n, reveal)


class Rule(ABC):
    """A way to play a turn: reveal while `reveals` says so (the first card of a turn is always
    revealed), then take the best run, valued with the rule's `letter_value`. Called on a
    `nessie.State`, it is a protocol policy."""

    letter_value: Fraction = LETTER_VALUE

    @abstractmethod
    def reveals(self, s: Situation, hand: Hand, revealed: int) -> bool:
        """Reveal another card, in situation `s` holding `hand`, `revealed` cards into the turn?"""

    def __call__(self, state: GameState) -> Action:
        from nessus.games.nessie import State

        if not isinstance(state, State):
            raise ValueError(f"state must be a nessie.State (a Nessie rule plays Nessie), got {type(state).__name__}")
        if REVEAL in state.legal_actions() and (
            state.revealed == 0 or self.reveals(state.situation(), state.hand(), state.revealed)
        ):
            return REVEAL
        return Stop(best_take(state.hand(), state.row, CHAIN, self.letter_value)[0])


@dataclass(frozen=True)
class StopAt(Rule):
    """The human rule "stop once I have revealed `cards` cards this turn" (table-driven: the
    fast engine `nessie.fast` plays it)."""

    cards: int

    def __post_init__(self) -> None:
        if not isinstance(self.cards, Integral) or isinstance(self.cards, bool) or self.cards < 1:
            raise ValueError(f"cards must be an integer >= 1, got {self.cards!r}")
        object.__setattr__(self, "cards", int(self.cards))

    def reveals(self, s: Situation, hand: Hand, revealed: int) -> bool:
        return revealed < self.cards


@dataclass(frozen=True)
class StopWhenRisky(Rule):
    """The human rule "stop when P(the next card sinks me) > limit" (table-driven: the fast
    engine `nessie.fast` plays it). `limit` is kept as an exact Fraction."""

    limit: Fraction = Fraction(3, 10)

    def __post_init__(self) -> None:
        if not isinstance(self.limit, Real) or isinstance(self.limit, bool) or not 0 <= self.limit <= 1:
            raise ValueError(f"limit must be a number from 0 to 1, got {self.limit!r}")
        exact = self.limit if isinstance(self.limit, Rational) else float(self.limit)
        object.__setattr__(self, "limit", Fraction(exact))

    def reveals(self, s: Situation, hand: Hand, revealed: int) -> bool:
        return revealed == 0 or p_sink_within(s, 1) <= self.limit


@dataclass(frozen=True)
class Lookahead(Rule):
    """Reveal while revealing one more card (then taking the best run) is worth more than
    stopping now, under the stated scoring (`choice`)."""

    letter_value: Fraction = LETTER_VALUE

    def reveals(self, s: Situation, hand: Hand, revealed: int) -> bool:
        return revealed == 0 or choice(s, hand, letter_value=self.letter_value).reveal


def stop_at(cards: int) -> StopAt:
    """The human rule "stop once I have revealed `cards` cards this turn"."""
    return StopAt(cards)


def stop_when_risky(limit: Fraction = Fraction(3, 10)) -> StopWhenRisky:
    """The human rule "stop when P(the next card sinks me) > limit"."""
    return StopWhenRisky(limit)


def lookahead(letter_value: Fraction = LETTER_VALUE) -> Lookahead:
    """The one-step look-ahead rule (see `Lookahead`)."""
    return Lookahead(letter_value)


def tournament_kernel(rules: tuple[Rule, ...], rng: np.random.Generator, n: int) -> dict[str, np.ndarray]:
    """n whole games played through the protocol (`nessus.play.play` on `nessie.State`); game g
    seats rule i at seat (i + g) mod players. Per rule: won (alone or sharing the win) and its
    score; and whether the game ended by a completed Nessie."""
    from nessus.games.nessie import Rules, initial_state
    from nessus.play import play

    k = len(rules)
    start = initial_state(Rules(players=k))
    wins = np.zeros((k, n), dtype=bool)
    scores = np.zeros((k, n), dtype=np.int64)
    finished = np.zeros(n, dtype=bool)
    for g in range(n):
        seat_of = [(i + g) % k for i in range(k)]
        end = play(start, [rules[(seat - g) % k] for seat in range(k)], rng)
        assert isinstance(end, type(start))
        winners, points = end.winners(), end.scores()
        for i, seat in enumerate(seat_of):
            wins[i, g] = seat in winners
            scores[i, g] = points[seat]
        finished[g] = end.finisher is not None
    out = {f"p_win_{i}": wins[i] for i in range(k)} | {f"mean_score_{i}": scores[i] for i in range(k)}
    out["p_finished"] = finished
    return out


def tournament(rules: dict[str, Rule], games: int = 1000, seed: int = 0, progress=None) -> pl.DataFrame:
    """Win rates and mean scores of rules in whole games, the players moved round the table from
    game to game, as a polars DataFrame with `nessus.play.tournament`'s names where they mean the
    same: policy, p_win (the share of games won alone or sharing the win: not `win_share`, which
    counts a k-way shared win 1/k) with its 95% Wilson interval low..high, mean_score, and
    p_finished (the share of games that ended with a completed Nessie rather than at the turn
    limit). When every rule is table-driven (`nessie.fast.is_table_driven`),
    the games are played together by the numpy engine `nessie.fast` (same rules, other random
    draws), otherwise one at a time through the protocol (`tournament_kernel`)."""
    from functools import partial

    import polars as pl

    from nessus import montecarlo
    from nessus.games.nessie import fast as nessie_fast

    names, chosen = list(rules), tuple(rules.values())
    kernel, chunk = partial(tournament_kernel, chosen), 256
    if all(nessie_fast.is_table_driven(r) for r in chosen):
        kernel, chunk = partial(nessie_fast.tournament_kernel, chosen), nessie_fast.CHUNK
    result = montecarlo.run(kernel, games, seed, progress=progress, chunk=chunk)
    return pl.DataFrame(
        {
            "policy": names,
            "p_win": [result[f"p_win_{i}"].value for i in range(len(names))],
            "low": [result[f"p_win_{i}"].ci[0] for i in range(len(names))],
            "high": [result[f"p_win_{i}"].ci[1] for i in range(len(names))],
            "mean_score": [result[f"mean_score_{i}"].value for i in range(len(names))],
            "p_finished": [result["p_finished"].value] * len(names),
        }
    )
