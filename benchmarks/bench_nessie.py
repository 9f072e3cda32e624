"""Nessie: exact p_sink_within(k) for k up to 10 in any state (target < 100 ms), and whole-game
simulation speed (target: the numpy engine `nessie.fast` >= 50x a plain Python loop).

Whole games, 3 players (stop at 2, stop when P(sink next) > 3/10, stop at 4), measured in one
run: (a) `nessie.fast.play_games`, many games at once; (b) a plain Python loop written the
straightforward way (lists and ints, the reference's algorithms: `sunk` recounts the row,
`best_take` tries every run length, the risky rule checks each kind of card in the draw pile);
(b') the same loop tuned by hand (counts kept up to date, letters as bits, one pass for the best
take); (c) the protocol State played by the one machine-play loop (`nessus.play.play`). Before
timing, both plain loops are checked to play the numpy engine's games exactly (same deck orders
and reshuffles); the tests check the numpy engine against the State card for card.
"""

from __future__ import annotations

import random
import time
from collections import Counter
from collections.abc import Callable
from fractions import Fraction

import numpy as np
from _timing import faster, in_fresh_process, record, under

from nessus.games import nessie
from nessus.games.nessie import fast as fast
from nessus.games.nessie import odds, policies
from nessus.games.nessie.cards import Situation, make_deck
from nessus.games.nessie.odds import p_sink_within
from nessus.games.nessie.state import COMPLETE_BONUS
from nessus.play import play as play_loop

DECK = [fast.CARDS.index(c) for c in make_deck()]  # codes 0-5: letters A-F; 6-8: treasures 1-3
NUM, DEN = odds.LETTER_VALUE.numerator, odds.LETTER_VALUE.denominator  # a kept letter is worth NUM/DEN
PlainRule = tuple[int, Fraction | None]  # reveal while fewer than `cards` are revealed and P(sink next) <= limit
Shuffle = Callable[[list[int]], list[int]]


def states() -> dict[str, Situation]:
    deck = Counter(make_deck())
    late = Counter(deck)
    late.subtract({"A": 3, "B": 2, "C": 4, "1": 5, "2": 3, "3": 6})
    return {
        "fresh deck, empty row": Situation(dict(deck), (), frozenset()),
        "row 2, A, 1, C; owns A, B": Situation(
            dict(deck - Counter({"2": 1, "A": 2, "1": 1, "C": 1, "B": 1})), ("2", "A", "1", "C"), frozenset("AB")
        ),
        "late game, 61 unseen, row 3, D, D": Situation(
            dict(late - Counter({"3": 1, "D": 2})), ("3", "D", "D"), frozenset("CE")
        ),
    }


def rule(strategy: policies.Rule) -> PlainRule:
    """(cards, limit) of a stop_at or stop_when_risky strategy, for the plain loops."""
    if isinstance(strategy, policies.StopAt):
        return strategy.cards, None
    return 1 << 30, strategy.limit


def plain_game(
    rules: list[PlainRule], shuffle: Shuffle, max_turns: int = nessie.MAX_TURNS
) -> tuple[list[int], int | None, int]:
    """One game, written the straightforward way: (scores, finisher, turns)."""
    players = len(rules)
    draw, discard, row = shuffle(DECK), [], []
    treasures: list[list[int]] = [[] for _ in range(players)]
    letters: list[set[int]] = [set() for _ in range(players)]
    current = turns = revealed = 0
    finisher = None

    def sunk(cards: list[int], mine: set[int]) -> bool:
        return sum(c - 5 for c in cards if c >= 6) >= 6 or any(cards.count(x) + (x in mine) >= 3 for x in range(6))

    def take(hand: list[int], mine: set[int], cards: list[int]) -> tuple[list[int], set[int], list[int]]:
        hand, mine, thrown = list(hand), set(mine), []
        for c in cards:
            if c >= 6:
                hand.append(c - 5)
            elif not mine or (c not in mine and (c - 1 in mine or c + 1 in mine)):
                mine.add(c)
            else:
                thrown.append(c)
                if hand:
                    lowest = min(hand)
                    hand.remove(lowest)
                    thrown.append(lowest + 5)
        return hand, mine, thrown

    def best_take(hand: list[int], mine: set[int]) -> int:
        best_n, best = 0, 0
        for n in range(1, len(row) + 1):
            after, kept, _ = take(hand, mine, row[::-1][:n])
            value = DEN * (sum(after) - sum(hand)) + NUM * (len(kept) - len(mine))
            if value > best:
                best_n, best = n, value
        return best_n

    def reveal_more(cards: int, limit: Fraction | None, mine: set[int]) -> bool:
        if revealed == 0:
            return True
        if revealed >= cards or limit is None:
            return revealed < cards
        sinking = sum(draw.count(c) for c in range(9) if sunk(row + [c], mine))
        return sinking * limit.denominator <= limit.numerator * len(draw)

    while finisher is None and turns < max_turns:
        player = current
        while finisher is None and current == player:
            mine = letters[current]
            if reveal_more(*rules[current], mine):
                if not draw:
                    draw, discard = shuffle(discard), []
                row.append(draw.pop())
                revealed += 1
                if sunk(row, mine):
                    discard += row
                    row = []
                    current, turns, revealed = (current + 1) % players, turns + 1, 0
                continue
            n = best_take(treasures[current], mine)
            taken = row[len(row) - n :][::-1]
            del row[len(row) - n :]
            treasures[current], letters[current], thrown = take(treasures[current], mine, taken)
            discard += thrown
            if len(letters[current]) == 6:
                finisher = current
                break
            current, turns, revealed = (current + 1) % players, turns + 1, 0
            if row and sunk(row, letters[current]):
                discard += row
                row = []
                current, turns = (current + 1) % players, turns + 1
    return [sum(t) + (COMPLETE_BONUS if i == finisher else 0) for i, t in enumerate(treasures)], finisher, turns


def tuned_game(
    rules: list[PlainRule], shuffle: Shuffle, max_turns: int = nessie.MAX_TURNS
) -> tuple[list[int], int | None, int]:
    """One game, tuned by hand (counts kept up to date, letters as bits, one pass for the best
    take): (scores, finisher, turns)."""
    players = len(rules)
    draw, discard, row = shuffle(DECK), [], []
    draw_count, row_count, row_treasure = [0] * 9, [0] * 9, 0
    for c in draw:
        draw_count[c] += 1
    treasures = [[0, 0, 0, 0] for _ in range(players)]  # how many of value 1, 2, 3 (index 0 unused)
    letters = [0] * players
    current = turns = revealed = 0
    finisher = None

    def keepable(mine: int, c: int) -> bool:
        return not mine or (not mine >> c & 1 and bool(mine & (1 << c + 1 | (1 << c >> 1))))

    while finisher is None and turns < max_turns:
        player = current
        while finisher is None and current == player:
            cards, limit = rules[current]
            mine = letters[current]
            go = revealed == 0 or revealed < cards
            if revealed and go and limit is not None:
                sinking = sum(draw_count[x] for x in range(6) if row_count[x] + (mine >> x & 1) == 2)
                sinking += sum(draw_count[5 + v] for v in (1, 2, 3) if row_treasure + v >= 6)
                go = sinking * limit.denominator <= limit.numerator * len(draw)
            if go:
                if not draw:
                    draw, discard = shuffle(discard), []
                    for c in draw:
                        draw_count[c] += 1
                c = draw.pop()
                draw_count[c] -= 1
                row.append(c)
                row_count[c] += 1
                revealed += 1
                if c >= 6:
                    row_treasure += c - 5
                    sink = row_treasure >= 6
                else:
                    sink = row_count[c] + (mine >> c & 1) >= 3
                if sink:
                    discard, row, row_count, row_treasure = discard + row, [], [0] * 9, 0
                    current, turns, revealed = (current + 1) % players, turns + 1, 0
                continue
            hand = treasures[current]
            best_n = best = value = 0
            trial, held = hand[:], mine
            for n in range(1, len(row) + 1):
                c = row[-n]
                if c >= 6:
                    trial[c - 5] += 1
                    value += DEN * (c - 5)
                elif keepable(held, c):
                    held |= 1 << c
                    value += NUM
                else:
                    for v in (1, 2, 3):
                        if trial[v]:
                            trial[v] -= 1
                            value -= DEN * v
                            break
                if value > best:
                    best_n, best = n, value
            for _ in range(best_n):
                c = row.pop()
                row_count[c] -= 1
                if c >= 6:
                    row_treasure -= c - 5
                    hand[c - 5] += 1
                elif keepable(mine, c):
                    mine |= 1 << c
                else:
                    discard.append(c)
                    for v in (1, 2, 3):
                        if hand[v]:
                            hand[v] -= 1
                            discard.append(5 + v)
                            break
            letters[current] = mine
            if mine == 63:
                finisher = current
                break
            current, turns, revealed = (current + 1) % players, turns + 1, 0
            own = letters[current]
            if row and (row_treasure >= 6 or any(row_count[x] + (own >> x & 1) >= 3 for x in range(6))):
                discard, row, row_count, row_treasure = discard + row, [], [0] * 9, 0
                current, turns = (current + 1) % players, turns + 1
    return (
        [t[1] + 2 * t[2] + 3 * t[3] + (COMPLETE_BONUS if i == finisher else 0) for i, t in enumerate(treasures)],
        finisher,
        turns,
    )


def check_plain_loops(strategies: list[policies.Rule], games: int = 30) -> None:
    """Both plain loops play the numpy engine's games exactly, given the same shuffles (a pile
    listed card by card, as `nessie.fast` lists it, then permuted by the game's own generator)."""
    rules = [rule(s) for s in strategies]
    seeds = [[9, g] for g in range(games)]
    out = fast.play_games(strategies, games, fast.PerGame(seeds))
    for g, seed in enumerate(seeds):
        expected = (out.scores[g].tolist(), None if out.finisher[g] < 0 else int(out.finisher[g]), int(out.turns[g]))
        for loop in (plain_game, tuned_game):
            rng = np.random.default_rng(seed)
            got = loop(rules, lambda cards, rng=rng: [sorted(cards)[i] for i in rng.permutation(len(cards))])
            if got != expected:
                raise AssertionError(f"{loop.__name__} differs from the numpy engine in game {g}: {got} {expected}")


def games_per_second(play_games: Callable[[int], object], games: int, repeat: int = 3) -> float:
    """The best rate of `repeat` runs of play_games(games)."""
    best = float("inf")
    for _ in range(repeat):
        t = time.perf_counter()
        play_games(games)
        best = min(best, time.perf_counter() - t)
    return games / best


def plain_loop(loop: Callable[..., object], rules: list[PlainRule]) -> Callable[[int], None]:
    """Play `games` games with `loop`, shuffling with the random module."""
    shuffler = random.Random(1)

    def run(games: int) -> None:
        for _ in range(games):
            loop(rules, lambda cards: shuffler.sample(cards, len(cards)))

    return run


def whole_games() -> None:
    strategies = [policies.stop_at(2), policies.stop_when_risky(Fraction(3, 10)), policies.stop_at(4)]
    check_plain_loops(strategies)
    rules = [rule(s) for s in strategies]
    loop_rng, start = np.random.default_rng(1), nessie.initial_state()
    fast_rate = games_per_second(lambda n: fast.play_games(strategies, n, np.random.default_rng(1)), 100_000)
    others = {
        "b": ("plain Python loop, straightforward", games_per_second(plain_loop(plain_game, rules), 1_000)),
        "b'": ("plain Python loop, tuned by hand", games_per_second(plain_loop(tuned_game, rules), 4_000)),
        "c": (
            "protocol State, one play loop (nessus.play)",
            games_per_second(lambda n: [play_loop(start, strategies, loop_rng) for _ in range(n)], 300),
        ),
    }
    print(
        "whole games, 3 players (stop at 2, stop when risk > 3/10, stop at 4), best of 3 runs each; "
        "both plain loops play the numpy engine's games exactly (checked on 30 games)"
    )
    print(f"  {'(a)':5s}{'nessie_fast.play_games, 100,000 games at once':44s}{fast_rate:10,.0f} games/s")
    for key, (name, rate) in others.items():
        print(f"  {f'({key})':5s}{name:44s}{rate:10,.0f} games/s   (a)/({key}) = {fast_rate / rate:5.1f}x")
    for key in ("b", "b'"):
        ratio = fast_rate / others[key][1]
        print(f"  target (a) >= 50x ({key}): {'met' if ratio >= 50 else 'NOT met'} ({ratio:.0f}x)")
        what = (
            "a straightforward plain loop"
            if key == "b"
            else "a plain loop tuned by hand (counts kept, letters as bits)"
        )
        faster(
            f"Nessie whole games (3 players), `nessie.fast` against {what}",
            [ratio],
            f" ({fast_rate:,.0f} against {others[key][1]:,.0f} games/s)",
        )
    protocol = others["c"][1]
    record(
        "Nessie whole games: the protocol State through the one play loop (`nessus.play`)",
        f"{protocol:,.0f} games/s; `nessie.fast` is {fast_rate / protocol:,.0f}x faster",
    )
    t = time.perf_counter()
    fast.tournament(
        dict(zip(("stop at 2", "risk > 3/10", "stop at 4"), strategies)), games=200_000, seed=1, progress=False
    )
    print(
        f"  nessie.fast.tournament on the fast path, 200,000 games (seats rotated, intervals included): "
        f"{200_000 / (time.perf_counter() - t):,.0f} games/s"
    )


def optimal_rule(turns: int = 40) -> None:
    """Cost of the exact optimal single-turn rule: every decision of `turns` turns of a 3-player
    game in which everyone plays it (a new solver per turn; later decisions of a turn reuse it;
    the first turn starts from the stored opening), and first decisions from a fresh deck solved
    without it."""
    from nessus.games.nessie import optimal as optimal
    from nessus.games.nessie.cards import Hand

    rng, times = np.random.default_rng(1), []
    state = nessie.initial_state()
    while not state.is_terminal() and state.turns < turns:
        if state.revealed == 0:
            state = state.reveal(rng=rng)
            continue
        t = time.perf_counter()
        choice = optimal.optimal_choice(state.situation(), state.hand())
        times.append(time.perf_counter() - t)
        if choice.reveal:
            state = state.reveal(rng=rng)
        else:
            state = state.stop(odds.best_take(state.hand(), state.row, letter_value=0)[0])
    times.sort()
    print(
        f"optimal single-turn rule over {turns} turns of a game ({len(times)} decisions): median "
        f"{times[len(times) // 2] * 1000:.2f} ms, slowest {times[-1]:.2f} s, total {sum(times):.1f} s"
    )
    deck, fresh = Counter(make_deck()), {}
    for row in (("3", "B"), ("2",), ("1",)):
        t = time.perf_counter()
        stop, reveal = optimal.TurnSolver(dict(deck), Hand()).values(row)
        fresh[", ".join(row)] = time.perf_counter() - t
        print(
            f"  fresh deck, row {', '.join(row)}, solved without the stored opening: {time.perf_counter() - t:.2f} s "
            f"(stop {float(stop):.4f}, reveal {float(reveal):.4f})"
        )
    record(
        f"Nessie exact optimal single-turn rule (solved per turn, cached within it), {turns} turns of a game",
        f"{len(times)} decisions: median {times[len(times) // 2] * 1000:.2f} ms, slowest {times[-1]:.2f} s; "
        "from a fresh deck without the stored opening: "
        + ", ".join(f"row {row} {seconds:.2f} s" for row, seconds in fresh.items()),
    )


FIRST_ADVICE = """from collections import Counter
from nessus.games.nessie.cards import Hand, Situation, make_deck
from nessus.games.nessie.optimal import optimal_choice
optimal_choice(Situation(dict(Counter(make_deck())), (), frozenset()), Hand())"""


def opening(turns: int = 30, reveals: int = 10) -> None:
    """The first advice of a game, from the stored opening and solved; then the next decisions
    of `turns` random first turns, revealing on whatever the advice (a fresh solver each turn)."""
    from nessus.games.nessie import optimal as optimal
    from nessus.games.nessie.cards import Hand

    stored, solved = in_fresh_process(FIRST_ADVICE), in_fresh_process(FIRST_ADVICE, stored=False)
    print(
        f"optimal player's first advice of a game, fresh process: from the stored opening {stored:.2f} s, "
        f"solving it {solved:.1f} s ({solved / stored:.0f}x); target < 1 s"
    )
    under(
        "Nessie optimal player's first advice of a game, fresh process (imports included), from the stored opening",
        [stored],
        1.0,
        f"; solving it instead {solved:.1f} s",
    )
    optimal._stored_opening()  # read once per process, as a dashboard kernel does
    deck, rng, times = make_deck(), random.Random(1), []
    for _ in range(turns):
        optimal._SOLVERS.clear()
        row: tuple[str, ...] = ()
        for card in rng.sample(deck, reveals):
            row += (card,)
            s = Situation(dict(Counter(deck) - Counter(row)), row, frozenset())
            if s.sunk():
                break
            t = time.perf_counter()
            optimal.optimal_choice(s, Hand())
            times.append(time.perf_counter() - t)
    times.sort()
    print(
        f"  then {len(times)} decisions of {turns} random first turns (up to {reveals} reveals), stored opening: "
        f"median {times[len(times) // 2] * 1000:.2f} ms, slowest {times[-1]:.2f} s"
    )
    record(
        f"Nessie optimal player, the next decisions of {turns} random first turns (stored opening)",
        f"{len(times)} decisions: median {times[len(times) // 2] * 1000:.2f} ms, slowest {times[-1]:.2f} s",
    )


def main() -> None:
    opening()
    times = []
    for name, s in states().items():
        t = time.perf_counter()
        values = [p_sink_within(s, k) for k in range(1, 11)]
        times.append(time.perf_counter() - t)
        print(
            f"p_sink_within(k), k = 1..10, {name}: {times[-1] * 1000:.2f} ms for all ten "
            f"(P(sink within 10) = {float(values[-1]):.4f}); target < 100 ms each"
        )
    under(f"Nessie exact `p_sink_within(k)`, k = 1..10, in each of {len(times)} states", times, 0.1, " for all ten")
    optimal_rule()
    whole_games()


if __name__ == "__main__":
    main()
