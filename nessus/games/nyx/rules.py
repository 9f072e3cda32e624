"""Nyx's rules parameters: the table's (players, bots), the whole games `nessus simulate` plays
(games), those the exact figures read (a symbol chased on dice of a colour, a shape on the
matrix with blocked cells), and the dice of a hand chasing dreams alone (`HAND_BLACK`,
`HAND_WHITE`: the page's)."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from nessus.games.nyx.matrix import NAMES, SHAPES, Cell, parse_cells
from nessus.rules import GameRules, Param, count_param, field, seat_names

NAME = "nyx"
SYMBOLS = ("star", "crescent", "moon")
"""What a face shows."""
PLURAL = {"star": "stars", "crescent": "crescents", "moon": "full moons"}
"""Many dice of each symbol, in words."""
FACES = {"black": (3, 2, 1), "white": (2, 2, 2)}
"""The faces of each symbol (in `SYMBOLS` order) on a die of each colour."""
SIDES = 6
MAX_DICE = 15
"""The most dice a player rolls at once in these figures (9 black dice and white dice bought)."""
MAX_BLACK = 9
"""The most black dice a player may own (those bought this night included)."""
MAX_TURNS = 60
"""A game also ends after this many turns per player (a safety bound)."""
ROLL_CAP = 5
"""Greedy and odds end a night after this many rolls in it (the night's first roll included)."""
ODDS_ROLLS = 2
"""The rerolls the odds bot looks ahead when valuing a chase."""
THRESHOLD = Fraction(1)
"""The odds bot goes on chasing while the chase is worth at least this many expected points."""

PLAYERS = Param("players", 3, 2, 4, "players at the table")
HAND_BLACK = Param("black", 6, 1, MAX_BLACK, "black dice you roll (6 at the start, at most 9)")
HAND_WHITE = Param("white", 0, 0, 3, "white dice bought for this night (the reserve holds 3 per player)")
SYMBOL = Param("symbol", "moon", 0, 0, "the symbol chased: star, crescent or moon", kind=str, choices=SYMBOLS)
K = Param("k", 4, 0, MAX_DICE, "dice that must show the symbol (p_at_least)")
DICE = Param("dice", 6, 1, MAX_DICE, "dice rolled")
ROLLS = Param("rolls", 3, 1, 20, "rolls, the first of all the dice, matching dice kept after each (p_at_least)")
COLOUR = Param(
    "colour",
    "black",
    0,
    0,
    "the dice's colour: black (3 stars, 2 crescents, 1 moon) or white (2/2/2)",
    kind=str,
    choices=tuple(FACES),
)
SHAPE = Param("shape", "L4", 0, 0, "a dream's shape (polyomino letter and size)", kind=str, choices=NAMES)
BLOCKED = Param("blocked", "", 0, 40, "cells of the matrix already taken, numbered 1-9 row by row, e.g. 1,5", kind=str)
SIZE = Param("size", 0, 0, MAX_DICE, "dice of one common symbol to get (expected_rolls_for_shape); 0: the shape's size")
NIGHTS = Param(
    "nights", 4, 1, 30, "nights left in the game (what a black die bought now is worth: it serves each of them)"
)
BOT_NAMES = ("greedy", "odds", "random_legal", "rollout")
BOTS = Param(
    "bots",
    "odds,greedy",
    1,
    200,
    "the bots at the table in `nessus simulate`, comma-separated, seat by seat, repeated round the table "
    "(greedy, odds, random_legal, rollout: a tenth of a second a move)",
    kind=str,
)
GAMES = count_param(
    "games",
    2_000,
    "whole games of the bots that `nessus simulate` plays through the generic play loop, about 80 a second "
    "(win_share_seat_*, mean_rounds; the trials are the chases)",
)


def symbols_text(symbol: str, n: int) -> str:
    """`n` dice of `symbol` in words.

    >>> symbols_text("star", 1), symbols_text("moon", 1), symbols_text("moon", 3)
    ('1 star', '1 full moon', '3 full moons')
    """
    return f"{n} {symbol if n == 1 else PLURAL[symbol]}".replace("1 moon", "1 full moon")


@dataclass(frozen=True)
class Rules(GameRules):
    params = (PLAYERS, SYMBOL, K, DICE, ROLLS, COLOUR, SHAPE, BLOCKED, SIZE, NIGHTS, BOTS, GAMES)
    counts = ("games",)
    players: int = field(PLAYERS)
    symbol: str = field(SYMBOL)
    k: int = field(K)
    dice: int = field(DICE)
    rolls: int = field(ROLLS)
    colour: str = field(COLOUR)
    shape: str = field(SHAPE)
    blocked: str = field(BLOCKED)
    size: int = field(SIZE)
    nights: int = field(NIGHTS)
    bots: str = field(BOTS)
    games: int = field(GAMES)

    def validate(self) -> None:
        if self.k > self.dice:
            raise ValueError(f"k must be at most dice = {self.dice} (the dice that can show the symbol), got {self.k}")
        if self.chase_size > self.dice:
            raise ValueError(f"size must be at most dice = {self.dice}, got {self.chase_size}")
        self.blocked_cells  # noqa: B018 (parses, or a ValueError naming `blocked`)
        self.seat_bots  # noqa: B018 (a ValueError naming `bots` for an unknown bot)

    @property
    def blocked_cells(self) -> tuple[Cell, ...]:
        return parse_cells(self.blocked, "blocked")

    @property
    def chase_size(self) -> int:
        """The dice of one symbol to get: `size`, or the shape's size."""
        return self.size or len(SHAPES[self.shape])

    @property
    def black_white(self) -> tuple[int, int]:
        """The dice rolled as (black, white): `dice` dice of `colour`."""
        return (self.dice, 0) if self.colour == "black" else (0, self.dice)

    @property
    def seat_bots(self) -> tuple[str, ...]:
        """The bot at each seat: `bots` repeated round the table."""
        return seat_names(self.bots, self.players, BOT_NAMES)
