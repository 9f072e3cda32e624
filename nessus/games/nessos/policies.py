"""Nessos' named policies, the bots (`policy(state) -> action`) for any seat, deciding only from
what the player to move can see. The Bayes bot plays for the points model of `odds.Valuation`
(an objective: its `text`, `unit` and `payoff` of the cards taken face up; it lives in `odds`,
whose report values the same choices).

Each bot's randomness comes from a generator seeded by the mover's observation (and the bot's
`seed`): a bot is a function of what it sees, so seeded playthroughs are reproducible and two
states that look the same to the mover get the same move.

- `naive`: as a receiver, accepts unless it already has 2 Charon in front (then refuses); as
  the first player, offers a uniformly random card of its hand to a uniformly random eligible
  player, announcing the truth, or a uniformly random value of the deck for a Charon. Never passes.
- `bluffer`: as the first player, offers a Charon whenever it holds one, announcing one of the
  deck's three highest values (else a random card as `naive`); as a receiver, accepts unless it
  has 2 Charon in front, and then passes a Charon on (announced high) if it holds one and may
  pass, else refuses.
- `random_legal`: a uniformly random legal action.
- `bayes`: reasons from the exact posterior (`State.posterior`, the naive sender model by
  default) and the points model of `odds.Valuation`: as a receiver it takes the best of accept,
  refuse and pass by expected points (`State.answer_values`; passing the card it picks to the
  leader among the eligible players); as the first player it offers a Charon when it holds one,
  to the leader, announced as the value a receiver finds most plausible (the deck's value with
  the most copies it has not seen), else its lowest creature, truthfully, to the player with
  the fewest points. Deterministic: it needs no random draws.
- `rollout`: plays the move with the best chance to win by rollouts (`rollouts`): worlds drawn
  from the exact posterior of what it cannot see, each move played out to the end by the Bayes
  bot at every seat, its own included. A function of what it sees (seed 0).

>>> from nessus.play import play
>>> import numpy as np
>>> from nessus.games.nessos.state import initial_state
>>> end = play(initial_state(), [naive(), bluffer(), naive(), random_legal()], np.random.default_rng(1))
>>> end.is_terminal(), sum(end.returns())
(True, Fraction(1, 1))
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from nessus import game
from nessus.games.nessos.deck import CHARON, cards_of
from nessus.games.nessos.odds import Sender
from nessus.games.nessos.rules import TOP_VALUES, Rules, Setup
from nessus.games.nessos.state import ACCEPT, REFUSE, Offer, Pass, State
from nessus.play import observed_rng, random_legal

ROLLOUTS = 64
"""The rollout bot's rollouts a move at most: one batch (about a fifth of a second a move)."""


def _state(state: game.State) -> State:
    if not isinstance(state, State):
        raise ValueError(f"a Nessos state is needed, got {type(state).__name__}")
    if state.current_player() < 0:
        raise ValueError("a bot moves only where a player must decide, not at a chance node or the end")
    return state


def _random_offer(state: State, rng: np.random.Generator) -> Offer:
    """A uniformly random card of the first player's hand (each card alike, not each kind) to a
    uniformly random eligible player, announced truthfully, or as a random value for a Charon."""
    me = state.current_player()
    cards = cards_of(state.hands[me])
    card = cards[int(rng.integers(len(cards)))]
    to = state.eligible()[int(rng.integers(len(state.eligible())))]
    values = state.rules.deck.values
    announced = values[int(rng.integers(len(values)))] if card == CHARON else card
    return Offer(card, to, announced)


def naive(seed: int = 0) -> game.Policy:
    """The naive bot (see the module docstring), its randomness keyed by `seed`."""

    def policy(state: game.State) -> game.Action:
        s = _state(state)
        me = s.current_player()
        if s.chain:
            return REFUSE if s.charon_in_front(me) >= 2 else ACCEPT
        return _random_offer(s, observed_rng(s, seed))

    policy.__name__ = "naive"
    return policy


def bluffer(seed: int = 0) -> game.Policy:
    """The bluffing bot (see the module docstring), its randomness keyed by `seed`."""

    def policy(state: game.State) -> game.Action:
        s = _state(state)
        me = s.current_player()
        rng = observed_rng(s, seed)
        high = s.rules.deck.values[-TOP_VALUES:]
        announced = high[int(rng.integers(len(high)))]
        if s.chain:
            if s.charon_in_front(me) < 2:
                return ACCEPT
            bluff = [a for a in s.legal_actions() if isinstance(a, Pass) and a.card == CHARON]
            if bluff:
                to = bluff[int(rng.integers(len(bluff)))].to
                return Pass(CHARON, to, announced)
            return REFUSE
        if s.hands[me][CHARON]:
            eligible = s.eligible()
            return Offer(CHARON, eligible[int(rng.integers(len(eligible)))], announced)
        return _random_offer(s, rng)

    policy.__name__ = "bluffer"
    return policy


def _by_score(state: State, players: list[int], highest: bool) -> int:
    scores = state.scores
    return max(players, key=lambda p: (scores[p] if highest else -scores[p], -p))


def bayes(sender: Sender | None = None) -> game.Policy:
    """The Bayes bot (see the module docstring), judging offers with the `sender` model (default:
    naive, with the rules' hand size)."""

    def policy(state: game.State) -> game.Action:
        s = _state(state)
        me = s.current_player()
        legal = s.legal_actions()
        if not s.chain:
            hand = s.hand(me)
            eligible = s.eligible()
            if CHARON in hand:
                offer = Offer(CHARON, _by_score(s, eligible, True), s.plausible(me))
            else:
                offer = Offer(min(hand), _by_score(s, eligible, False), min(hand))
            return offer if offer in legal else legal[0]
        passes = [a for a in legal if isinstance(a, Pass)]
        worth = s.answer_values(sender)
        if worth.pass_ is not None and worth.add is not None and worth.pass_ > max(worth.accept, worth.refuse):
            to = _by_score(s, sorted({a.to for a in passes}), True)
            said = worth.add if worth.add != CHARON else s.plausible(me)
            choice = Pass(worth.add, to, said)
            if choice in legal:
                return choice
        return ACCEPT if worth.accept >= worth.refuse else REFUSE

    policy.__name__ = "bayes"
    return policy


def rollout(sender: Sender | None = None, bots: Sequence[str] | None = None, most: int = ROLLOUTS) -> game.Policy:
    """The rollout bot (see the module docstring): the best move of `State.hint(method="rollout")`,
    its senders judged by the `sender` model (default: naive), the table played by `bots` (default:
    the Bayes bot at every seat, its own later moves too), at most `most` rollouts a move."""

    def policy(state: game.State) -> game.Action:
        return _state(state).hint(sender, method="rollout", most=most, bots=bots).best

    policy.__name__ = "rollout"
    return policy


def policies(rules: Rules | Setup | None = None) -> dict[str, game.Policy]:
    """The named bots: "naive", "bluffer", "bayes", "rollout" and "random_legal" (seed 0). The rules
    are not needed: each bot reads them from the state."""
    return {
        "naive": naive(),
        "bluffer": bluffer(),
        "bayes": bayes(),
        "rollout": rollout(),
        "random_legal": random_legal(),
    }
