"""Entheos's rules parameters: the table's (players, bots), the isolated duel's length (turns),
the war's (war_turns), and the games `nessus simulate` plays (games, pairs)."""

from __future__ import annotations

from dataclasses import dataclass

from nessus.rules import GameRules, Param, count_param, field, seat_names

NAME = "entheos"

GAME_TURNS = {2: 10, 3: 9, 4: 8, 5: 7, 6: 6}
"""The game's length in turns by the number of players (the rulebook's)."""
SETUP, DICE, PLACE, REVEAL, OVER = "setup", "dice", "place", "reveal", "over"
"""The phases of a game (`State.phase`)."""
PLAYERS = Param("players", 4, 2, 6, "players at the table (gods; the game lasts 10, 9, 8, 7, 6 turns for 2-6)")
TURNS = Param("turns", 8, 0, 60, "turns of the isolated duel (duel_* figures)")
WAR_TURNS = Param("war_turns", 0, 0, 60, "turns of the war without interventions (0: the game's length for `players`)")
BOT_NAMES = (
    "greedy",
    "passive",
    "random_legal",
    *(f"card_{c}" for c in range(1, 7)),
    "lock_favourite",
    "swap_against_competitor",
    "rollout",
)
BOTS = Param(
    "bots",
    "greedy,passive",
    1,
    200,
    "the bots at the table in `nessus simulate`, comma-separated, seat by seat, repeated round the table "
    "(greedy, passive, random_legal, card_1 … card_6, lock_favourite, swap_against_competitor, rollout)",
    kind=str,
)
GAMES = count_param(
    "games",
    500,
    "whole games of the bots that `nessus simulate` plays through the generic play loop, 40-150 a second "
    "(win_share_seat_*, victory_points_seat_*; the trials are the wars)",
)
PAIRS = count_param(
    "pairs",
    200,
    "pairs of games that `nessus simulate` plays for each intervention policy against each opponents "
    "(9 x 2, so 36 x pairs games; *_vs_*_effect)",
)


@dataclass(frozen=True)
class Rules(GameRules):
    params = (PLAYERS, TURNS, WAR_TURNS, BOTS, GAMES, PAIRS)
    counts = ("games", "pairs")
    players: int = field(PLAYERS)
    turns: int = field(TURNS)
    war_turns: int = field(WAR_TURNS)
    bots: str = field(BOTS)
    games: int = field(GAMES)
    pairs: int = field(PAIRS)

    def validate(self) -> None:
        self.seat_bots  # noqa: B018 (a ValueError naming `bots` for an unknown bot)

    @property
    def game_turns(self) -> int:
        """The turns a game lasts with this many players."""
        return GAME_TURNS[self.players]

    @property
    def war_length(self) -> int:
        """The turns of the war figures: `war_turns`, or the game's length."""
        return self.war_turns or self.game_turns

    @property
    def seat_bots(self) -> tuple[str, ...]:
        """The bot at each seat: `bots` repeated round the table."""
        return seat_names(self.bots, self.players, BOT_NAMES)


def deal_schedule(players: int) -> tuple[tuple[str, int, int | None], ...]:
    """The god deal, step by step: (kind, seat, side), kind "aside" (seat -1) or "deal", side
    the side the god must support (None: any)."""
    if players <= 3:
        return tuple(("deal", p, side) for side in (0, 1) for p in range(players))
    if players == 4:
        return (("aside", -1, 0), ("aside", -1, 1)) + tuple(("deal", p, None) for p in range(4))
    return tuple(("deal", p, None) for p in range(players))
