"""Entheos' win chances by rollouts (`nessus.rollout`): the moves of the player to move, each
valued by its chance of winning the game and its expected victory points against the table's bots.

- The worlds (`sample`): what the player has not seen, drawn uniformly among what agrees with
  what they have seen: the other players' gods (every deal that leaves the player theirs equally
  likely, as the deal makes them) and each other player's cards (those not yet used, shuffled into
  their hand and face-down cards of the public sizes). Only public things and the player's own
  are read.
- The play-out (`play_out`): the world played to the end on the fast engine (`playout`), the other
  seats by the table's bots, the player's own later moves by greedy; (win share, victory points).
- The moves (`choices`): at most `WIDTH`, grouped like the page's buttons (a placement; a card
  revealed, or held, with its targets): each group's best target by the heuristic first, then
  its next best, round the groups (at 2 players, the placements the heuristic ranks highest).
- Exact where nothing is left to chance or to another player (the game's last slot, or the
  player's own slots after it): every deal of the unseen gods enumerated, all moves valued, the
  best `WIDTH` shown (`Value.exactly`).
- The count (`worlds`): as many rollouts as a fixed amount of play allows, so that a hint takes
  about the same time early (8 turns to play, few worlds) as late (many), without a clock.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import replace
from fractions import Fraction
from functools import lru_cache
from itertools import permutations
from typing import TYPE_CHECKING, cast

import numpy as np

from nessus import game, rollout
from nessus.games.entheos import playout
from nessus.games.entheos.heroes import GODS
from nessus.games.entheos.rules import REVEAL, deal_schedule
from nessus.rules import seat_names

if TYPE_CHECKING:
    from nessus.games.entheos.state import State

WIDTH = 4
"""The most moves a hint values by rollouts."""
BUDGET = 3072
"""Rollout work a hint may spend: worlds x moves x turns left x (greedy seats + 2), a greedy seat
weighing every card's every effect at each placement, the other bots little: `LEAST` worlds for
`WIDTH` moves over a 4-player game's 8 turns against greedy bots (about 0.3-0.5 s of CPU)."""
LEAST, MOST, BATCH = 16, 512, 16
"""The fewest and most worlds a hint draws by default, and the step between looks."""
YOU = "greedy"
"""The bot that plays the player's own moves after the one valued."""
POSTERIOR = (
    "a uniform deal of what you have not seen (the other gods, given yours; each player's unused cards "
    "into their hand and face-down cards)"
)


def table_bots(state: State, opponents: str | Sequence[str]) -> list[str]:
    """Each seat's bot: the other seats' from `opponents` (a bot name, or names seat by seat for
    the other seats, repeated round the table), greedy for the player to move."""
    me = state.current_player()
    names = opponents if isinstance(opponents, str) else ",".join(opponents)
    others = list(seat_names(names, state.players - 1, tuple(playout.BOTS), "opponents"))
    return others[:me] + [YOU] + others[me:]


@lru_cache(maxsize=256)
def god_deals(
    players: int, seat: int, mine: tuple[int, ...]
) -> tuple[tuple[tuple[int, ...], tuple[tuple[int, ...], ...]], ...]:
    """Every deal the rules allow in which `seat` holds the gods `mine`, as (the gods set aside,
    each seat's gods in deal order), each as likely as any other (the deal draws each god alike)."""
    schedule = deal_schedule(players)
    unknown = [(kind, s, side) for kind, s, side in schedule if not (kind == "deal" and s == seat)]
    pool = [g for g in range(len(GODS)) if g not in mine]
    out = []
    for drawn in permutations(pool, len(unknown)):
        if any(side is not None and GODS[g].side != side for g, (_, _, side) in zip(drawn, unknown)):
            continue
        aside = tuple(g for g, (kind, _, _) in zip(drawn, unknown) if kind == "aside")
        gods = tuple(
            mine if s == seat else tuple(g for g, (kind, q, _) in zip(drawn, unknown) if kind == "deal" and q == s)
            for s in range(players)
        )
        out.append((aside, gods))
    return tuple(out)


def sample(state: game.State, rng: np.random.Generator) -> State:
    """A world for the player to move (see the module docstring): a god deal, then each other
    player's unused cards shuffled into their hand, placed and held cards."""
    state = cast("State", state)
    me = state.current_player()
    deals = god_deals(state.players, me, state.gods[me])
    aside, gods = deals[int(rng.integers(len(deals)))]
    hands, placed, held = list(state.hands), list(state.placed), list(state.held)
    for q in range(state.players):
        if q == me:
            continue
        unseen = [c for c in range(1, 7) if c not in state.used[q]]  # the six action cards
        cards = [unseen[i] for i in rng.permutation(len(unseen))]
        k, m = len(state.hands[q]), len(state.placed[q])
        hands[q] = tuple(sorted(cards[:k]))
        placed[q] = tuple(sorted(cards[k : k + m]))
        held[q] = tuple((t, c) for (t, _), c in zip(state.held[q], cards[k + m :]))
    return replace(state, aside=aside, gods=gods, hands=tuple(hands), placed=tuple(placed), held=tuple(held))


def rollouts(state: State, opponents: str | Sequence[str] = "greedy") -> rollout.Rollouts:
    """The rollout model for the player to move against the bots `opponents` (see `table_bots`)."""
    seats = table_bots(state, opponents)

    def play_out(world: game.State, player: int, rng: np.random.Generator) -> tuple[float, float]:
        end = playout.finish(playout.Table.of(cast("State", world)), seats, rng)
        vp = end.victory_points()
        return playout.shares(vp)[player], float(vp[player])

    others = ", ".join(f"player {q + 1} {bot}" for q, bot in enumerate(seats) if q != state.current_player())
    return rollout.Rollouts(sample, play_out, f"{others}; you {YOU} after this move", POSTERIOR)


def choices(state: State) -> dict[Hashable, game.Action]:
    """The moves a hint values (see the module docstring), by the action itself."""
    values = state.hint().values
    groups: dict[object, list[game.Action]] = {}
    for a in state.legal_actions():
        card = getattr(a, "card", None)  # a reveal's or a hold's card; a placement has none
        key = a if card is None else (type(a), card)
        groups.setdefault(key, []).append(a)
    ranked = sorted((sorted(g, key=lambda a: -values[a]) for g in groups.values()), key=lambda g: -values[g[0]])[:WIDTH]
    picked: list[game.Action] = []
    depth = 0
    while len(picked) < WIDTH and any(depth < len(g) for g in ranked):
        picked += [g[depth] for g in ranked if depth < len(g)][: WIDTH - len(picked)]
        depth += 1
    return {a: a for a in picked}


def worlds(state: State, moves: int, seats: Sequence[str], budget: int = BUDGET) -> int:
    """The default number of worlds: `budget` / (moves x turns left x (greedy seats + 2)), from
    `LEAST` to `MOST`, a multiple of `BATCH`."""
    greedy = sum(1 for bot in seats if bot == "greedy" or bot.startswith("card_"))
    work = moves * (state.turns - state.turn) * (greedy + 2)
    return max(LEAST, min(MOST, budget // work // BATCH * BATCH))


def exact(state: State, seats: Sequence[str]) -> rollout.RolloutHint | None:
    """The exact hint where nothing is left to chance or to another player after this move, else
    None: each move's win chance and victory points over every god deal (see the module docstring)."""
    me = state.current_player()
    if state.turn != state.turns - 1 or state.phase != REVEAL or any(p != me for p in state.slots[state.step + 1 :]):
        return None
    deals = god_deals(state.players, me, state.gods[me])
    estimates: dict[Hashable, rollout.Value] = {}
    for a in state.legal_actions():
        table = playout.Table.of(cast("State", state.apply(a)))
        table.gods = [list(g) for g in deals[0][1]]  # only your gods play a part until the end
        playout.finish(table, seats, np.random.default_rng(0))
        win, vp = Fraction(0), Fraction(0)
        for _, gods in deals:
            table.gods = [list(g) for g in gods]
            points = table.victory_points()
            win += Fraction(points[me] == max(points), sum(1 for v in points if v == max(points)))
            vp += points[me]
        estimates[a] = rollout.Value.exactly(float(win / len(deals)), float(vp / len(deals)))
    top = dict(sorted(estimates.items(), key=lambda kv: (-kv[1].win, -kv[1].points))[:WIDTH])
    best = next(iter(top))
    return rollout.RolloutHint(
        state,
        {a: v.win for a, v in top.items()},
        best,
        True,
        "rollout",
        estimates=top,
        rollouts=0,
        separated=True,
    )


def hint(
    state: State,
    opponents: str | Sequence[str] = "greedy",
    seed: int = 0,
    most: int | None = None,
    budget: int = BUDGET,
) -> rollout.RolloutHint:
    """Each of the player's `choices` valued by its chance to win (and victory points) against the
    bots `opponents`: exact where `exact` can, else by at most `most` rollouts (default `worlds`
    of `budget`) from `seed`. A ValueError where no player is to move, for an unknown bot or a
    bad count."""
    if state.current_player() < 0:
        raise ValueError("a rollout hint needs a player to move, not a chance node or the end")
    if most is not None and (not isinstance(most, int) or most < 2):
        raise ValueError(f"most must be an integer of at least 2 rollouts, got {most!r}")
    model = rollouts(state, opponents)
    seats = table_bots(state, opponents)
    known = exact(state, seats)
    if known is not None:
        return replace(known, opponents=model.opponents, posterior=POSTERIOR, seed=seed)
    moves = choices(state)
    count = worlds(state, len(moves), seats, budget) if most is None else most
    first = min(count, 2 * BATCH)
    return rollout.estimate(state, model, moves, seed=seed, first=first, batch=BATCH, most=count)
