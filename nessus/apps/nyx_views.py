"""The Nyx dashboard's pictures, pure functions (no widgets, no maths beyond the engine's): symbol
dice drawn as SVG (black and white dice, a star, a crescent or a full moon), the page's CSS, the
words for a roll and a keep, the hint table for a keep, the matrix's cells, the figures of a
shape (`nyx.report`) and the charts of the odds (altair)."""

from __future__ import annotations

import base64
import html
import math
from collections.abc import Hashable, Iterable, Sequence
from functools import cache

import altair as alt
import polars as pl

from nessus import game
from nessus.games import nyx
from nessus.games.nyx import matrix
from nessus.games.nyx.cards import CARDS, Card
from nessus.games.nyx.matrix import SHAPES
from nessus.games.nyx.odds import FACES, SYMBOLS, Keep, expected_rolls_for_shape, p_at_least
from nessus.games.nyx.policies import end_night
from nessus.games.nyx.rules import Rules
from nessus.games.nyx.state import (
    DREAM,
    NO_REROLL,
    SPELL,
    BuyBlack,
    BuyWhite,
    Draw,
    Dream,
    EndNight,
    NoReroll,
    Pass,
    Reroll,
    Roll,
    Spell,
    State,
)
from nessus.games.nyx.state import dice_text as engine_dice_text
from nessus.kit.dicegame import DIE, HELD, hint_table
from nessus.numbers import number_html, number_text
from nessus.solver import Hint

COLOURS = ("black", "white")
INK = {"star": "#e6a800", "crescent": "#3d8fd6", "moon": "#8e5fd0"}
"""Each symbol's colour, on the dice, the matrix and the charts."""
GLYPH = {"star": "★", "crescent": "☾", "moon": "●"}
PLURAL = {"star": "stars", "crescent": "crescents", "moon": "full moons"}
HANDS = (("6 black", 6, 0), ("6 black + 1 white", 6, 1), ("7 black", 7, 0))
"""The hands compared in the expected-rolls chart: (name, black, white)."""
SIZES = (2, 3, 4, 5)
"""The dreams' sizes (cells)."""
CHART_DICE = 6
"""The dice of each colour in the P(at least k) chart."""
BOTS = ("odds", "greedy", "odds")
"""The bots in seats 2, 3 and 4 of a night against bots (you are seat 1)."""
HUMAN = 0
MAX_DREAMS = 6
"""The dream placements offered as buttons, best first."""
PER_DREAM = 2
"""The placements offered per face-up dream and symbol."""


def words(symbol: str, n: int) -> str:
    """ "1 star", "3 full moons"."""
    return f"{n} {symbol if n == 1 else PLURAL[symbol]}".replace("1 moon", "1 full moon")


# -- dice -------------------------------------------------------------------------------------------
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


def _uri(svg: str) -> str:
    return "data:image/svg+xml;base64," + base64.b64encode(svg.encode()).decode()


def mini_die(symbol: str, colour: str, size: int = 20) -> str:
    """A small symbol die, inline in a sentence or a table cell."""
    return (
        f"<span class='nyx-mini' title='{colour} {symbol}' style='display:inline-block;vertical-align:middle;"
        f"margin-right:2px'>{symbol_svg(symbol, colour, size)}</span>"
    )


def page_css() -> str:
    """The dice's faces (over the tray's pips) and the matrix's cells."""
    faces = "".join(
        f".nessus-tray .nessus-die.nyx-die.nyx-{colour}.sym-{s}{{background-image:url({_uri(symbol_svg(s, colour))})}}"
        f".nessus-tray .nessus-die.nyx-die.held.nyx-{colour}.sym-{s}"
        f"{{background-image:url({_uri(symbol_svg(s, colour, held=True))})}}"
        for colour in COLOURS
        for s in SYMBOLS
    )
    cells = "".join(f".nyx-matrix .nyx-cell.occupied.sym-{s}{{color:{INK[s]}}}" for s in SYMBOLS)
    return (
        "<style>"
        f"{faces}"
        ".nyx-matrix{grid-template-columns:repeat(3,58px);grid-gap:4px;width:max-content;margin:4px 0}"
        ".nyx-matrix .nyx-cell.jupyter-button{width:58px;height:58px;margin:0;padding:0;font-size:15px;"
        "border:2px solid rgba(128,128,128,.45);border-radius:6px;background:rgba(128,128,128,.06);color:#888}"
        ".nyx-matrix .nyx-cell.can{background:rgba(92,184,92,.22);border-color:#5cb85c;color:#2e7d32}"
        ".nyx-matrix .nyx-cell.picked{background:rgba(245,133,24,.35);border-color:#f58518;color:#000;font-weight:bold}"
        ".nyx-matrix .nyx-cell.ready{background:#f58518;border-color:#b35c00;color:#fff}"
        ".nyx-matrix .nyx-cell.stray{background:rgba(176,0,32,.18);border-color:#b00020}"
        ".nyx-matrix .nyx-cell.occupied{background:#2b2b33;border-color:#2b2b33;font-size:28px;opacity:1}"
        f"{cells}"
        ".nyx-shape-preview{display:inline-grid;gap:2px;margin:2px 8px;vertical-align:middle}"
        ".nyx-shape-preview span{width:11px;height:11px;border-radius:2px}"
        ".nyx-shape-preview .on{background:#f58518}.nyx-shape-preview .off{background:transparent}"
        ".nessus-dash .widget-button.place-button,.nessus-dash .widget-button.clear-button,"
        ".nessus-dash .widget-button.best-button{width:auto;min-width:90px;padding:0 10px}"
        "</style>"
    )


def roll_symbols(rolled: Sequence[int], colours: Sequence[str]) -> tuple[tuple[int, int, int], tuple[int, int, int]]:
    """The counts of each symbol (stars, crescents, moons) among black and white dice."""
    black = tuple(sum(1 for f, c in zip(rolled, colours) if c == "black" and f == i) for i in range(3))
    white = tuple(sum(1 for f, c in zip(rolled, colours) if c == "white" and f == i) for i in range(3))
    return black, white  # type: ignore[return-value]


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


# -- the hint ---------------------------------------------------------------------------------------
MIXED = "mixed"
"""The keep chosen when the dice marked kept show more than one symbol."""


def keep_label(action: Hashable) -> str:
    """A keep in words, with a little die of its symbol."""
    if action == MIXED:
        return "keep dice of different symbols"
    assert isinstance(action, Keep)
    if not action.count or action.symbol is None:
        return "roll every die"
    dice = mini_die(action.symbol, "white" if action.white == action.count else "black", 16)
    return f"{dice}{html.escape(str(action))}"


def hint_html(hint: Hint, chosen: Hashable, shape: str, black: int, white: int) -> str:
    """Every keep with its exact expected rolls still to come, the best marked, your choice judged."""
    size = len(SHAPES[shape])
    hand = f"{black} black" + (f" + {white} white" if white else "")
    return (
        f"<div style='color:#555'>Chasing <b>{size} dice of one symbol</b> for the {html.escape(shape)} with "
        f"{hand} dice, keeping optimally after this one (fewest rolls).</div>"
        + hint_table(hint, chosen, keep_label, unit="expected rolls to come")
    )


# -- the matrix -------------------------------------------------------------------------------------
def cell_classes(
    cell: int, occupied: dict[int, str], picked: frozenset[int], options: Sequence[frozenset[int]], ready: bool
) -> tuple[str, ...]:
    """A cell's CSS classes: occupied (and its symbol), picked (ready when the picked cells make a
    placement), can (in a placement that contains the picked cells), stray (picked, in none)."""
    if cell in occupied:
        return ("nyx-cell", f"cell-{cell}", "occupied", f"sym-{occupied[cell]}")
    classes = ["nyx-cell", f"cell-{cell}", "free"]
    if cell in picked:
        classes.append("ready" if ready else "picked" if options else "stray")
    elif any(cell in p for p in options):
        classes.append("can")
    return tuple(classes)


def shape_preview(shape: str) -> str:
    """The shape as little squares (one of its orientations)."""
    cells = SHAPES[shape]
    rows, cols = 1 + max(r for r, _ in cells), 1 + max(c for _, c in cells)
    squares = "".join(
        f"<span class='{'on' if (r, c) in cells else 'off'}'></span>" for r in range(rows) for c in range(cols)
    )
    return (
        f"<div class='nyx-shape-preview' title='{html.escape(shape)}, turned or flipped as you like' "
        f"style='grid-template-columns:repeat({cols},11px)'>{squares}</div>"
    )


def matrix_status(shape: str, picked: frozenset[int], options: Sequence[frozenset[int]], free_count: int) -> str:
    """What the picked cells make, in words."""
    need = len(SHAPES[shape])
    if not free_count:
        return f"<span class='nyx-pick'>No placement of {html.escape(shape)} fits the free cells.</span>"
    if not picked:
        return (
            f"<span class='nyx-pick'>Click free cells to choose where the {html.escape(shape)} goes (green: cells of a "
            "placement that fits).</span>"
        )
    cells = ", ".join(map(str, sorted(picked)))
    if picked in options:
        return (
            f"<span class='nyx-pick ready'>Cells {cells}: a placement of {html.escape(shape)}. Press <b>Place</b> with "
            f"{need} dice of one symbol kept.</span>"
        )
    if not options:
        return (
            f"<span class='nyx-pick stray' style='color:#b00020'>No placement of {html.escape(shape)} covers cells "
            f"{cells}: click a red cell to free it.</span>"
        )
    return (
        f"<span class='nyx-pick'>Cells {cells}: {len(options)} placement{'s' if len(options) > 1 else ''} of "
        f"{html.escape(shape)} contain them; pick {need - len(picked)} more.</span>"
    )


def figures_html(shape: str, blocked: Iterable[int]) -> str:
    """The exact figures of this shape (`nyx.report`): placements on the empty matrix and on the
    free cells, expected rolls, P(within 3 rolls) with 6 black dice, and one more die's worth."""
    cells = ",".join(map(str, sorted(blocked)))
    r = nyx.report(Rules(shape=shape, blocked=cells))
    f = r.figures
    free = f["placements_free"].exact if "placements_free" in f else f["placements"].exact
    rows = [
        (f"placements of {shape} on the empty matrix", number_html(f["placements"].exact or 0, "value")),
        ("placements on the free cells (placements_free)", number_html(free or 0, "value")),
        (
            f"expected rolls for {len(SHAPES[shape])} dice of one symbol, 6 black dice",
            number_html(f["expected_rolls_for_shape"].exact or 0, "value"),
        ),
        ("P(done within 3 rolls), 6 black dice", number_html(f["p_shape_within"].exact or 0)),
        ("one more black die adds", number_html(f["black_die_gain"].exact or 0)),
        ("one more white die adds", number_html(f["white_die_gain"].exact or 0)),
    ]
    body = "".join(f"<tr><td>{html.escape(k)}</td><td>{v}</td></tr>" for k, v in rows)
    return (
        f"<table class='nyx-figures' data-free='{free}' cellpadding='2' style='font-size:12px;"
        "border-collapse:collapse'>"
        f"{body}</table>"
    )


# -- charts -----------------------------------------------------------------------------------------
def at_least_frame(symbol: str, rolls: int, dice: int = CHART_DICE) -> pl.DataFrame:
    """P(at least k of `dice` dice show `symbol` within `rolls` rolls, keeping the matches), k = 1..dice,
    for black and white dice."""
    rows: dict[str, list] = {"k": [], "dice": [], "probability": [], "exact": []}
    for colour in COLOURS:
        for k in range(1, dice + 1):
            p = p_at_least(symbol, k, dice, rolls, colour)
            rows["k"].append(k)
            rows["dice"].append(f"{dice} {colour}")
            rows["probability"].append(float(p))
            rows["exact"].append(number_text(p))
    return pl.DataFrame(rows)


def at_least_chart(symbol: str, rolls: int, dice: int = CHART_DICE) -> alt.Chart:
    """Bars of P(at least k of the symbol within r rolls) by k, black dice beside white dice."""
    frame = at_least_frame(symbol, rolls, dice)
    order = [f"{dice} {c}" for c in COLOURS]
    title = alt.Title(
        f"P(at least k {PLURAL[symbol]} within {rolls} roll{'s' if rolls > 1 else ''})",
        subtitle=[f"{dice} dice, the {PLURAL[symbol]} kept after each roll,", "the others rolled again (exact)"],
    )
    return (
        alt.Chart(frame, title=title)
        .mark_bar(stroke="#333", strokeWidth=0.6)
        .encode(
            x=alt.X("k:O", title=f"k: at least this many {PLURAL[symbol]}", axis=alt.Axis(labelAngle=0)),
            xOffset=alt.XOffset("dice:N", sort=order),
            y=alt.Y("probability:Q", title="probability", scale=alt.Scale(domain=[0, 1])),
            color=alt.Color(
                "dice:N",
                sort=order,
                scale=alt.Scale(range=["#2b2b33", "#e8e8e8"]),
                legend=alt.Legend(orient="top", title=None),
            ),
            tooltip=["dice", "k", alt.Tooltip("probability:Q", format=".6f"), "exact"],
        )
        .properties(width=440, height=200)
    )


@cache
def expected_frame() -> pl.DataFrame:
    """Expected rolls until `size` dice show one common symbol, keeping optimally, for each hand."""
    rows: dict[str, list] = {"size": [], "hand": [], "rolls": [], "exact": []}
    for size in SIZES:
        for name, black, white in HANDS:
            e = expected_rolls_for_shape(size, black, "black", white)
            rows["size"].append(size)
            rows["hand"].append(name)
            rows["rolls"].append(float(e))
            rows["exact"].append(number_text(e, kind="value"))
    return pl.DataFrame(rows)


def expected_chart(highlight: int | None = None) -> alt.Chart:
    """Expected rolls for a dream of each size: 6 black vs 6 black + 1 white vs 7 black dice
    (`highlight`: the chosen shape's size, its bars outlined)."""
    frame = expected_frame().with_columns(chosen=pl.col("size") == (highlight or 0))
    order = [h for h, *_ in HANDS]
    title = alt.Title(
        "Expected rolls for a dream, by its size",
        subtitle=[
            "the first roll of every die, then keeping",
            "one symbol optimally (exact);",
            "outlined in red: your dream's size",
        ],
    )
    return (
        alt.Chart(frame, title=title)
        .mark_bar()
        .encode(
            x=alt.X("size:O", title="dream size (dice of one symbol)", axis=alt.Axis(labelAngle=0)),
            xOffset=alt.XOffset("hand:N", sort=order),
            y=alt.Y("rolls:Q", title="expected rolls"),
            color=alt.Color(
                "hand:N",
                sort=order,
                scale=alt.Scale(range=["#4c78a8", "#f58518", "#2b2b33"]),
                legend=alt.Legend(orient="top", title=None),
            ),
            stroke=alt.condition("datum.chosen", alt.value("#b00020"), alt.value(None)),
            strokeWidth=alt.condition("datum.chosen", alt.value(2), alt.value(0)),
            tooltip=["hand", "size", alt.Tooltip("rolls:Q", format=".4f"), "exact"],
        )
        .properties(width=440, height=200)
    )


# -- a night against bots ---------------------------------------------------------------------------
def seat_name(p: int, bots: Sequence[str]) -> str:
    """ "you" for seat 1, "player 2 (odds)" for a bot."""
    return "you" if p == HUMAN else f"player {p + 1} ({bots[p]})"


def dice_html(dice: Sequence[int], size: int = 18) -> str:
    """Dice by colour and symbol (`engine.Dice`) as little dice."""
    return "".join(mini_die(SYMBOLS[k % 3], COLOURS[k // 3], size) for k, n in enumerate(dice) for _ in range(n))


def card_html(card: Card | None, slot: int) -> str:
    """A face-up card: its name, its shape (a dream) or symbols (a spell), its points."""
    if card is None:
        return f"<div class='nyx-card empty'><small>slot {slot + 1}</small><br>empty</div>"
    pts = f"{card.points} pt{'s' if card.points != 1 else ''}"
    if card.is_spell:
        what = "".join(mini_die(s, "black", 16) for s in card.symbols)
        when = "every night" if card.effect == "power" else "once"
        body = f"{what}<br><small>{pts} {when}</small>"
    else:
        sign = "−" if card.kind == "nightmare" else "+"
        kind = "nightmare: to each opponent" if card.kind == "nightmare" else "dream"
        body = f"{shape_preview(card.shape)} {html.escape(card.shape)}<br><small>{sign}{pts} {kind}</small>"
    return (
        f"<div class='nyx-card {card.kind}' title='{html.escape(str(card))}'><small>slot {slot + 1}</small><br>"
        f"<b>{html.escape(card.name)}</b><br>{body}</div>"
    )


def seat_html(s: State, p: int, bots: Sequence[str]) -> str:
    """One player's side: points, dice, matrix (`matrix.draw`), this night's cards, active spells."""
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
    gain, loss = seat.night_points()
    grid = "".join(
        f"<span class='{'on' if ch == '#' else 'off'}'></span>" for ch in matrix.draw(seat.matrix, "#") if ch != "\n"
    )
    return (
        f"<div class='nyx-seat{' to-move' if to_move else ''}' data-seat='{p + 1}' data-score='{seat.score}'>"
        f"<div><b>{html.escape(seat_name(p, bots).capitalize())}</b>: <b class='nyx-score'>{seat.score}</b> points"
        f"{' <span class=nyx-turn>to move</span>' if to_move else ''}</div>"
        "<div style='display:flex;gap:8px;align-items:flex-start'>"
        f"<div class='nyx-grid' title='matrix: {len(seat.matrix)} of 9 cells taken'>{grid}</div>"
        f"<div><div>{dice}</div><small>{seat.black} black, {seat.white} white dice"
        + (f", {bought} bought" if bought else "")
        + f"<br>this night: {night} (+{gain}"
        + (f", −{loss} to each opponent" if loss else "")
        + f")<br>active spells: {active}</small></div></div></div>"
    )


def table_html(s: State, bots: Sequence[str]) -> str:
    """The table: the face-up dreams and spells, then every player's side."""
    dreams = "".join(card_html(s.card_at(DREAM, i), i) for i in range(len(s.dreams)))
    spells = "".join(card_html(s.card_at(SPELL, i), i) for i in range(len(s.spells)))
    seats = "".join(seat_html(s, p, bots) for p in range(s.players))
    n = s.players
    return (
        f"<div class='nyx-table' data-turn='{s.turn}' data-scores='{','.join(map(str, s.scores))}'>"
        f"<div><small>Round {s.turn // n + 1}. Decks: {len(s.dream_deck)} dreams, {len(s.spell_deck)} spells"
        f"{' (a deck ran out: the game ends with this round)' if s.exhausted else ''}. Reserve: "
        f"{s.reserve_black} black, {s.reserve_white} white dice.</small></div>"
        f"<div class='nyx-row'><b>Dreams</b>{dreams}</div><div class='nyx-row'><b>Spells</b>{spells}</div>"
        f"<div class='nyx-seats'>{seats}</div></div>"
    )


Choice = tuple[str, str, game.Action]
"""A button for one of your moves: (group, label, action)."""


def _keep_rest(free: Sequence[int], i: int) -> tuple[int, ...]:
    return tuple(0 if k % 3 == i else n for k, n in enumerate(free))


def choices(s: State) -> list[Choice]:
    """A few of the mover's legal actions, grouped: before acting, no reroll, "keep <symbol>,
    reroll the rest" for each symbol held and reroll all; then the dreams best first (the card's
    worth, then the room the placement leaves, `matrix.best_placements`; at most `PER_DREAM` per
    dream and symbol, `MAX_DREAMS` in all), the spells, buying dice, passing and ending the night."""
    legal = s.legal_actions()
    seat = s.seats[s.mover]
    out: list[Choice] = []
    if s.phase == "choose":
        out.append(("dice", "No reroll: act with these dice", NO_REROLL))
        for i, symbol in enumerate(SYMBOLS):
            held = seat.free[i] + seat.free[3 + i]
            rest = _keep_rest(seat.free, i)
            if held and any(rest):
                out.append(("dice", f"Keep {words(symbol, held)}, reroll the rest", Reroll(rest)))
        out.append(("dice", f"Reroll all {seat.free_count} dice", Reroll(tuple(seat.free))))
        return [c for c in out if c[2] in legal]
    free = set(matrix.CELLS) - set(seat.matrix)
    dreams: list[tuple[tuple, Choice]] = []
    for slot, c in enumerate(s.dreams):
        if c is None:
            continue
        card = CARDS[c]
        ranked = matrix.best_placements(card.shape, free)
        for symbol in SYMBOLS:
            taken = 0
            for cells, room in ranked:
                action = Dream(slot, symbol, tuple(sorted(cells)))
                if taken >= PER_DREAM or action not in legal:
                    continue
                taken += 1
                label = (
                    f"{card.name} ({card.shape}, {'−' if card.kind == 'nightmare' else '+'}{card.points}) with "
                    f"{PLURAL[symbol]} on cells {','.join(map(str, action.cells))}"
                )
                dreams.append(((-s.card_value(card), -room, slot, SYMBOLS.index(symbol)), ("dreams", label, action)))
    out += [choice for _, choice in sorted(dreams, key=lambda pair: pair[0])[:MAX_DREAMS]]
    for a in legal:
        if isinstance(a, Spell):
            spell = s.card_at(SPELL, a.slot)
            assert spell is not None
            out.append(("spells and dice", f"{spell.name} ({' + '.join(spell.symbols)}, {spell.points} pt)", a))
    for a in legal:
        if isinstance(a, BuyBlack):
            out.append(("spells and dice", "Buy a black die (star + crescent + moon)", a))
        elif isinstance(a, BuyWhite):
            out.append(("spells and dice", "Buy a white die (a star)", a))
    if any(isinstance(a, Pass) for a in legal):
        out.append(("turn", "Pass (the night goes on)", Pass()))
    end = end_night(s)
    if end in legal:
        d = s.card_at(DREAM, end.dream) if end.dream is not None else None
        sp = s.card_at(SPELL, end.spell) if end.spell is not None else None
        gain, loss = seat.night_points()
        what = f"+{gain}" + (f", −{loss} to each opponent" if loss else "")
        gone = " and ".join(c.name for c in (d, sp) if c is not None)
        out.append(("turn", f"End the night ({what}; discard {gone or 'nothing'})", end))
    return out


def move_line(s: State, action: game.Action, bots: Sequence[str]) -> str | None:
    """A log line for a move or a roll (None for a card drawn)."""
    if isinstance(action, Draw):
        return None
    who = seat_name(s.mover, bots)
    you = s.mover == HUMAN
    if isinstance(action, Roll):
        return f"{who.capitalize()} roll{'' if you else 's'} {engine_dice_text(action.dice)}."
    if isinstance(action, NoReroll):
        return f"{who.capitalize()} keep{'' if you else 's'} the dice."
    if isinstance(action, Reroll):
        return f"{who.capitalize()} reroll{'' if you else 's'} {engine_dice_text(action.dice)}."
    if isinstance(action, EndNight):
        gain, loss = s.seats[s.mover].night_points()
        return f"{who.capitalize()}: {s.describe(action)} (+{gain}" + (
            f", −{loss} to each opponent)." if loss else ")."
        )
    return f"{who.capitalize()}: {s.describe(action)}."


def result_text(s: State, bots: Sequence[str]) -> str:
    """Who won, with the scores."""
    win = [p for p, r in enumerate(s.returns()) if r]
    names = " and ".join(seat_name(p, bots) for p in win)
    verb = "win" if win == [HUMAN] else "wins" if len(win) == 1 else "share the win"
    return f"Game over: {names} {verb}, {' – '.join(map(str, s.scores))} points."


def log_html(lines: Sequence[str]) -> str:
    """The log, the latest line first."""
    body = "".join(f"<div>{html.escape(line)}</div>" for line in reversed(lines[-80:]))
    return f"<div class='nyx-log' data-lines='{len(lines)}'>{body}</div>"


def night_css() -> str:
    return (
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
        "padding:4px 6px;margin-top:4px}"
        ".nyx-log div:first-child{font-weight:bold}"
        "</style>"
    )
