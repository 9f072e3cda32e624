"""Nessos, the whole game on the game protocol (`nessus.game`), RULES.md part 3.

A round: the first player (the token holder) offers a card face down to another player,
announcing a value (the truth for a creature, any creature value of the deck for Charon); the
receiver accepts (the cards go face up in front of them), refuses (they go face up in front of
the player who made *this* offer), or adds a card of their hand and passes all the cards on.
Turning cards face up ends the round.

Settled here (RULES.md's decisions, and the engine's own):
- Player 1 (seat 0) holds the first-player token at the start (the rulebook draws lots).
- Dealing and refilling are chance nodes, one card at a time from the unseen pile, each kind
  weighted by its count there (the pile's order is not in the state). The deal fills each hand
  to `hand_size` in seat order from player 1; a refill, after a round, fills each player still
  in from the first player clockwise, while the pile lasts; then the token passes on.
- A third Charon in front eliminates at once (even at the target); the eliminated hand leaves
  play (it stays in the state, hidden, so cards are conserved) and its cards in front stay.
- The end, checked in this order after each round: an elimination leaving one player
  (`ELIMINATION`), the receiver reaching the target (`TARGET`), 9 Charon face up (`NINE_CHARON`:
  most points among players still in, then most cards in front, then a shared win). If no
  player still in holds a card when the token must move, the game ends the same way
  (`NO_CARDS`). Returns are win shares.

Game length: every card is drawn at most once, and a round of k offered cards (1..3) takes
k + 1 decisions and turns those k cards face up for good: at most 3 × the deck size moves and
chance outcomes in all.

>>> state = initial_state(Rules(players=3))
>>> state.current_player() == game.CHANCE, len(state.chance_outcomes())
(True, 8)
>>> state = state.deal_cards([0, 7, 7, 2, 10], [5, 5, 3, 1, 0], [9, 9, 1, 2, 3])
>>> [str(a) for a in state.legal_actions()[:2]]
['offer C to player 2 as 1', 'offer C to player 2 as 2']
>>> state = state.apply(Offer(CHARON, 1, 7))
>>> [str(a) for a in state.legal_actions()][:3]
['accept', 'refuse', 'add C and pass to player 3 as 1']
>>> state = state.apply(ACCEPT)
>>> state.charon_in_front(1), state.scores, state.current_player() == game.CHANCE
(1, [0, 0, 0], True)
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction

from nessus import game
from nessus.games.nessos.actions import ACCEPT, REFUSE, Answer, Draw, Offer, Offered, Pass
from nessus.games.nessos.deck import (
    CHARON,
    KINDS,
    Card,
    Counts,
    card_text,
    cards_of,
    cards_text,
    points,
)
from nessus.games.nessos.odds import Chain, Sender, Valuation, Values, cached_posterior, expected_values
from nessus.games.nessos.rules import ELIMINATIONS_AT, ENDS, NINE, Rules, Setup
from nessus.solver import Hint

TARGET, ELIMINATION, NINE_CHARON, NO_CARDS, ROUND_LIMIT = ENDS
END_WORDS = {
    TARGET: "the target reached",
    ELIMINATION: "one player left",
    NINE_CHARON: "9 Charon face up",
    NO_CARDS: "no cards left",
    ROUND_LIMIT: "the round limit reached",
}
"""How a game ended, in words."""


def _plus(counts: Counts, card: Card, n: int = 1) -> Counts:
    return counts[:card] + (counts[card] + n,) + counts[card + 1 :]


def _set(items: tuple, i: int, value: object) -> tuple:
    return items[:i] + (value,) + items[i + 1 :]


# -- the state -------------------------------------------------------------------------------------
@dataclass(frozen=True)
class State(game.State):
    """A whole game of Nessos (see the module docstring). `hands`, `fronts` and `pile` are counts
    by kind; `chain` the cards offered in the round in play; `token` the first player; `out` who
    is eliminated; `rounds` the rounds played; `drawing` whether cards are being dealt or
    refilled (chance); `ended` how the game ended ("" while it goes on) and `winners` who won."""

    rules: Rules = Rules()
    hands: tuple[Counts, ...] = ()
    fronts: tuple[Counts, ...] = ()
    pile: Counts = ()
    chain: tuple[Offered, ...] = ()
    token: int = 0
    out: tuple[bool, ...] = ()
    rounds: int = 0
    drawing: bool = True
    ended: str = ""
    winners: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        if not self.hands:  # a new game: the whole deck in the pile
            n = self.rules.players
            empty = (0,) * KINDS
            deck = self.rules.deck.counts()
            object.__setattr__(self, "hands", (empty,) * n)
            object.__setattr__(self, "fronts", (empty,) * n)
            object.__setattr__(self, "pile", tuple(deck[c] for c in range(KINDS)))
            object.__setattr__(self, "out", (False,) * n)

    # -- what the table shows ------------------------------------------------------------------
    @property
    def players(self) -> int:
        return self.rules.players

    def hand(self, player: int) -> tuple[Card, ...]:
        """`player`'s hand, sorted (Charon first)."""
        return cards_of(self.hands[player])

    def front(self, player: int) -> tuple[Card, ...]:
        """The cards face up in front of `player`, sorted."""
        return cards_of(self.fronts[player])

    def charon_in_front(self, player: int) -> int:
        return self.fronts[player][CHARON]

    @property
    def scores(self) -> list[int]:
        """Each player's points (eliminated players' too)."""
        return [points(f) for f in self.fronts]

    @property
    def charon_face_up(self) -> int:
        return sum(f[CHARON] for f in self.fronts)

    def face_up(self) -> tuple[Card, ...]:
        """Every card face up in front of anyone, sorted."""
        return cards_of(tuple(map(sum, zip(*self.fronts))))

    @property
    def pile_size(self) -> int:
        return sum(self.pile)

    @property
    def still_in(self) -> list[int]:
        return [p for p in range(self.players) if not self.out[p]]

    @property
    def offered(self) -> tuple[Card, ...]:
        """The faces of the cards offered in the round in play (hidden from the players)."""
        return tuple(o.card for o in self.chain)

    def unseen(self, player: int) -> Counts:
        """Counts by kind of the cards `player` has not seen: the deck minus their hand, every
        card face up and the cards they offered this round."""
        deck = self.rules.deck.counts()
        seen = list(self.hands[player])
        for f in self.fronts:
            seen = [a + b for a, b in zip(seen, f)]
        for o in self.chain:
            if o.sender == player:
                seen[o.card] += 1
        return tuple(deck[c] - seen[c] for c in range(KINDS))

    @property
    def drawer(self) -> int | None:
        """Who receives the next card drawn (while dealing or refilling), else None: the first
        player still in, from the token holder clockwise, with fewer than `hand_size` cards."""
        if not self.drawing or not self.pile_size or self.ended:
            return None
        for i in range(self.players):
            p = (self.token + i) % self.players
            if not self.out[p] and sum(self.hands[p]) < self.rules.hand_size:
                return p
        return None

    @property
    def receiver(self) -> int | None:
        """Who must answer the offer in play, if any."""
        return self.chain[-1].receiver if self.chain else None

    def eligible(self) -> list[int]:
        """The players the cards can go to next: still in, not the first player, not yet offered
        to this round (so not the one passing either)."""
        offered = {o.receiver for o in self.chain}
        return [p for p in range(self.players) if not self.out[p] and p != self.token and p not in offered]

    # -- the protocol --------------------------------------------------------------------------
    def current_player(self) -> int:
        if self.ended:
            return game.TERMINAL
        if self.drawing:
            return game.CHANCE
        return self.chain[-1].receiver if self.chain else self.token

    def legal_actions(self) -> list[game.Action]:
        if self.ended or self.drawing:
            return []
        values, eligible = self.rules.deck.values, self.eligible()
        if not self.chain:
            return [
                Offer(c, to, a)
                for c in _kinds(self.hands[self.token])
                for to in eligible
                for a in (values if c == CHARON else (c,))
            ]
        me = self.chain[-1].receiver
        actions: list[game.Action] = [ACCEPT, REFUSE]
        if len(self.chain) < 3:
            actions += [
                Pass(c, to, a)
                for c in _kinds(self.hands[me])
                for to in eligible
                for a in (values if c == CHARON else (c,))
            ]
        return actions

    def announcements(self, card: Card) -> tuple[int, ...]:
        """The values `card` may be announced as: its own for a creature, any of the deck's for Charon."""
        return self.rules.deck.values if card == CHARON else (card,)

    def chance_outcomes(self) -> list[tuple[game.Action, Fraction]]:
        if not self.drawing or self.ended:
            return []
        total = self.pile_size
        return [(Draw(c), Fraction(n, total)) for c, n in enumerate(self.pile) if n]

    def _apply(self, action: game.Action) -> State:
        if isinstance(action, Draw):
            p = self.drawer
            assert p is not None
            state = replace(
                self,
                hands=_set(self.hands, p, _plus(self.hands[p], action.card)),
                pile=_plus(self.pile, action.card, -1),
            )
            return state if state.drawer is not None else state._start_round()
        if isinstance(action, (Offer, Pass)):
            me = self.current_player()
            return replace(
                self,
                hands=_set(self.hands, me, _plus(self.hands[me], action.card, -1)),
                chain=self.chain + (Offered(action.card, action.announced, me, action.to),),
            )
        assert isinstance(action, Answer)
        last = self.chain[-1]
        return self._turn_up(last.receiver if action.accept else last.sender)

    def _turn_up(self, who: int) -> State:
        """The round ends: the offered cards go face up in front of `who`; elimination, the end
        conditions in RULES.md's order, else the refill."""
        front = self.fronts[who]
        for o in self.chain:
            front = _plus(front, o.card)
        state = replace(self, fronts=_set(self.fronts, who, front), chain=(), rounds=self.rounds + 1)
        eliminated = front[CHARON] >= ELIMINATIONS_AT
        if eliminated:
            state = replace(state, out=_set(state.out, who, True))
            if len(state.still_in) == 1:
                return replace(state, ended=ELIMINATION, winners=tuple(state.still_in))
        if not eliminated and points(front) >= self.rules.goal:
            return replace(state, ended=TARGET, winners=(who,))
        if state.charon_face_up >= NINE:
            return replace(state, ended=NINE_CHARON, winners=state._best())
        if self.rules.rounds and state.rounds >= self.rules.rounds:
            return replace(state, ended=ROUND_LIMIT, winners=state._best())
        state = replace(state, drawing=True)
        return state if state.drawer is not None else state._start_round()

    def _start_round(self) -> State:
        """Dealing or refilling is over: the token passes to the next player still in (it stays
        with player 1 after the deal), on past players with an empty hand; if no player still in
        holds a card, the game ends as at 9 Charon."""
        start = self.token + (1 if self.rounds else 0)
        for i in range(self.players):
            p = (start + i) % self.players
            if not self.out[p] and any(self.hands[p]):
                return replace(self, drawing=False, token=p)
        return replace(self, drawing=False, ended=NO_CARDS, winners=self._best())

    def _best(self) -> tuple[int, ...]:
        """The winners at 9 Charon: most points among players still in, then most cards in front."""
        key = {p: (points(self.fronts[p]), sum(self.fronts[p])) for p in self.still_in}
        top = max(key.values())
        return tuple(p for p in self.still_in if key[p] == top)

    def returns(self) -> list[Fraction]:
        if not self.ended:
            return [Fraction(0)] * self.players
        share = Fraction(1, len(self.winners))
        return [share if p in self.winners else Fraction(0) for p in range(self.players)]

    def observation(self, player: int) -> str:
        """What `player` sees: their hand, every card face up, hand and pile sizes, the offers of
        the round (announcements, who offered to whom; the face only of their own cards),
        scores, the token and whose turn it is."""
        game.check_players([player], self.shape())
        r = self.rules
        lines = [
            f"Nessos, {r.players} players, {r.goal} points win; you are player {player + 1}.",
            f"Round {self.rounds + 1}; player {self.token + 1} holds the first-player token; "
            f"draw pile {self.pile_size} cards; Charon face up {self.charon_face_up} of {NINE}.",
        ]
        for p in range(r.players):
            front = cards_text(self.front(p)) or "nothing"
            line = f"player {p + 1}{' (you)' if p == player else ''}: {self.scores[p]} points, in front {front}"
            if self.out[p]:
                line += "; eliminated"
            elif p == player:
                line += f"; hand {cards_text(self.hand(p)) or 'empty'}"
            else:
                line += f"; {sum(self.hands[p])} cards in hand"
            lines.append(line)
        for o in self.chain:
            own = f" (your {card_text(o.card)})" if o.sender == player else ""
            lines.append(
                f"player {o.sender + 1} offered a card announced {o.announced}{own} to player {o.receiver + 1}"
            )
        if self.ended:
            names = " and ".join(f"player {p + 1}" for p in self.winners)
            lines.append(f"The game is over ({self.ended.replace('_', ' ')}): {names} won.")
        elif self.drawing:
            lines.append(f"Player {(self.drawer or 0) + 1} draws a card.")
        elif self.chain:
            lines.append(f"Player {self.chain[-1].receiver + 1} to answer.")
        else:
            lines.append(f"Player {self.token + 1} to offer.")
        return "\n".join(lines)

    def hidden_variants(self, player: int) -> list[game.State]:
        """States that differ from this one only in cards `player` cannot see: for each hidden place
        (another hand, the pile, an offered card `player` did not offer), one card of it swapped with
        one of another hidden place, every count kept (an offered card stays its announced value or
        Charon). At most one variant per place."""
        game.check_players([player], self.shape())
        places: list[tuple[str, int]] = [("chain", i) for i, o in enumerate(self.chain) if o.sender != player]
        places.append(("pile", 0))
        places += [("hand", q) for q in range(self.players) if q != player]
        out: list[game.State] = []
        for a_place in places:
            for b_place in places:
                swap = self._swap(a_place, b_place) if a_place != b_place else None
                if swap is not None:
                    if swap not in out:
                        out.append(swap)
                    break
        return out

    def _held(self, place: tuple[str, int]) -> list[Card]:
        kind, i = place
        if kind == "chain":
            return [self.chain[i].card]
        counts = self.hands[i] if kind == "hand" else self.pile
        return _kinds(counts)

    def _may_hold(self, place: tuple[str, int], card: Card) -> bool:
        kind, i = place
        return kind != "chain" or card in (CHARON, self.chain[i].announced)

    def _swap(self, a_place: tuple[str, int], b_place: tuple[str, int]) -> State | None:
        for a in self._held(a_place):
            for b in self._held(b_place):
                if a != b and self._may_hold(a_place, b) and self._may_hold(b_place, a):
                    return self._moved(a_place, a, b)._moved(b_place, b, a)
        return None

    def _moved(self, place: tuple[str, int], old: Card, new: Card) -> State:
        """This state with one card `old` at `place` replaced by `new`."""
        kind, i = place
        if kind == "chain":
            return replace(self, chain=_set(self.chain, i, replace(self.chain[i], card=new)))
        if kind == "hand":
            return replace(self, hands=_set(self.hands, i, _plus(_plus(self.hands[i], old, -1), new)))
        return replace(self, pile=_plus(_plus(self.pile, old, -1), new))

    def shape(self) -> game.Shape:
        r = self.rules
        values = len(r.deck.values)
        per_receiver = min(r.hand_size - 1, values) + values  # creature kinds beside a Charon, + Charon's values
        return game.Shape(
            players=r.players,
            max_actions=max((r.players - 1) * per_receiver, 2 + (r.players - 2) * per_receiver),
            max_chance_outcomes=values + 1,
            max_length=3 * r.deck.size,
            min_return=Fraction(0),
            max_return=Fraction(1),
            hidden=True,
        )

    # -- the hint ----------------------------------------------------------------------------------
    def posterior(self, sender: Sender | None = None) -> Chain:
        """What the receiver to move knows of the cards offered to it: the exact posterior of which
        are Charon (`odds.chain_posterior`), their senders' hands drawn from the cards it has not
        seen, by the `sender` model (default: naive, with the rules' hand size). A ValueError
        where no card is offered, or where the model cannot explain the announcements."""
        if not self.chain or self.ended:
            raise ValueError("no posterior: no card is offered to the player to move")
        me = self.current_player()
        model = sender or Sender("naive", cards=self.rules.hand_size)
        pool = tuple((k, n) for k, n in enumerate(self.unseen(me)) if n)
        return cached_posterior(pool, tuple(o.announced for o in self.chain), self.rules.deck.values, model)

    def answer_values(self, sender: Sender | None = None) -> Values:
        """The expected points to the receiver to move of accepting, refusing and passing the cards
        offered (`odds.expected_values` under `posterior(sender)`, the points model of
        `odds.Valuation` with the cards in front of it)."""
        me = self.current_player()
        can_pass = any(isinstance(a, Pass) for a in self.legal_actions())
        valuation = Valuation(goal=self.rules.goal, front=self.front(me))
        announced = tuple(o.announced for o in self.chain)
        return expected_values(self.posterior(sender), announced, self.hand(me), valuation, can_pass)

    def penalty(self, player: int) -> Fraction:
        """The offer heuristic's cost of one more Charon to `player`, in points: the target if it
        would be their third (elimination), else a quarter of the target."""
        goal = self.rules.goal
        return Fraction(goal) if self.charon_in_front(player) >= ELIMINATIONS_AT - 1 else Fraction(goal, 4)

    def plausible(self, player: int) -> int:
        """The creature value a receiver finds most plausible, as `player` sees the cards: the one
        with the most copies `player` has not seen (the highest among equals)."""
        unseen = self.unseen(player)
        return max(self.rules.deck.values, key=lambda v: (unseen[v], v))

    def card_value(self, player: int, card: Card) -> Fraction:
        """The offer heuristic's value to `player` of `card` going face up in front of them: the
        points it adds (the {1, 2, 3} bonus included), or minus `penalty` for a Charon."""
        if card == CHARON:
            return -self.penalty(player)
        front = self.fronts[player]
        return Fraction(points(_plus(front, card)) - points(front))

    def hint(
        self,
        sender: Sender | None = None,
        method: str = "heuristic",
        seed: int = 0,
        most: int | None = None,
        bots: Sequence[str] | None = None,
    ) -> Hint:
        """By default a heuristic (method "heuristic", instant, a value for every legal action).
        To a receiver: the Bayes bot's expected points (`answer_values`, under the `sender`
        model): accept, refuse (0), and each pass the value of passing with its card (whoever
        receives it, whatever is announced). To the first player: an offer is worth half the
        card's value to the mover (the receiver refuses) minus half its value to the receiver
        (they accept), even odds (`card_value`). The best action is the first of the highest value.

        With `method="rollout"`: each move's chance to win against the table's `bots`, by rollouts
        on the posterior under `sender` (`rollouts.hint`, replayed by `seed`, at most `most`
        rollouts a move), exact where the answer ends the game."""
        if method == "rollout":
            from nessus.games.nessos import rollouts

            return rollouts.hint(self, sender, bots, seed, rollouts.MOST if most is None else most)
        if method != "heuristic":
            raise ValueError(f"method must be heuristic or rollout, got {method!r}")
        if self.current_player() < 0:
            return super().hint()
        me = self.current_player()
        values: dict[Hashable, Fraction] = {}
        if self.chain:
            worth = self.answer_values(sender)
            by_card: dict[Card, Fraction] = {}
            if worth.pass_ is not None:
                chain, announced = self.posterior(sender), tuple(o.announced for o in self.chain)
                valuation = Valuation(goal=self.rules.goal, front=self.front(me))
                for card in set(self.hand(me)):
                    by_card[card] = expected_values(chain, announced, (card,), valuation).pass_ or Fraction(0)
            for action in self.legal_actions():
                if isinstance(action, Pass):
                    values[action] = by_card[action.card]
                else:
                    values[action] = worth.accept if action == ACCEPT else worth.refuse
        else:
            for action in self.legal_actions():
                assert isinstance(action, Offer)
                values[action] = (self.card_value(me, action.card) - self.card_value(action.to, action.card)) / 2
        top = max(values.values())
        best = next(a for a, v in values.items() if v == top)
        return Hint(self, values, best, True, "heuristic")

    def answer_points(self, sender: Sender | None = None) -> list[tuple[str, Fraction | int | float]]:
        """The answers to the cards offered in words with their expected points (`hint`): accept,
        refuse, and where passing is allowed, adding the best card to pass (the lowest of equals).

        >>> s = initial_state(Rules(players=3)).deal_cards([0, 7, 7, 2, 10], [5, 5, 3, 1, 0], [9, 9, 1, 2, 3])
        >>> [name for name, _ in s.apply(Offer(CHARON, 1, 7)).answer_points()]
        ['accept', 'refuse', 'add your C and pass']
        """
        values = self.hint(sender).values
        answers = [("accept", values[ACCEPT]), ("refuse", values[REFUSE])]
        passes = [(a.card, v) for a, v in values.items() if isinstance(a, Pass)]
        if passes:
            top = max(v for _, v in passes)
            card = next(c for c, v in passes if v == top)
            answers.append((f"add your {card_text(card)} and pass", top))
        return answers

    # -- moves in words ----------------------------------------------------------------------------
    def describe(self, action: game.Action, who: Sequence[str] = (), you: int | None = 0) -> str | None:
        """`action`, played from this state, told for the log (None for a card drawn): a card's
        face is told only to its sender, `you`, until it is turned up. `who` names each seat ("you",
        "player 2 (naive)"; by default "you" and "player k").

        >>> s = initial_state(Rules(players=3)).deal_cards([0, 7, 7, 2, 10], [5, 5, 3, 1, 0], [9, 9, 1, 2, 3])
        >>> s.describe(Offer(CHARON, 1, 7))
        'You offer a card (your C) to player 2, announced 7.'
        >>> s.apply(Offer(CHARON, 1, 7)).describe(ACCEPT, ["you", "player 2 (naive)", "player 3 (bayes)"])
        'Player 2 (naive) accepts: C face up in front of player 2.'
        """
        if isinstance(action, Draw):
            return None
        me = self.current_player()
        name = who[me] if who else "you" if me == you else f"player {me + 1}"
        name, verb = name[0].upper() + name[1:], "" if me == you else "s"

        def whom(p: int) -> str:
            return "you" if p == you else f"player {p + 1}"

        if isinstance(action, (Offer, Pass)):
            card = f"a card (your {card_text(action.card)})" if me == you else "a card"
            did = f"offer{verb} {card}" if isinstance(action, Offer) else f"add{verb} {card} and pass{verb and 'es'}"
            return f"{name} {did} to {whom(action.to)}, announced {action.announced}."
        if isinstance(action, Answer):
            taker = self.chain[-1].receiver if action.accept else self.chain[-1].sender
            faces = " ".join(card_text(o.card) for o in self.chain)
            charon = self.charon_in_front(taker) + self.offered.count(CHARON)
            out = " — a third Charon: out" if charon >= ELIMINATIONS_AT else ""
            said = ("accept" if action.accept else "refuse") + verb
            return f"{name} {said}: {faces} face up in front of {whom(taker)}{out}."
        return str(action)

    def prompt(self, you: int = 0) -> tuple[str, str]:
        """What `you` must do now, in words: the offer or the cards to answer, and the choices
        (two empty strings unless `you` are to move).

        >>> s = initial_state(Rules(players=3)).deal_cards([0, 7, 7, 2, 10], [5, 5, 3, 1, 0], [9, 9, 1, 2, 3])
        >>> s.apply(Offer(CHARON, 1, 7)).prompt(1)[0]
        'Player 1 offers you a card announced 7.'
        """
        if self.ended or self.current_player() != you:
            return "", ""
        if not self.chain:
            return "Your turn to offer:", "pick a card of your hand, a player and the value you announce."
        last, n = self.chain[-1], len(self.chain)
        if n == 1:
            return f"Player {last.sender + 1} offers you a card announced {last.announced}.", (
                "Accept it (face up in front of you), refuse it (in front of the sender) or add a card and pass "
                "them on."
            )
        said = ", ".join(str(o.announced) for o in self.chain)
        return f"Player {last.sender + 1} passes you {n} cards, announced {said}.", (
            f"Accept them (face up in front of you), refuse them (in front of player {last.sender + 1}, the last to "
            "offer)" + (" or add a card and pass them on." if n < 3 else ".")
        )

    def end_text(self, winners: str) -> str:
        """The log's last line: how the game ended, `winners` ("you win", from the page kit) and
        the points."""
        return f"Game over ({END_WORDS[self.ended]}): {winners}, {' – '.join(map(str, self.scores))} points."

    # -- moves by name -----------------------------------------------------------------------------
    def deal_cards(self, *hands: Sequence[Card]) -> State:
        """The deal with the given hands (one per player, in seat order, each `hand_size` cards):
        the state after it. A ValueError if a card is not in the pile."""
        if self.rounds or not self.drawing or len(hands) != self.players:
            raise ValueError(f"hands must be {self.players} hands dealt at the start of a game")
        state = self
        for cards in hands:
            for c in cards:
                state = state.apply(Draw(c))
        if state.drawing:
            raise ValueError(f"hands must hold {self.rules.hand_size} cards each")
        return state

    def draw(self, *cards: Card) -> State:
        """The state after the given cards are drawn, one at a time (while dealing or refilling)."""
        state = self
        for c in cards:
            state = state.apply(Draw(c))
        return state


def _kinds(counts: Sequence[int]) -> list[Card]:
    return [c for c, n in enumerate(counts) if n]


def initial_state(rules: Rules | Setup | None = None) -> State:
    """The start of a game: the whole deck in the pile, the deal to come (chance), player 1 to
    hold the first-player token. A `Setup` (the command line's parameters) plays by its `rules`."""
    return State(rules.rules if isinstance(rules, Setup) else rules or Rules())
