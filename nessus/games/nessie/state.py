"""Nessie as the game protocol: a whole game, every player, to the end (the moves `REVEAL` and
`Stop(n)`, the `Event`s a game log tells, the `State` and `initial_state()`).

The draw pile is counted, not ordered, and each reveal draws a card from it with exact weights.

>>> state = initial_state().apply(REVEAL)
>>> dict(state.chance_outcomes())["3"]
Fraction(1, 7)
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass, replace
from dataclasses import field as dc_field
from fractions import Fraction

import numpy as np

from nessus import game
from nessus.games.nessie.cards import (
    CHAIN,
    LETTERS,
    SINK_LETTER,
    SINK_TREASURE,
    TREASURES,
    Card,
    Hand,
    Situation,
    is_treasure,
    neighbours,
    sunk,
    take,
)
from nessus.games.nessie.odds import best_take, choice, take_value
from nessus.games.nessie.rules import Rules
from nessus.solver import Hint, Value

COMPLETE_BONUS = 10
MAX_TURNS = 3000
"""A game still unfinished after this many turns ends there (a practical bound: such games are
unknown in practice)."""
REVEAL = "reveal"
"""The move "reveal the next card onto the row"."""


@dataclass(frozen=True)
class Stop:
    """The move "stop and take the last `take` cards of the row" (0: take nothing)."""

    take: int

    def __str__(self) -> str:
        return f"stop and take {self.take}"


@dataclass(frozen=True)
class Event:
    """Something that happened: kind "reveal", "sink" (on a reveal), "sink_at_start" or "stop".
    `player` is the seat (0-based); `cards` the card revealed or the cards taken (last revealed
    first); `discards` what a stop discarded."""

    kind: str
    player: int
    cards: tuple[Card, ...] = ()
    discards: tuple[Card, ...] = ()

    def __str__(self) -> str:
        who = f"player {self.player + 1}"
        if self.kind == "reveal":
            return f"{who} reveals {self.cards[0]}"
        if self.kind == "sink":
            return f"{who} reveals {self.cards[0]} and sinks"
        if self.kind == "sink_at_start":
            return f"{who} sinks at the start of the turn"
        return f"{who} stops and takes {''.join(self.cards) or 'nothing'}"


CARD_KINDS: tuple[Card, ...] = (*TREASURES, *LETTERS)
"""The order in which a state counts the cards of a pile."""
MAX_ROW = (SINK_LETTER - 1) * len(LETTERS) + SINK_TREASURE - 1
"""The most cards a row holds while it floats: 2 of each letter and treasure worth at most 5."""


@dataclass(frozen=True)
class Held:
    """The cards face up in front of a player: treasure values and Nessie letters, in the order taken."""

    treasures: tuple[int, ...] = ()
    letters: tuple[str, ...] = ()

    def hand(self) -> Hand:
        """As a (mutable) `Hand`."""
        return Hand(list(self.treasures), list(self.letters))

    @classmethod
    def of(cls, hand: Hand) -> Held:
        return cls(tuple(hand.treasures), tuple(hand.letters))

    def cards(self) -> list[Card]:
        return [str(v) for v in self.treasures] + list(self.letters)

    def __str__(self) -> str:
        return " ".join(self.cards()) or "nothing"


def _counted(cards: tuple[Card, ...] | list[Card]) -> tuple[int, ...]:
    return tuple(cards.count(c) for c in CARD_KINDS)


def _plus(a: tuple[int, ...], b: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(x + y for x, y in zip(a, b))


def _cards_of(counts: tuple[int, ...]) -> str:
    return " ".join(f"{n}×{c}" for c, n in zip(CARD_KINDS, counts) if n) or "none"


NO_CARDS = (0,) * len(CARD_KINDS)


@dataclass(frozen=True)
class State(game.State):
    """A whole game of Nessie (the game protocol), every player, to the end (RULES.md part 2, the
    decisions of `nessie.cards`): the player to move chooses `REVEAL` (compulsory as the first
    move of a turn) or `Stop(n)` (take the last n row cards); a reveal is a chance node whose
    outcomes are the kinds of card in the draw pile, each weighted by its count there (the
    pile's order is not in the state: the card is drawn then, exactly). When the draw pile is
    empty, the discards become the pile (the reshuffle). The game ends when a player holds all
    six letters, or, as `nessie.fast` ends it too, once `max_turns` (`MAX_TURNS`, 3000) turns
    have been played (a practical bound: such games are unknown in practice);
    returns are win shares (the highest score; a tie goes to the player who completed Nessie,
    then is shared).

    Nothing is hidden: every card is face up (the row, the cards in front of each player) or
    was face up on its way to the discards (a sunk row, a Nessie card that could not be kept
    with the treasure lost with it), so the draw pile, counted, is the same for everyone: the
    deck minus every card seen. (A player who forgets discards is the odds' `discards_seen`.)

    `last` holds what the last move did (`Event`s: a reveal, a sink, a stop, a
    sink at the start of the next turn), for a game log; it is not part of the position.

    >>> state = initial_state(Rules(players=2))
    >>> state.legal_actions()
    ['reveal']
    >>> state = state.apply(REVEAL)
    >>> state.is_chance_node(), sum(p for _, p in state.chance_outcomes())
    (True, Fraction(1, 1))
    >>> state = state.apply("3")
    >>> [str(a) for a in state.legal_actions()]
    ['reveal', 'stop and take 0', 'stop and take 1']
    >>> state = state.apply(Stop(1))
    >>> state.scores(), state.current_player()
    ([3, 0], 1)
    """

    rules: Rules
    draw: tuple[int, ...]
    discards: tuple[int, ...] = NO_CARDS
    row: tuple[Card, ...] = ()
    hands: tuple[Held, ...] = ()
    current: int = 0
    revealed: int = 0
    turns: int = 0
    drawing: bool = False
    finisher: int | None = None
    cut: bool = False
    max_turns: int = MAX_TURNS
    last: tuple[Event, ...] = dc_field(default=(), compare=False, repr=False)

    # -- what everybody can see --------------------------------------------------------
    @property
    def _over(self) -> bool:
        """Someone completed Nessie, or the turn limit was reached."""
        return self.finisher is not None or self.cut

    @property
    def players(self) -> int:
        return self.rules.players

    def hand(self, player: int | None = None) -> Hand:
        """The cards in front of `player` (default: the player to play), as a `Hand`."""
        return self.hands[self.current if player is None else player].hand()

    def situation(self, player: int | None = None) -> Situation:
        """What `player` (default: the player to play) knows, for the odds: the draw pile
        (counted), the row and their letters."""
        pool = {c: n for c, n in zip(CARD_KINDS, self.draw) if n}
        return Situation(pool, self.row, frozenset(self.hands[self.current if player is None else player].letters))

    def scores(self) -> list[int]:
        """Treasure points, plus 10 for the player who completed Nessie."""
        return [sum(h.treasures) + (COMPLETE_BONUS if i == self.finisher else 0) for i, h in enumerate(self.hands)]

    def winners(self) -> list[int]:
        """The highest score wins; ties go to the player who completed Nessie, then the win is shared."""
        scores = self.scores()
        best = [i for i, s in enumerate(scores) if s == max(scores)]
        return [self.finisher] if self.finisher in best and len(best) > 1 else best

    def can_reveal(self) -> bool:
        """A card is left to reveal (in the draw pile, or in the discards to reshuffle)."""
        return sum(self.draw) + sum(self.discards) > 0

    # -- the protocol --------------------------------------------------------------------
    def current_player(self) -> int:
        if self._over:
            return game.TERMINAL
        return game.CHANCE if self.drawing else self.current

    def legal_actions(self) -> list[game.Action]:
        if self._over or self.drawing:
            return []
        reveal: list[game.Action] = [REVEAL] if self.can_reveal() else []
        if self.revealed == 0 and reveal:
            return reveal
        return reveal + [Stop(n) for n in range(len(self.row) + 1)]

    def chance_outcomes(self) -> list[tuple[game.Action, Fraction]]:
        if self._over or not self.drawing:
            return []
        pile = self.draw if sum(self.draw) else self.discards
        total = sum(pile)
        return [(c, Fraction(n, total)) for c, n in zip(CARD_KINDS, pile) if n]

    def _apply(self, action: game.Action) -> State:
        if self.drawing:
            assert isinstance(action, str)
            return self._revealed(action)
        if action == REVEAL:
            return replace(self, drawing=True, last=())
        assert isinstance(action, Stop)
        return self._stopped(action.take)

    def _revealed(self, card: Card) -> State:
        draw, discards = (self.draw, self.discards) if sum(self.draw) else (self.discards, NO_CARDS)
        draw = tuple(n - (c == card) for c, n in zip(CARD_KINDS, draw))
        row = self.row + (card,)
        if sunk(list(row), self.hand()):
            sink = Event("sink", self.current, (card,))
            return replace(
                self,
                draw=draw,
                discards=_plus(discards, _counted(row)),
                row=(),
                revealed=self.revealed + 1,
                drawing=False,
            )._pass(self.current, (sink,))
        return replace(
            self,
            draw=draw,
            discards=discards,
            row=row,
            revealed=self.revealed + 1,
            drawing=False,
            last=(Event("reveal", self.current, (card,)),),
        )

    def _take(self, n: int) -> tuple[tuple[Card, ...], Hand, list[Card]]:
        """Taking the last n row cards: the cards taken (last revealed first), the mover's hand after, the discards."""
        taken = self.row[len(self.row) - n :][::-1]
        return (taken, *take(self.hand(), list(taken), neighbours(CHAIN)))

    def take_text(self, n: int) -> str:
        """What taking the last n row cards would do to the mover's cards, in words.

        >>> state = initial_state().reveal("C").reveal("3").reveal("A")
        >>> state.take_text(2), state.take_text(3)
        ('+3 treasure; keeps A', '+0 treasure; keeps A; discards C (cannot keep)')
        """
        hand = self.hand()
        _, after, thrown = self._take(n)
        kept = [c for c in after.letters if c not in hand.letters]
        lost = [c for c in thrown if not is_treasure(c)]
        parts = [f"{sum(after.treasures) - sum(hand.treasures):+d} treasure"]
        parts += [f"keeps {', '.join(kept)}"] if kept else []
        return "; ".join(parts + ([f"discards {', '.join(lost)} (cannot keep)"] if lost else []))

    def _stopped(self, n: int) -> State:
        taken, hand, thrown = self._take(n)
        hands = self.hands[: self.current] + (Held.of(hand),) + self.hands[self.current + 1 :]
        event = Event("stop", self.current, taken, tuple(thrown))
        after = replace(
            self, row=self.row[: len(self.row) - n], hands=hands, discards=_plus(self.discards, _counted(thrown))
        )
        if hand.complete:
            return replace(after, finisher=self.current, last=(event,))
        return after._pass(self.current, (event,))

    def _pass(self, mover: int, events: tuple[Event, ...]) -> State:
        """The next player's turn (who sinks at once if the row and their letters already sink
        them); the game stops at the turn limit once the turn has left `mover`."""
        state = replace(self, current=(self.current + 1) % self.players, turns=self.turns + 1, revealed=0)
        if state.row and sunk(list(state.row), state.hand()):
            events += (Event("sink_at_start", state.current),)
            state = replace(
                state,
                discards=_plus(state.discards, _counted(state.row)),
                row=(),
                current=(state.current + 1) % self.players,
                turns=state.turns + 1,
            )
        cut = state.turns >= self.max_turns and state.current != mover
        return replace(state, cut=cut, last=events)

    def returns(self) -> list[Fraction]:
        if not self._over:
            return [Fraction(0)] * self.players
        winners = self.winners()
        return [Fraction(1, len(winners)) if p in winners else Fraction(0) for p in range(self.players)]

    def observation(self, player: int) -> str:
        game.check_players([player], self.shape())
        scores = self.scores()
        seats = "; ".join(
            f"player {p + 1}{' (you)' if p == player else ''}: {h}, score {scores[p]}" for p, h in enumerate(self.hands)
        )
        if self._over:
            status = "game over" + ("" if self.finisher is None else f", player {self.finisher + 1} completed Nessie")
        else:
            status = f"turn {self.turns + 1}, player {self.current + 1} to play, {self.revealed} revealed this turn"
            status += ", a card is being revealed" if self.drawing else ""
        return (
            f"{status}; row: {' '.join(self.row) or 'empty'}; draw pile ({sum(self.draw)}): {_cards_of(self.draw)}; "
            f"discards ({sum(self.discards)}): {_cards_of(self.discards)}; {seats}"
        )

    def describe(self, action: game.Action, others: str, you: int = 0) -> list[str]:
        """`action` played from here as sentences for a game log told to the player `you` (the
        others play `others`): your reveals and stops (what a stop cost you), another player's
        turn when it ends (the cards revealed, the stop or the sink), a sink at a turn's start.

        >>> state = initial_state().reveal("C").reveal("3").reveal("A")
        >>> for line in state.describe(Stop(3), "risky"):
        ...     print(line)
        You stop and take A, 3, C.
        You could not keep C: discarded, and with them your lowest treasure each time (3).
        Your score: 0 (was 0); letters A.
        """
        if action == REVEAL:
            return []
        after = self.apply(action)
        assert isinstance(after, State)
        mine = list(self.row[len(self.row) - self.revealed :])  # the cards revealed this turn so far
        out: list[str] = []
        for e in after.last:
            them = f"Player {e.player + 1} ({others})"
            if e.kind == "reveal" and e.player == you:
                out.append(f"You reveal {e.cards[0]}.")
            elif e.kind == "sink":
                out.append(
                    f"You reveal {e.cards[0]} and sink! The row is discarded."
                    if e.player == you
                    else f"{them} reveals {', '.join(mine + [e.cards[0]])} and sinks: the row is discarded."
                )
            elif e.kind == "stop" and e.player == you:
                lost, coins = [c for c in e.discards if not is_treasure(c)], [c for c in e.discards if is_treasure(c)]
                paid = f", and with them your lowest treasure each time ({', '.join(coins)})" if coins else ""
                out.append(f"You stop and take {', '.join(e.cards) or 'nothing'}.")
                out += [f"You could not keep {', '.join(lost)}: discarded{paid}."] if lost else []
                held, before = after.hands[you], sum(self.hands[you].treasures)
                letters = "".join(sorted(held.letters)) or "none"
                out.append(f"Your score: {sum(held.treasures)} (was {before}); letters {letters}.")
            elif e.kind == "stop":
                took, score = ", ".join(e.cards) or "nothing", after.scores()[e.player]
                out.append(f"{them} reveals {', '.join(mine)}, then stops and takes {took} → score {score}.")
            elif e.kind == "sink_at_start":
                who = "You sink" if e.player == you else f"Player {e.player + 1} sinks"
                out.append(f"{who} at the start of the turn (three of a letter with the row): the row is discarded.")
        return out

    def shape(self) -> game.Shape:
        reveals = MAX_ROW + 1  # a turn reveals until the row sinks at the latest
        return game.Shape(
            players=self.players,
            max_actions=1 + MAX_ROW + 1,
            max_chance_outcomes=len(CARD_KINDS),
            max_length=self.max_turns * (2 * reveals + 1),
            min_return=Fraction(0),
            max_return=Fraction(1),
        )

    def hint(self) -> Hint:
        """The look-ahead player's values (`nessie.odds.choice`), in points: a stop of n cards is
        worth the treasure it gains minus the treasure it loses plus `LETTER_VALUE` (10/6) per
        Nessie card kept; a reveal, the average of stopping at the best take after one more card
        (0 if it sinks). A heuristic: it looks one card ahead and scores letters by a rule of thumb."""
        if self.current_player() < 0:
            return super().hint()
        hand = self.hand()
        values: dict[Hashable, Value] = {}
        if self.can_reveal():
            values[REVEAL] = choice(self.situation(), hand).reveal_one_value
        if self.revealed or not values:
            values |= {Stop(n): take_value(hand, self.row, n) for n in range(len(self.row) + 1)}
            n, stop = best_take(hand, self.row)
            best: Hashable = REVEAL if REVEAL in values and values[REVEAL] > stop else Stop(n)
        else:
            best = REVEAL
        return Hint(self, values, best, True, "heuristic")

    # -- moves by name --------------------------------------------------------------------
    def _check_move(self) -> None:
        if self._over:
            raise ValueError("the game is over")
        if self.drawing:
            raise ValueError("a card is being revealed: chance acts next")

    def reveal(self, card: Card | None = None, rng: np.random.Generator | None = None) -> State:
        """Reveal a card: the given one, or drawn with `rng` from the pile (exactly weighted)."""
        self._check_move()
        if not self.can_reveal():
            raise ValueError("no card left to reveal: every card is in the row or in front of a player")
        state = self.apply(REVEAL)
        if card is None:
            if rng is None:
                raise ValueError("give rng or card")
            from nessus.play import sample

            card = str(sample(state.chance_outcomes(), rng))
        after = state.apply(card)
        assert isinstance(after, State)
        return after

    def stop(self, n: int) -> State:
        """Stop and take the last n row cards (0 <= n <= len(row)), once a card is revealed."""
        self._check_move()
        if self.revealed == 0 and self.can_reveal():
            raise ValueError("reveal at least one card before stopping")
        if not isinstance(n, int) or isinstance(n, bool) or not 0 <= n <= len(self.row):
            raise ValueError(f"n must be an integer from 0 to {len(self.row)} (cards in the row), got {n!r}")
        after = self.apply(Stop(n))
        assert isinstance(after, State)
        return after


def initial_state(rules: Rules | None = None) -> State:
    """The start of a whole game: a full deck, no card seen, player 1 to play."""
    rules = rules or Rules()
    return State(rules, _counted(rules.deck()), hands=(Held(),) * rules.players)
