"""Le Renard's parameters: the payout of a triple, the stake, the bankroll and the rounds."""

from __future__ import annotations

from dataclasses import dataclass

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
