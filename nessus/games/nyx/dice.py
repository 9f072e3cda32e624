"""Nyx's symbol dice in pictures and words (strings only: no widgets, no charts): a die as SVG
(black or white, a star, a crescent or a full moon), little dice inline, a roll and a keep in
words, the faces of each colour, and for your hand (`policies.Hand`) the tray's words, the Roll
button's label, the roll counter and the dice line. The page's tray, views and night against
bots draw their dice with these."""

from __future__ import annotations

import base64
import html
import math
from collections.abc import Hashable, Sequence

from nessus.games.nyx.odds import Keep
from nessus.games.nyx.policies import MIXED, Hand
from nessus.games.nyx.rules import FACES, SYMBOLS

COLOURS = ("black", "white")
INK = {"star": "#e6a800", "crescent": "#3d8fd6", "moon": "#8e5fd0"}
"""Each symbol's colour, on the dice, the matrix and the charts."""
GLYPH = {"star": "★", "crescent": "☾", "moon": "●"}
PLURAL = {"star": "stars", "crescent": "crescents", "moon": "full moons"}
DIE = 54
"""A die's size in the tray (the kit's `DIE`)."""
HELD = "#f58518"
"""A kept die's edge (the kit's `HELD`)."""
TRAY_NOTE = "<small style='color:#555'>Click a die to keep it (dice of one symbol); Roll rerolls the others.</small>"
"""The line above the tray."""


def words(symbol: str, n: int) -> str:
    """ "1 star", "3 full moons"."""
    return f"{n} {symbol if n == 1 else PLURAL[symbol]}".replace("1 moon", "1 full moon")


# -- a die ------------------------------------------------------------------------------------------
def symbol_svg(symbol: str, colour: str, size: int = DIE, held: bool = False) -> str:
    """A symbol die as SVG: black or white, a star, a crescent or a full moon (held: orange edge)."""
    fill = "#2b2b33" if colour == "black" else "#ffffff"
    if held:
        fill = "#5a4630" if colour == "black" else "#ffe3c2"
    stroke = HELD if held else "#333333"
    c, r = size / 2, size * 0.3
    ink = INK[symbol]
    if symbol == "star":
        points = " ".join(
            f"{c + (r if i % 2 == 0 else r * 0.42) * math.sin(i * math.pi / 5):.1f},"
            f"{c - (r if i % 2 == 0 else r * 0.42) * math.cos(i * math.pi / 5):.1f}"
            for i in range(10)
        )
        mark = f'<polygon points="{points}" fill="{ink}"/>'
    elif symbol == "crescent":
        mark = (
            f'<circle cx="{c:.1f}" cy="{c:.1f}" r="{r:.1f}" fill="{ink}"/>'
            f'<circle cx="{c + r * 0.5:.1f}" cy="{c - r * 0.2:.1f}" r="{r * 0.85:.1f}" fill="{fill}"/>'
        )
    else:
        mark = f'<circle cx="{c:.1f}" cy="{c:.1f}" r="{r:.1f}" fill="{ink}"/>'
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{size}" height="{size}" viewBox="0 0 {size} {size}">'
        f'<rect x="2" y="2" width="{size - 4}" height="{size - 4}" rx="{size / 6:.1f}" fill="{fill}" '
        f'stroke="{stroke}" stroke-width="2"/>{mark}</svg>'
    )


def uri(svg: str) -> str:
    return "data:image/svg+xml;base64," + base64.b64encode(svg.encode()).decode()


def mini_die(symbol: str, colour: str, size: int = 20) -> str:
    """A small symbol die, inline in a sentence or a table cell."""
    return (
        f"<span class='nyx-mini' title='{colour} {symbol}' style='display:inline-block;vertical-align:middle;"
        f"margin-right:2px'>{symbol_svg(symbol, colour, size)}</span>"
    )


# -- dice in words -------------------------------------------------------------------------------------
def dice_text(faces: Sequence[int], colours: Sequence[str]) -> str:
    """ "3 stars, 2 crescents, 1 full moon" for these dice (symbol indices)."""
    parts = [words(s, n) for i, s in enumerate(SYMBOLS) if (n := sum(1 for f in faces if f == i))]
    return ", ".join(parts) or "no dice"


def faces_table() -> str:
    """The faces of a black and a white die."""
    rows = "".join(
        f"<tr><td>{mini_die('moon', colour, 18)} {colour}</td>"
        + "".join(f"<td>{n} {GLYPH[s]}</td>" for s, n in zip(SYMBOLS, FACES[colour]))
        + "</tr>"
        for colour in COLOURS
    )
    return (
        "<table class='nyx-faces' cellpadding='2' style='font-size:12px;border-collapse:collapse'>"
        "<tr><th></th><th>stars</th><th>crescents</th><th>full moons</th></tr>"
        f"{rows}</table>"
    )


def keep_label(action: Hashable) -> str:
    """A keep in words, with a little die of its symbol."""
    if action == MIXED:
        return "keep dice of different symbols"
    assert isinstance(action, Keep)
    if not action.count or action.symbol is None:
        return "roll every die"
    dice = mini_die(action.symbol, "white" if action.white == action.count else "black", 16)
    return f"{dice}{html.escape(str(action))}"


def counter_html(made: int) -> str:
    """The roll counter for the dream chased: "Roll 2 for this dream" (`data-made`: the rolls)."""
    return (
        f"<span class='roll-counter' data-made='{made}' style='font-size:15px;margin-left:8px'>"
        + (f"<b>Roll {made}</b> for this dream" if made else "<b>No roll yet</b>")
        + "</span>"
    )


def roll_label(rolling: int) -> str:
    """The Roll button's label: "Roll 5 dice", "Roll 1 die" ("Roll" with none to roll)."""
    return f"Roll {rolling} di{'e' if rolling == 1 else 'ce'}" if rolling else "Roll"


def tray_words(hand: Hand) -> str:
    """The tray's words before a roll: the first, or the next dream's once a dream is placed."""
    if not hand.placed:
        return "Press Roll to throw your dice."
    if hand.colours:
        return f"{len(hand.colours)} dice left: press Roll for the next dream."
    return "Every die is on the matrix: press Clear matrix for a new night."


def status_html(hand: Hand) -> str:
    """Your dice: how many to roll (and how many are placed on the matrix) before a roll, the
    dice rolled and their symbols after."""
    if not hand.rolled:
        return (
            f"<div class='nyx-status'>{len(hand.colours)} dice to roll"
            + (f" ({hand.placed} placed on the matrix)" if hand.placed else "")
            + ".</div>"
        )
    dice = "".join(mini_die(SYMBOLS[f], c, 18) for f, c in zip(hand.faces, hand.colours))
    return f"<div class='nyx-status'>Your dice: {dice} {dice_text(hand.faces, hand.colours)}.</div>"
