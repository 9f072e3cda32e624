"""Nyx bots: policies (`policy(state) -> action`) for any seat of `nyx.state`'s game.

- `greedy`: realises the face-up card worth most now (`State.card_value`: its points, a
  nightmare's times the opponents, a power spell's twice), else buys a black die (under 9), else
  a white die, else rerolls the free dice that do not show the most common free symbol (ties:
  stars, crescents, moons in that order), passing after the reroll; it ends the night when no
  free die is left, nothing can be done, every free die already shows that symbol, or after
  `ROLL_CAP` rolls this night.
- `odds`: realises and buys black dice as greedy does; otherwise it chases the (dream, symbol)
  of the face-up dreams that fit its matrix with the highest `card_value` × P(enough dice of the
  symbol within `ODDS_ROLLS` more rolls, keeping the matching dice: `nyx.odds.p_within`),
  rerolling the dice not showing the symbol, while that expected gain is at least `THRESHOLD`
  points (and fewer than `ROLL_CAP` rolls this night); else it buys a white die if it can, else
  ends the night.
- `random_legal`: a uniformly random legal action, its randomness seeded by the mover's
  observation (and the bot's `seed`), `play.observed_rng`.
- `rollout`: the best move of the rollout hint (`State.hint(method="rollout")`): the move with the
  highest chance to win when the game is played out by the bots (`nyx.rollouts`).

Alone, chasing one dream with your dice (the page's dice and hint): a `Hand` is your dice,
rolled or not, the keep before the last roll and that roll; `Fewest(shape)` is the objective
"the dream in the fewest rolls" (a `nessus.game.Objective`), whose `hint(hand)` weighs every
keep by its exact expected rolls still to come.

Ending a night, greedy and odds discard the face-up dream and the spell worth most
(`card_value`): those the next players could realise.

>>> import numpy as np
>>> from nessus.play import play
>>> from nessus.games.nyx.state import initial_state
>>> end = play(initial_state(), [greedy(), odds(), random_legal()], np.random.default_rng(1))
>>> end.is_terminal(), sum(end.returns())
(True, Fraction(1, 1))
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import ClassVar

import numpy as np

from nessus import game
from nessus.games.nyx import matrix
from nessus.games.nyx.cards import CARDS
from nessus.games.nyx.odds import Keep, p_within, shape_game
from nessus.games.nyx.rules import FACES, ODDS_ROLLS, PLURAL, ROLL_CAP, SYMBOLS, THRESHOLD, Rules, symbols_text
from nessus.games.nyx.state import (
    BUY_BLACK,
    BUY_WHITE,
    DREAM,
    NO_REROLL,
    PASS,
    SPELL,
    BuyBlack,
    BuyWhite,
    Dream,
    EndNight,
    Reroll,
    Spell,
    State,
    symbol_count,
)
from nessus.play import random_legal
from nessus.solver import Hint

POLICY_MOST = 48
"""The rollout bot's rollouts a move, at most (a decision in about a tenth of a second)."""
MAX_DREAMS = 6
"""The dream placements `choices` offers a person, best first."""
PER_DREAM = 2
"""The placements `choices` offers per face-up dream and symbol."""


def _state(state: game.State) -> State:
    if not isinstance(state, State):
        raise ValueError(f"a Nyx state is needed, got {type(state).__name__}")
    if state.current_player() < 0:
        raise ValueError("a bot moves only where a player must decide, not at a chance node or the end")
    return state


def _acting(state: State) -> list[game.Action]:
    """The actions the mover could take now, without rerolling (the act phase's)."""
    return state.legal_actions() if state.phase == "act" else _as_acting(state).legal_actions()


def _as_acting(state: State) -> State:
    return replace(state, phase="act")


def best_realisation(state: State) -> game.Action | None:
    """The Dream or Spell worth most now (`State.card_value`), a dream placed where it leaves the
    matrix the most room (`matrix.room`); None if no card can be realised."""
    options = [a for a in _acting(state) if isinstance(a, (Dream, Spell))]
    if not options:
        return None
    free = set(matrix.CELLS) - set(state.seats[state.mover].matrix)

    def key(action: game.Action) -> tuple[Fraction, int]:
        if isinstance(action, Dream):
            card = state.card_at(DREAM, action.slot)
            assert card is not None
            return state.card_value(card), matrix.room(free - set(action.cells))
        assert isinstance(action, Spell)
        card = state.card_at(SPELL, action.slot)
        assert card is not None
        return state.card_value(card), 0

    return max(options, key=key)


def end_night(state: State) -> EndNight:
    """Ending the night, discarding the face-up dream and the spell worth most (`State.end_night`)."""
    return state.end_night()


def _common_symbol(free: tuple[int, ...]) -> str:
    return max(SYMBOLS, key=lambda s: (symbol_count(free, s), -SYMBOLS.index(s)))


def _reroll_others(free: tuple[int, ...], symbol: str) -> Reroll | None:
    """Rerolling every free die that does not show `symbol`, or None if there is none."""
    i = SYMBOLS.index(symbol)
    dice = tuple(0 if k % 3 == i else n for k, n in enumerate(free))
    return Reroll(dice) if any(dice) else None


def greedy() -> game.Policy:
    """The greedy bot (see the module docstring)."""

    def policy(state: game.State) -> game.Action:
        s = _state(state)
        seat = s.seats[s.mover]
        acting = _acting(s)
        reroll = _reroll_others(seat.free, _common_symbol(seat.free)) if seat.rolls < ROLL_CAP else None
        if s.phase == "choose":
            if best_realisation(s) is not None or BUY_BLACK in acting or BUY_WHITE in acting or reroll is None:
                return NO_REROLL
            return reroll
        for choice in (best_realisation(s), BUY_BLACK if BUY_BLACK in acting else None):
            if choice is not None:
                return choice
        if BUY_WHITE in acting:
            return BUY_WHITE
        if s.rerolled and reroll is not None:
            return PASS
        return end_night(s)

    policy.__name__ = "greedy"
    return policy


def chase(state: State) -> tuple[Fraction, str | None]:
    """The odds bot's best chase: the highest `card_value` × `p_within` over the face-up dreams
    that fit the mover's matrix and the symbols, and its symbol (None when nothing is worth it)."""
    seat = state.seats[state.mover]
    best: tuple[Fraction, str | None] = (Fraction(0), None)
    for c in state.dreams:
        if c is None or not matrix.placements(CARDS[c].shape, blocked=seat.matrix):
            continue
        card = CARDS[c]
        for symbol in SYMBOLS:
            i = SYMBOLS.index(symbol)
            others = [n for k, n in enumerate(seat.free) if k % 3 != i]
            black, white = sum(others[:2]), sum(others[2:])
            need = card.size - symbol_count(seat.free, symbol)
            value = state.card_value(card) * p_within(symbol, need, black, white, ODDS_ROLLS)
            if value > best[0]:
                best = (value, symbol)
    return best


def odds() -> game.Policy:
    """The odds bot (see the module docstring)."""

    def policy(state: game.State) -> game.Action:
        s = _state(state)
        seat = s.seats[s.mover]
        acting = _acting(s)
        now = best_realisation(s)
        if now is None and BUY_BLACK in acting:
            now = BUY_BLACK
        value, symbol = chase(s)
        reroll = None
        if symbol is not None and value >= THRESHOLD and seat.rolls < ROLL_CAP:
            reroll = _reroll_others(seat.free, symbol)
        if s.phase == "choose":
            return NO_REROLL if now is not None or reroll is None else reroll
        if now is not None:
            return now
        if s.rerolled and reroll is not None:
            return PASS
        if BUY_WHITE in acting:
            return BUY_WHITE
        return end_night(s)

    policy.__name__ = "odds"
    return policy


def rollout(most: int = POLICY_MOST, seed: int = 0) -> game.Policy:
    """The rollout bot: the best move of the rollout hint (`State.hint(method="rollout")`, at most
    `most` rollouts a move, seeded by `seed`), the other seats modelled as the rules' `seat_bots`
    say; a forced move without rollouts."""

    def policy(state: game.State) -> game.Action:
        s = _state(state)
        moves = s.rollout_moves()
        if len(moves) == 1:
            return next(iter(moves.values()))
        return moves[s.hint(method="rollout", seed=seed, most=most).best]

    policy.__name__ = "rollout"
    return policy


def policies(rules: Rules | None = None) -> dict[str, game.Policy]:
    """The named bots: "greedy", "odds", "random_legal" (seed 0) and "rollout". The rules are not
    needed: each bot reads them from the state."""
    return {"greedy": greedy(), "odds": odds(), "random_legal": random_legal(), "rollout": rollout()}


# -- a few of your moves, for a person at the table ------------------------------------------------
Choice = tuple[str, str, game.Action]
"""One of a person's moves, offered: (group, label, action)."""


def choices(s: State) -> list[Choice]:
    """A few of the mover's legal actions in words, grouped: before acting, no reroll, "keep
    <symbol>, reroll the rest" for each symbol held and reroll all; then the dreams best first
    (the card's worth, then the room the placement leaves, `matrix.best_placements`; at most
    `PER_DREAM` per dream and symbol, `MAX_DREAMS` in all), the spells, buying dice, passing and
    ending the night (`end_night`)."""
    legal = s.legal_actions()
    seat = s.seats[s.mover]
    out: list[Choice] = []
    if s.phase == "choose":
        out.append(("dice", "No reroll: act with these dice", NO_REROLL))
        for symbol in SYMBOLS:
            held, reroll = symbol_count(seat.free, symbol), _reroll_others(seat.free, symbol)
            if held and reroll is not None:
                out.append(("dice", f"Keep {symbols_text(symbol, held)}, reroll the rest", reroll))
        out.append(("dice", f"Reroll all {seat.free_count} dice", Reroll(tuple(seat.free))))
        return [c for c in out if c[2] in legal]
    free = set(matrix.CELLS) - set(seat.matrix)
    dreams: list[tuple[tuple, Choice]] = []
    for slot, c in enumerate(s.dreams):
        if c is None:
            continue
        card = CARDS[c]
        ranked = matrix.best_placements(card.shape, free)
        for symbol in SYMBOLS:
            taken = 0
            for cells, room in ranked:
                action = Dream(slot, symbol, tuple(sorted(cells)))
                if taken >= PER_DREAM or action not in legal:
                    continue
                taken += 1
                label = (
                    f"{card.name} ({card.shape}, {'−' if card.kind == 'nightmare' else '+'}{card.points}) with "
                    f"{PLURAL[symbol]} on cells {','.join(map(str, action.cells))}"
                )
                dreams.append(((-s.card_value(card), -room, slot, SYMBOLS.index(symbol)), ("dreams", label, action)))
    out += [choice for _, choice in sorted(dreams, key=lambda pair: pair[0])[:MAX_DREAMS]]
    for a in legal:
        if isinstance(a, Spell):
            spell = s.card_at(SPELL, a.slot)
            assert spell is not None
            out.append(("spells and dice", f"{spell.name} ({' + '.join(spell.symbols)}, {spell.points} pt)", a))
    for a in legal:
        if isinstance(a, BuyBlack):
            out.append(("spells and dice", "Buy a black die (star + crescent + moon)", a))
        elif isinstance(a, BuyWhite):
            out.append(("spells and dice", "Buy a white die (a star)", a))
    if PASS in legal:
        out.append(("turn", "Pass (the night goes on)", PASS))
    end = end_night(s)
    if end in legal:
        dream = s.card_at(DREAM, end.dream) if end.dream is not None else None
        spell = s.card_at(SPELL, end.spell) if end.spell is not None else None
        gone = " and ".join(c.name for c in (dream, spell) if c is not None) or "nothing"
        out.append(("turn", f"End the night ({seat.night_text()}; discard {gone})", end))
    return out


def offered(s: State, best: game.Action | None) -> dict[str, list[Choice]]:
    """The moves to offer a person by group (`choices`), the hint's move (`best`) added if it is
    not among them; none once the game is over (`best` None).

    >>> from nessus.games.nyx.state import Roll, initial_state
    >>> s = initial_state(Rules(players=2)).draw(0, 1, 2, 30, 31, 32).apply(Roll((3, 2, 1), (0, 0, 0)))
    >>> groups = offered(s, s.hint().best)
    >>> list(groups), groups["turn"][-1][1]
    (['dreams', 'spells and dice', 'turn'], 'End the night (+0; discard The Falling Stair and Veil of Dusk)')
    """
    if best is None:
        return {}
    shown = choices(s)
    if not any(a == best for *_, a in shown):
        shown.append(("hint", f"Hint's move: {s.describe(best)}", best))
    groups: dict[str, list[Choice]] = {}
    for choice in shown:
        groups.setdefault(choice[0], []).append(choice)
    return groups


# -- a chase for one dream, alone -------------------------------------------------------------------
DIE_FACES = {colour: tuple(i for i, n in enumerate(counts) for _ in range(n)) for colour, counts in FACES.items()}
"""A die's six faces as symbol indices (black: 3 stars, 2 crescents, 1 moon; white: 2 of each)."""
MIXED = "mixed"
"""The keep chosen when the dice marked kept show more than one symbol (not allowed)."""
Counts = tuple[int, int, int]
"""Dice showing each symbol: (stars, crescents, moons)."""


def roll_symbols(rolled: Sequence[int], colours: Sequence[str]) -> tuple[Counts, Counts]:
    """The counts of each symbol (stars, crescents, moons) among black and white dice."""
    black = tuple(sum(1 for f, c in zip(rolled, colours) if c == "black" and f == i) for i in range(3))
    white = tuple(sum(1 for f, c in zip(rolled, colours) if c == "white" and f == i) for i in range(3))
    return black, white  # type: ignore[return-value]


@dataclass(frozen=True)
class Hand:
    """Your hand of dice chasing a dream alone: each die's colour and, once rolled, its face (a
    symbol index: 0 star, 1 crescent, 2 moon); the keep before the last roll (its symbol, the
    black and the white dice kept), the symbols the last roll showed on the black and on the
    white dice rolled, the rolls made for this dream, the dice placed on the matrix before, and
    which dice the last roll kept (`held`, in order). The player marks dice kept (a `held` list
    of their own): the hand judges that keep (`keep`), rolls the others (`roll`) or places a
    dream with the dice kept (`place`)."""

    colours: tuple[str, ...]
    faces: tuple[int, ...] = ()
    kept: tuple[str | None, int, int] = (None, 0, 0)
    last: tuple[Counts, Counts] = ((0, 0, 0), (0, 0, 0))
    made: int = 0
    placed: int = 0
    held: tuple[bool, ...] = ()

    @classmethod
    def of(cls, black: int, white: int, placed: int = 0) -> Hand:
        """A hand not rolled yet of these dice (black first), `placed` dice on the matrix besides."""
        return cls(("black",) * black + ("white",) * white, placed=placed)

    @property
    def rolled(self) -> bool:
        """Whether the dice have been rolled (before: the next roll throws them all)."""
        return bool(self.faces)

    @property
    def black(self) -> int:
        return self.colours.count("black")

    @property
    def white(self) -> int:
        return self.colours.count("white")

    @property
    def text(self) -> str:
        """The symbols the dice show, in words: "3 stars, 2 crescents, 1 full moon" ("no dice")."""
        counts = [(s, self.faces.count(i)) for i, s in enumerate(SYMBOLS)]
        return ", ".join(symbols_text(s, n) for s, n in counts if n) or "no dice"

    def symbols(self, held: Sequence[bool]) -> set[str]:
        """The symbols the dice marked kept show (none before the first roll)."""
        return {SYMBOLS[f] for f, h in zip(self.faces, held) if h}

    def keep(self, held: Sequence[bool]) -> Keep | str:
        """The keep the dice marked kept make: Keep(symbol, count, white), or MIXED."""
        symbols = self.symbols(held)
        if not symbols:
            return Keep(None, 0)
        if len(symbols) > 1:
            return MIXED
        white = sum(1 for c, h in zip(self.colours, held) if h and c == "white")
        return Keep(symbols.pop(), sum(1 for _, h in zip(self.faces, held) if h), white)

    def roll(self, held: Sequence[bool], goal: Fewest, rng: np.random.Generator) -> Hand:
        """Keep the dice marked kept (one symbol, fewer than the dream needs) and roll the others
        (the first roll: all of them); a ValueError says why the roll is not allowed."""
        colours = self.colours
        if not colours:
            raise ValueError("no dice left: press Clear matrix to take them back")
        held = tuple(held) if self.rolled else (False,) * len(colours)
        symbols = self.symbols(held)
        if len(symbols) > 1:
            raise ValueError("keep dice of one symbol only (a dream takes dice all showing one symbol)")
        if all(held):
            raise ValueError("every die is kept: release the dice you want to roll, or place the dream")
        kept = sum(held)
        if symbols and kept >= goal.size:
            raise ValueError(
                f"you keep {kept} dice of one symbol, enough for the {goal.shape}: pick its cells and press "
                "Place (or release dice to roll them)"
            )
        old = self.faces if self.rolled else (0,) * len(colours)
        faces = tuple(f if h else int(rng.choice(DIE_FACES[c])) for f, h, c in zip(old, held, colours))
        kb = sum(1 for h, c in zip(held, colours) if h and c == "black")
        fresh = [f for f, h in zip(faces, held) if not h]
        last = roll_symbols(fresh, [c for c, h in zip(colours, held) if not h])
        keep = (symbols.pop() if symbols else None, kb, kept - kb)
        return Hand(colours, faces, keep, last, self.made + 1, self.placed, held)

    def place(self, held: Sequence[bool], size: int) -> tuple[str, Hand]:
        """The symbol of a dream of `size` cells realised with `size` of the dice marked kept,
        white dice first (they go back at the night's end anyway), and the hand of the dice left,
        not rolled yet; a ValueError unless at least `size` dice are kept, all showing one symbol."""
        symbols = self.symbols(held)
        kept = sum(1 for _, h in zip(self.faces, held) if h)
        if len(symbols) != 1 or kept < size:
            raise ValueError(
                f"Place needs {size} dice kept showing one symbol; you keep {kept}"
                + (" of different symbols" if len(symbols) > 1 else "")
            )
        kept_dice = [i for i, h in enumerate(held[: len(self.faces)]) if h]
        used = sorted(kept_dice, key=lambda i: self.colours[i] != "white")[:size]
        left = [c for i, c in enumerate(self.colours) if i not in used]
        return symbols.pop(), Hand.of(left.count("black"), left.count("white"), self.placed + size)


@dataclass(frozen=True)
class Fewest:
    """The objective of a chase alone: the dream `shape`, `size` dice showing one symbol, in
    the fewest rolls (a `nessus.game.Objective`: a chase's end is the rolls it took, the
    smaller the better)."""

    shape: str
    maximise: ClassVar[bool] = False
    text = property(lambda self: f"the {self.shape} in the fewest rolls ({self.size} dice of one symbol)")
    unit = property(lambda self: "expected rolls to come")

    @property
    def size(self) -> int:
        """The dice of one symbol the dream needs (its cells)."""
        return len(matrix.SHAPES[self.shape])

    def payoff(self, final: int) -> int:
        """A chase's end, the rolls it took: the value to make smallest."""
        return final

    def idle(self, hand: Hand) -> str | None:
        """Why `hint(hand)` has nothing to weigh (not rolled, too few dice, the dream already
        kept), or None when it has."""
        if not hand.rolled:
            return "Roll the dice first: the hint weighs what to keep after a roll."
        if len(hand.colours) < self.size:
            return (
                f"{len(hand.colours)} dice left: not enough for the {self.shape}. Clear the matrix to take them back."
            )
        if sum(hand.kept[1:]) >= self.size:
            return f"Your kept dice already make the {self.shape}: place it."
        return None

    def hint(self, hand: Hand) -> Hint:
        """Every keep after the hand's last roll with its exact expected rolls still to come,
        keeping optimally afterwards (`odds.shape_game`: `odds.keep_hint`'s chase, with black
        and white dice)."""
        symbol, kb, kw = hand.kept
        rb, rw = hand.last
        state = ("rolled", symbol if kb + kw else None, kb, kw, rb, rw, None)
        return shape_game(self.size, hand.black, hand.white).hint(state)
