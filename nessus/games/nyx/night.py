"""Nyx for its page in strings (no widgets, no charts): the symbol dice, your dice's words, and the
night against bots: the face-up cards, each player's side, the table, the prompt, their CSS."""

from __future__ import annotations

import html
import math
from collections.abc import Collection, Hashable, Sequence

from nessus import game
from nessus.games.nyx import matrix
from nessus.games.nyx.cards import CARDS, Card
from nessus.games.nyx.matrix import SHAPES
from nessus.games.nyx.odds import Keep
from nessus.games.nyx.policies import MIXED, Hand
from nessus.games.nyx.rules import FACES, SYMBOLS
from nessus.games.nyx.state import COLOURS, DREAM, SPELL, State

INK = {"star": "#e6a800", "crescent": "#3d8fd6", "moon": "#8e5fd0"}
"""Each symbol's colour, on the dice, the matrix and the charts."""
GLYPH = {"star": "★", "crescent": "☾", "moon": "●"}
DIE, HELD = 54, "#f58518"  # a die's size in the tray and a kept die's edge (the kit's DIE and HELD)
TRAY_NOTE = "<small style='color:#555'>Click a die to keep it (dice of one symbol); Roll rerolls the others.</small>"
"""The line above the tray."""


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


def mini_die(symbol: str, colour: str, size: int = 20) -> str:
    """A small symbol die, inline in a sentence or a table cell."""
    return (
        f"<span class='nyx-mini' title='{colour} {symbol}' style='display:inline-block;vertical-align:middle;"
        f"margin-right:2px'>{symbol_svg(symbol, colour, size)}</span>"
    )


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
    return mini_die(action.symbol, "white" if action.white == action.count else "black", 16) + html.escape(str(action))


def counter_html(made: int) -> str:
    """The roll counter for the dream chased: "Roll 2 for this dream" (`data-made`: the rolls)."""
    text = f"<b>Roll {made}</b> for this dream" if made else "<b>No roll yet</b>"
    return f"<span class='roll-counter' data-made='{made}' style='font-size:15px;margin-left:8px'>{text}</span>"


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
    """Your dice: how many to roll (and placed) before a roll, the dice and their symbols after."""
    if not hand.rolled:
        placed = f" ({hand.placed} placed on the matrix)" if hand.placed else ""
        return f"<div class='nyx-status'>{len(hand.colours)} dice to roll{placed}.</div>"
    dice = "".join(mini_die(SYMBOLS[f], c, 18) for f, c in zip(hand.faces, hand.colours))
    return f"<div class='nyx-status'>Your dice: {dice} {hand.text}.</div>"


def squares(on: Collection[tuple[int, int]], rows: int, cols: int) -> str:
    """A grid's squares row by row, `on` the (row, column) squares filled."""
    return "".join(f"<span class='{'on' if (r, c) in on else 'off'}'></span>" for r in range(rows) for c in range(cols))


def shape_preview(shape: str) -> str:
    """The shape as little squares (one of its orientations)."""
    cells = SHAPES[shape]
    rows, cols = 1 + max(r for r, _ in cells), 1 + max(c for _, c in cells)
    return (
        f"<div class='nyx-shape-preview' title='{html.escape(shape)}, turned or flipped as you like' "
        f"style='grid-template-columns:repeat({cols},11px)'>{squares(cells, rows, cols)}</div>"
    )


def dice_html(dice: Sequence[int], size: int = 18) -> str:
    """Dice by colour and symbol (`state.Dice`) as little dice."""
    return "".join(mini_die(SYMBOLS[k % 3], COLOURS[k // 3], size) for k, n in enumerate(dice) for _ in range(n))


def card_html(card: Card | None, slot: int) -> str:
    """A face-up card: its name, its shape (a dream) or symbols (a spell), its points."""
    if card is None:
        return f"<div class='nyx-card empty'><small>slot {slot + 1}</small><br>empty</div>"
    pts = f"{card.points} pt{'s' if card.points != 1 else ''}"
    if card.is_spell:
        what = "".join(mini_die(s, "black", 16) for s in card.symbols)
        body = f"{what}<br><small>{pts} {'every night' if card.effect == 'power' else 'once'}</small>"
    else:
        sign, kind = ("−", "nightmare: to each opponent") if card.kind == "nightmare" else ("+", "dream")
        body = f"{shape_preview(card.shape)} {html.escape(card.shape)}<br><small>{sign}{pts} {kind}</small>"
    return (
        f"<div class='nyx-card {card.kind}' title='{html.escape(str(card))}'><small>slot {slot + 1}</small><br>"
        f"<b>{html.escape(card.name)}</b><br>{body}</div>"
    )


def seat_html(s: State, p: int, who: str) -> str:
    """One player's side: points, dice, matrix, this night's cards, active spells."""
    seat = s.seats[p]
    to_move = not s.is_terminal() and s.mover == p
    if seat.started:
        dice = dice_html(seat.free) or "no free dice"
        placed = seat.spent_black + seat.spent_white
        dice += f" <small>({placed} placed)</small>" if placed else ""
    else:
        dice = f"<small>{seat.black} black" + (f" + {seat.white} white" if seat.white else "") + " dice to roll</small>"
    bought = seat.pending_black + seat.pending_white
    night = ", ".join(html.escape(CARDS[c].name) for c in seat.night) or "nothing yet"
    active = ", ".join(html.escape(CARDS[c].name) for c in seat.active) or "none"
    taken = {divmod(c - 1, matrix.SIZE) for c in seat.matrix}
    return (
        f"<div class='nyx-seat{' to-move' if to_move else ''}' data-seat='{p + 1}' data-score='{seat.score}'>"
        f"<div><b>{html.escape(who.capitalize())}</b>: <b class='nyx-score'>{seat.score}</b> points"
        f"{' <span class=nyx-turn>to move</span>' if to_move else ''}</div>"
        "<div style='display:flex;gap:8px;align-items:flex-start'>"
        f"<div class='nyx-grid' title='matrix: {len(seat.matrix)} of 9 cells taken'>"
        f"{squares(taken, matrix.SIZE, matrix.SIZE)}</div>"
        f"<div><div>{dice}</div><small>{seat.black} black, {seat.white} white dice"
        + (f", {bought} bought" if bought else "")
        + f"<br>this night: {night} ({seat.night_text()})<br>active spells: {active}</small></div></div></div>"
    )


def table_html(s: State, who: Sequence[str]) -> str:
    """The table: the face-up dreams and spells, then every player's side (`who`: each seat's name)."""
    dreams = "".join(card_html(s.card_at(DREAM, i), i) for i in range(len(s.dreams)))
    spells = "".join(card_html(s.card_at(SPELL, i), i) for i in range(len(s.spells)))
    seats = "".join(seat_html(s, p, who[p]) for p in range(s.players))
    return (
        f"<div class='nyx-table' data-turn='{s.turn}' data-scores='{','.join(map(str, s.scores))}'>"
        f"<div><small>Round {s.turn // s.players + 1}. Decks: {len(s.dream_deck)} dreams, {len(s.spell_deck)} "
        f"spells{' (a deck ran out: the game ends with this round)' if s.exhausted else ''}. Reserve: "
        f"{s.reserve_black} black, {s.reserve_white} white dice.</small></div>"
        f"<div class='nyx-row'><b>Dreams</b>{dreams}</div><div class='nyx-row'><b>Spells</b>{spells}</div>"
        f"<div class='nyx-seats'>{seats}</div></div>"
    )


def prompt_html(s: State, game_number: int, best: game.Action | None, last: str) -> str:
    """Your move's prompt with the hint's `best` move, or the log's `last` line once the game is over."""
    if s.is_terminal() or best is None:
        return f"<div class='nyx-prompt nyx-over' data-game='{game_number}'><b>{last}</b></div>"
    what = "reroll or not" if s.phase == "choose" else "your move"
    return (
        f"<div class='nyx-prompt' data-game='{game_number}'><b>Your turn: {what}.</b> <small>Hint (a heuristic): "
        f"<span class='nyx-hint'>{s.describe(best)}</span>.</small></div>"
    )


HEAD = (
    "<style>"
    ".nyx-night{margin-top:12px;border-top:1px solid rgba(128,128,128,.4);padding-top:6px;max-width:100%}"
    ".nyx-row{display:flex;flex-wrap:wrap;gap:6px;align-items:center;margin:4px 0}"
    ".nyx-card{border:1px solid rgba(128,128,128,.5);border-radius:6px;padding:3px 6px;font-size:12px;"
    "min-width:96px;line-height:1.3}"
    ".nyx-card.nightmare{border-color:#b00020}.nyx-card.spell{border-color:#3d8fd6}.nyx-card.empty{opacity:.5}"
    ".nyx-seats{display:flex;flex-wrap:wrap;gap:8px;margin:6px 0}"
    ".nyx-seat{border:1px solid rgba(128,128,128,.5);border-radius:6px;padding:4px 8px;font-size:13px;"
    "max-width:100%;box-sizing:border-box}"
    ".nyx-seat.to-move{border:2px solid #f58518}.nyx-turn{color:#f58518;font-weight:bold}"
    ".nyx-grid{display:grid;grid-template-columns:repeat(3,14px);gap:2px;margin:3px 0;flex:none}"
    ".nyx-grid span{width:14px;height:14px;border-radius:2px;border:1px solid rgba(128,128,128,.6)}"
    ".nyx-grid .on{background:#2b2b33}"
    ".nyx-moves .widget-button.nyx-move{width:auto;max-width:100%;height:auto;min-height:28px;"
    "white-space:normal;text-align:left;padding:2px 8px;margin:2px}"
    ".nyx-moves .nyx-group{display:flex;flex-wrap:wrap;align-items:center;max-width:100%}"
    ".nyx-log{max-height:220px;overflow-y:auto;font-size:12px;border:1px solid rgba(128,128,128,.3);"
    "padding:4px 6px;margin-top:4px}.nyx-log div:first-child{font-weight:bold}"
    "</style>"
    "<h3 style='margin:4px 0'>A night against bots</h3><small style='color:#555'>You are player 1, against the "
    "odds and greedy bots. Each turn: reroll (or not), then one move; ending a night scores its dreams and "
    "spells.</small>"
)
"""The night's stylesheet, title and one line of what it is."""
