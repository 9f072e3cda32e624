"""Le Renard's exact odds: a triple's chance, the expected gain, and the bankroll round by round
(ruin is the bankroll falling below one stake)."""

from __future__ import annotations

from collections.abc import Iterator
from fractions import Fraction

from nessus.dice import rolls
from nessus.dist import Dist
from nessus.games.renard.rules import NAME, Rules
from nessus.report import Figure, Report


def is_triple(roll: tuple[int, ...]) -> bool:
    """Three equal dice."""
    return len(set(roll)) == 1


def p_win() -> Fraction:
    """P(a roll of 3d6 is a triple) = 6/216 = 1/36."""
    return rolls(3).prob(is_triple)


def net_gain(rules: Rules) -> Dist:
    """One round's net gain, in stakes: +payout on a triple, -1 otherwise."""
    return rolls(3).map(lambda r: rules.payout if is_triple(r) else -1)


def ev_per_stake(rules: Rules) -> Fraction:
    """Expected net gain per unit staked."""
    return net_gain(rules).mean()


def fair_payout() -> Fraction:
    """The payout that makes the game fair (expected gain 0): (1 - p) / p = 35."""
    p = p_win()
    return (1 - p) / p


def _bankroll_rounds(rules: Rules) -> Iterator[tuple[dict[int, int], int]]:
    """After each round: integer weights of the bankroll counted in stakes, and their total.

    Dynamic programming over the bankroll in stakes; a ruined player (0 stakes) stays ruined.
    """
    p = p_win()
    win, lose, den = p.numerator, p.denominator - p.numerator, p.denominator
    weights = {rules.bankroll // rules.stake: 1}
    total = 1
    for _ in range(rules.rounds):
        nxt: dict[int, int] = {}
        for u, w in weights.items():
            if u == 0:
                nxt[0] = nxt.get(0, 0) + w * den
                continue
            nxt[u + rules.payout] = nxt.get(u + rules.payout, 0) + w * win
            nxt[u - 1] = nxt.get(u - 1, 0) + w * lose
        weights, total = nxt, total * den
        yield weights, total


def bankroll_after(rules: Rules) -> Dist:
    """The exact distribution of the bankroll (money) after `rounds` rounds; play stops at ruin."""
    *_, (weights, _) = _bankroll_rounds(rules)
    rest = rules.bankroll % rules.stake
    return Dist({u * rules.stake + rest: w for u, w in weights.items()})


def ruin_by_round(rules: Rules) -> list[Fraction]:
    """[P(ruined by round 1), ..., P(ruined by round `rounds`)], exact."""
    return [Fraction(weights.get(0, 0), total) for weights, total in _bankroll_rounds(rules)]


def p_ruin(rules: Rules) -> Fraction:
    """P(the bankroll falls below one stake within `rounds` rounds), exact."""
    return bankroll_after(rules).prob(lambda b: b < rules.stake)


def report(rules: Rules | None = None) -> Report:
    """The exact headline figures."""
    rules = rules or Rules()
    ev = ev_per_stake(rules)
    return Report(
        NAME,
        rules.as_dict(),
        {
            "p_win": Figure.of(p_win(), "P(triple) on one roll"),
            "ev_per_stake": Figure.of(ev, "expected net gain per unit staked"),
            "fair_payout": Figure.of(fair_payout(), "payout with zero expected gain"),
            "house_edge": Figure.of(-ev, "bank's expected gain per unit staked"),
            "p_ruin": Figure.of(p_ruin(rules), "P(bankroll below a stake within the rounds)"),
        },
    )
