"""One turn of combat, resolved in RULES.md part 5's order: (1) every rally gives each hero of
its side 1 point from the (unlimited) reserve; (2) each steal's amount is its face's (1 or 3)
less the number of guards on the other side, not below 0; (3) all steals at once, each capped
by the points its victim had after step 1 (a hero favoured by card 2 takes its amount from the
reserve instead, its opponent losing nothing).

Points move between opponents and only rallies add any, so a side's total grows by 3 x its
rallies (in the isolated duel, one hero per side: 1 per rally).

The isolated duel, Ulysses against Ulysses' twin, both 6 points: A steals 3 while B rallies,
so B has 7 after step 1 and gives up 3; A rallies while B guards (nothing to steal):

>>> resolve((6, 6), ("steal3", "rally"), sides=(0, 1), opponents=(1, 0))
(9, 4)
>>> resolve((6, 6), ("rally", "guard"), sides=(0, 1), opponents=(1, 0))
(7, 6)
>>> resolve((1, 6), ("steal1", "steal3"), sides=(0, 1), opponents=(1, 0))  # B takes only A's 1
(1, 6)
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from nessus.games.entheos.heroes import STEAL


def steal_amounts(actions: Sequence[str], sides: Sequence[int]) -> list[int]:
    """Each hero's steal this turn, in points: its face's amount less the other side's guards
    (not below 0); 0 for a hero that does not steal."""
    guards = [0, 0]
    for action, side in zip(actions, sides, strict=True):
        guards[side] += action == "guard"
    return [
        max(0, STEAL.get(action, 0) - guards[1 - side]) if action in STEAL else 0
        for action, side in zip(actions, sides)
    ]


def resolve(
    points: Sequence[int],
    actions: Sequence[str],
    sides: Sequence[int],
    opponents: Sequence[int],
    from_reserve: Collection[int] = (),
) -> tuple[int, ...]:
    """Every hero's points after the turn: `points`, `actions` and `sides` (0 or 1) hero by hero,
    `opponents[h]` the hero facing h, `from_reserve` the heroes that take their steal from the
    reserve (card 2)."""
    rallies = [0, 0]
    for action, side in zip(actions, sides, strict=True):
        rallies[side] += action == "rally"
    after_rally = [p + rallies[side] for p, side in zip(points, sides, strict=True)]
    out = list(after_rally)
    for hero, amount in enumerate(steal_amounts(actions, sides)):
        if not amount:
            continue
        if hero in from_reserve:
            out[hero] += amount
        else:
            victim = opponents[hero]
            taken = min(amount, after_rally[victim])
            out[hero] += taken
            out[victim] -= taken
    return tuple(out)
