"""The Nyx page's pictures of your chase: the tray of symbol dice, the page's CSS, the hint, the
matrix's cells and words, a shape's figures and the charts of the odds (the rest is in `night`)."""

from __future__ import annotations

import html
from collections.abc import Callable, Iterable, Sequence

import altair as alt
import polars as pl

from nessus.games.nyx.matrix import NAMES, SHAPES, Board, placements
from nessus.games.nyx.night import GLYPH, INK, keep_label, symbol_svg
from nessus.games.nyx.odds import dice_bought, expected_rolls_for_shape, p_at_least, p_shape_within
from nessus.games.nyx.policies import Fewest, Hand
from nessus.games.nyx.rules import PLURAL, SYMBOLS
from nessus.games.nyx.state import COLOURS
from nessus.kit.common import svg_url
from nessus.kit.dicegame import DiceTray, hint_table
from nessus.numbers import number_html, number_text

HANDS = (("6 black", 6, 0), ("6 black + 1 white", 6, 1), ("7 black", 7, 0))
"""The hands compared in the expected-rolls chart: (name, black, white)."""
SIZES, CHART_DICE = (2, 3, 4, 5), 6  # the dreams' sizes (cells); the dice of each colour in the P(at least k) chart


class SymbolTray(DiceTray):
    """The kit's dice tray with symbol dice: `faces` symbol indices (0 star...), `colours` each die's."""

    def __init__(self, size: int, on_change: Callable[[], None] | None = None) -> None:
        self.colours: list[str] = []
        super().__init__(size, "kept", on_change)

    def _classes(self, i: int) -> tuple[str, ...]:
        symbol = SYMBOLS[self.faces[i]]
        return ("nyx-die", f"face-{self.faces[i] + 1}", f"nyx-{self.colours[i]}", f"sym-{symbol}")

    def _describe(self, i: int) -> str:
        return f"{self.colours[i]} die showing a {SYMBOLS[self.faces[i]]}"


def page_css() -> str:
    """The dice's faces (over the tray's pips) and the matrix's cells."""
    faces = "".join(
        f".nessus-tray .nessus-die.nyx-die.nyx-{colour}.sym-{s}{{background-image:{svg_url(symbol_svg(s, colour))}}}"
        f".nessus-tray .nessus-die.nyx-die.held.nyx-{colour}.sym-{s}"
        f"{{background-image:{svg_url(symbol_svg(s, colour, held=True))}}}"
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


def hint_html(hand: Hand, goal: Fewest, held: Sequence[bool]) -> str:
    """Every keep with its exact expected rolls to come (`goal.hint`), the one `held` makes judged."""
    dice = f"{hand.black} black" + (f" + {hand.white} white" if hand.white else "")
    return (
        f"<div style='color:#555'>Chasing <b>{goal.size} dice of one symbol</b> for the {html.escape(goal.shape)} "
        f"with {dice} dice, keeping optimally after this one (fewest rolls).</div>"
        + hint_table(goal.hint(hand), hand.keep(held), keep_label, unit=goal.unit)
    )


def shape_options() -> list[tuple[str, str]]:
    """The dreams' shapes to choose from, each with its cells (and "never fits" for those that never do)."""
    return [(f"{n} ({len(SHAPES[n])} cells{'' if placements(n) else ', never fits'})", n) for n in NAMES]


def cell_look(cell: int, board: Board, shape: str) -> tuple[tuple[str, ...], str, str]:
    """A cell's button for a dream of `shape` (`Board.status`): its CSS classes, its text, its tooltip."""
    status = board.status(cell, shape)
    if status == "taken":
        symbol = board.taken[cell]
        tip = f"cell {cell}: a {symbol}, taken until the night ends"
        return ("nyx-cell", f"cell-{cell}", "occupied", f"sym-{symbol}"), GLYPH[symbol], tip
    classes = ("nyx-cell", f"cell-{cell}", "free", *([] if status == "free" else [status]))
    return classes, str(cell), f"cell {cell}: picked" if cell in board.picked else f"cell {cell}: click to pick it"


def placed_html(shape: str, symbol: str, cells: Iterable[int], left: int) -> str:
    """The status line once a dream is placed."""
    where = ", ".join(map(str, sorted(cells)))
    return (
        f"<div class='nyx-status nyx-placed'>Placed: {shape} of {PLURAL[symbol]} on cells {where}. "
        f"{left} dice left to roll for the next dream.</div>"
    )


def pick_html(shape: str, board: Board) -> str:
    """What the picked cells make, in words (`data-free`: the placements that fit, `data-occupied`)."""
    free, options, picked, name = len(board.free(shape)), board.options(shape), board.picked, html.escape(shape)
    cells = ", ".join(map(str, sorted(picked)))
    if not free:
        words = f"<span class='nyx-pick'>No placement of {name} fits the free cells.</span>"
    elif not picked:
        words = (
            f"<span class='nyx-pick'>Click free cells to choose where the {name} goes (green: cells of a placement "
            "that fits).</span>"
        )
    elif picked in options:
        words = (
            f"<span class='nyx-pick ready'>Cells {cells}: a placement of {name}. Press <b>Place</b> with "
            f"{len(SHAPES[shape])} dice of one symbol kept.</span>"
        )
    elif not options:
        words = (
            f"<span class='nyx-pick stray' style='color:#b00020'>No placement of {name} covers cells {cells}: click "
            "a red cell to free it.</span>"
        )
    else:
        words = (
            f"<span class='nyx-pick'>Cells {cells}: {len(options)} placement{'s' if len(options) > 1 else ''} of "
            f"{name} contain them; pick {len(SHAPES[shape]) - len(picked)} more.</span>"
        )
    return f"<div class='nyx-pick-line' data-free='{free}' data-occupied='{len(board.taken)}'>{words}</div>"


def figures_html(shape: str, blocked: Iterable[int], black: int = 6, white: int = 0) -> str:
    """The exact figures of this shape with your dice: placements, expected rolls, P(within 3), a die's worth."""
    size, hand = len(SHAPES[shape]), f"{black} black" + (f" + {white} white" if white else "")
    free = len(placements(shape, blocked))
    rows = [
        (f"placements of {shape} on the empty matrix", number_html(len(placements(shape)), "value")),
        ("placements on the free cells", number_html(free, "value")),
    ]
    if size <= black + white:
        p, e = p_shape_within(size, 3, black, white), expected_rolls_for_shape(size, black, "black", white)
        rows.append((f"expected rolls for {size} dice of one symbol, {hand} dice", number_html(e, "value")))
        rows.append((f"P(done within 3 rolls), {hand} dice", number_html(p)))
        more = dice_bought(black, white).items()
        rows += [(f"one more {c} die adds", number_html(p_shape_within(size, 3, *bw) - p)) for c, bw in more]
    else:
        rows.append((f"{size} dice of one symbol", f"more than your {hand} dice"))
    body = "".join(f"<tr><td>{html.escape(k)}</td><td>{v}</td></tr>" for k, v in rows)
    return (
        f"<table class='nyx-figures' data-free='{free}' cellpadding='2' style='font-size:12px;"
        f"border-collapse:collapse'>{body}</table>"
    )


def grouped_bars(
    frame: pl.DataFrame, title: alt.Title, x: alt.X, y: alt.Y, group: str, colours: list[str], **encodings
) -> alt.Chart:
    """Bars of `y` by `x` side by side for each `group` (coloured `colours`), with more `encodings`."""
    order = frame[group].unique(maintain_order=True).to_list()
    legend = alt.Legend(orient="top", title=None)
    return (
        alt.Chart(frame, title=title)
        .mark_bar()
        .encode(
            x=x,
            xOffset=alt.XOffset(f"{group}:N", sort=order),
            y=y,
            color=alt.Color(f"{group}:N", sort=order, scale=alt.Scale(range=colours), legend=legend),
            **encodings,
        )
        .properties(width=440, height=200)
    )


def at_least_chart(symbol: str, rolls: int, dice: int = CHART_DICE) -> alt.Chart:
    """P(at least k of `dice` dice show `symbol` within `rolls` rolls) by k, black dice beside white."""
    odds = [(k, c, p_at_least(symbol, k, dice, rolls, c)) for c in COLOURS for k in range(1, dice + 1)]
    frame = pl.DataFrame(
        [{"k": k, "dice": f"{dice} {c}", "probability": float(p), "exact": number_text(p)} for k, c, p in odds]
    )
    title = alt.Title(
        f"P(at least k {PLURAL[symbol]} within {rolls} roll{'s' if rolls > 1 else ''})",
        subtitle=[f"{dice} dice, the {PLURAL[symbol]} kept after each roll,", "the others rolled again (exact)"],
    )
    x = alt.X("k:O", title=f"k: at least this many {PLURAL[symbol]}", axis=alt.Axis(labelAngle=0))
    y = alt.Y("probability:Q", title="probability", scale=alt.Scale(domain=[0, 1]))
    tooltip = ["dice", "k", alt.Tooltip("exact:N", title="probability")]
    bars = grouped_bars(frame, title, x, y, "dice", ["#2b2b33", "#e8e8e8"], tooltip=tooltip)
    return bars.mark_bar(stroke="#333", strokeWidth=0.6)


def expected_chart(highlight: int | None = None) -> alt.Chart:
    """Expected rolls for a dream of each size with three hands (`highlight`: the size outlined)."""
    rolls = [(size, name, expected_rolls_for_shape(size, b, "black", w)) for size in SIZES for name, b, w in HANDS]
    frame = pl.DataFrame(
        [{"size": n, "hand": hand, "rolls": float(e), "exact": number_text(e, kind="value")} for n, hand, e in rolls]
    ).with_columns(chosen=pl.col("size") == (highlight or 0))
    subtitle = [
        "the first roll of every die, then keeping",
        "one symbol optimally (exact);",
        "outlined in red: your dream's size",
    ]
    title = alt.Title("Expected rolls for a dream, by its size", subtitle=subtitle)
    x = alt.X("size:O", title="dream size (dice of one symbol)", axis=alt.Axis(labelAngle=0))
    y, colours = alt.Y("rolls:Q", title="expected rolls"), ["#4c78a8", "#f58518", "#2b2b33"]
    tooltip = ["hand", "size", alt.Tooltip("exact:N", title="expected rolls")]
    stroke = alt.condition("datum.chosen", alt.value("#b00020"), alt.value(None))
    width = alt.condition("datum.chosen", alt.value(2), alt.value(0))
    return grouped_bars(frame, title, x, y, "hand", colours, tooltip=tooltip, stroke=stroke, strokeWidth=width)
