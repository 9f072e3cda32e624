"""Nyx: roll symbol dice, keep what matches, and place dreams on a 3x3 matrix (RULES.md part 4).

`nessus report nyx` gives, exactly:
- `p_at_least`: P(at least `k` of `dice` dice of `colour` show `symbol` within `rolls` rolls,
  keeping the matching dice);
- `placements`: the placements of `shape` on the empty matrix (rotations and flips, as distinct
  cell sets), and with `blocked` cells `placements_free`;
- `expected_rolls_for_shape`: the expected rolls, the first rolling every die, until `size` dice
  (default: the shape's) show one common symbol, any symbol chosen as you go, keeping optimally;
  `p_shape_within`: the chance of it within `rolls` rolls;
- black vs white: `black_die_gain` and `white_die_gain`, what one more die of each colour adds
  to `p_shape_within` — a night's worth — and over the rest of the game `black_die_value` (the
  gain on each of the `nights` nights left: a black die is kept) and `white_die_value` (one
  night: a white die serves the night after it is bought, then goes back). The stated model:
  each night a player chases one dream of the shape's size, `rolls` rolls to get it, so a gain
  in its probability is extra dreams realised; the price (a star for a white die, a star, a
  crescent and a moon for a black one) is left to the player.

`nessus simulate nyx` plays `games` whole games of the rules' bots (`bots`: greedy, odds,
random_legal) through the game protocol's loop — each seat's win share and the game's length in
rounds — and checks `p_shape_within` and the dice gains by Monte Carlo (`trials` chases), the
chase played by its exact optimal keeps.

>>> r = report(Rules())  # the rulebook's L-tetromino of full moons, six black dice
>>> r.figures["placements"].exact, round(r.figures["expected_rolls_for_shape"].value, 3)
(Fraction(16, 1), 1.679)
"""

from __future__ import annotations

from functools import cache, partial
from typing import Any, cast

import numpy as np

from nessus import montecarlo
from nessus.game import Game
from nessus.games.nyx.bots import policies
from nessus.games.nyx.engine import MAX_BLACK, State, initial_state
from nessus.games.nyx.matrix import placements
from nessus.games.nyx.odds import START, expected_rolls_for_shape, p_at_least, p_shape_within, shape_within
from nessus.games.nyx.rules import Rules
from nessus.play import play
from nessus.report import Figure, Report

__all__ = ["GAME", "NAME", "Rules", "State", "initial_state", "policies", "report", "simulate"]

NAME = "nyx"


def report(rules: Rules | None = None) -> Report:
    """The exact figures (see the module docstring)."""
    rules = rules or Rules()
    size = rules.chase_size
    black, white = rules.black_white
    within = p_shape_within(size, rules.rolls, black, white)
    figures = {
        "p_at_least": Figure.of(
            p_at_least(rules.symbol, rules.k, rules.dice, rules.rolls, rules.colour),
            f"P(at least {rules.k} of {rules.dice} {rules.colour} dice show a {rules.symbol} within {rules.rolls} "
            "rolls, keeping the matching dice)",
        ),
        "placements": Figure.of(len(placements(rules.shape)), f"placements of {rules.shape} on the empty matrix"),
    }
    if rules.blocked_cells:
        figures["placements_free"] = Figure.of(
            len(placements(rules.shape, rules.blocked_cells)),
            f"placements of {rules.shape} avoiding cells {rules.blocked}",
        )
    figures["expected_rolls_for_shape"] = Figure.of(
        expected_rolls_for_shape(size, rules.dice, rules.colour),
        f"expected rolls until {size} dice show one common symbol, keeping optimally",
    )
    figures["p_shape_within"] = Figure.of(
        within, f"P({size} dice of one common symbol within {rules.rolls} rolls), keeping to make it most likely"
    )
    for colour, more in dice_bought(rules).items():
        gain = p_shape_within(size, rules.rolls, *more) - within
        figures[f"{colour}_die_gain"] = Figure.of(gain, f"what one more {colour} die adds to p_shape_within in a night")
        nights = rules.nights if colour == "black" else 1
        figures[f"{colour}_die_value"] = Figure.of(
            nights * gain,
            f"extra dreams a {colour} die bought now realises over the game: "
            + (
                f"its gain on each of the {nights} nights left (it is kept)"
                if colour == "black"
                else "one night's gain (it is returned)"
            ),
        )
    return Report(NAME, rules.as_dict(), figures)


def dice_bought(rules: Rules) -> dict[str, tuple[int, int]]:
    """The (black, white) dice with one more die of each colour that can be bought: a black die
    while a player holds fewer than 9 (RULES.md), a white die while the dice stay under 15."""
    black, white = rules.black_white
    out = {}
    if black < MAX_BLACK and black + white < 15:
        out["black"] = (black + 1, white)
    if black + white < 15:
        out["white"] = (black, white + 1)
    return out


def simulate(
    rules: Rules | None = None, trials: int = 100_000, seed: int = 0, client: Any = None, progress: Any = None
) -> Report:
    """By Monte Carlo with 95% intervals: `p_shape_within` with the rules' dice and with one
    more die of each colour (`trials` chases, each keep the exact optimal one), and `rules.games`
    whole games of the rules' bots through the generic play loop (played first, so that Ctrl-C
    during the chases finds them finished): each seat's win share and the mean number of rounds."""
    rules = rules or Rules()
    games = montecarlo.run(
        partial(games_kernel, rules), rules.games, seed + 1, client=client, progress=progress, fixed=True
    )
    chase = montecarlo.run(partial(chase_kernel, rules), trials, seed, client=client, progress=progress)
    estimates = chase.estimates | games.estimates
    return Report(NAME, rules.as_dict(), {k: Figure.estimated(e) for k, e in estimates.items()})


@cache
def _outcomes(size: int, black: int, white: int, rolls: int, after: tuple) -> tuple[list, np.ndarray]:
    """The chance outcomes of an after-state of the chase and their cumulative weights."""
    outcomes = list(shape_within(size, black, white, rolls).chance(after))
    return [s for s, _ in outcomes], np.cumsum([w for _, w in outcomes])


def _chase_once(size: int, black: int, white: int, rolls: int, rng: np.random.Generator) -> bool:
    """One chase played by its exact optimal keeps: whether the shape's dice were got in time."""
    game = shape_within(size, black, white, rolls)
    state: tuple = START
    while True:
        moves = dict(game.choices(state))
        if not moves:
            return bool(game.payoff(state))
        after = moves[game.best(state)]
        states, cumulative = _outcomes(size, black, white, rolls, after)
        state = states[int(np.searchsorted(cumulative, rng.integers(cumulative[-1]), side="right"))]


def chase_kernel(rules: Rules, rng: np.random.Generator, n: int) -> dict[str, np.ndarray]:
    """n chases of `chase_size` dice of one symbol within `rolls` rolls with the rules' dice,
    and with one more die of each colour that can be bought: whether each succeeded."""
    black, white = rules.black_white
    size, rolls = rules.chase_size, rules.rolls
    out = {"p_shape_within": np.array([_chase_once(size, black, white, rolls, rng) for _ in range(n)])}
    for colour, (b, w) in dice_bought(rules).items():
        out[f"p_shape_within_one_more_{colour}"] = np.array([_chase_once(size, b, w, rolls, rng) for _ in range(n)])
    return out


def games_kernel(rules: Rules, rng: np.random.Generator, n: int) -> dict[str, np.ndarray]:
    """n whole games with the rules' bots (`Rules.seat_bots`): each seat's win share (a shared
    win counting its share) and the rounds played (turns per player)."""
    named = policies(rules)
    seats = [named[b] for b in rules.seat_bots]
    ends = [cast(State, play(initial_state(rules), seats, rng)) for _ in range(n)]
    out = {"mean_rounds": np.array([e.turn / rules.players for e in ends])}
    for seat, bot in enumerate(rules.seat_bots):
        out[f"win_share_seat_{seat + 1}_{bot}"] = np.array([float(e.returns()[seat]) for e in ends])
    return out


GAME = Game(
    name=NAME,
    title="Nyx",
    summary="Symbol dice and dreams on a 3x3 matrix: keep what matches, chase a shape, buy black or white dice.",
    Rules=Rules,
    report=report,
    simulate=simulate,
    initial_state=initial_state,
    policies=policies,
    lesson="13-nyx-dreams-on-dice",
    dashboard="nyx.ipynb",
    pitch=(
        "Symbol dice and dreams on a 3x3 matrix: keep one symbol or reroll with the exact expected rolls of "
        "every keep, and place the dream's shape by clicking its cells."
    ),
)
"""This game, as the registry, the command line and the gallery see it."""
