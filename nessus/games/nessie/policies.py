"""Playing Nessie: the rules of play as policies, and the numbers the look-ahead player reads.

A rule answers "reveal another card?" from what the player can see (`Rule.reveals`) and then
takes the best run (`nessie.odds.best_take`, each Nessie card kept worth the rule's
`letter_value`); each rule is a protocol policy (`rule(state) -> action`). Two human rules
(`stop_at`, `stop_when_risky`), a one-step look-ahead, and the optimal single-turn rule
(`nessie.optimal.optimal`).

>>> from nessus.games.nessie.state import initial_state
>>> state = initial_state().reveal("2").reveal("3")
>>> stop_at(2)(state), stop_at(3)(state)
(Stop(take=2), 'reveal')
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass
from fractions import Fraction
from numbers import Integral, Rational, Real
from typing import TYPE_CHECKING

from nessus.games.nessie.cards import CHAIN, Hand, Situation
from nessus.games.nessie.odds import LETTER_VALUE, Choice, best_take, choice, p_sink_within
from nessus.games.nessie.rules import Rules
from nessus.games.nessie.state import REVEAL, State, Stop

if TYPE_CHECKING:
    from nessus import game
    from nessus.game import Action
    from nessus.game import State as GameState


class Rule(ABC):
    """A way to play a turn: reveal while `reveals` says so (the first card of a turn is always
    revealed), then take the best run, valued with the rule's `letter_value`. Called on a
    `nessie.State`, it is a protocol policy."""

    letter_value: Fraction = LETTER_VALUE

    @abstractmethod
    def reveals(self, s: Situation, hand: Hand, revealed: int) -> bool:
        """Reveal another card, in situation `s` holding `hand`, `revealed` cards into the turn?"""

    def __call__(self, state: GameState) -> Action:
        if not isinstance(state, State):
            raise ValueError(f"state must be a nessie.State (a Nessie rule plays Nessie), got {type(state).__name__}")
        if REVEAL in state.legal_actions() and (
            state.revealed == 0 or self.reveals(state.situation(), state.hand(), state.revealed)
        ):
            return REVEAL
        return Stop(best_take(state.hand(), state.row, CHAIN, self.letter_value)[0])


@dataclass(frozen=True)
class StopAt(Rule):
    """The human rule "stop once I have revealed `cards` cards this turn" (table-driven: the
    fast engine `nessie.fast` plays it)."""

    cards: int

    def __post_init__(self) -> None:
        if not isinstance(self.cards, Integral) or isinstance(self.cards, bool) or self.cards < 1:
            raise ValueError(f"cards must be an integer >= 1, got {self.cards!r}")
        object.__setattr__(self, "cards", int(self.cards))

    def reveals(self, s: Situation, hand: Hand, revealed: int) -> bool:
        return revealed < self.cards


@dataclass(frozen=True)
class StopWhenRisky(Rule):
    """The human rule "stop when P(the next card sinks me) > limit" (table-driven: the fast
    engine `nessie.fast` plays it). `limit` is kept as an exact Fraction."""

    limit: Fraction = Fraction(3, 10)

    def __post_init__(self) -> None:
        if not isinstance(self.limit, Real) or isinstance(self.limit, bool) or not 0 <= self.limit <= 1:
            raise ValueError(f"limit must be a number from 0 to 1, got {self.limit!r}")
        exact = self.limit if isinstance(self.limit, Rational) else float(self.limit)
        object.__setattr__(self, "limit", Fraction(exact))

    def reveals(self, s: Situation, hand: Hand, revealed: int) -> bool:
        return revealed == 0 or p_sink_within(s, 1) <= self.limit


@dataclass(frozen=True)
class Lookahead(Rule):
    """Reveal while revealing one more card (then taking the best run) is worth more than
    stopping now, under the stated scoring (`choice`)."""

    letter_value: Fraction = LETTER_VALUE

    def reveals(self, s: Situation, hand: Hand, revealed: int) -> bool:
        return revealed == 0 or choice(s, hand, letter_value=self.letter_value).reveal


def stop_at(cards: int) -> StopAt:
    """The human rule "stop once I have revealed `cards` cards this turn"."""
    return StopAt(cards)


def stop_when_risky(limit: Fraction = Fraction(3, 10)) -> StopWhenRisky:
    """The human rule "stop when P(the next card sinks me) > limit"."""
    return StopWhenRisky(limit)


def lookahead(letter_value: Fraction = LETTER_VALUE) -> Lookahead:
    """The one-step look-ahead rule (see `Lookahead`)."""
    return Lookahead(letter_value)


def policies(rules: Rules | None = None) -> dict[str, game.Policy]:
    """The rules of play (each a policy): "lookahead" (one card ahead, letters worth
    10/6), "stop_at_2", "stop_at_3" (reveal that many cards, then take the best run) and
    "stop_when_risky" (stop when P(the next card sinks) > 3/10). The single-turn optimal rule
    (`nessie.optimal.optimal()`, a policy too) is not named here: it maximises one turn's
    treasure, not the game (a game of it in every seat runs to the 3000-turn end)."""
    return {
        "lookahead": lookahead(),
        "stop_at_2": stop_at(2),
        "stop_at_3": stop_at(3),
        "stop_when_risky": stop_when_risky(Fraction(3, 10)),
    }


def advice(state: State) -> Choice:
    """The look-ahead player's numbers on a player's turn: P(sink) on the next card and within 3
    from the cards they have not seen, and the values of stopping (the best take) and of
    revealing one more, from the state's hint (`State.hint()`, the look-ahead player's values)."""
    hint = state.hint()
    s = state.situation()
    stops = {a.take: value for a, value in hint.values.items() if isinstance(a, Stop)}
    take_n = max(stops, key=lambda n: (stops[n], -n)) if stops else 0  # the shortest best run
    reveal = Fraction(hint.values.get(REVEAL, 0))
    return Choice(p_sink_within(s, 1), p_sink_within(s, 3), Fraction(stops.get(take_n, 0)), take_n, reveal)
