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
  to `p_shape_within` — a night's worth; a white die serves the one night after it is bought,
  a black die every night left (the stated model: one dream of the shape's size chased a
  night, `rolls` rolls to get it).

>>> r = report(Rules())  # the rulebook's L-tetromino of full moons, six black dice
>>> r.figures["placements"].exact, round(r.figures["expected_rolls_for_shape"].value, 3)
(Fraction(16, 1), 1.679)
"""

from __future__ import annotations

from nessus.games.nyx.matrix import placements
from nessus.games.nyx.odds import expected_rolls_for_shape, p_at_least, p_shape_within
from nessus.games.nyx.rules import Rules
from nessus.report import Figure, Report

__all__ = ["NAME", "SUMMARY", "TITLE", "Rules", "report"]

NAME = "nyx"
TITLE = "Nyx"
SUMMARY = "Symbol dice and dreams on a 3x3 matrix: keep what matches, chase a shape, buy black or white dice."


def report(rules: Rules | None = None) -> Report:
    """The exact figures (see the module docstring)."""
    rules = rules or Rules()
    size = rules.chase_size
    black, white = (rules.dice, 0) if rules.colour == "black" else (0, rules.dice)
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
    if rules.dice < 15:
        figures["black_die_gain"] = Figure.of(
            p_shape_within(size, rules.rolls, black + 1, white) - within,
            "what one more black die adds to p_shape_within (each night left: it is kept)",
        )
        figures["white_die_gain"] = Figure.of(
            p_shape_within(size, rules.rolls, black, white + 1) - within,
            "what one more white die adds to p_shape_within (one night: it is returned)",
        )
    return Report(NAME, rules.as_dict(), figures)
