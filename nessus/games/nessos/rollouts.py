"""Nessos' win chances by rollouts (`nessus.rollout`): every move of the player to move weighed by
its chance of winning the game, and the points it ends the game with, against the bots at the
table, from worlds drawn from what the player has seen.

A world is the state with what the player cannot see drawn afresh (`worlds`):
- the cards offered to it this round: which of them are Charon is drawn from their exact Bayes
  posterior under the stated sender model (`State.posterior`); a card that is not Charon is the
  value announced;
- the other hands (an eliminated player's too) and the pile: dealt uniformly from the cards it
  has not seen, less those.
Only what the player sees is read: its hand, the cards face up, the announcements, the sizes of
the hands and of the pile. (The sender model speaks of the cards offered alone: the rest of a
sender's hand is dealt like any other unseen card.)

The play-out: the move, then the game to its end on the fast engine (`fast.play_from`), every
seat played by its bot in `bots` (the player's own later moves too). A rollout's value is the
player's win share (1, or 1/k for a win shared k ways, else 0) and its points at the end. Every
move is tried in the same worlds, their piles drawn in the same order (common random numbers:
the moves' differences are measured far more precisely than their values).

The moves weighed (`moves`): accept, refuse, and each kind of card in hand to each player it may
go to, offered or passed on; a creature announced truthfully, a Charon as the value the player
has seen the fewest of (`State.plausible`, the Bayes bot's choice: one move for the Charon's
several announcements).

Where the answer ends the game whatever the offered cards are (only accept and refuse are
allowed, and either ends the game in every case the posterior allows, as in the last round of a
reduced game), the values are exact instead (`exact`).

>>> from nessus.games.nessos.state import initial_state
>>> from nessus.games.nessos.rules import Rules
>>> s = initial_state(Rules(players=3)).deal_cards([0, 7, 7, 2, 10], [5, 5, 3, 1, 0], [9, 9, 1, 2, 3])
>>> h = hint(s.apply(Offer(7, 1, 7)), most=64)
>>> h.method, h.rollouts, sorted(map(move_text, h.estimates))[:3]
('rollout', 64, ['accept', 'add 1 and pass to player 3', 'add 3 and pass to player 3'])
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Hashable, Sequence
from dataclasses import replace
from fractions import Fraction
from functools import lru_cache
from typing import TYPE_CHECKING, cast

import numpy as np

from nessus import game, rollout
from nessus.games.nessos import fast
from nessus.games.nessos.actions import ACCEPT, REFUSE, Offer, Pass
from nessus.games.nessos.deck import CHARON, KINDS, card_name
from nessus.games.nessos.odds import Sender
from nessus.montecarlo import check_seed
from nessus.play import sample

if TYPE_CHECKING:
    from nessus.games.nessos.state import State

BATCH = rollout.BATCH
"""Worlds drawn and played out together (the fast engine plays a few hundred games at once in
about the time of one)."""
MOST = 512
"""Rollouts a move at most, by default."""
PLAYOUTS = 1024
"""Play-outs a hint at most, by default: where there are many moves, fewer rollouts a move (but
at least a batch)."""


def moves(state: State) -> dict[game.Action, game.Action]:
    """The moves a rollout hint weighs (see the module docstring), each standing for itself."""
    said = state.plausible(state.current_player())
    legal = state.legal_actions()
    return {a: a for a in legal if not isinstance(a, (Offer, Pass)) or a.card != CHARON or a.announced == said}


def move_text(action: Hashable) -> str:
    """A move in words: "accept", "offer 7 to player 2", "add Charon as 9 and pass to player 3"."""
    if not isinstance(action, (Offer, Pass)):
        return str(action)
    card = card_name(action.card) + (f" as {action.announced}" if action.card == CHARON else "")
    verb = f"offer {card}" if isinstance(action, Offer) else f"add {card} and pass"
    return f"{verb} to player {action.to + 1}"


def table_bots(state: State, bots: Sequence[str] | None) -> tuple[str, ...]:
    """The bot at each seat (default: the Bayes bot everywhere); a ValueError naming `bots`."""
    chosen = tuple(bots) if bots is not None else ("bayes",) * state.players
    if len(chosen) != state.players or not set(chosen) <= set(fast.BOTS):
        raise ValueError(
            f"bots must name one bot per seat ({state.players}) among {', '.join(fast.BOTS)}, got {', '.join(chosen)}"
        )
    return chosen


def opponents_text(state: State, bots: Sequence[str]) -> str:
    """The bots of the play-outs in words, for the hint."""
    me = state.current_player()
    others = ", ".join(f"player {p + 1} {bots[p]}" for p in range(state.players) if p != me)
    return f"the others played by their bots ({others}), your later moves by the {bots[me]} bot"


def posterior_text(state: State, sender: Sender) -> str:
    """What the worlds are drawn from, in words, for the hint."""
    if not state.chain:
        return "the cards you have not seen, dealt uniformly to the other hands and the pile"
    cards = "card" if len(state.chain) == 1 else f"{len(state.chain)} cards"
    return (
        f"the Bayes posterior of the {cards} offered under a {sender} (each sender's hand drawn from the cards you "
        "have not seen), the other hands and the pile dealt uniformly from the rest"
    )


def dealt(state: State, faces: Sequence[int], cards: np.ndarray) -> State:
    """`state` with the cards offered showing `faces` and the other hands then the pile dealt, in
    seat order, from `cards` (the cards the player to move has not seen, less the faces)."""
    me = state.current_player()
    hands, start = list(state.hands), 0
    for q in range(state.players):
        if q != me:
            size = sum(state.hands[q])
            hands[q] = tuple(np.bincount(cards[start : start + size], minlength=KINDS).tolist())
            start += size
    pile = tuple(np.bincount(cards[start:], minlength=KINDS).tolist())
    chain = tuple(replace(o, card=f) for o, f in zip(state.chain, faces))
    return replace(state, hands=tuple(hands), pile=pile, chain=chain)


def _cases(state: State, sender: Sender) -> list[tuple[tuple[int, ...], Fraction]]:
    """Each way the cards offered may be (their faces) with its posterior probability; one case,
    no cards, where none is offered."""
    if not state.chain:
        return [((), Fraction(1))]
    said = [o.announced for o in state.chain]
    joint = state.posterior(sender).joint
    return [(tuple(CHARON if c else v for c, v in zip(pattern, said)), p) for pattern, p in joint.items()]


def _rest(state: State, faces: Sequence[int]) -> np.ndarray:
    """The cards the player to move has not seen, less `faces`, in kind order."""
    unseen = np.array(state.unseen(state.current_player()))
    np.subtract.at(unseen, list(faces), 1)
    return np.repeat(np.arange(KINDS), unseen)


def worlds(state: State, sender: Sender) -> Callable[[np.random.Generator], tuple[State, np.ndarray]]:
    """A drawer of worlds for the player to move (see the module docstring): each call draws one
    from its generator, with the order of its pile (the last card drawn first)."""
    cases = _cases(state, sender)
    me = state.current_player()
    in_hands = sum(sum(state.hands[q]) for q in range(state.players) if q != me)

    def draw(rng: np.random.Generator) -> tuple[State, np.ndarray]:
        faces = cast(tuple[int, ...], sample(cases, rng))
        cards = rng.permutation(_rest(state, faces))
        return dealt(state, faces, cards), cards[in_hands:]

    return draw


def exact(state: State, sender: Sender) -> dict[game.Action, rollout.Value] | None:
    """Accept's and refuse's exact win chances and points, where only they are allowed and either
    ends the game in every case the posterior allows; else None."""
    if set(state.legal_actions()) != {ACCEPT, REFUSE}:
        return None
    me, cases = state.current_player(), _cases(state, sender)
    values: dict[game.Action, rollout.Value] = {}
    for answer in (ACCEPT, REFUSE):
        win = points = Fraction(0)
        for faces, p in cases:
            end = dealt(state, faces, _rest(state, faces)).apply(answer)
            if not end.ended:
                return None
            win += p * end.returns()[me]
            points += p * end.scores[me]
        values[answer] = rollout.Value.exactly(float(win), float(points))
    return values


class _Batches:
    """`rollout.Rollouts`' two functions for one hint, a batch of `BATCH` worlds at a time: `sample`
    hands out the next world of a batch drawn ahead (from a generator seeded by the hint's seed
    and the batch's number: the generator `rollout.estimate` passes is not used), and `play_out`
    the result of a move in that world, every move in every world of the batch played out at once."""

    def __init__(self, state: State, tried: Sequence[game.Action], sender: Sender, bots: Sequence[str], seed: int):
        self.tried, self.bots, self.seed = tried, tuple(bots), seed
        self.me, self.draw = state.current_player(), worlds(state, sender)
        self.batches = 0
        self.ahead: deque[State] = deque()
        self.results: dict[game.State, deque[tuple[float, float]]] = {}

    def sample(self, state: game.State, rng: np.random.Generator) -> game.State:
        if not self.ahead:
            self._play_batch()
        return self.ahead.popleft()

    def play_out(self, after: game.State, player: int, rng: np.random.Generator) -> tuple[float, float]:
        return self.results[after].popleft()

    def _play_batch(self) -> None:
        rng = np.random.default_rng([self.seed, self.batches])
        self.batches += 1
        drawn = [self.draw(rng) for _ in range(BATCH)]
        after = [w._apply(m) for w, _ in drawn for m in self.tried]  # legal: the worlds look alike to me
        piles = [pile for _, pile in drawn for _ in self.tried]  # every move meets the same draws
        out = fast.play_from(after, rng, self.bots, piles=piles)
        for s, win, points in zip(after, out["shares"][:, self.me], out["points"][:, self.me]):
            self.results.setdefault(s, deque()).append((float(win), float(points)))
        self.ahead.extend(w for w, _ in drawn)


def hint(
    state: State,
    sender: Sender | None = None,
    bots: Sequence[str] | None = None,
    seed: int = 0,
    most: int = MOST,
    playouts: int = PLAYOUTS,
    exact_where_possible: bool = True,
) -> rollout.RolloutHint:
    """Every move of the player to move (`moves`) valued by rollouts (`rollout.estimate`, at most
    `most` a move and, in batches of `BATCH`, as many as `playouts` play-outs in all allow), or
    exactly where the answer ends the game (`exact`; unless `exact_where_possible` is False).
    `sender`: the model of the senders of the cards offered (default: naive, with the rules'
    hand size); `bots`: the bot at each seat, the player's own for its later moves (default:
    Bayes everywhere). A ValueError where no player is to move, or for bad arguments."""
    if state.current_player() < 0:
        raise ValueError("a rollout hint needs a player to move, not a chance node or the end")
    seed, chosen = check_seed(seed), table_bots(state, bots)
    for name, count in (("most", most), ("playouts", playouts)):
        if not isinstance(count, int) or count < 2:
            raise ValueError(f"{name} must be an integer of at least 2, got {count!r}")
    model = sender or Sender("naive", cards=state.rules.hand_size)
    opponents, posterior = opponents_text(state, chosen), posterior_text(state, model)
    values = exact(state, model) if exact_where_possible else None
    if values is not None:
        best = max(values, key=lambda a: values[a].win)
        wins = {a: v.win for a, v in values.items()}
        weighed = f"{posterior} (every case weighed exactly)"
        return rollout.RolloutHint(state, wins, best, True, "rollout", values, 0, True, opponents, weighed, seed)
    tried = moves(state)
    most = min(most, max(BATCH, playouts // len(tried) // BATCH * BATCH))
    batches = _Batches(state, list(tried.values()), model, chosen, seed)
    rollouts = rollout.Rollouts(batches.sample, batches.play_out, opponents, posterior)
    return rollout.estimate(state, rollouts, tried, seed=seed, first=BATCH, batch=BATCH, most=most)


@lru_cache(maxsize=64)
def remembered(state: State, sender: Sender, bots: tuple[str, ...], most: int) -> rollout.RolloutHint:
    """`hint` (seed 0) for the last few positions asked about: a page redrawn for another menu
    choice, or with the panel shown again, asks for the same hint."""
    return hint(state, sender, bots, most=most)
