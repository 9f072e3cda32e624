"""Entheos bots: policies (`policy(state) -> action`) for any seat of `entheos.state`'s game,
deciding only from what the player to move sees (their gods, hand and face-down cards, and the
public table). All are deterministic but `random_legal`.

A player cannot not play: every turn they must place a card (two at 2 players), and at each of
their reveal slots reveal one or hold one face down, which forces out their oldest face-down
card from an earlier turn. So the least a bot can do is play a card whose effect changes little.

- `passive`: intervenes as little as the rules let it. It places the cards of its hand in the
  order `PASSIVE_ORDER` (lock first: a lock never changes this turn's points; keep face acts
  only next turn; reserve only adds a stealer's points; set face may set a face already shown;
  the swaps last), and at a slot takes the action whose effect changes this turn's resolution
  least (`change`: the sum over heroes of the points moved, no other card played), the first
  of equals (reveals come before holds).
- `greedy`: the hint's best action (`State.hint`): places the card(s) whose best reveal gives
  its own gods the most (the hint's worth: victory points, a god of the side behind counting
  half) and reveals or holds with the best effect.
- `random_legal`: a uniformly random legal action, seeded by the mover's observation.
- `rollout`: the rollout hint's best move (`State.hint(method="rollout")`, `rollouts`): each of
  its few best moves by the heuristic played out on worlds drawn from what it has not seen, the
  other seats by greedy bots and its own later moves greedy; the move most often won with where
  its lead is clear at 95%, else greedy's move (a few rollouts cannot tell most moves apart, and
  a noisy best is worse than greedy's). Its seed is fixed, so it is a function of what it sees.
- `card_<c>` for c in 1..6, the measure of what one card is worth: greedy with card c (it places
  c whenever it holds it, and reveals it with its best target), passive with the other cards.
- `lock_favourite`: when its favourite hero (the highest weight among its gods' favourites, the
  first god's first at equal weights) shows steal3 or rally, it places card 1 and locks that
  hero; passive otherwise, keeping card 1 back while it holds another card.
- `swap_against_competitor`: when the hero facing its favourite shows a face that ranks higher
  (`RANK`: steal3, rally, steal1, guard, then rest and falter) than the favourite's, it places
  card 5 and swaps the dice of that duel (if neither is locked by then); passive otherwise,
  keeping card 5 back while it holds another card.

>>> import numpy as np
>>> from nessus.play import play
>>> from nessus.games.entheos.state import initial_state
>>> from nessus.games.entheos.rules import Rules
>>> bots = policies()
>>> seats = [bots["greedy"], bots["passive"], bots["card_3"], bots["lock_favourite"]]
>>> end = play(initial_state(Rules(players=4)), seats, np.random.default_rng(1))
>>> end.is_terminal(), sum(end.returns()), end.turn
(True, Fraction(1, 1), 8)
"""

from __future__ import annotations

from collections.abc import Sequence

from nessus import game
from nessus.games.entheos.heroes import GODS, HERO_NAMES, HEROES
from nessus.games.entheos.playout import GOOD, PASSIVE_ORDER, RANK
from nessus.games.entheos.rules import Rules
from nessus.games.entheos.state import ALL_CARDS, Effect, Hold, Lock, Place, Reveal, State, SwapDice
from nessus.play import random_legal

PLAIN_NAMES = {
    "greedy": "greedy",
    "passive": "passive",
    "random_legal": "random",
    "lock_favourite": "lock the favourite",
    "swap_against_competitor": "swap against the rival",
}
"""The bots a person plays against, each in plain words (not the `card_<c>` bots: they measure a card)."""


def _state(state: game.State) -> State:
    if not isinstance(state, State):
        raise ValueError(f"an Entheos state is needed, got {type(state).__name__}")
    if state.current_player() < 0:
        raise ValueError("a bot moves only where a player must decide, not at a chance node or the end")
    return state


def change(state: State, effect: Effect | None) -> int:
    """How much `effect` changes this turn's resolution: the sum over heroes of the difference in
    points, no other card played."""
    return sum(abs(a - b) for a, b in zip(state.resolution(effect), state.resolution()))


def _effect(action: game.Action) -> Effect | None:
    assert isinstance(action, (Reveal, Hold))
    return action.effect


def passive_place(state: State, keep: Sequence[int] = ()) -> Place:
    """The passive placement: the first cards of the hand in `PASSIVE_ORDER`, the cards `keep`
    last."""
    hand = state.hands[state.current_player()]
    ranked = sorted(hand, key=lambda c: (c in keep, PASSIVE_ORDER.index(c)))
    return Place(tuple(sorted(ranked[: state.per_turn])))


def passive_slot(state: State, actions: Sequence[game.Action] | None = None) -> game.Action:
    """The slot action (among `actions`, default all legal ones) that changes the resolution
    least, the first of equals."""
    actions = state.legal_actions() if actions is None else actions
    changes: dict[Effect | None, int] = {}
    for a in actions:
        e = _effect(a)
        if e not in changes:
            changes[e] = change(state, e)
    return min(actions, key=lambda a: changes[_effect(a)])


def _placing_with(state: State, card: int) -> Place:
    """A placement with `card` (and at 2 players the passive choice among the others)."""
    hand = state.hands[state.current_player()]
    others = sorted((c for c in hand if c != card), key=PASSIVE_ORDER.index)
    return Place(tuple(sorted((card, *others[: state.per_turn - 1]))))


def favourite(state: State, player: int) -> int:
    """`player`'s favourite hero: the highest weight among their gods' favourites (the first god's
    first at equal weights)."""
    best: tuple[int, int] | None = None
    for g in state.gods[player]:
        for name, weight in GODS[g].favourites.items():
            if best is None or weight > best[0]:
                best = (weight, HERO_NAMES.index(name))
    assert best is not None, "a player has a god once the game is set up"
    return best[1]


def passive() -> game.Policy:
    """The passive bot (see the module docstring)."""

    def policy(state: game.State) -> game.Action:
        s = _state(state)
        return passive_place(s) if s.phase == "place" else passive_slot(s)

    policy.__name__ = "passive"
    return policy


def greedy() -> game.Policy:
    """The greedy bot: the hint's best action."""

    def policy(state: game.State) -> game.Action:
        return _state(state).hint().best

    policy.__name__ = "greedy"
    return policy


ROLLOUT_BUDGET = 1200
"""The rollout bot's work a move (`rollouts.worlds`): a quarter of the page's hint, so that a
tournament plays in minutes (about 3 s of CPU a game at 4 players)."""


def rollout(opponents: str = "greedy", budget: int = ROLLOUT_BUDGET) -> game.Policy:
    """The rollout hint's best move against the bots `opponents` where it is clear at 95%, else
    the heuristic's best (greedy's move, the first the hint weighs); `budget` its work a move."""
    from nessus.games.entheos import rollouts  # it plays the bots of this module

    def policy(state: game.State) -> game.Action:
        hint = rollouts.hint(_state(state), opponents, budget=budget)
        return hint.best if hint.separated else next(iter(hint.estimates))  # the heuristic's best

    policy.__name__ = "rollout"
    return policy


def card_bot(card: int) -> game.Policy:
    """Greedy with `card`, passive with the others (see the module docstring)."""
    if card not in ALL_CARDS:
        raise ValueError(f"card must be one of {ALL_CARDS}, got {card!r}")

    def policy(state: game.State) -> game.Action:
        s = _state(state)
        me = s.current_player()
        if s.phase == "place":
            return _placing_with(s, card) if card in s.hands[me] else passive_place(s)
        if card in s.placed[me]:
            reveals = [a for a in s.legal_actions() if isinstance(a, Reveal) and a.card == card]
            return max(reveals, key=s.action_value)  # the first of the best
        return passive_slot(s)

    policy.__name__ = f"card_{card}"
    return policy


def lock_favourite() -> game.Policy:
    """Locks its favourite hero when it shows steal3 or rally (see the module docstring)."""

    def policy(state: game.State) -> game.Action:
        s = _state(state)
        me = s.current_player()
        fav = favourite(s, me)
        good = HEROES[fav].action(s.faces[fav]) in GOOD
        if s.phase == "place":
            return _placing_with(s, 1) if good and 1 in s.hands[me] else passive_place(s, keep=(1,))
        lock = Reveal(1, Lock(fav))
        if good and 1 in s.placed[me] and fav not in s.locked and lock in s.legal_actions():
            return lock
        return passive_slot(s)

    policy.__name__ = "lock_favourite"
    return policy


def _swap_wanted(state: State, fav: int) -> SwapDice | None:
    """The swap of the favourite's duel when the opponent's face ranks higher, if no lock stops it."""
    opp = state.opponent(fav)
    mine, theirs = HEROES[fav].action(state.faces[fav]), HEROES[opp].action(state.faces[opp])
    if RANK.index(theirs) <= RANK.index(mine) or {fav, opp} & set(state.locked):
        return None
    return SwapDice(fav, opp) if HEROES[fav].side == 0 else SwapDice(opp, fav)


def swap_against_competitor() -> game.Policy:
    """Swaps the dice of its favourite's duel when the opponent's face is better (see the module
    docstring)."""

    def policy(state: game.State) -> game.Action:
        s = _state(state)
        me = s.current_player()
        swap = _swap_wanted(s, favourite(s, me))
        if s.phase == "place":
            return _placing_with(s, 5) if swap and 5 in s.hands[me] else passive_place(s, keep=(5,))
        if swap and Reveal(5, swap) in s.legal_actions():
            return Reveal(5, swap)
        return passive_slot(s)

    policy.__name__ = "swap_against_competitor"
    return policy


def policies(rules: Rules | None = None) -> dict[str, game.Policy]:
    """The named bots: "greedy", "passive", "random_legal" (seed 0), "card_1" … "card_6",
    "lock_favourite", "swap_against_competitor" and "rollout" (modelling greedy opponents). The
    rules are not needed: each bot reads them from the state."""
    out = {"greedy": greedy(), "passive": passive(), "random_legal": random_legal()}
    out.update({f"card_{c}": card_bot(c) for c in ALL_CARDS})
    out["lock_favourite"] = lock_favourite()
    out["swap_against_competitor"] = swap_against_competitor()
    out["rollout"] = rollout()
    return out
