"""Nyx, the whole game on the game protocol (`nessus.game`), RULES.md part 4.

Each player rolls symbol dice (black: 3 stars, 2 crescents, 1 full moon; white: 2 of each) and
spends them to realise the face-up dreams (dice of one symbol on their 3x3 dream matrix in the
card's shape), nightmares (the same, taking points from every opponent) and spells (dice of the
symbols shown), or to buy dice; ending a night scores what the night realised.

Settled here (RULES.md's decisions, the task's and the engine's own):
- 2 to 4 players; each starts with 6 black dice and 10 points, and a score never goes below 0.
  The reserves hold 3 black and 3 white dice per player (the rulebook's 36 black and 12 white
  less 9 and 3 per missing player, less the 6 black dice each player starts with).
- The cards are `cards.py`'s (data/nyx-cards.json, mostly assumed). The decks hold 6 cards fewer
  of each kind per player below 4 (the last ones of the file); players + 1 cards of each deck lie
  face up (the display, slots kept in place: a realised or discarded card's slot is refilled).
- Every draw is a chance node, one card at a time, each card left in its deck equally likely
  (the decks' order is not in the state: a deck is a tuple of card ids). The deal fills the
  dream slots, then the spell slots.
- A turn: at the start of each of a player's nights (their first turn, and the turn after they
  end a night) all their dice are rolled (a chance node, the black and the white dice as
  multisets of symbols with exact multinomial weights); that roll is the turn's roll. On other
  turns the player first chooses `Reroll(dice)` (any non-empty multiset of their free dice, by
  colour and symbol; a chance node rolls them) or `NoReroll`. Then one action, or `Pass` if the
  dice were rolled this turn (the turn needs at least one of the two):
  `Dream(slot, symbol, cells)` (a face-up dream or nightmare, a symbol and a placement on free
  cells of the matrix, `matrix.placements`; it takes len(cells) free dice showing the symbol),
  `Spell(slot)` (one free die per symbol the card shows), `BuyWhite` (a free star; the die
  arrives at the end of this night, is usable the next night and goes back to the reserve at
  its end), `BuyBlack` (a free star, crescent and full moon; arrives at the end of this night,
  kept for the game; at most 9 black dice per player, counting those bought), `EndNight(dream,
  spell)`. Free dice: rolled this night and not yet placed on the matrix, a card or the board.
  Paying always spends white dice before black dice (they are lost at the end of the night
  anyway). Impossible moves are not legal (no dice, no room on the matrix, empty reserve…).
- `EndNight(dream, spell)` scores the night: the power spells active from earlier nights and
  realised this night give their points, the dreams realised this night theirs, each nightmare
  takes its points from each opponent, the once-spells give theirs (then go to the player's
  discard, with the dreams; the power spells stay active). The dice bought arrive, the white
  dice of this night (used or not: a white die serves one night) go back to the reserve, the
  matrix is cleared, every die is free again (rolled at the player's next turn); then the
  face-up dream at slot `dream` and the spell at slot `spell`, the player's choice, go to the
  common discard and their slots are refilled (None: that deck shows no card).
- The end: once a deck is empty when a card should be drawn (the slot stays empty), the game
  ends when the round is complete (every player has played as many turns, player 1 = seat 0
  first); then every player, in seat order, scores their night as in EndNight (no discards, no
  dice moved), and the most points wins: returns are win shares (1/k for a k-way tie). A safety
  bound, `MAX_TURNS` turns per player, ends a game the same way (bots end far sooner).
- Nothing is hidden: dice, matrices and cards are public, only the decks' order is chance.

Game length: a turn is at most 6 moves and chance outcomes (roll, choice, reroll, action, two
draws), so a game is at most 2(players + 1) + 6 × MAX_TURNS × players long (`shape().max_length`).

>>> state = initial_state(Rules(players=2))
>>> state.current_player() == game.CHANCE, len(state.chance_outcomes())
(True, 18)
>>> state = state.draw(0, 1, 2, 30, 31, 32)
>>> state = state.apply(Roll((3, 2, 1), (0, 0, 0)))
>>> print(state.seats[0].dice_text())
black 3 stars, 2 crescents, 1 moon
>>> [str(a) for a in state.legal_actions()][:2]
['realise dream slot 2 with stars on cells 1,2', 'realise dream slot 2 with stars on cells 1,4']
>>> state.describe(Spell(0))
'realise Veil of Dusk (spell slot 1)'
>>> state = state.apply(Spell(0))
>>> print(state.seats[0].dice_text()), state.current_player() == game.CHANCE
black 3 stars, 1 crescent
(None, True)
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from functools import cache
from math import comb

from nessus import game
from nessus.games.nyx import matrix, rollouts
from nessus.games.nyx.cards import CARDS, Card, card_value, dream_ids, spell_ids
from nessus.games.nyx.odds import colour_rolls
from nessus.games.nyx.rules import FACES, MAX_BLACK, MAX_TURNS, SIDES, SYMBOLS, Rules
from nessus.solver import Hint

START_BLACK = 6
START_SCORE = 10
RESERVE_PER_PLAYER = 3
"""Black dice, and white dice, in the reserves per player."""
COLOURS = ("black", "white")
ROLLOUT_MOVES = 6
"""The most moves the rollout hint weighs (`State.rollout_moves`)."""

Dice = tuple[int, ...]
"""Dice by colour and symbol: black stars, crescents, moons, then white stars, crescents, moons."""
NO_DICE: Dice = (0,) * 6
DREAM, SPELL = "dream", "spell"


def dice_text(dice: Sequence[int]) -> str:
    """Dice by colour and symbol as text: "black 2 moons; white 1 star" ("no dice" for none)."""
    parts = []
    for c, colour in enumerate(COLOURS):
        counts = dice[3 * c : 3 * c + 3]
        if any(counts):
            shown = ", ".join(f"{n} {s}{'s' if n > 1 else ''}" for n, s in zip(counts, SYMBOLS) if n)
            parts.append(f"{colour} {shown}")
    return "; ".join(parts) or "no dice"


def symbol_count(dice: Dice, symbol: str) -> int:
    """Dice of either colour showing `symbol`."""
    i = SYMBOLS.index(symbol)
    return dice[i] + dice[3 + i]


def _minus(a: Dice, b: Dice) -> Dice:
    return tuple(x - y for x, y in zip(a, b))


def _plus(a: Dice, b: Dice) -> Dice:
    return tuple(x + y for x, y in zip(a, b))


def pay(free: Dice, symbols: Iterable[str]) -> Dice | None:
    """The dice that pay for `symbols` (one die per symbol, white before black), or None if the
    free dice cannot."""
    paid = list(NO_DICE)
    for symbol in symbols:
        i = SYMBOLS.index(symbol)
        if free[3 + i] > paid[3 + i]:
            paid[3 + i] += 1
        elif free[i] > paid[i]:
            paid[i] += 1
        else:
            return None
    return tuple(paid)


# -- actions ---------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Draw:
    """A chance outcome: the next card drawn is `card` (it fills the slot waiting for one)."""

    card: int

    def __str__(self) -> str:
        return f"draw {CARDS[self.card].name}"


@dataclass(frozen=True)
class Roll:
    """A chance outcome: the dice rolled show `black` and `white` (counts of stars, crescents, moons)."""

    black: tuple[int, ...]
    white: tuple[int, ...]

    @property
    def dice(self) -> Dice:
        return tuple(self.black) + tuple(self.white)

    def __str__(self) -> str:
        return f"roll {dice_text(self.dice)}"


@dataclass(frozen=True)
class Reroll:
    """Reroll these free dice (by colour and symbol, see `Dice`)."""

    dice: Dice

    def __str__(self) -> str:
        return f"reroll {dice_text(self.dice)}"


@dataclass(frozen=True)
class NoReroll:
    """Keep the dice as they are this turn (an action must follow)."""

    def __str__(self) -> str:
        return "no reroll"


@dataclass(frozen=True)
class Dream:
    """Realise the face-up dream or nightmare at display slot `slot` with dice showing `symbol`
    placed on `cells` of the matrix."""

    slot: int
    symbol: str
    cells: tuple[int, ...]

    def __str__(self) -> str:
        return f"realise dream slot {self.slot + 1} with {self.symbol}s on cells {','.join(map(str, self.cells))}"


@dataclass(frozen=True)
class Spell:
    """Realise the face-up spell at display slot `slot`."""

    slot: int

    def __str__(self) -> str:
        return f"realise spell slot {self.slot + 1}"


@dataclass(frozen=True)
class BuyWhite:
    """Buy a white die for a free star."""

    def __str__(self) -> str:
        return "buy a white die (1 star)"


@dataclass(frozen=True)
class BuyBlack:
    """Buy a black die for a free star, crescent and full moon."""

    def __str__(self) -> str:
        return "buy a black die (star, crescent, moon)"


@dataclass(frozen=True)
class EndNight:
    """End the night, discarding the face-up dream at slot `dream` and the spell at slot `spell`
    (None: that deck shows no card)."""

    dream: int | None
    spell: int | None

    def __str__(self) -> str:
        d = "no dream" if self.dream is None else f"dream slot {self.dream + 1}"
        s = "no spell" if self.spell is None else f"spell slot {self.spell + 1}"
        return f"end the night, discarding {d} and {s}"


@dataclass(frozen=True)
class Pass:
    """No action this turn (only after rolling)."""

    def __str__(self) -> str:
        return "pass"


NO_REROLL, BUY_WHITE, BUY_BLACK, PASS = NoReroll(), BuyWhite(), BuyBlack(), Pass()


# -- dice odds -------------------------------------------------------------------------------------
@cache
def roll_outcomes(black: int, white: int) -> tuple[tuple[Roll, Fraction], ...]:
    """Every roll of `black` black dice and `white` white dice, with its exact probability."""
    den = SIDES ** (black + white)
    return tuple(
        (Roll(b, w), Fraction(wb * ww, den))
        for b, wb in colour_rolls(black, "black")
        for w, ww in colour_rolls(white, "white")
    )


@cache
def p_reach(need: int, black: int, white: int, symbol: str) -> Fraction:
    """P(at least `need` of `black` black and `white` white dice rolled once show `symbol`)."""
    if need <= 0:
        return Fraction(1)
    i = SYMBOLS.index(symbol)
    pb, pw = Fraction(FACES["black"][i], SIDES), Fraction(FACES["white"][i], SIDES)
    total = Fraction(0)
    for x in range(black + 1):
        px = comb(black, x) * pb**x * (1 - pb) ** (black - x)
        for y in range(max(0, need - x), white + 1):
            total += px * comb(white, y) * pw**y * (1 - pw) ** (white - y)
    return total


# -- a player's side of the table ------------------------------------------------------------------
@dataclass(frozen=True)
class Seat:
    """One player: `score`; `black` and `white` dice owned this night; `free` the dice rolled
    and not yet placed (`Dice`), `spent_black`/`spent_white` those placed this night, `started`
    whether this night's dice are rolled (else every die waits for the roll) and `rolls` how
    many times dice were rolled this night; `pending_black`/`pending_white` the dice bought this
    night; `matrix` the occupied cells; `night` the cards realised this night, `active` the
    power spells of earlier nights, `discard` the dreams and once-spells scored."""

    score: int = START_SCORE
    black: int = START_BLACK
    white: int = 0
    free: Dice = NO_DICE
    spent_black: int = 0
    spent_white: int = 0
    started: bool = False
    rolls: int = 0
    pending_black: int = 0
    pending_white: int = 0
    matrix: tuple[int, ...] = ()
    night: tuple[int, ...] = ()
    active: tuple[int, ...] = ()
    discard: tuple[int, ...] = ()

    @property
    def free_count(self) -> int:
        return sum(self.free)

    @property
    def owned(self) -> int:
        """Dice owned, those bought this night included."""
        return self.black + self.white + self.pending_black + self.pending_white

    def dice_text(self) -> str:
        return dice_text(self.free)

    def night_points(self) -> tuple[int, int]:
        """What ending the night scores: (points gained, points each opponent loses)."""
        gain = sum(CARDS[c].points for c in self.active)
        loss = 0
        for c in self.night:
            card = CARDS[c]
            if card.kind == "nightmare":
                loss += card.points
            else:
                gain += card.points
        return gain, loss

    def night_text(self) -> str:
        """What ending the night scores, in words: "+3", or "+3, −2 to each opponent"."""
        gain, loss = self.night_points()
        return f"+{gain}" + (f", −{loss} to each opponent" if loss else "")


def _set(items: tuple, i: int, value: object) -> tuple:
    return items[:i] + (value,) + items[i + 1 :]


# -- the state -------------------------------------------------------------------------------------
@dataclass(frozen=True)
class State(game.State):
    """A whole game of Nyx (see the module docstring). `seats` one `Seat` per player; the decks
    `dream_deck`/`spell_deck` (card ids left, sorted), the display `dreams`/`spells` (a card id
    or None per slot), the common `discard`; the reserves; `turn` the turns played (the mover is
    turn % players); `phase`: "deal", "roll" (the night's roll, chance), "choose" (reroll or
    not), "reroll" (chance, `rolling` the dice), "act", "done" (waiting for draws), "over";
    `draws` the slots waiting for a card ((deck, slot), chance); `rerolled` whether the mover
    rolled this turn; `exhausted` whether a deck ran out (the game ends with the round)."""

    rules: Rules = field(default_factory=Rules)
    seats: tuple[Seat, ...] = ()
    dream_deck: tuple[int, ...] = ()
    spell_deck: tuple[int, ...] = ()
    dreams: tuple[int | None, ...] = ()
    spells: tuple[int | None, ...] = ()
    discard: tuple[int, ...] = ()
    reserve_black: int = 0
    reserve_white: int = 0
    turn: int = 0
    phase: str = "deal"
    draws: tuple[tuple[str, int], ...] = ()
    rolling: Dice = NO_DICE
    rerolled: bool = False
    exhausted: bool = False

    def __post_init__(self) -> None:
        if not self.seats:  # a new game
            n = self.rules.players
            set_ = object.__setattr__
            set_(self, "seats", (Seat(),) * n)
            set_(self, "dream_deck", dream_ids(n))
            set_(self, "spell_deck", spell_ids(n))
            set_(self, "dreams", (None,) * (n + 1))
            set_(self, "spells", (None,) * (n + 1))
            set_(self, "reserve_black", RESERVE_PER_PLAYER * n)
            set_(self, "reserve_white", RESERVE_PER_PLAYER * n)
            set_(self, "draws", tuple((DREAM, i) for i in range(n + 1)) + tuple((SPELL, i) for i in range(n + 1)))

    # -- what the table shows ------------------------------------------------------------------
    @property
    def players(self) -> int:
        return self.rules.players

    @property
    def mover(self) -> int:
        """The player whose turn it is."""
        return self.turn % self.players

    @property
    def scores(self) -> list[int]:
        return [s.score for s in self.seats]

    def card_at(self, deck: str, slot: int) -> Card | None:
        """The face-up card of `deck` ("dream" or "spell") at `slot`, if any."""
        c = (self.dreams if deck == DREAM else self.spells)[slot]
        return None if c is None else CARDS[c]

    def all_cards(self) -> list[int]:
        """Every card id in the game, wherever it is (decks, display, zones, discards)."""
        out = list(self.dream_deck) + list(self.spell_deck) + list(self.discard)
        out += [c for c in self.dreams + self.spells if c is not None]
        for s in self.seats:
            out += list(s.night) + list(s.active) + list(s.discard)
        return out

    # -- the protocol --------------------------------------------------------------------------
    def current_player(self) -> int:
        if self.phase == "over":
            return game.TERMINAL
        if self.draws or self.phase in ("roll", "reroll"):
            return game.CHANCE
        return self.mover

    def apply(self, action: game.Action) -> State:
        """`game.State.apply`, the allowed moves kept as a set on the state (a rollout hint applies
        each of its moves to the same state many times)."""
        allowed = self.__dict__.get("_allowed")
        if allowed is None:
            moves = [a for a, _ in self.chance_outcomes()] if self.is_chance_node() else self.legal_actions()
            allowed = frozenset(moves)
            object.__setattr__(self, "_allowed", allowed)
        return self._apply(action) if action in allowed else super().apply(action)

    def legal_actions(self) -> list[game.Action]:
        if self.current_player() < 0:
            return []
        seat = self.seats[self.mover]
        if self.phase == "choose":
            return [NO_REROLL, *(Reroll(d) for d in _subsets(seat.free) if any(d))]
        actions: list[game.Action] = []
        blocked = seat.matrix
        for slot, c in enumerate(self.dreams):
            if c is None:
                continue
            card = CARDS[c]
            for symbol in SYMBOLS:
                if symbol_count(seat.free, symbol) >= card.size:
                    actions += [
                        Dream(slot, symbol, tuple(sorted(p))) for p in matrix.placements(card.shape, blocked=blocked)
                    ]
        for slot, c in enumerate(self.spells):
            if c is not None and pay(seat.free, CARDS[c].symbols) is not None:
                actions.append(Spell(slot))
        if self.reserve_white and symbol_count(seat.free, "star"):
            actions.append(BUY_WHITE)
        if self.reserve_black and seat.black + seat.pending_black < MAX_BLACK and pay(seat.free, SYMBOLS) is not None:
            actions.append(BUY_BLACK)
        dream_slots: list[int | None] = [i for i, c in enumerate(self.dreams) if c is not None] or [None]
        spell_slots: list[int | None] = [i for i, c in enumerate(self.spells) if c is not None] or [None]
        actions += [EndNight(d, s) for d in dream_slots for s in spell_slots]
        if self.rerolled:
            actions.append(PASS)
        return actions

    def chance_outcomes(self) -> list[tuple[game.Action, Fraction]]:
        if self.current_player() != game.CHANCE:
            return []
        if self.draws:
            deck = self.dream_deck if self.draws[0][0] == DREAM else self.spell_deck
            return [(Draw(c), Fraction(1, len(deck))) for c in deck]
        if self.phase == "roll":
            seat = self.seats[self.mover]
            return list(roll_outcomes(seat.black, seat.white))
        return list(roll_outcomes(sum(self.rolling[:3]), sum(self.rolling[3:])))

    def _apply(self, action: game.Action) -> State:
        p = self.mover
        seat = self.seats[p]
        if isinstance(action, Draw):
            deck, slot = self.draws[0]
            if deck == DREAM:
                state = replace(
                    self,
                    dreams=_set(self.dreams, slot, action.card),
                    dream_deck=tuple(c for c in self.dream_deck if c != action.card),
                )
            else:
                state = replace(
                    self,
                    spells=_set(self.spells, slot, action.card),
                    spell_deck=tuple(c for c in self.spell_deck if c != action.card),
                )
            return replace(state, draws=self.draws[1:])._drawing()
        if isinstance(action, Roll):
            if self.phase == "roll":
                seat = replace(seat, free=action.dice, started=True, rolls=1, spent_black=0, spent_white=0)
            else:
                seat = replace(seat, free=_plus(_minus(seat.free, self.rolling), action.dice), rolls=seat.rolls + 1)
            return replace(self, seats=_set(self.seats, p, seat), phase="act", rerolled=True, rolling=NO_DICE)
        if isinstance(action, NoReroll):
            return replace(self, phase="act")
        if isinstance(action, Reroll):
            return replace(self, phase="reroll", rolling=action.dice)
        if isinstance(action, Pass):
            return replace(self, phase="done")._drawing()
        if isinstance(action, Dream):
            card = self.card_at(DREAM, action.slot)
            assert card is not None
            seat = self._spend(seat, (action.symbol,) * card.size)
            seat = replace(seat, matrix=tuple(sorted(seat.matrix + action.cells)), night=seat.night + (card.id,))
            return self._realised(seat, DREAM, action.slot)
        if isinstance(action, Spell):
            card = self.card_at(SPELL, action.slot)
            assert card is not None
            seat = replace(self._spend(seat, card.symbols), night=seat.night + (card.id,))
            return self._realised(seat, SPELL, action.slot)
        if isinstance(action, BuyWhite):
            seat = replace(self._spend(seat, ("star",)), pending_white=seat.pending_white + 1)
            state = replace(self, seats=_set(self.seats, p, seat), reserve_white=self.reserve_white - 1)
            return replace(state, phase="done")._drawing()
        if isinstance(action, BuyBlack):
            seat = replace(self._spend(seat, SYMBOLS), pending_black=seat.pending_black + 1)
            state = replace(self, seats=_set(self.seats, p, seat), reserve_black=self.reserve_black - 1)
            return replace(state, phase="done")._drawing()
        assert isinstance(action, EndNight)
        state = self._score_night(p)
        seat = state.seats[p]
        active = seat.active + tuple(c for c in seat.night if CARDS[c].effect == "power")
        spent = seat.discard + tuple(c for c in seat.night if CARDS[c].effect != "power")
        reserve_white = state.reserve_white + seat.white
        seat = Seat(
            score=seat.score,
            black=seat.black + seat.pending_black,
            white=seat.pending_white,
            active=active,
            discard=spent,
        )
        dreams, spells, discard = state.dreams, state.spells, state.discard
        draws: tuple[tuple[str, int], ...] = ()
        if action.dream is not None:
            discard += tuple(c for c in (dreams[action.dream],) if c is not None)
            dreams = _set(dreams, action.dream, None)
            draws += ((DREAM, action.dream),)
        if action.spell is not None:
            discard += tuple(c for c in (spells[action.spell],) if c is not None)
            spells = _set(spells, action.spell, None)
            draws += ((SPELL, action.spell),)
        state = replace(
            state,
            seats=_set(state.seats, p, seat),
            reserve_white=reserve_white,
            dreams=dreams,
            spells=spells,
            discard=discard,
            draws=draws,
            phase="done",
        )
        return state._drawing()

    @staticmethod
    def _spend(seat: Seat, symbols: Iterable[str]) -> Seat:
        paid = pay(seat.free, symbols)
        assert paid is not None
        return replace(
            seat,
            free=_minus(seat.free, paid),
            spent_black=seat.spent_black + sum(paid[:3]),
            spent_white=seat.spent_white + sum(paid[3:]),
        )

    def _realised(self, seat: Seat, deck: str, slot: int) -> State:
        """The card at `slot` of `deck` was realised into `seat` (the mover's): its slot waits for a card."""
        p = self.mover
        if deck == DREAM:
            state = replace(self, dreams=_set(self.dreams, slot, None))
        else:
            state = replace(self, spells=_set(self.spells, slot, None))
        return replace(state, seats=_set(self.seats, p, seat), draws=((deck, slot),), phase="done")._drawing()

    def _score_night(self, p: int) -> State:
        """The scores after player `p` scores their night (the cards stay where they are)."""
        gain, loss = self.seats[p].night_points()
        seats = list(self.seats)
        for q, s in enumerate(seats):
            seats[q] = replace(s, score=s.score + gain if q == p else max(0, s.score - loss))
        return replace(self, seats=tuple(seats))

    def _drawing(self) -> State:
        """Skip the draws from empty decks (the deck is exhausted, the slot stays empty); once no
        draw is left, go on: the first turn after the deal, the next turn after an action."""
        state = self
        while state.draws:
            deck = state.dream_deck if state.draws[0][0] == DREAM else state.spell_deck
            if deck:
                return state
            state = replace(state, draws=state.draws[1:], exhausted=True)
        if state.phase == "deal":
            return state._start_turn()
        return state._end_turn()

    def _start_turn(self) -> State:
        seat = self.seats[self.mover]
        return replace(self, phase="choose" if seat.started else "roll", rerolled=False)

    def _end_turn(self) -> State:
        state = replace(self, turn=self.turn + 1, rerolled=False)
        n = self.players
        if (state.exhausted and state.turn % n == 0) or state.turn >= MAX_TURNS * n:
            for p in range(n):
                state = state._score_night(p)
            return replace(state, phase="over")
        return state._start_turn()

    def returns(self) -> list[Fraction]:
        if self.phase != "over":
            return [Fraction(0)] * self.players
        return game.win_shares(self.scores)

    def observation(self, player: int) -> str:
        """The whole table (nothing is hidden), as seen by `player`."""
        game.check_players([player], self.shape())
        n = self.players
        lines = [
            f"Nyx, {n} players; you are player {player + 1}. Turn {self.turn // n + 1} of player {self.mover + 1}.",
            f"Reserve: {self.reserve_black} black, {self.reserve_white} white dice. Decks: "
            f"{len(self.dream_deck)} dreams, {len(self.spell_deck)} spells"
            + (" (a deck ran out: the game ends with this round)." if self.exhausted else "."),
        ]
        for slot, c in enumerate(self.dreams):
            lines.append(f"dream slot {slot + 1}: {CARDS[c] if c is not None else 'empty'}")
        for slot, c in enumerate(self.spells):
            lines.append(f"spell slot {slot + 1}: {CARDS[c] if c is not None else 'empty'}")
        for p, s in enumerate(self.seats):
            you = " (you)" if p == player else ""
            dice = (
                f"free {s.dice_text()}; placed {s.spent_black} black, {s.spent_white} white"
                if s.started
                else "dice not rolled yet this night"
            )
            lines.append(
                f"player {p + 1}{you}: {s.score} points; {s.black} black and {s.white} white dice ({dice}); "
                f"bought {s.pending_black} black, {s.pending_white} white; rolls this night {s.rolls}"
            )
            lines.append("  this night: " + ("; ".join(str(CARDS[c]) for c in s.night) or "nothing"))
            lines.append("  active spells: " + ("; ".join(str(CARDS[c]) for c in s.active) or "none"))
            lines.extend("  " + row for row in matrix.draw(s.matrix).splitlines())
        if self.phase == "over":
            win = [p + 1 for p, r in enumerate(self.returns()) if r]
            lines.append(f"The game is over: player {' and '.join(map(str, win))} won.")
        elif self.current_player() == game.CHANCE:
            lines.append("Chance: " + ("a card is drawn." if self.draws else "dice are rolled."))
        else:
            lines.append(f"Player {self.mover + 1} to {'reroll or not' if self.phase == 'choose' else 'act'}.")
        return "\n".join(lines)

    def shape(self) -> game.Shape:
        n = self.players
        white = RESERVE_PER_PLAYER * n
        slots = n + 1
        most_placements = max(len(matrix.placements(CARDS[c].shape)) for c in dream_ids(n))
        act = slots * len(SYMBOLS) * most_placements + slots + 2 + slots * slots + 1
        choose = 1 + _most_subsets(MAX_BLACK) * _most_subsets(white)
        return game.Shape(
            players=n,
            max_actions=max(act, choose),
            max_chance_outcomes=max(len(dream_ids(n)), len(spell_ids(n)), comb(MAX_BLACK + 2, 2) * comb(white + 2, 2)),
            max_length=2 * slots + 6 * MAX_TURNS * n,
            min_return=Fraction(0),
            max_return=Fraction(1),
        )

    # -- a heuristic hint --------------------------------------------------------------------------
    def card_value(self, card: Card) -> Fraction:
        """The heuristic's worth of realising `card` now (`cards.card_value`)."""
        return Fraction(card_value(card, self.players))

    def reroll_value(self, dice: Dice) -> Fraction:
        """The heuristic's worth of rerolling `dice`: the best, over the face-up dreams that fit
        the mover's matrix and the symbols, of `card_value` × P(enough dice of the symbol after
        the roll, the others kept)."""
        seat = self.seats[self.mover]
        kept = _minus(seat.free, dice)
        best = Fraction(0)
        for c in self.dreams:
            if c is None or not matrix.placements(CARDS[c].shape, blocked=seat.matrix):
                continue
            card = CARDS[c]
            for symbol in SYMBOLS:
                need = card.size - symbol_count(kept, symbol)
                if need <= sum(dice):
                    best = max(best, self.card_value(card) * p_reach(need, sum(dice[:3]), sum(dice[3:]), symbol))
        return best

    def action_value(self, action: game.Action) -> Fraction:
        """The heuristic's value of a legal `action` (see `hint`)."""
        if isinstance(action, Dream):
            card = self.card_at(DREAM, action.slot)
            return self.card_value(card) if card else Fraction(0)
        if isinstance(action, Spell):
            card = self.card_at(SPELL, action.slot)
            return self.card_value(card) if card else Fraction(0)
        if isinstance(action, BuyBlack):
            return Fraction(2)
        if isinstance(action, BuyWhite):
            return Fraction(1)
        if isinstance(action, Reroll):
            return self.reroll_value(action.dice)
        if isinstance(action, NoReroll):
            now = [self.action_value(a) for a in replace(self, phase="act").legal_actions()]
            return max(now, default=Fraction(0))
        if isinstance(action, EndNight):
            return Fraction(1, 2) if not self.seats[self.mover].free_count else Fraction(0)
        return Fraction(0)

    def hint(
        self, method: str = "heuristic", seed: int = 0, most: int | None = None, bots: Sequence[str] | None = None
    ) -> Hint:
        """Every legal action's value for the player to move, by `method`:

        - "heuristic": realising a card is worth `card_value`, buying a black die 2 and a white one
          1, a reroll `reroll_value`, no reroll the best of what can be done now, ending the night
          1/2 with no free die left (else 0), passing 0; the best is the first of the highest value.
        - "rollout": a `nessus.rollout.RolloutHint`, each of `rollout_moves` (one move a group)
          valued by the chance to win (0..1) and the final points, each with its 95% interval, from
          at most `most` play-outs a move (None: the page's budget, `rollouts.budget`) seeded by
          `seed`, the seats played by `bots` (one name a seat; default the rules' `seat_bots`);
          exact where the game ends soon enough (`nyx.rollouts`)."""
        if method == "rollout":
            if self.current_player() < 0:
                raise ValueError(self._no_decision("rollout hint"))
            return rollouts.hint(self, self.rollout_moves(), seed, most, bots)
        if method != "heuristic":
            raise ValueError(f"method must be 'heuristic' or 'rollout', got {method!r}")
        if self.current_player() < 0:
            return super().hint()
        values: dict[Hashable, Fraction] = {a: self.action_value(a) for a in self.legal_actions()}
        top = max(values.values())
        best = next(a for a, v in values.items() if v == top)
        return Hint(self, values, best, True, "heuristic")

    def end_night(self) -> EndNight:
        """Ending the night as the bots do, discarding the face-up dream and the spell worth most
        (`card_value`: those the next players could realise)."""

        def top(slots: tuple[int | None, ...]) -> int | None:
            present = [i for i, c in enumerate(slots) if c is not None]
            return max(present, key=lambda i: self.card_value(CARDS[slots[i]]), default=None)  # type: ignore[index]

        return EndNight(top(self.dreams), top(self.spells))

    def rollout_moves(self) -> dict[game.Action, game.Action]:
        """The moves the rollout hint weighs, one a group (each maps to itself): before acting, no
        reroll, "keep one symbol, reroll the rest" for each symbol held, and rerolling every die;
        then each face-up dream with each symbol that can pay for it, placed where it leaves the
        most room (`matrix.best_placements`), each spell, buying each colour, passing and ending
        the night (`end_night`: the other discards are that group's); at most `ROLLOUT_MOVES`,
        passing and ending the night kept and the others by the heuristic's value (`action_value`)."""
        legal = self.legal_actions()
        free = self.seats[self.mover].free
        if self.phase == "choose":
            keeps = [
                tuple(0 if k % 3 == i else n for k, n in enumerate(free))
                for i in range(3)
                if symbol_count(free, SYMBOLS[i])
            ]
            moves = [NO_REROLL, *dict.fromkeys(Reroll(d) for d in (*keeps, free) if any(d))]
            return {m: m for m in moves[:ROLLOUT_MOVES]}
        room = set(matrix.CELLS) - set(self.seats[self.mover].matrix)
        dreams = [
            Dream(slot, symbol, tuple(sorted(ranked[0][0])))
            for slot, c in enumerate(self.dreams)
            if c is not None and (ranked := matrix.best_placements(CARDS[c].shape, room))
            for symbol in SYMBOLS
            if symbol_count(free, symbol) >= CARDS[c].size
        ]
        others = dreams + [a for a in legal if isinstance(a, (Spell, BuyWhite, BuyBlack))]
        others.sort(key=lambda a: -self.action_value(a))
        ends = [a for a in (PASS, self.end_night()) if a in legal]
        return {m: m for m in others[: ROLLOUT_MOVES - len(ends)] + ends}

    # -- moves by name -----------------------------------------------------------------------------
    def draw(self, *cards: int) -> State:
        """The state after the given cards are drawn, one at a time."""
        state = self
        for c in cards:
            state = state.apply(Draw(c))
        return state

    def describe(self, action: game.Action) -> str:
        """`str(action)` with the card's name where the action names a slot."""
        if isinstance(action, Dream):
            card = self.card_at(DREAM, action.slot)
            cells = ",".join(map(str, action.cells))
            return (
                f"realise {card.name if card else '?'} (dream slot {action.slot + 1}) with {action.symbol}s on cells "
                f"{cells}"
            )
        if isinstance(action, Spell):
            card = self.card_at(SPELL, action.slot)
            return f"realise {card.name if card else '?'} (spell slot {action.slot + 1})"
        return str(action)

    def told(self, action: game.Action, names: Sequence[str]) -> str | None:
        """`action` by the player to move told for the log (`names`: each seat's name, "you" or a
        player's), or None for a card drawn.

        >>> s = initial_state(Rules(players=2)).draw(0, 1, 2, 30, 31, 32)
        >>> s.told(Roll((3, 2, 1), (0, 0, 0)), ["you", "player 2 (odds)"])
        'You roll black 3 stars, 2 crescents, 1 moon.'
        >>> s.apply(Roll((3, 2, 1), (0, 0, 0))).told(EndNight(None, None), ["player 1 (odds)", "you"])
        'Player 1 (odds): end the night, discarding no dream and no spell (+0).'
        """
        if isinstance(action, Draw):
            return None
        name, verb = names[self.mover].capitalize(), "" if names[self.mover] == "you" else "s"
        if isinstance(action, Roll):
            return f"{name} roll{verb} {dice_text(action.dice)}."
        if isinstance(action, NoReroll):
            return f"{name} keep{verb} the dice."
        if isinstance(action, Reroll):
            return f"{name} reroll{verb} {dice_text(action.dice)}."
        if isinstance(action, EndNight):
            return f"{name}: {self.describe(action)} ({self.seats[self.mover].night_text()})."
        return f"{name}: {self.describe(action)}."


def _subsets(dice: Dice) -> list[Dice]:
    """Every sub-multiset of `dice` (by colour and symbol), the empty one first."""
    out: list[Dice] = [()]
    for n in dice:
        out = [d + (k,) for d in out for k in range(n + 1)]
    return out


def _most_subsets(total: int) -> int:
    """The most sub-multisets a hand of at most `total` dice of one colour has (3 symbols)."""
    return max((a + 1) * (b + 1) * (total - a - b + 1) for a in range(total + 1) for b in range(total - a + 1))


def initial_state(rules: Rules | None = None) -> State:
    """The start of a game: the decks full, the display to deal (chance), player 1 to play first."""
    return State(rules or Rules())
