"""Nessie: exact p_sink_within(k) for k up to 10 in any state (target < 100 ms), and whole-game
simulation speed (target >= 50x a plain Python loop; the engine plays games one at a time in
Python today, so this prints its games per second and says so)."""

from __future__ import annotations

import time
from collections import Counter

import numpy as np

from nessus.games import nessie_play as play
from nessus.games.nessie_engine import make_deck
from nessus.games.nessie_odds import Situation, p_sink_within


def states() -> dict[str, Situation]:
    deck = Counter(make_deck())
    late = Counter(deck)
    late.subtract({"A": 3, "B": 2, "C": 4, "1": 5, "2": 3, "3": 6})
    return {
        "fresh deck, empty row": Situation(dict(deck), (), frozenset()),
        "row 2, A, 1, C; owns A, B": Situation(dict(deck - Counter({"2": 1, "A": 2, "1": 1, "C": 1, "B": 1})), ("2", "A", "1", "C"), frozenset("AB")),
        "late game, 61 unseen, row 3, D, D": Situation(dict(late - Counter({"3": 1, "D": 2})), ("3", "D", "D"), frozenset("CE")),
    }


def main() -> None:
    for name, s in states().items():
        t = time.perf_counter()
        values = [p_sink_within(s, k) for k in range(1, 11)]
        elapsed = time.perf_counter() - t
        print(f"p_sink_within(k), k = 1..10, {name}: {elapsed * 1000:.2f} ms for all ten "
              f"(P(sink within 10) = {float(values[-1]):.4f}); target < 100 ms each")
    rng = np.random.default_rng(1)
    strategies = [play.stop_at(2), play.stop_when_risky(), play.lookahead()]
    games, t = 50, time.perf_counter()
    for _ in range(games):
        play.play_game(strategies, rng)
    rate = games / (time.perf_counter() - t)
    print(f"whole games (3 players: stop at 2, risk > 30%, look-ahead): {rate:.0f} games/s, "
          "played one at a time in Python: about 1x a plain Python loop, NOT the 50x target")


if __name__ == "__main__":
    main()
