"""Entheos, the whole game on the game protocol (`nessus.game`), RULES.md part 5.

Six heroes (`heroes.HEROES`: 0-2 the Achaeans, 3-5 the Trojans) fight three duels; each turn
their dice are rolled, then the gods (the players) play action cards that lock heroes, change
dice or swap places, then the duels are resolved (`battle.resolve`). After the last turn the
side with more combat points wins the war, and each player's gods of that side turn their
favourites' combat points into victory points.

Settled here (RULES.md's decisions, the task's and the engine's own):
- `places`: the hero at each of the 6 places, 0-2 the Achaean line, 3-5 the Trojan line; the
  heroes at places i and 3 + i face each other (opponents, a duel). Each hero starts with 6
  points; the reserve is unlimited.
- Setup, chance nodes with exact weights: (1) the line-up: the Trojans' order facing the
  Achaeans (at places 0, 1, 2 in hero order), 6 orders, 1/6 each (`LineUp`); (2) the gods, dealt
  one card at a time, each allowed god alike (`Deal`, `SetAside`): at 2-3 players each player's
  Achaean god in seat order, then each player's Trojan god (at 2 players one god per side is
  left out); at 4 players first one god per side is set aside (Achaean, then Trojan), then the
  4 others are dealt one each in seat order; at 5-6 players each player gets one of the six
  (one left out at 5); (3) the first intervener (`First`), each seat alike.
- A turn: (1) dice: one chance node per hero die, in hero order, 6 colours 1/6 each (the
  outcome is the colour, a str); a die kept by card 6 last turn is not rolled. (2) placement:
  each player, in seat order from the first intervener, places 1 card of their hand face down
  (2 cards at 2 players: the action is the pair), `Place`; placing is one after the other in
  the engine but models a simultaneous choice: no observation shows another player's placed
  cards, only that they placed. (3) reveal: from the first intervener clockwise (seat + 1), each
  player once; at 2 players first, other, first, other (one of their two placed cards a slot).
  At a slot the player either reveals a card placed this turn and applies it now
  (`Reveal(card, effect)`), or leaves a placed card face down (`Hold(card, older, effect)`) and
  must then reveal and apply their oldest face-down card from an earlier turn (`older`), if any
  (else `older` and `effect` are None). Held cards stay face down before the player.
- Card effects (the target is part of the action): 1 `Lock(hero)`: the hero cannot be moved
  and its die cannot be changed this turn (later cards 3, 4, 5 cannot target it). 2
  `Reserve(hero)`: this turn the hero takes its steal from the reserve (its opponent loses
  nothing; not capped). 3 `SetFace(hero, face)`: the die shows a face whose action for that
  hero is a hero action (`heroes.HERO_ACTIONS`; the face it shows already is allowed, a no-op).
  4 `SwapPlaces(a, b)`: two heroes of one side swap places, keeping their dice (duels change).
  5 `SwapDice(a, b)`: the two heroes face to face (a the Achaean) exchange their dice faces. 6
  `KeepFace(hero)`: the hero's die is not rolled next turn. Cards 1, 2 and 6 may target any hero
  (again too); a card with no legal target has one effect-less option, `NoTarget(card)`. Locks
  and reserves last the turn, keeps until the next dice phase.
- (4) resolution: `battle.resolve` with each hero's action from its face, the opponents from
  `places`, the reserve heroes of card 2. The first-intervener card then moves to seat (first +
  1 + the number of heroes whose face's action is "falter") mod players. (5) card recovery:
  with 3+ players, a player with exactly 1 card left in hand after the interventions takes all
  their cards back (used ones and face-down held ones, unapplied); at 2 players when the hand is
  empty (every 3 turns). Hand + placed + held + used = {1..6} for every player at all times.
- The end: after `GAME_TURNS[players]` turns. The side with more combat points wins the war
  (a tie is possible); all gods are revealed; a god counts if its side won the war, every god
  on a tie; a player's victory points are the sum over their counting gods of
  `God.victory_points`. Returns: win shares of the most victory points.
- Hidden: the gods of the other players (until the end) and the numbers of the cards others
  placed or hold face down (their hands: only the size is shown, though a hand is what is left
  of the six cards). Everything else is public.

The hint (method "heuristic"): an action's value is the mover's victory points if no one else
played a card this turn and the war ended with this turn's resolution, a god of the side behind
counting half (not zero, so that a god whose side is behind still prefers its favourites'
points). A placement is worth the best reveal or hold it would allow right now.

Game length: 2 + the god deals + turns × (6 dice + players placements + the reveal slots).

>>> state = initial_state(Rules(players=3))
>>> state.current_player() == game.CHANCE, len(state.chance_outcomes())
(True, 6)
>>> state = state.set_up(trojans=(4, 3, 5), gods=((0, 3), (1, 4), (2, 5)), first=0)
>>> state = state.roll("green", "blue", "white", "yellow", "red", "mauve")
>>> state.current_player(), [str(a) for a in state.legal_actions()[:2]]
(0, ['place 1 face down', 'place 2 face down'])
>>> state = state.apply(Place((3,))).apply(Place((1,))).apply(Place((2,)))
>>> str(state.legal_actions()[0])
'reveal 3: Ulysses shows blue (steal1)'
>>> state = state.apply(Reveal(3, SetFace(4, "green")))  # Paris now steals 3 from Ulysses
>>> state.resolution()  # Hector rallies the Trojans, Aeneas guards: Ulysses steals only 2
(5, 6, 6, 7, 8, 7)
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from functools import lru_cache
from itertools import combinations, permutations
from typing import ClassVar

from nessus import game
from nessus.games.entheos.battle import resolve
from nessus.games.entheos.heroes import (
    ACTION_WORDS,
    FACES,
    GODS,
    HERO_ACTIONS,
    HERO_NAMES,
    HEROES,
    SIDES,
    START_POINTS,
)
from nessus.games.entheos.rules import DICE, GAME_TURNS, OVER, PLACE, REVEAL, SETUP, Rules, deal_schedule
from nessus.solver import Hint

CARDS = {1: "lock", 2: "reserve", 3: "set face", 4: "swap places", 5: "swap dice", 6: "keep face"}
"""The six action cards each player has, by number."""
CARD_HELP = {
    1: "a hero can be neither moved nor have its die changed this turn",
    2: "a hero takes its steal from the reserve: its opponent loses nothing",
    3: "set a hero's die to a face that makes it act (steal 1, steal 3, rally or guard)",
    4: "two heroes of one side swap places, keeping their dice",
    5: "the two heroes of a duel exchange their dice",
    6: "a hero's die is not rolled next turn",
}
"""What each card does, in a sentence."""
ALL_CARDS = tuple(CARDS)
SIDE_OF = tuple(h.side for h in HEROES)
HALF = Fraction(1, 2)
"""The hint's weight of a god whose side is behind."""


def card_text(card: int) -> str:
    """A card as text: its number and short name ("3 set face")."""
    return f"{card} {CARDS[card]}"


# -- card effects ----------------------------------------------------------------------------------
@dataclass(frozen=True)
class Lock:
    """Card 1: `hero` can be neither moved nor have its die changed this turn."""

    hero: int
    card: ClassVar[int] = 1

    def __str__(self) -> str:
        return f"{HERO_NAMES[self.hero]} is locked"


@dataclass(frozen=True)
class Reserve:
    """Card 2: this turn `hero` takes its steal from the reserve."""

    hero: int
    card: ClassVar[int] = 2

    def __str__(self) -> str:
        return f"{HERO_NAMES[self.hero]} steals from the reserve"


@dataclass(frozen=True)
class SetFace:
    """Card 3: `hero`'s die shows `face` (a face whose action is a hero action)."""

    hero: int
    face: str
    card: ClassVar[int] = 3

    def __str__(self) -> str:
        return f"{HERO_NAMES[self.hero]} shows {self.face} ({HEROES[self.hero].action(self.face)})"


@dataclass(frozen=True)
class SwapPlaces:
    """Card 4: heroes `a` and `b`, of one side, swap places (their dice go with them)."""

    a: int
    b: int
    card: ClassVar[int] = 4

    def __str__(self) -> str:
        return f"{HERO_NAMES[self.a]} and {HERO_NAMES[self.b]} swap places"


@dataclass(frozen=True)
class SwapDice:
    """Card 5: `a` (an Achaean) and `b` (the Trojan facing him) exchange their dice faces."""

    a: int
    b: int
    card: ClassVar[int] = 5

    def __str__(self) -> str:
        return f"{HERO_NAMES[self.a]} and {HERO_NAMES[self.b]} swap dice"


@dataclass(frozen=True)
class KeepFace:
    """Card 6: `hero`'s die is not rolled next turn (it keeps the face it ends this turn with)."""

    hero: int
    card: ClassVar[int] = 6

    def __str__(self) -> str:
        return f"{HERO_NAMES[self.hero]} keeps its face next turn"


@dataclass(frozen=True)
class NoTarget:
    """A card with no legal target: revealed without effect."""

    card: int

    def __str__(self) -> str:
        return "no target"


Effect = Lock | Reserve | SetFace | SwapPlaces | SwapDice | KeepFace | NoTarget


# -- moves -----------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Place:
    """Place `cards` of the hand face down (1 card, 2 at 2 players), sorted."""

    cards: tuple[int, ...]

    def __str__(self) -> str:
        return f"place {' and '.join(map(str, self.cards))} face down"


@dataclass(frozen=True)
class Reveal:
    """Reveal `card`, placed this turn, and apply `effect` now."""

    card: int
    effect: Effect

    def __str__(self) -> str:
        return f"reveal {self.card}: {self.effect}"


@dataclass(frozen=True)
class Hold:
    """Leave `card`, placed this turn, face down; reveal the oldest face-down card of an earlier
    turn, `older`, and apply `effect` (both None if there is none)."""

    card: int
    older: int | None
    effect: Effect | None

    def __str__(self) -> str:
        if self.older is None:
            return f"hold {self.card} face down"
        return f"hold {self.card} face down, reveal older {self.older}: {self.effect}"


def public_text(action: game.Action) -> str:
    """What every player sees of a move (`str(action)` names the mover's face-down cards): a
    placement or a hold without the card's number.

    >>> public_text(Hold(3, 5, SwapDice(0, 4)))
    'hold a card face down, reveal older 5: Ulysses and Paris swap dice'
    >>> public_text(Place((1, 3)))
    'place 2 cards face down'
    """
    if isinstance(action, Place):
        return "place a card face down" if len(action.cards) == 1 else f"place {len(action.cards)} cards face down"
    if isinstance(action, Hold):
        held = "hold a card face down"
        return held if action.older is None else f"{held}, reveal older {action.older}: {action.effect}"
    return str(action)


def action_text(action: game.Action | Effect | None) -> str:
    """A move (or a card's effect) in words: `str(action)` with the cards named and the actions
    in words.

    >>> action_text(Reveal(3, SetFace(4, "green")))
    'reveal 3 set face: Paris shows green (steal 3)'
    >>> action_text(Hold(2, 5, SwapDice(0, 4)))
    'hold 2 reserve face down, reveal older 5 swap dice: Ulysses and Paris swap dice'
    """
    if isinstance(action, Place):
        return "place " + " and ".join(card_text(c) for c in action.cards) + " face down"
    if isinstance(action, Reveal):
        return _in_words(f"reveal {card_text(action.card)}: {action.effect}")
    if isinstance(action, Hold):
        if action.older is None:
            return f"hold {card_text(action.card)} face down"
        return _in_words(
            f"hold {card_text(action.card)} face down, reveal older {card_text(action.older)}: {action.effect}"
        )
    return _in_words(str(action))


def _in_words(text: str) -> str:
    """`text` with the engine's action codes in words ("shows green (steal 3)")."""
    for code, words in ACTION_WORDS.items():
        text = text.replace(f"({code})", f"({words})")
    return text


# -- chance outcomes -------------------------------------------------------------------------------
@dataclass(frozen=True)
class LineUp:
    """The Trojans at places 3, 4, 5 (facing the Achaeans at 0, 1, 2)."""

    trojans: tuple[int, int, int]

    def __str__(self) -> str:
        duels = ", ".join(f"{HERO_NAMES[a]}-{HERO_NAMES[t]}" for a, t in zip(range(3), self.trojans))
        return f"duels {duels}"


@dataclass(frozen=True)
class Deal:
    """A god dealt to the player whose turn it is to receive one."""

    god: int

    def __str__(self) -> str:
        return f"deal {GODS[self.god].name}"


@dataclass(frozen=True)
class SetAside:
    """A god set aside face down (4 players)."""

    god: int

    def __str__(self) -> str:
        return f"set {GODS[self.god].name} aside"


@dataclass(frozen=True)
class First:
    """The first-intervener card goes to `seat`."""

    seat: int

    def __str__(self) -> str:
        return f"player {self.seat + 1} intervenes first"


# -- helpers ---------------------------------------------------------------------------------------
def _set(items: tuple, i: int, value: object) -> tuple:
    return items[:i] + (value,) + items[i + 1 :]


def _add(items: tuple[int, ...], x: int) -> tuple[int, ...]:
    return items if x in items else tuple(sorted(items + (x,)))


def _without(items: tuple[int, ...], x: int) -> tuple[int, ...]:
    i = items.index(x)
    return items[:i] + items[i + 1 :]


MAX_EFFECTS = {
    1: 6,
    2: 6,
    3: sum(1 for h in HEROES for f in FACES if h.action(f) in HERO_ACTIONS),
    4: 6,
    5: 3,
    6: 6,
}
"""The most effects (targets) each card can have."""

_ACTIONS = {(h, f): HEROES[h].action(f) for h in range(6) for f in FACES}


def apply_effect(
    effect: Effect | None,
    faces: tuple[str, ...],
    places: tuple[int, ...],
    locked: tuple[int, ...],
    reserve: tuple[int, ...],
    kept: tuple[int, ...],
) -> tuple[tuple[str, ...], tuple[int, ...], tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
    """(faces, places, locked, reserve, kept) after `effect` (None or NoTarget: unchanged)."""
    if isinstance(effect, Lock):
        locked = _add(locked, effect.hero)
    elif isinstance(effect, Reserve):
        reserve = _add(reserve, effect.hero)
    elif isinstance(effect, SetFace):
        faces = _set(faces, effect.hero, effect.face)
    elif isinstance(effect, SwapPlaces):
        i, j = places.index(effect.a), places.index(effect.b)
        places = _set(_set(places, i, effect.b), j, effect.a)
    elif isinstance(effect, SwapDice):
        fa, fb = faces[effect.a], faces[effect.b]
        faces = _set(_set(faces, effect.a, fb), effect.b, fa)
    elif isinstance(effect, KeepFace):
        kept = _add(kept, effect.hero)
    return faces, places, locked, reserve, kept


def opponents_of(places: Sequence[int]) -> tuple[int, ...]:
    """The hero facing each hero, by hero."""
    out = [0] * 6
    for i in range(3):
        a, b = places[i], places[i + 3]
        out[a], out[b] = b, a
    return tuple(out)


@lru_cache(maxsize=1 << 16)
def _resolved(
    points: tuple[int, ...], faces: tuple[str, ...], places: tuple[int, ...], reserve: tuple[int, ...]
) -> tuple[int, ...]:
    """`battle.resolve` of a turn, remembered (bots ask for the same ones again and again)."""
    actions = [_ACTIONS[h, f] for h, f in enumerate(faces)]
    return resolve(points, actions, SIDE_OF, opponents_of(places), reserve)


# -- the state -------------------------------------------------------------------------------------
@dataclass(frozen=True)
class State(game.State):
    """A whole game of Entheos (see the module docstring). Heroes are numbered 0..5 (`heroes`),
    `points` and `faces` by hero ("" before the first roll), `places` the hero at each place
    (empty before the line-up); `gods` each player's gods in deal order, `aside` those set aside
    (4 players); `first` the first intervener (-1 before the draw); `turn` the turns over;
    `to_roll` the dice still to roll this turn; `step` the placement or reveal slot in play;
    `hands`, `placed` (this turn's cards still face down and undecided), `held` ((turn, card)
    face down from a reveal slot, oldest first) and `used` (revealed) by player; `locked`,
    `reserve` this turn's card 1 and 2 heroes, `kept` the heroes whose die is not rolled next;
    `log` this turn's slots: (player, whether they held a card, the card revealed or None, its
    effect)."""

    rules: Rules = Rules()
    phase: str = SETUP
    points: tuple[int, ...] = (START_POINTS,) * 6
    faces: tuple[str, ...] = ("",) * 6
    places: tuple[int, ...] = ()
    gods: tuple[tuple[int, ...], ...] = ()
    aside: tuple[int, ...] = ()
    first: int = -1
    turn: int = 0
    to_roll: tuple[int, ...] = ()
    step: int = 0
    hands: tuple[tuple[int, ...], ...] = ()
    placed: tuple[tuple[int, ...], ...] = ()
    held: tuple[tuple[tuple[int, int], ...], ...] = ()
    used: tuple[tuple[int, ...], ...] = ()
    locked: tuple[int, ...] = ()
    reserve: tuple[int, ...] = ()
    kept: tuple[int, ...] = ()
    log: tuple[tuple[int, bool, int | None, Effect | None], ...] = ()

    def __post_init__(self) -> None:
        if not self.hands:  # a new game
            n = self.rules.players
            object.__setattr__(self, "hands", (ALL_CARDS,) * n)
            object.__setattr__(self, "placed", ((),) * n)
            object.__setattr__(self, "held", ((),) * n)
            object.__setattr__(self, "used", ((),) * n)
            object.__setattr__(self, "gods", ((),) * n)

    # -- what the table shows ------------------------------------------------------------------
    @property
    def players(self) -> int:
        return self.rules.players

    @property
    def turns(self) -> int:
        """The turns the game lasts."""
        return GAME_TURNS[self.players]

    @property
    def per_turn(self) -> int:
        """Cards each player places a turn: 2 at 2 players, else 1."""
        return 2 if self.players == 2 else 1

    @property
    def order(self) -> tuple[int, ...]:
        """The placement order: from the first intervener clockwise."""
        n = self.players
        return tuple((self.first + i) % n for i in range(n))

    @property
    def slots(self) -> tuple[int, ...]:
        """The reveal slots' players: from the first intervener clockwise; at 2 players first,
        other, first, other."""
        return self.order * self.per_turn

    def place_of(self, hero: int) -> int:
        return self.places.index(hero)

    def opponent(self, hero: int) -> int:
        """The hero facing `hero`."""
        return self.places[(self.place_of(hero) + 3) % 6]

    def actions(self) -> tuple[str, ...]:
        """Each hero's action from its die's face ("" before the first roll)."""
        return tuple(HEROES[h].action(f) if f else "" for h, f in enumerate(self.faces))

    def side_totals(self, points: Sequence[int] | None = None) -> tuple[int, int]:
        """Each side's combat points (Achaeans, Trojans)."""
        pts = self.points if points is None else points
        return (sum(pts[h] for h in range(6) if SIDE_OF[h] == 0), sum(pts[h] for h in range(6) if SIDE_OF[h] == 1))

    def war_winner(self, points: Sequence[int] | None = None) -> int | None:
        """The side ahead (0 Achaeans, 1 Trojans; None on a tie): the war's winner once the game
        is over."""
        a, t = self.side_totals(points)
        return None if a == t else (0 if a > t else 1)

    def victory_points(self, points: Sequence[int] | None = None) -> list[int]:
        """Each player's victory points if the war ended with these combat points (default: the
        heroes' points now; final once the game is over): their gods of the winning side (every
        god on a tie) turn their favourites' points into victory points."""
        pts = self.points if points is None else points
        named = dict(zip(HERO_NAMES, pts))
        winner = self.war_winner(pts)
        return [
            sum(GODS[g].victory_points(named) for g in gods if winner is None or GODS[g].side == winner)
            for gods in self.gods
        ]

    def face_down(self, player: int) -> int:
        """How many cards `player` has face down before them (placed this turn or held)."""
        return len(self.placed[player]) + len(self.held[player])

    def older(self, player: int) -> int | None:
        """`player`'s oldest face-down card from an earlier turn, if any."""
        for t, card in self.held[player]:
            if t < self.turn:
                return card
        return None

    def cards(self, player: int) -> tuple[int, ...]:
        """All of `player`'s cards, wherever they are, sorted (always 1..6)."""
        return tuple(
            sorted(
                self.hands[player] + self.placed[player] + tuple(c for _, c in self.held[player]) + self.used[player]
            )
        )

    def effects(self, card: int) -> list[Effect]:
        """The effects `card` may have now (see the module docstring), in a fixed order."""
        locked = self.locked
        out: list[Effect]
        if card == 1:
            out = [Lock(h) for h in range(6)]
        elif card == 2:
            out = [Reserve(h) for h in range(6)]
        elif card == 3:
            out = [SetFace(h, f) for h in range(6) if h not in locked for f in FACES if _ACTIONS[h, f] in HERO_ACTIONS]
        elif card == 4:
            out = [
                SwapPlaces(a, b)
                for side in (0, 1)
                for a, b in combinations([h for h in range(6) if SIDE_OF[h] == side], 2)
                if a not in locked and b not in locked
            ]
        elif card == 5:
            out = [
                SwapDice(self.places[i], self.places[i + 3])
                for i in range(3)
                if self.places[i] not in locked and self.places[i + 3] not in locked
            ]
        else:
            out = [KeepFace(h) for h in range(6)]
        return out or [NoTarget(card)]

    def slot_actions(self, player: int, placed: tuple[int, ...] | None = None) -> list[game.Action]:
        """`player`'s choices at a reveal slot, with `placed` their undecided placed cards
        (default: theirs now): every reveal, then every hold."""
        placed = self.placed[player] if placed is None else placed
        out: list[game.Action] = [Reveal(c, e) for c in placed for e in self.effects(c)]
        older = self.older(player)
        if older is None:
            out += [Hold(c, None, None) for c in placed]
        else:
            out += [Hold(c, older, e) for c in placed for e in self.effects(older)]
        return out

    def resolution(self, effect: Effect | None = None) -> tuple[int, ...]:
        """Every hero's points after this turn's resolution, with the dice and places as they are
        (and `effect` applied first), no other card played."""
        faces, places, _, reserve, _ = apply_effect(effect, self.faces, self.places, self.locked, self.reserve, ())
        return _resolved(self.points, faces, places, reserve)

    # -- the protocol --------------------------------------------------------------------------
    def current_player(self) -> int:
        if self.phase == OVER:
            return game.TERMINAL
        if self.phase == PLACE:
            return self.order[self.step]
        if self.phase == REVEAL:
            return self.slots[self.step]
        return game.CHANCE

    def legal_actions(self) -> list[game.Action]:
        if self.phase == PLACE:
            p = self.order[self.step]
            return [Place(c) for c in combinations(self.hands[p], self.per_turn)]
        if self.phase == REVEAL:
            return self.slot_actions(self.slots[self.step])
        return []

    def _god_step(self) -> int:
        return len(self.aside) + sum(map(len, self.gods))

    def _undealt(self) -> list[int]:
        dealt = set(self.aside).union(*self.gods)
        return [g for g in range(len(GODS)) if g not in dealt]

    def chance_outcomes(self) -> list[tuple[game.Action, Fraction]]:
        if self.phase == DICE:
            return [(f, Fraction(1, len(FACES))) for f in FACES]
        if self.phase != SETUP:
            return []
        if not self.places:
            orders = list(permutations((3, 4, 5)))
            return [(LineUp((o[0], o[1], o[2])), Fraction(1, len(orders))) for o in orders]
        schedule = deal_schedule(self.players)
        k = self._god_step()
        if k < len(schedule):
            kind, _, side = schedule[k]
            pool = [g for g in self._undealt() if side is None or GODS[g].side == side]
            make = SetAside if kind == "aside" else Deal
            return [(make(g), Fraction(1, len(pool))) for g in pool]
        return [(First(s), Fraction(1, self.players)) for s in range(self.players)]

    def _apply(self, action: game.Action) -> State:
        if isinstance(action, LineUp):
            return replace(self, places=(0, 1, 2) + tuple(action.trojans))
        if isinstance(action, SetAside):
            return replace(self, aside=self.aside + (action.god,))
        if isinstance(action, Deal):
            _, seat, _ = deal_schedule(self.players)[self._god_step()]
            return replace(self, gods=_set(self.gods, seat, self.gods[seat] + (action.god,)))
        if isinstance(action, First):
            return replace(self, first=action.seat)._start_turn()
        if isinstance(action, str):
            hero = self.to_roll[0]
            state = replace(self, faces=_set(self.faces, hero, action), to_roll=self.to_roll[1:])
            return state if state.to_roll else replace(state, phase=PLACE, step=0, kept=())
        p = self.current_player()
        if isinstance(action, Place):
            hand = self.hands[p]
            for c in action.cards:
                hand = _without(hand, c)
            state = replace(
                self,
                hands=_set(self.hands, p, hand),
                placed=_set(self.placed, p, tuple(action.cards)),
                step=self.step + 1,
            )
            return state if state.step < self.players else replace(state, phase=REVEAL, step=0)
        if isinstance(action, Reveal):
            state = replace(
                self,
                placed=_set(self.placed, p, _without(self.placed[p], action.card)),
                used=_set(self.used, p, tuple(sorted(self.used[p] + (action.card,)))),
                log=self.log + ((p, False, action.card, action.effect),),
            )
            return state._with_effect(action.effect)._next_slot()
        assert isinstance(action, Hold)
        held = self.held[p]
        used = self.used[p]
        if action.older is not None:
            i = next(i for i, (t, c) in enumerate(held) if t < self.turn)
            held = held[:i] + held[i + 1 :]
            used = tuple(sorted(used + (action.older,)))
        state = replace(
            self,
            placed=_set(self.placed, p, _without(self.placed[p], action.card)),
            held=_set(self.held, p, held + ((self.turn, action.card),)),
            used=_set(self.used, p, used),
            log=self.log + ((p, True, action.older, action.effect),),
        )
        return state._with_effect(action.effect)._next_slot()

    def _with_effect(self, effect: Effect | None) -> State:
        faces, places, locked, reserve, kept = apply_effect(
            effect, self.faces, self.places, self.locked, self.reserve, self.kept
        )
        return replace(self, faces=faces, places=places, locked=locked, reserve=reserve, kept=kept)

    def _next_slot(self) -> State:
        if self.step + 1 < len(self.slots):
            return replace(self, step=self.step + 1)
        return self._end_turn()

    def _start_turn(self) -> State:
        to_roll = tuple(h for h in range(6) if h not in self.kept)
        if to_roll:
            return replace(self, phase=DICE, to_roll=to_roll, step=0)
        return replace(self, phase=PLACE, to_roll=(), step=0, kept=())

    def _end_turn(self) -> State:
        """Resolution, the first-intervener card passed on, card recovery, the next turn."""
        points = self.resolution()
        falters = sum(1 for a in self.actions() if a == "falter")
        n = self.players
        hands, held, used = list(self.hands), list(self.held), list(self.used)
        for p in range(n):
            if len(hands[p]) == (0 if n == 2 else 1):
                hands[p], held[p], used[p] = ALL_CARDS, (), ()
        state = replace(
            self,
            points=points,
            first=(self.first + 1 + falters) % n,
            hands=tuple(hands),
            held=tuple(held),
            used=tuple(used),
            turn=self.turn + 1,
            locked=(),
            reserve=(),
            log=(),
            step=0,
        )
        if state.turn >= self.turns:
            return replace(state, phase=OVER)
        return state._start_turn()

    def returns(self) -> list[Fraction]:
        if self.phase != OVER:
            return [Fraction(0)] * self.players
        return game.win_shares(self.victory_points())

    def observation(self, player: int) -> str:
        """What `player` sees: the heroes (points, places, dice, this turn's locks, reserves and
        keeps), the first intervener, the cards revealed this turn and their effects, each
        player's hand size, face-down cards (how many) and used cards; their own hand, face-down
        cards and gods; every god once the game is over."""
        game.check_players([player], self.shape())
        n = self.players
        lines = [f"Entheos, {n} players; you are player {player + 1}. {self.phase_text()}"]
        if self.first >= 0:
            lines.append(f"First intervener: player {self.first + 1}.")
        a, t = self.side_totals()
        lines.append(f"Achaeans {a} combat points, Trojans {t}.")
        if self.places:
            for i in range(3):
                lines.append(
                    f"duel {i + 1}: {self._hero_text(self.places[i])} against {self._hero_text(self.places[i + 3])}"
                )
        for p in range(n):
            lines.append(self._player_text(p, player))
        for p, held, revealed, effect in self.log:
            what = f"player {p + 1} held a card face down" if held else f"player {p + 1}"
            if revealed is None:
                what += " (no older card to reveal)"
            else:
                what += f"{' and' if held else ''} revealed {card_text(revealed)}: {effect}"
            lines.append("this turn: " + what)
        if self.phase == OVER:
            winner = self.war_winner()
            war = "a tie: every god counts" if winner is None else f"the {SIDES[winner].capitalize()} win the war"
            vp = self.victory_points()
            lines.append(
                f"The game is over: {war}; victory points "
                + ", ".join(f"player {p + 1} {vp[p]}" for p in range(n))
                + "."
            )
        return "\n".join(lines)

    def phase_text(self, who: Sequence[str] = ()) -> str:
        """Where the game stands, in words ("Turn 2 of 8: player 3 to place face down."; `who`
        names each seat, by default "player k")."""
        if self.phase == SETUP:
            if not self.places:
                return "Setting up: the line-up."
            dealing = self._god_step() < len(deal_schedule(self.players))
            return "Setting up: " + ("the gods are dealt." if dealing else "the first intervener.")
        turn = f"Turn {self.turn + 1} of {self.turns}"
        if self.phase == DICE:
            return f"{turn}: rolling {HERO_NAMES[self.to_roll[0]]}'s die."
        if self.phase == OVER:
            return f"The game is over after {self.turns} turns."
        p = self.current_player()
        mover = who[p] if who else f"player {p + 1}"
        if self.phase == PLACE:
            return f"{turn}: {mover} to place face down."
        return f"{turn}: {mover} to reveal or hold (slot {self.step + 1} of {len(self.slots)})."

    def _hero_text(self, hero: int) -> str:
        face = self.faces[hero]
        if self.phase == DICE and hero in self.to_roll:
            die = "die to roll"
        elif not face:
            die = "die not rolled"
        else:
            die = f"{face} ({HEROES[hero].action(face)})"
        marks = [
            m
            for m, on in (("locked", self.locked), ("from the reserve", self.reserve), ("keeps its face", self.kept))
            if hero in on
        ]
        return f"{HERO_NAMES[hero]} {self.points[hero]} points, {die}" + "".join(f", {m}" for m in marks)

    def _player_text(self, p: int, viewer: int) -> str:
        used = ", ".join(map(card_text, self.used[p])) or "none"
        if p == viewer or self.phase == OVER:
            gods = "; ".join(str(GODS[g]) for g in self.gods[p]) or "none yet"
        else:
            gods = f"{len(self.gods[p])} hidden"
        if p == viewer:
            hand = ", ".join(map(card_text, self.hands[p])) or "empty"
            placed = ", ".join(map(card_text, self.placed[p])) or "none"
            held = ", ".join(f"{card_text(c)} (turn {t + 1})" for t, c in self.held[p]) or "none"
            return (
                f"player {p + 1} (you): gods {gods}; hand {hand}; placed this turn {placed}; held {held}; used {used}"
            )
        held_turns = ", ".join(f"turn {t + 1}" for t, _ in self.held[p]) or "none"
        return (
            f"player {p + 1}: gods {gods}; {len(self.hands[p])} cards in hand; {len(self.placed[p])} placed this "
            f"turn; held face down from {held_turns}; used {used}"
        )

    def hidden_variants(self, player: int) -> list[game.State]:
        """States that differ from this one only in what `player` cannot see: for each other
        player's face-down card, that card swapped with a card of their hand; before the end, for
        each god `player` does not know, that god swapped with another unknown god where the deal
        allows it (same side at 2-3 players, and with a god set aside at 4). At most one variant
        per card and per god."""
        game.check_players([player], self.shape())
        out: list[game.State] = []
        for q in range(self.players):
            if q == player or not self.hands[q]:
                continue
            swap = self.hands[q][0]
            for c in self.placed[q]:
                placed = tuple(swap if x == c else x for x in self.placed[q])
                hand = tuple(sorted(_without(self.hands[q], swap) + (c,)))
                out.append(replace(self, placed=_set(self.placed, q, placed), hands=_set(self.hands, q, hand)))
            for i, (t, c) in enumerate(self.held[q]):
                held = _set(self.held[q], i, (t, swap))
                hand = tuple(sorted(_without(self.hands[q], swap) + (c,)))
                out.append(replace(self, held=_set(self.held, q, held), hands=_set(self.hands, q, hand)))
        if self.phase == OVER:
            return out
        spots: list[tuple[str, int, int, int]] = [("aside", -1, i, g) for i, g in enumerate(self.aside)]
        spots += [("god", q, i, g) for q in range(self.players) if q != player for i, g in enumerate(self.gods[q])]
        spots += [("undealt", -1, -1, g) for g in self._undealt()]
        for x in spots:
            for y in spots:
                if x[3] != y[3] and x[0] != "undealt" and self._may_swap(x, y):
                    out.append(self._swap_gods(x, y))
                    break
        return out

    def _may_swap(self, x: tuple[str, int, int, int], y: tuple[str, int, int, int]) -> bool:
        same_side = GODS[x[3]].side == GODS[y[3]].side
        if self.players <= 3 or (self.players == 4 and "aside" in (x[0], y[0])):
            return same_side
        return True

    def _swap_gods(self, x: tuple[str, int, int, int], y: tuple[str, int, int, int]) -> State:
        state = self
        for (kind, q, i, _), new in ((x, y[3]), (y, x[3])):
            if kind == "aside":
                state = replace(state, aside=_set(state.aside, i, new))
            elif kind == "god":
                state = replace(state, gods=_set(state.gods, q, _set(state.gods[q], i, new)))
        return state

    def shape(self) -> game.Shape:
        n = self.players
        k = self.per_turn
        top = sorted(MAX_EFFECTS.values(), reverse=True)
        slot = sum(top[:k]) + k * top[0]
        placements = len(list(combinations(ALL_CARDS, k)))
        slots = n * k
        return game.Shape(
            players=n,
            max_actions=max(slot, placements),
            max_chance_outcomes=max(6, len(FACES), n, len(GODS)),
            max_length=2 + len(deal_schedule(n)) + GAME_TURNS[n] * (6 + n + slots),
            min_return=Fraction(0),
            max_return=Fraction(1),
            hidden=True,
        )

    # -- the game told in words ----------------------------------------------------------------------
    def tell(self, action: game.Action, who: Sequence[str] = (), you: int = 0) -> list[str]:
        """The log's lines for `action` played from this state: a setup draw, the turn's dice
        (once the last die is rolled), a move (another player's face-down card never named), and
        after a turn's last slot its resolution and who took their cards back. `who` names each
        seat ("you", "player 2 (greedy)"; by default "you" for `you`, else "player k").

        >>> s = initial_state(Rules(players=3)).set_up(trojans=(4, 3, 5), gods=((0, 3), (1, 4), (2, 5)), first=0)
        >>> s.roll("green", "blue", "white", "yellow", "red").tell("mauve")
        ['Turn 1, the dice: Ulysses green (steal 3), Achilles blue (steal 1), Ajax white (rest), \
Hector yellow (rally), Paris red (falter), Aeneas mauve (guard).']
        >>> s = s.roll("green", "blue", "white", "yellow", "red", "mauve")
        >>> s.tell(Place((3,))), s.apply(Place((3,))).tell(Place((1,)))
        (['You place 3 set face face down.'], ['Player 2 places a card face down.'])
        >>> s = s.apply(Place((3,))).apply(Place((1,))).apply(Place((2,)))
        >>> s = s.apply(Reveal(3, SetFace(4, "green"))).apply(Reveal(1, Lock(0)))
        >>> s.tell(Reveal(2, Reserve(0)), ["you", "player 2 (greedy)", "player 3 (passive)"])
        ['Player 3 (passive) reveals 2 reserve: Ulysses steals from the reserve.', \
'Turn 1 resolved: Ulysses 6→5, Hector 6→7, Paris 6→10, Aeneas 6→7. Achaeans 17, Trojans 24. \
Player 2 (greedy) intervenes first next.']
        """
        who = list(who) or ["you" if p == you else f"player {p + 1}" for p in range(self.players)]
        line = self._move_text(action, who, you)
        lines = [line] if line else []
        if self.phase == REVEAL and self.step == len(self.slots) - 1:
            after = self.apply(action)
            assert isinstance(after, State)
            moved = ", ".join(
                f"{HERO_NAMES[h]} {a}→{b}" for h, (a, b) in enumerate(zip(self.points, after.points)) if a != b
            )
            a, t = after.side_totals()
            verb = "intervene" if after.first == you else "intervenes"
            nxt = "" if after.phase == OVER else f" {who[after.first].capitalize()} {verb} first next."
            lines.append(f"Turn {self.turn + 1} resolved: {moved or 'no point moves'}. Achaeans {a}, Trojans {t}.{nxt}")
            back = [
                who[p]
                for p in range(self.players)
                if after.phase != OVER and len(after.hands[p]) == 6 and len(self.hands[p]) < 6
            ]
            if back:
                lines.append(f"Cards taken back: {', '.join(back)}.")
        return lines

    def _move_text(self, action: game.Action, who: Sequence[str], you: int) -> str | None:
        """A move or a draw in words (a die: None but for the turn's last, which tells the roll)."""
        if isinstance(action, str):
            if len(self.to_roll) > 1:
                return None
            faces = {h: self.faces[h] for h in range(6) if h not in self.kept} | {self.to_roll[0]: action}
            rolled = ", ".join(f"{HERO_NAMES[h]} {f} ({ACTION_WORDS[HEROES[h].action(f)]})" for h, f in faces.items())
            kept = ", ".join(f"{HERO_NAMES[h]} keeps {self.faces[h]}" for h in range(6) if h not in faces)
            return f"Turn {self.turn + 1}, the dice: {rolled}{'; ' + kept if kept else ''}."
        if isinstance(action, LineUp):
            return f"The line-up: {action}."
        if isinstance(action, SetAside):
            return "A god is set aside face down."
        if isinstance(action, Deal):
            _, seat, _ = deal_schedule(self.players)[self._god_step()]
            if seat == you:
                return f"You receive {GODS[action.god]}."
            return f"{who[seat].capitalize()} receives a god, face down."
        if isinstance(action, First):
            return f"{who[action.seat].capitalize()} intervene{'' if action.seat == you else 's'} first."
        p = self.current_player()
        name, mine = who[p].capitalize(), p == you
        if isinstance(action, Place):
            n = len(action.cards)
            if mine:
                return f"You {action_text(action)}."
            return f"{name} places {'a card' if n == 1 else f'{n} cards'} face down."
        if isinstance(action, Reveal):
            return _in_words(f"{name} {'reveal' if mine else 'reveals'} {card_text(action.card)}: {action.effect}.")
        if isinstance(action, Hold):
            line = f"{name} {'hold' if mine else 'holds'} {card_text(action.card) if mine else 'a card'} face down"
            if action.older is not None:
                line += f" and reveal{'' if mine else 's'} an older {card_text(action.older)}: {action.effect}"
            return _in_words(line) + "."
        return f"{name}: {action}."

    def end_text(self, who: Sequence[str], winners: str) -> str:
        """The log's last line: the war's winner, each player's victory points (`who` names the
        seats), who won the game (`winners`: "you win", from the page kit)."""
        winner, (a, t) = self.war_winner(), self.side_totals()
        war = "a tie" if winner is None else f"the {SIDES[winner].capitalize()} win the war"
        war += f", {a} to {t}" + (": every god counts" if winner is None else "")
        vp = self.victory_points()
        points = ", ".join(f"{who[p]} {vp[p]}" for p in range(self.players))
        return f"Game over: {war}. Victory points: {points}. {winners.capitalize()}."

    # -- a heuristic hint --------------------------------------------------------------------------
    def worth(self, player: int, points: Sequence[int]) -> Fraction:
        """The hint's worth of combat `points` to `player`: the victory points of their gods, each
        counting fully if its side is ahead or level, half if behind."""
        named = dict(zip(HERO_NAMES, points))
        totals = self.side_totals(points)
        total = Fraction(0)
        for g in self.gods[player]:
            god = GODS[g]
            weight = 1 if totals[god.side] >= totals[1 - god.side] else HALF
            total += weight * god.victory_points(named)
        return total

    def action_value(self, action: game.Action) -> Fraction:
        """The hint's value of a legal action of the player to move (see `hint`)."""
        me = self.current_player()
        if isinstance(action, Place):
            return max(self.action_value(a) for a in self.slot_actions(me, action.cards))
        if isinstance(action, (Reveal, Hold)):
            return self.worth(me, self.resolution(action.effect))
        raise ValueError(f"action must be a placement, a reveal or a hold, got {action!r}")

    def hint(
        self,
        method: str = "heuristic",
        seed: int = 0,
        most: int | None = None,
        opponents: str | Sequence[str] = "greedy",
    ) -> Hint:
        """Method "heuristic": each action's value is the mover's `worth` of this turn's
        resolution after it, no other card played (a placement: the best reveal or hold it would
        allow now); the best action is the first of the highest value. Method "rollout"
        (`rollouts.hint`): the win chance of each move, grouped, against the bots `opponents`,
        by at most `most` rollouts from `seed` (exact at the game's last slot)."""
        if method not in ("heuristic", "rollout"):
            raise ValueError(f"method must be 'heuristic' or 'rollout', got {method!r}")
        if self.current_player() < 0:
            return super().hint()
        if method == "rollout":
            from nessus.games.entheos import rollouts

            return rollouts.hint(self, opponents, seed, most)
        me = self.current_player()
        values: dict[Hashable, Fraction] = {}
        cache: dict[tuple[int, ...], Fraction] = {}

        def value(effect: Effect | None) -> Fraction:
            points = self.resolution(effect)
            if points not in cache:
                cache[points] = self.worth(me, points)
            return cache[points]

        def action_value(action: game.Action) -> Fraction:
            if isinstance(action, Place):
                return max(action_value(a) for a in self.slot_actions(me, action.cards))
            assert isinstance(action, (Reveal, Hold))
            return value(action.effect)

        for action in self.legal_actions():
            values[action] = action_value(action)
        top = max(values.values())
        best = next(a for a, v in values.items() if v == top)
        return Hint(self, values, best, True, "heuristic")

    # -- moves by name -----------------------------------------------------------------------------
    def set_up(
        self, trojans: Sequence[int], gods: Sequence[Sequence[int]], first: int, aside: Sequence[int] = ()
    ) -> State:
        """The setup with the given line-up (the Trojans at places 3, 4, 5), each player's gods (in
        deal order: at 2-3 players Achaean, then Trojan), the gods set aside (4 players: an
        Achaean, then a Trojan) and the first intervener."""
        state = self.apply(LineUp((trojans[0], trojans[1], trojans[2])))
        for g in aside:
            state = state.apply(SetAside(g))
        for kind, seat, _ in deal_schedule(self.players):
            if kind == "deal":
                i = len(state.gods[seat])
                state = state.apply(Deal(gods[seat][i]))
        return state.apply(First(first))

    def roll(self, *faces: str) -> State:
        """The state after the dice still to roll show `faces`, in hero order."""
        state = self
        for f in faces:
            state = state.apply(f)
        return state


def initial_state(rules: Rules | None = None) -> State:
    """The start of a game: the line-up, the gods and the first intervener to draw (chance)."""
    return State(rules or Rules())
