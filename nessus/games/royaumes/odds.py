"""Les Royaumes' exact odds: the 21 results in their kingdoms, the bank's outcomes, a duel's
geometric fines, and every figure an exact fraction (the expected value is affine in the fine)."""

from __future__ import annotations

from fractions import Fraction
from functools import cache

import polars as pl

from nessus.games.royaumes.rules import NAME, Rules
from nessus.report import Figure, Report

Result = tuple[int, int]  # an unordered 2d6 result, higher die first: (5, 3) is "5-3"

KINGDOMS: dict[str, tuple[Result, ...]] = {
    "Gahanam": ((1, 1), (2, 1), (3, 1), (4, 1), (5, 1), (6, 1), (2, 2)),
    "Teur": ((3, 2), (4, 2), (5, 2), (6, 2), (3, 3), (4, 3), (5, 3)),
    "Elysium": ((6, 3), (4, 4), (5, 4), (6, 4), (5, 5), (6, 5), (6, 6)),
}
"""The 21 results in their kingdoms, each kingdom listed from its lowest result to its highest."""
BANK_WINS_ALL: frozenset[Result] = frozenset({(2, 2), (5, 3), (6, 6)})
BANK_PAYS_ALL: frozenset[Result] = frozenset({(1, 1), (3, 2), (6, 3)})


def result_of(dice: tuple[int, int]) -> Result:
    """The unordered result of two dice, higher die first."""
    return (max(dice), min(dice))


def result_text(result: Result) -> str:
    """A result as the rulebook writes it: "5-3"."""
    return f"{result[0]}-{result[1]}"


def kingdom_of(result: Result) -> str:
    """The kingdom a result belongs to."""
    for name, results in KINGDOMS.items():
        if result in results:
            return name
    raise ValueError(f"result must be two faces from 1 to 6, higher first, got {result!r}")


def rank_of(result: Result) -> int:
    """The rank of a result within its kingdom: 0 (lowest) to 6 (highest)."""
    return KINGDOMS[kingdom_of(result)].index(result)


def place_text(result: Result) -> str:
    """Where a result stands: "Teur, rank 2 of 7".

    >>> place_text(result_of((2, 4)))
    'Teur, rank 2 of 7'
    """
    return f"{kingdom_of(result)}, rank {rank_of(result) + 1} of 7"


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


def bank_ev(fine: Fraction, players: int, rounds: int) -> Fraction:
    """The bank's expected net after `rounds` rounds against `players` players, in stakes."""
    return -player_ev(fine) * players * rounds


def ev_by_fine(fine: Fraction, steps: int = 20) -> list[tuple[Fraction, Fraction]]:
    """(fine, a player's expected value per round) at the fines 0, 1/steps, ..., 1 and at `fine`.

    >>> [f for f, _ in ev_by_fine(Fraction(1, 3), steps=2)]
    [Fraction(0, 1), Fraction(1, 3), Fraction(1, 2), Fraction(1, 1)]
    """
    fines = sorted({Fraction(k, steps) for k in range(steps + 1)} | {Fraction(fine)})
    return [(f, player_ev(f)) for f in fines]


def fair_fine() -> Fraction:
    """The fine making the game fair (player_ev = 0); negative when the player is behind already."""
    return _sums()["ev_at_zero_fine"] / fines_per_round()


def duel_table(rules: Rules | None = None) -> pl.DataFrame:
    """One row per bank result: its kingdom and rank, P(bank rolls it), what it does, and for the
    player P(win), expected fines (count) and expected net gain in stakes."""
    rules = rules or Rules()
    rows = [
        (
            result_text(r),
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


def duel_figures(bank: Result | None, fine: Fraction) -> list[tuple[str, Fraction, str]]:
    """The round's figures from here, as (name, value, unit: "probability", "rolls" or "stakes"):
    before the bank's roll (`bank` None), per round; given a duel against `bank`, for it; else none.

    >>> [(name, str(v)) for name, v, _ in duel_figures((6, 2), Fraction(1, 10))][:2]
    [('P(a roll lands in Teur)', '13/36'), ('P(the player beats 6-2)', '5/13')]
    """
    if bank is None:
        return [
            ("P(the bank takes every stake)", p_bank_wins_all(), "probability"),
            ("P(the bank pays every player)", p_bank_pays_all(), "probability"),
            ("P(a player wins a duel), per round", p_player_wins_duel(), "probability"),
            ("expected fines per player per round", fines_per_round(), "rolls"),
        ]
    if bank_outcome(bank) != "duel":
        return []
    kingdom = kingdom_of(bank)
    return [
        (f"P(a roll lands in {kingdom})", p_kingdom(kingdom), "probability"),
        (f"P(the player beats {result_text(bank)})", p_player_beats(bank), "probability"),
        ("expected fines still to pay (the rolls outside the kingdom)", fines_expected(bank), "rolls"),
        ("a player's expected gain from this duel", player_ev_given(bank, fine), "stakes"),
    ]


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
                bank_ev(rules.fine, rules.players, rules.rounds),
                f"bank's expected net over {rules.rounds} rounds against {rules.players} players",
            ),
        },
    )
