"""Nyx bots: policies (`policy(state) -> action`) for any seat of `nyx.state`'s game.

- `greedy`: realises the face-up card worth most now (`State.card_value`: its points, a
  nightmare's times the opponents, a power spell's twice), else buys a black die (under 9), else
  a white die, else rerolls the free dice that do not show the most common free symbol (ties:
  stars, crescents, moons in that order), passing after the reroll; it ends the night when no
  free die is left, nothing can be done, every free die already shows that symbol, or after
  `ROLL_CAP` rolls this night.
- `odds`: realises and buys black dice as greedy does; otherwise it chases the (dream, symbol)
  of the face-up dreams that fit its matrix with the highest `card_value` × P(enough dice of the
  symbol within `ODDS_ROLLS` more rolls, keeping the matching dice: `nyx.odds.kept_after` for
  each colour), rerolling the dice not showing the symbol, while that expected gain is at least
  `THRESHOLD` points (and fewer than `ROLL_CAP` rolls this night); else it buys a white die if
  it can, else ends the night.
- `random_legal`: a uniformly random legal action, its randomness seeded by the mover's
  observation (and the bot's `seed`), `play.observed_rng`.

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

from dataclasses import replace
from fractions import Fraction
from functools import cache

from nessus import game
from nessus.games.nyx import matrix
from nessus.games.nyx.cards import CARDS
from nessus.games.nyx.odds import kept_after
from nessus.games.nyx.rules import SYMBOLS, Rules
from nessus.games.nyx.state import (
    BUY_BLACK,
    BUY_WHITE,
    DREAM,
    NO_REROLL,
    PASS,
    SPELL,
    Dream,
    EndNight,
    Reroll,
    Spell,
    State,
    symbol_count,
)
from nessus.play import random_legal

ROLL_CAP = 5
"""Greedy and odds end a night after this many rolls in it (the night's first roll included)."""
ODDS_ROLLS = 2
"""The rerolls the odds bot looks ahead when valuing a chase."""
THRESHOLD = Fraction(1)
"""The odds bot goes on chasing while the chase is worth at least this many expected points."""


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
    """Ending the night, discarding the face-up dream and the spell worth most (`card_value`)."""

    def top(slots: tuple[int | None, ...]) -> int | None:
        present = [i for i, c in enumerate(slots) if c is not None]
        return max(present, key=lambda i: state.card_value(CARDS[slots[i]]), default=None)  # type: ignore[index]

    return EndNight(top(state.dreams), top(state.spells))


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


@cache
def p_within(symbol: str, need: int, black: int, white: int, rolls: int) -> Fraction:
    """P(at least `need` of `black` black and `white` white dice show `symbol` within `rolls`
    rolls, keeping the matching dice (`odds.kept_after` for each colour)."""
    if need <= 0:
        return Fraction(1)
    if need > black + white:
        return Fraction(0)
    b = {int(k): p for k, p in kept_after(symbol, black, rolls, "black").items()} if black else {0: Fraction(1)}  # type: ignore[call-overload]
    w = {int(k): p for k, p in kept_after(symbol, white, rolls, "white").items()} if white else {0: Fraction(1)}  # type: ignore[call-overload]
    return sum(
        (Fraction(pb) * Fraction(pw) for x, pb in b.items() for y, pw in w.items() if x + y >= need), Fraction(0)
    )


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


def policies(rules: Rules | None = None) -> dict[str, game.Policy]:
    """The named bots: "greedy", "odds" and "random_legal" (seed 0). The rules are not needed:
    each bot reads them from the state."""
    return {"greedy": greedy(), "odds": odds(), "random_legal": random_legal()}
