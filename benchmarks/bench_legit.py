"""Le Légit: the exact report (target < 1 s) and Monte Carlo of whole rounds (the share-
optimal first player, then a later player capped by them and playing to beat them) against a
plain Python loop playing the same rounds with the same policies (target >= 50x), measured in
one run. The vectorised rounds draw each turn whole from its exact law (as `simulate` does);
die by die is shown too. The first player's dilemma in a fresh process, from the stored later
players' odds (data/legit-later_odds.parquet) and solved."""

from __future__ import annotations

import random

import numpy as np
from _timing import best_of, faster, in_fresh_process, record, speedups, timed, under

from nessus.games import legit
from nessus.games.legit import fast

ROUNDS = 1 << 17
LOOP_ROUNDS = 5_000


def loop(rules: legit.Rules, n: int) -> int:
    """n rounds in plain Python, every die rolled: how many the first player wins (ties by a draw)."""
    first_tab, later_tab = (t.tolist() for t in fast.policy_tables(rules.dice, rules.rerolls, rules.players))

    def turn(rerolls: int, decide) -> tuple[int, int]:
        n_dice, left = rules.dice, rerolls
        while True:
            faces = [random.randint(1, 6) for _ in range(n_dice)]
            kept = legit.remove_pairs(tuple(faces))
            n_dice, total = len(kept), sum(kept)
            if left == 0 or n_dice == 0 or not decide(left, n_dice, total):
                return total, rerolls - left
            left -= 1

    wins = 0
    for _ in range(n):
        first, used = turn(rules.rerolls, lambda r, m, t: first_tab[r][m][t])
        best, tied = first, 1
        for _ in range(rules.players - 1):
            target = best
            score, _ = turn(used, lambda r, m, t: later_tab[target][used][r][m][t])
            if score > best:
                best, tied = score, 1
            elif score == best:
                tied += 1
        wins += best == first and random.random() * tied < 1
    return wins


DILEMMA = """from nessus.games import legit
for players in {players}:
    legit.dilemma(legit.Rules(players=players))
    legit.first_share(legit.Rules(players=players))"""


def dilemma() -> None:
    """The dilemma (`dilemma` and `first_share`) in a fresh process: 2 players, then 2 to 6."""
    figures = []
    for players in ((2,), (2, 3, 4, 5, 6)):
        code = DILEMMA.format(players=players)
        stored, solved = in_fresh_process(code), in_fresh_process(code, stored=False)
        print(
            f"first player's dilemma, {', '.join(map(str, players))} players, fresh process: "
            f"from the stored odds {stored:.2f} s, solving them {solved:.2f} s"
        )
        label = f"{players[0]}–{players[-1]}" if len(players) > 1 else f"{players[0]}"
        figures.append(f"{label} players: from data/ {stored:.2f} s, solving {solved:.2f} s")
    record("Le Légit's first-player dilemma, fresh process", "; ".join(figures))


def main() -> None:
    dilemma()
    report = timed(legit.report)
    print(f"exact report: {report:.3f} s (in-process, caches cold)")
    under("Le Légit exact report, in process, caches cold", [report], 1.0)
    rules = legit.Rules()
    print(
        f"round samplers (every later player's exact law): {timed(lambda: fast.round_samplers(6, 3, 2)):.3f} s; "
        f"policy tables for die-by-die play: {timed(lambda: fast.policy_tables(6, 3, 2)):.3f} s"
    )
    samplers = fast.round_samplers(6, 3, 2)
    rng = np.random.default_rng(1)
    by_turn = best_of(lambda: legit.rounds(rules.players, samplers, rng, ROUNDS))
    by_dice = timed(lambda: legit.rounds_by_dice(rules, rng, ROUNDS))
    loop_rate = LOOP_ROUNDS / timed(lambda: loop(rules, LOOP_ROUNDS))
    print(
        "whole rounds (2 players): "
        + speedups("rounds", loop_rate, {"a turn at a time": ROUNDS / by_turn, "die by die": ROUNDS / by_dice})
    )
    faster(
        "Le Légit whole rounds (2 players), each turn drawn whole from its exact law",
        [ROUNDS / by_turn / loop_rate],
        f" ({ROUNDS / by_turn:,.0f} rounds/s); die by die {ROUNDS / by_dice / loop_rate:.0f}x",
    )


if __name__ == "__main__":
    main()
