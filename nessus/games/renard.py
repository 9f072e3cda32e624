"""Le Renard: stake, roll 3d6 against the bank; a triple wins `payout` times the stake (net),
anything else loses the stake (RULES.md section 2).

Money is counted in whole units. The player keeps playing while the bankroll covers a stake;
*ruin* is the bankroll falling below one stake (reaching 0 when the stake divides it).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from fractions import Fraction
from functools import partial

import numpy as np

from nessus import game, montecarlo
from nessus.dice import roll_faces, roll_outcomes, rolls
from nessus.dist import Dist
from nessus.game import Game
from nessus.report import Figure, Report
from nessus.rules import GameRules, Param, field

NAME = "renard"
PAYOUT = Param("payout", 10, 1, 100, "net winnings of a triple, in stakes")
STAKE = Param("stake", 1, 1, 1000, "money staked each round")
BANKROLL = Param("bankroll", 50, 1, 100_000, "money the player starts with")
ROUNDS = Param("rounds", 100, 1, 1000, "rounds played (fewer if ruined)")


@dataclass(frozen=True)
class Rules(GameRules):
    params = (PAYOUT, STAKE, BANKROLL, ROUNDS)
    payout: int = field(PAYOUT)
    stake: int = field(STAKE)
    bankroll: int = field(BANKROLL)
    rounds: int = field(ROUNDS)

    def validate(self) -> None:
        if self.bankroll < self.stake:
            raise ValueError(f"bankroll must be at least the stake ({self.stake}), got {self.bankroll}")


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


def triples(rng: np.random.Generator, n: int) -> np.ndarray:
    """n rolls of 3d6: whether each is a triple."""
    d = rng.integers(1, 7, size=(3, n), dtype=np.int8)
    return (d[0] == d[1]) & (d[1] == d[2])


def round_kernel(payout: int, rng: np.random.Generator, n: int) -> dict[str, np.ndarray]:
    """n single rounds: win or not, and the player's net gain in stakes."""
    win = triples(rng, n)
    return {"p_win": win, "ev_per_stake": np.where(win, np.int8(payout), np.int8(-1))}


BLOCK = 64


def bankroll_kernel(rules: Rules, rng: np.random.Generator, n: int) -> dict[str, np.ndarray]:
    """n bankroll histories of `rounds` rounds: ruined or not, and the final bankroll."""
    units, rest = divmod(rules.bankroll, rules.stake)
    u = np.full(n, units, dtype=np.int64)
    ruined = np.zeros(n, dtype=bool)
    done = 0
    while done < rules.rounds:
        b = min(BLOCK, rules.rounds - done)
        win = triples(rng, n * b).reshape(n, b)
        path = u[:, None] + np.cumsum(np.where(win, rules.payout, -1), axis=1)
        ruined |= path.min(axis=1) <= 0
        u = path[:, -1]
        done += b
    final = np.where(ruined, rest, u * rules.stake + rest)
    return {"p_ruin": ruined, "mean_final_bankroll": final}


def simulate(rules: Rules | None = None, trials: int = 100_000, seed: int = 0, client=None, progress=None) -> Report:
    """Monte Carlo figures with 95% confidence intervals (single rounds, and bankroll histories)."""
    rules = rules or Rules()
    one = montecarlo.run(partial(round_kernel, rules.payout), trials, seed, client=client, progress=progress)
    hist = montecarlo.run(partial(bankroll_kernel, rules), trials, seed + 1, client=client, progress=progress)
    figures = {k: Figure.estimated(e) for k, e in (one.estimates | hist.estimates).items()}
    ev = one["ev_per_stake"]
    figures["house_edge"] = Figure(
        None, -ev.value, (-ev.ci[1], -ev.ci[0]), "monte-carlo", "the bank's gain is the player's loss", ev.trials
    )
    return Report(NAME, rules.as_dict(), figures)


@dataclass(frozen=True)
class State(game.State):
    """A player at the bank's table (the game protocol): chance rolls 3d6 each round; the
    bankroll, and every roll so far with its net gain in money. One seat, no decision; the
    return is the player's net winnings in money (a banking game).

    >>> state = initial_state(Rules(rounds=1))
    >>> state.apply((6, 6, 6)).returns()
    [Fraction(10, 1)]
    """

    rules: Rules
    bankroll: int
    history: tuple[tuple[tuple[int, int, int], int], ...] = ()

    @property
    def ruined(self) -> bool:
        """The bankroll no longer covers a stake."""
        return self.bankroll < self.rules.stake

    @property
    def _over(self) -> bool:
        """Ruined, or all rounds played."""
        return self.ruined or len(self.history) >= self.rules.rounds

    def current_player(self) -> int:
        return game.TERMINAL if self._over else game.CHANCE

    def legal_actions(self) -> list[game.Action]:
        return []

    def chance_outcomes(self) -> list[tuple[game.Action, Fraction]]:
        return [] if self._over else roll_outcomes(3)

    def _apply(self, dice: game.Action) -> State:
        assert isinstance(dice, tuple)
        gain = self.rules.stake * (self.rules.payout if is_triple(dice) else -1)
        return State(self.rules, self.bankroll + gain, self.history + ((dice, gain),))

    def roll(self, rng: np.random.Generator | None = None, dice: tuple[int, int, int] | None = None) -> State:
        """Stake and roll 3d6 (the given dice in any order, or drawn with `rng`): the table after
        the bank settles."""
        if self._over:
            raise ValueError("the game is over: ruined or all rounds played")
        return self.apply(roll_faces(3, rng, dice))

    def returns(self) -> list[Fraction]:
        return [Fraction(self.bankroll - self.rules.bankroll)]

    def observation(self, player: int) -> str:
        game.check_players([player], self.shape())
        last = f"; last roll {' '.join(map(str, self.history[-1][0]))}" if self.history else ""
        return f"round {len(self.history)} of {self.rules.rounds}, bankroll {self.bankroll}{last}"

    def shape(self) -> game.Shape:
        r = self.rules
        return game.Shape(
            players=1,
            max_actions=0,
            max_chance_outcomes=56,
            max_length=r.rounds,
            min_return=Fraction(-r.bankroll),
            max_return=Fraction(r.rounds * r.payout * r.stake),
            return_sum=None,
        )


def initial_state(rules: Rules | None = None) -> State:
    """The start of a game: the full bankroll, no roll yet."""
    rules = rules or Rules()
    return State(rules, rules.bankroll)


def policies(rules: Rules | None = None) -> dict[str, game.Policy]:
    """No decisions in Le Renard: no policies."""
    return {}


GAME = Game(
    name=NAME,
    title="Le Renard",
    summary="Roll 3d6 against the bank: a triple pays `payout` times the stake.",
    Rules=Rules,
    report=report,
    simulate=simulate,
    initial_state=initial_state,
    policies=policies,
    lesson="01-le-renard-one-in-36",
    dashboard="le-renard.ipynb",
    pitch="Bet against the bank on a triple: roll, watch your bankroll, and see the exact ruin odds.",
)
"""This game, as the registry, the command line and the gallery see it."""
