"""The optimal Nessie turn: when to stop so as to take the most treasure on average, exactly.

The solver is `nessie.turn.TurnSolver` (expectimax over the unseen cards, layer by layer; values
are the expected *treasure taken*, exact Fractions). Here: the optimal player's choice
(`optimal_choice`, the rule `Optimal`), the solvers kept for the turns being played (one per
turn, shared by every caller in the process: a dashboard's viewers and its players), what k
more reveals would let a player take (`take_distribution`), and single turns simulated.

A game's first turn (the default deck, an empty hand) is the costly one: about 2 s from the
empty row. Its states with up to `OPENING_DEPTH` cards in the row are stored exactly in
data/nessie-opening.parquet (`nessus data rebuild nessie`; `nessus data check` compares them
with a fresh solve): a game's first decisions are look-ups.
"""

from __future__ import annotations

import threading
from collections import Counter, OrderedDict
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from typing import TYPE_CHECKING

import numpy as np

from nessus.dist import Dist, exact_str
from nessus.games.nessie.cards import CHAIN, Hand, Situation, make_deck
from nessus.games.nessie.odds import best_take
from nessus.games.nessie.policies import Rule
from nessus.games.nessie.rules import Rules
from nessus.games.nessie.turn import CARDS, MAX_PENALTIES, TurnSolver, code

if TYPE_CHECKING:
    import polars as pl


@dataclass(frozen=True)
class OptimalChoice:
    """The optimal player's view, in expected treasure points: stopping now takes
    `stop_value` (the last `take` cards of the row); revealing now and then playing optimally
    is worth `reveal_value` (None when no card is left to reveal)."""

    stop_value: Fraction
    reveal_value: Fraction | None
    take: int = 0

    @property
    def reveal(self) -> bool:
        """Does the optimal player reveal? (Ties stop.)"""
        return self.reveal_value is not None and self.reveal_value > self.stop_value

    @property
    def value(self) -> Fraction:
        """The optimal value of the state."""
        return self.reveal_value if self.reveal_value is not None and self.reveal else self.stop_value


_SOLVERS: OrderedDict[tuple, TurnSolver] = OrderedDict()
_SOLVERS_LOCK = threading.Lock()  # the dashboards' worker threads share the solvers
KEPT_SOLVERS = 8  # the turns whose solvers are kept (a turn's later decisions are look-ups in its solver)

# -- the opening: a fresh deck's first turn, stored in data/ --------------------------------
OPENING_DEPTH = 5  # rows of up to 5 cards are looked up; a deeper one is solved in about a tenth of a second
ROW_COLUMNS = tuple(f"row_{c}" for c in CARDS)


def _key(cards: dict[str, int], hand: Hand, adjacency: tuple[tuple[str, str], ...]) -> tuple:
    return (
        tuple(cards.get(c, 0) for c in CARDS),
        tuple(sorted(set(hand.letters))),
        tuple(sorted(hand.treasures)[:MAX_PENALTIES]),
        adjacency,
    )


def opening_cards() -> dict[str, int]:
    """The cards of the opening turn: the default deck (8 of each letter, 12 of each treasure)."""
    return dict(Counter(make_deck()))


def opening_table(cards: dict[str, int] | None = None, depth: int = OPENING_DEPTH) -> pl.DataFrame:
    """The first turn of a game with these cards (default: the default deck), an empty hand and
    the summary card's chain, freshly solved from the empty row (about 2 s): one row per state
    the solve expanded with at most `depth` cards in the row, sorted: `row_A` .. `row_3` (the
    row's card counts), `summary` (the state's summary, one signed byte per entry: the solver's
    key) and `reveal` (the exact value of revealing, then playing optimally, in treasure, "p/q")."""
    import polars as pl

    turn = TurnSolver(cards or opening_cards(), Hand())
    turn.values(())
    states = sorted(
        (counts, g.tobytes(), exact_str(Fraction(reveal, turn.scale[turn.size - sum(counts)])))
        for counts, g, reveal in turn.expanded_states(depth)
    )
    columns = {name: pl.Series(name, [s[0][i] for s in states], dtype=pl.UInt8) for i, name in enumerate(ROW_COLUMNS)}
    summaries = pl.Series("summary", [s[1] for s in states], dtype=pl.Binary)
    return pl.DataFrame({**columns, "summary": summaries, "reveal": [s[2] for s in states]})


def tables(rules: Rules | None = None) -> dict[str, pl.DataFrame]:
    """{"opening": the optimal single-turn values of a game's first turn with the rules' deck
    (`opening_table`), freshly solved (about 2 s)}. The stored one (default rules) makes the
    optimal player's first decisions a look-up."""
    rules = rules or Rules()
    return {"opening": opening_table(dict(Counter(rules.deck())))}


def opening_values(frame: pl.DataFrame, turn: TurnSolver) -> dict[tuple, int]:
    """The reveal values an `opening_table` holds, keyed as `turn` (the opening's solver) keys
    its states and scaled as it scales them."""
    known = {}
    for *counts, g, value in frame.select(*ROW_COLUMNS, "summary", "reveal").iter_rows():
        num, _, den = value.partition("/")
        scaled, rest = divmod(int(num) * turn.scale[turn.size - sum(counts)], int(den or 1))
        if rest:
            raise ValueError(f"the opening value {value} does not fit the solver's scale")
        known[(tuple(counts), g)] = scaled
    return known


@cache
def _stored_opening() -> pl.DataFrame | None:
    """The stored opening (data/nessie-opening.parquet), or None if not built."""
    from nessus import tables

    return tables.load("nessie", "opening")


def solver(s: Situation, hand: Hand, adjacency: tuple[tuple[str, str], ...] = CHAIN) -> TurnSolver:
    """The solver for this turn, shared by every caller (the same for every state of one turn,
    since a turn only moves cards from the pool to the row; the `KEPT_SOLVERS` latest turns are
    kept). A game's first turn (the default deck, an empty hand, the chain) starts from the
    stored opening's values when data/ has them."""
    if s.own_letters != frozenset(hand.letters):
        raise ValueError(
            f"the situation's letters {sorted(s.own_letters)} and the hand's {sorted(hand.letters)} differ"
        )
    cards = {c: s.pool.get(c, 0) + s.row.count(c) for c in CARDS}
    key = _key(cards, hand, adjacency)
    with _SOLVERS_LOCK:
        if key in _SOLVERS:
            _SOLVERS.move_to_end(key)
            return _SOLVERS[key]
    made = TurnSolver(cards, hand, adjacency)
    stored = _stored_opening() if key == _key(opening_cards(), Hand(), CHAIN) else None
    if stored is not None:
        made.known.update(opening_values(stored, made))
    with _SOLVERS_LOCK:
        made = _SOLVERS.setdefault(key, made)
        _SOLVERS.move_to_end(key)
        while len(_SOLVERS) > KEPT_SOLVERS:
            _SOLVERS.popitem(last=False)
    return made


MAX_TAKE_REVEALS = 6


def take_distribution(s: Situation, hand: Hand, k: int, adjacency: tuple[tuple[str, str], ...] = CHAIN) -> Dist:
    """What a stop after exactly k more reveals would let the player take, exact: a Dist over
    treasure points (the best run, treasure only) with the outcome "sunk" for sinking on the way.
    k = 0..MAX_TAKE_REVEALS (every ordered draw is enumerated: 9**k sequences at most)."""
    if not isinstance(k, int) or isinstance(k, bool) or not 0 <= k <= MAX_TAKE_REVEALS:
        raise ValueError(f"k must be an integer from 0 to {MAX_TAKE_REVEALS}, got {k!r}")
    if s.sunk():
        return Dist.point("sunk")
    turn = solver(s, hand, adjacency)
    weights: dict[object, int] = {}
    start = [0] * 9
    for card in s.row:
        start[code(card)] += 1
    g, treasure = turn.summary(tuple(s.row))
    pool = turn.size - len(s.row)
    if k > pool:
        raise ValueError(f"k must be at most the {pool} unseen cards, got {k}")

    def draw(g: np.ndarray, counts: list[int], treasure: int, left: int, weight: int) -> None:
        if left == 0:
            weights[int(g[0])] = weights.get(int(g[0]), 0) + weight
            return
        remaining = turn.size - sum(counts)
        for c in range(9):
            n = turn.cards[c] - counts[c]
            if not n:
                continue
            if turn._sinks(counts, treasure, c):
                later = 1  # every continuation of this draw sinks: count the ordered ways
                for i in range(1, left):
                    later *= remaining - i
                weights["sunk"] = weights.get("sunk", 0) + weight * n * later
                continue
            t = max(0, c - 5)
            counts[c] += 1
            draw(turn._extend(g, c, treasure + t), counts, treasure + t, left - 1, weight * n)
            counts[c] -= 1

    draw(g, start, treasure, k, 1)
    return Dist(weights)


def optimal_choice(s: Situation, hand: Hand, adjacency: tuple[tuple[str, str], ...] = CHAIN) -> OptimalChoice:
    """Stop now or reveal, for the player maximising the expected treasure taken this turn."""
    if s.sunk():
        raise ValueError("the player has already sunk in this situation")
    stop, reveal = solver(s, hand, adjacency).values(tuple(s.row))
    return OptimalChoice(stop, reveal, best_take(hand, s.row, adjacency, letter_value=Fraction(0))[0])


@dataclass(frozen=True)
class Optimal(Rule):
    """The optimal single-turn rule: reveal while that is worth more treasure than stopping (the
    first card of a turn is always revealed). Its take maximises treasure, so `letter_value` is 0."""

    letter_value: Fraction = Fraction(0)

    def reveals(self, s: Situation, hand: Hand, revealed: int) -> bool:
        if revealed == 0:
            return True
        if s.sunk():
            raise ValueError("the player has already sunk in this situation")
        return solver(s, hand).reveals(tuple(s.row))


def optimal() -> Optimal:
    """The optimal single-turn rule (see `Optimal`)."""
    return Optimal()


def turn_kernel(s: Situation, hand: Hand, rule: Rule, rng: np.random.Generator, n: int) -> dict[str, np.ndarray]:
    """n single turns from `s`, cards drawn at random from the unseen pool, the player
    revealing as `rule` says and taking the best run by treasure: treasure taken and sunk."""
    taken = np.zeros(n, dtype=np.int64)
    sank = np.zeros(n, dtype=bool)
    cards = [c for c, k in s.pool.items() for _ in range(k)]
    for i in range(n):
        order = rng.permutation(len(cards))
        pool, row, revealed = Counter(s.pool), tuple(s.row), 0
        while revealed < len(cards) and rule.reveals(Situation(pool, row, s.own_letters), hand, revealed):
            card = cards[order[revealed]]
            revealed += 1
            pool[card] -= 1
            row += (card,)
            if Situation(pool, row, s.own_letters).sunk():
                sank[i] = True
                break
        else:
            taken[i] = int(best_take(hand, row, letter_value=Fraction(0))[1])
    return {"treasure": taken, "sunk": sank}


def simulate_turn(s: Situation, hand: Hand, rule: Rule, trials: int = 2000, seed: int = 0):
    """Monte Carlo of single turns from `s`: estimates (95% intervals) of the mean treasure
    taken and of P(sinking), as a MonteCarloResult with "treasure" and "sunk"."""
    from functools import partial

    from nessus import montecarlo

    return montecarlo.run(partial(turn_kernel, s, hand, rule), trials, seed, chunk=1024)
