"""Playing a Nessie turn well: what a stop is worth, reveal-or-stop, and the optimal rule.

Values are in treasure points. A stop takes the best run ending at the last revealed card
(`best_take`). Each Nessie card kept counts `letter_value` too: a stated scoring of Nessie
progress, by default 10/6 everywhere (the +10 for all six letters spread over them); pass
letter_value=0 to count treasure only.

Strategies answer "reveal another card?" from what the player can see: two human rules
(`stop_at`, `stop_when_risky`) and a one-step look-ahead.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from numbers import Integral, Rational, Real

from nessus.games.nessie.engine import CHAIN, Game, Hand, neighbours, take
from nessus.games.nessie.odds import Card, Situation, p_sink_within

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


Strategy = Callable[[Situation, Hand, int], bool]  # (situation, hand, cards revealed this turn) -> reveal?


@dataclass(frozen=True)
class StopAt:
    """The human rule "stop once I have revealed `cards` cards this turn" (table-driven: the
    fast engine `nessie.fast` plays it)."""

    cards: int

    def __post_init__(self) -> None:
        if not isinstance(self.cards, Integral) or isinstance(self.cards, bool) or self.cards < 1:
            raise ValueError(f"cards must be an integer >= 1, got {self.cards!r}")
        object.__setattr__(self, "cards", int(self.cards))

    def __call__(self, s: Situation, hand: Hand, revealed: int) -> bool:
        return revealed < self.cards


@dataclass(frozen=True)
class StopWhenRisky:
    """The human rule "stop when P(the next card sinks me) > limit" (table-driven: the fast
    engine `nessie.fast` plays it). `limit` is kept as an exact Fraction."""

    limit: Fraction = Fraction(3, 10)

    def __post_init__(self) -> None:
        if not isinstance(self.limit, Real) or isinstance(self.limit, bool) or not 0 <= self.limit <= 1:
            raise ValueError(f"limit must be a number from 0 to 1, got {self.limit!r}")
        exact = self.limit if isinstance(self.limit, Rational) else float(self.limit)
        object.__setattr__(self, "limit", Fraction(exact))

    def __call__(self, s: Situation, hand: Hand, revealed: int) -> bool:
        return revealed == 0 or p_sink_within(s, 1) <= self.limit


def stop_at(cards: int) -> StopAt:
    """The human rule "stop once I have revealed `cards` cards this turn"."""
    return StopAt(cards)


def stop_when_risky(limit: Fraction = Fraction(3, 10)) -> StopWhenRisky:
    """The human rule "stop when P(the next card sinks me) > limit"."""
    return StopWhenRisky(limit)


def lookahead(letter_value: Fraction = LETTER_VALUE) -> Strategy:
    """Reveal while revealing one more card (then taking the best run) is worth more than
    stopping now, under the stated scoring."""
    return lambda s, hand, revealed: revealed == 0 or choice(s, hand, letter_value=letter_value).reveal


MAX_TURNS = 3000


def play_turn(game: Game, strategy: Strategy, letter_value: Fraction = LETTER_VALUE) -> None:
    """The current player reveals while the strategy says so, then takes the best run (valued
    with the strategy's own `letter_value` when it has one, e.g. the optimal rule's 0)."""
    letter_value = getattr(strategy, "letter_value", letter_value)
    player = game.current
    while not game.over and game.current == player:
        if strategy(game.situation(), game.hand, game.revealed):
            game.reveal()
        else:
            n, _ = best_take(game.hand, tuple(game.row), game.adjacency, letter_value)
            game.stop(n)


def play_game(strategies: list[Strategy], rng, max_turns: int = MAX_TURNS) -> Game:
    """A whole game, seat i playing strategies[i]; stops after max_turns turns if unfinished."""

    game = Game.new(len(strategies), rng)
    while not game.over and game.turns < max_turns:
        play_turn(game, strategies[game.current])
    return game


def tournament_kernel(strategies: tuple[Strategy, ...], rng, n: int) -> dict:
    """n whole games; game g seats strategy i at seat (i + g) mod players. Per strategy: won
    (alone or sharing the win) and its score; and whether the game ended by a completed Nessie."""
    import numpy as np

    k = len(strategies)
    wins = np.zeros((k, n), dtype=bool)
    scores = np.zeros((k, n), dtype=np.int64)
    finished = np.zeros(n, dtype=bool)
    for g in range(n):
        seat_of = [(i + g) % k for i in range(k)]
        by_seat = [strategies[(seat - g) % k] for seat in range(k)]
        game = play_game(by_seat, rng)
        winners, points = game.winners(), game.scores()
        for i, seat in enumerate(seat_of):
            wins[i, g] = seat in winners
            scores[i, g] = points[seat]
        finished[g] = game.over
    out = {f"p_win_{i}": wins[i] for i in range(k)} | {f"mean_score_{i}": scores[i] for i in range(k)}
    out["p_finished"] = finished
    return out


def tournament(strategies: dict[str, Strategy], games: int = 1000, seed: int = 0, progress=None):
    """Win rates (95% Wilson intervals) and mean scores of strategies in whole games, as a
    polars DataFrame: strategy, p_win, ci_low, ci_high, mean_score, and p_finished (the share
    of games that ended with a completed Nessie rather than at the turn limit). When every
    strategy is table-driven (`nessie.fast.is_table_driven`), the games are played together by
    the numpy engine `nessie.fast` (same rules, other random draws), otherwise one at a time."""
    from functools import partial

    import polars as pl

    from nessus import montecarlo
    from nessus.games.nessie import fast as nessie_fast

    names, chosen = list(strategies), tuple(strategies.values())
    kernel, chunk = partial(tournament_kernel, chosen), 256
    if all(nessie_fast.is_table_driven(s) for s in chosen):
        kernel, chunk = partial(nessie_fast.tournament_kernel, chosen), nessie_fast.CHUNK
    result = montecarlo.run(kernel, games, seed, progress=progress, chunk=chunk)
    return pl.DataFrame(
        {
            "strategy": names,
            "p_win": [result[f"p_win_{i}"].value for i in range(len(names))],
            "ci_low": [result[f"p_win_{i}"].ci[0] for i in range(len(names))],
            "ci_high": [result[f"p_win_{i}"].ci[1] for i in range(len(names))],
            "mean_score": [result[f"mean_score_{i}"].value for i in range(len(names))],
            "p_finished": [result["p_finished"].value] * len(names),
        }
    )
