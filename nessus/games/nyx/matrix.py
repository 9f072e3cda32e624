"""Nyx's dream matrix (RULES.md part 4): 3x3 cells numbered 1..9 row by row (1 2 3 / 4 5 6 / 7 8 9).

Realising a dream puts dice on free cells in the card's shape, a polyomino that may be rotated and
flipped; those cells stay occupied until the night ends. A placement is the set of cells it covers.
I4, I5, L5, N5 and Y5 never fit; every T4 covers the centre cell 5.

>>> len(placements("I2")), len(placements("O4")), placements("X5")
(12, 4, [frozenset({2, 4, 5, 6, 8})])
>>> placements("I4")
[]
>>> print(draw(placements("X5")[0]))
.#.
###
.#.
>>> fits("T4", free=parse_cells("1,2,3,4,6,7,8,9")), room(free=(4, 5), shapes=("I2", "I3"))
(False, 1)
>>> best_placements("L3", free=range(1, 10))[0]
(frozenset({1, 2, 4}), 25)

A `Board` is your matrix through a night alone: the cells taken and those picked for the next
dream.

>>> board = Board().pick(1).pick(2)
>>> len(board.options("L3")), board.ready("L3"), board.best("L3").place("L3", "moon").taken
(2, False, {1: 'moon', 2: 'moon', 4: 'moon'})
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from functools import cache

Cell = int
"""A cell of the matrix, 1..9 row by row."""
Placement = frozenset[Cell]
Shape = frozenset[tuple[int, int]]

SIZE = 3
CELLS: tuple[Cell, ...] = tuple(range(1, SIZE * SIZE + 1))


def _shape(*rows: str) -> Shape:
    """The cells marked "#" in rows of text, as (row, column)."""
    return frozenset((r, c) for r, row in enumerate(rows) for c, ch in enumerate(row) if ch == "#")


SHAPES: dict[str, Shape] = {
    "I2": _shape("##"),
    "I3": _shape("###"),
    "L3": _shape("#.", "##"),
    "I4": _shape("####"),
    "L4": _shape("#.", "#.", "##"),
    "T4": _shape("###", ".#."),
    "S4": _shape(".##", "##."),
    "O4": _shape("##", "##"),
    "F5": _shape(".##", "##.", ".#."),
    "I5": _shape("#####"),
    "L5": _shape("#.", "#.", "#.", "##"),
    "N5": _shape(".#", ".#", "##", "#."),
    "P5": _shape("##", "##", "#."),
    "T5": _shape("###", ".#.", ".#."),
    "U5": _shape("#.#", "###"),
    "V5": _shape("#..", "#..", "###"),
    "W5": _shape("#..", "##.", ".##"),
    "X5": _shape(".#.", "###", ".#."),
    "Y5": _shape(".#", "##", ".#", ".#"),
    "Z5": _shape("##.", ".#.", ".##"),
}
"""The card shapes by polyomino letter and size, as (row, column) cells of one orientation."""
NAMES: tuple[str, ...] = tuple(SHAPES)


def _check_shape(shape: str, name: str = "shape") -> str:
    if shape not in SHAPES:
        raise ValueError(f"{name} must be one of {', '.join(NAMES)}, got {shape!r}")
    return shape


def _check_cells(cells: Iterable[Cell], name: str) -> frozenset[Cell]:
    found = frozenset(cells)
    bad = sorted(found - set(CELLS), key=repr)
    if bad:
        raise ValueError(f"{name} must be cells 1 to 9, got {bad[0]!r}")
    return found


def _normalised(cells: Iterable[tuple[int, int]]) -> Shape:
    cells = list(cells)
    top, left = min(r for r, _ in cells), min(c for _, c in cells)
    return frozenset((r - top, c - left) for r, c in cells)


@cache
def _orientations(shape: str) -> tuple[Shape, ...]:
    found = set()
    for flip in (False, True):
        cells = {(r, -c) if flip else (r, c) for r, c in SHAPES[shape]}
        for _ in range(4):
            cells = {(c, -r) for r, c in cells}  # a quarter turn
            found.add(_normalised(cells))
    return tuple(sorted(found, key=sorted))


def orientations(shape: str) -> list[Shape]:
    """The distinct orientations of `shape` under rotations and flips, each moved to row and column 0."""
    return list(_orientations(_check_shape(shape)))


@cache
def _placements(shape: str) -> tuple[Placement, ...]:
    found = set()
    for form in _orientations(shape):
        height, width = 1 + max(r for r, _ in form), 1 + max(c for _, c in form)
        for top in range(SIZE - height + 1):
            for left in range(SIZE - width + 1):
                found.add(frozenset(SIZE * (top + r) + left + c + 1 for r, c in form))
    return tuple(sorted(found, key=sorted))


def placements(shape: str, blocked: Iterable[Cell] = ()) -> list[Placement]:
    """Every distinct set of cells `shape` can cover (rotated, flipped, moved) avoiding `blocked`,
    sorted by their sorted cells; [] when it cannot fit."""
    taken = _check_cells(blocked, "blocked")
    return [p for p in _placements(_check_shape(shape)) if not p & taken]


def fits(shape: str, free: Iterable[Cell]) -> bool:
    """Whether `shape` can still be placed on the `free` cells."""
    cells = _check_cells(free, "free")
    return any(p <= cells for p in _placements(_check_shape(shape)))


def _room(cells: frozenset[Cell], shapes: tuple[str, ...]) -> int:
    return sum(p <= cells for shape in shapes for p in _placements(shape))


def room(free: Iterable[Cell], shapes: Iterable[str] = NAMES) -> int:
    """How much room the `free` cells keep: the number of placements of the `shapes` (a shape given
    twice counts twice) that fit them."""
    return _room(_check_cells(free, "free"), tuple(_check_shape(s, "shapes") for s in shapes))


def best_placements(
    shape: str, free: Iterable[Cell], later: Iterable[str] | None = None
) -> list[tuple[Placement, int]]:
    """Every placement of `shape` on the `free` cells with the `room` it leaves for the `later`
    shapes (all shapes by default), most room first, ties in placement order."""
    cells = _check_cells(free, "free")
    others = NAMES if later is None else tuple(_check_shape(s, "later") for s in later)
    ranked = [(p, _room(cells - p, others)) for p in _placements(_check_shape(shape)) if p <= cells]
    return sorted(ranked, key=lambda pair: -pair[1])


def parse_cells(text: str, name: str = "blocked") -> tuple[Cell, ...]:
    """Cells typed as "1,5" ("" for none); a ValueError naming `name` for anything but distinct cells 1 to 9."""
    cells: list[Cell] = []
    for part in (p.strip() for p in text.split(",")) if text.strip() else ():
        if not (part.isascii() and part.isdigit() and 1 <= int(part) <= SIZE * SIZE):
            raise ValueError(f"{name} must be cells 1 to 9 separated by commas, got {part!r}")
        if int(part) in cells:
            raise ValueError(f"{name} must be distinct cells 1 to 9, got {part} twice")
        cells.append(int(part))
    return tuple(cells)


def draw(cells: Iterable[Cell], symbol_char: str = "#") -> str:
    """The matrix as three lines of text: `symbol_char` on the given cells, "." on the others."""
    taken = _check_cells(cells, "cells")
    return "\n".join(
        "".join(symbol_char if SIZE * r + c + 1 in taken else "." for c in range(SIZE)) for r in range(SIZE)
    )


@dataclass(frozen=True)
class Board:
    """Your matrix through a night alone: the cells taken (each with the symbol of the dice on
    it) and the free cells picked for the next dream."""

    taken: Mapping[Cell, str] = field(default_factory=dict)
    picked: Placement = frozenset()

    def free(self, shape: str) -> list[Placement]:
        """The placements of `shape` on the free cells."""
        return placements(shape, self.taken)

    def options(self, shape: str) -> list[Placement]:
        """The placements of `shape` on the free cells that contain the picked cells."""
        return [p for p in self.free(shape) if self.picked <= p]

    def ready(self, shape: str) -> bool:
        """Whether the picked cells make a placement of `shape`."""
        return self.picked in self.free(shape)

    def status(self, cell: Cell, shape: str) -> str:
        """What `cell` is for a dream of `shape`: "taken"; if picked, "ready" (the picked cells make
        a placement), "picked" (a placement contains them) or "stray" (none does); else "can" (in a
        placement that contains the picked cells) or "free".

        >>> board = Board({5: "moon"}).pick(1)
        >>> [board.status(c, "I2") for c in (1, 2, 3, 5)], board.pick(2).status(1, "I2"), board.pick(9).status(1, "I2")
        (['picked', 'can', 'free', 'taken'], 'ready', 'stray')
        """
        if cell in self.taken:
            return "taken"
        options = self.options(shape)
        if cell in self.picked:
            return "ready" if self.ready(shape) else "picked" if options else "stray"
        return "can" if any(cell in p for p in options) else "free"

    def pick(self, cell: Cell) -> Board:
        """Pick or unpick a free cell."""
        if cell in self.taken:
            raise ValueError(f"cell {cell} is taken until the night ends")
        return replace(self, picked=self.picked ^ {cell})

    def best(self, shape: str) -> Board:
        """The placement that keeps most room for later dreams picked (`best_placements`)."""
        ranked = best_placements(shape, [c for c in CELLS if c not in self.taken])
        if not ranked:
            raise ValueError(f"no placement of {shape} fits the free cells")
        return replace(self, picked=ranked[0][0])

    def check(self, shape: str) -> None:
        """A ValueError unless the picked cells make a placement of `shape`."""
        if not self.ready(shape):
            need = len(SHAPES[_check_shape(shape)])
            raise ValueError(f"pick the {need} cells of a placement of {shape} first (the green cells fit)")

    def place(self, shape: str, symbol: str) -> Board:
        """The picked cells taken by dice showing `symbol`, nothing picked (`check` first)."""
        self.check(shape)
        return Board({**self.taken, **dict.fromkeys(self.picked, symbol)})
