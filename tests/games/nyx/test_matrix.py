"""Nyx's dream matrix against brute force: every set of cells of the right size that is connected and
congruent to the shape under the eight symmetries of the square, found without the module's code."""

from __future__ import annotations

import random
from itertools import combinations

import pytest

from nessus.games.nyx.matrix import (
    SHAPES,
    Board,
    best_placements,
    draw,
    fits,
    orientations,
    parse_cells,
    placements,
    room,
)

ALL = frozenset(range(1, 10))
# The eight symmetries of the square as integer matrices (r, c) -> (a r + b c, d r + e c).
SYMMETRIES = [
    (a, b, d, e)
    for a, b, d, e in [(1, 0, 0, 1), (0, -1, 1, 0), (-1, 0, 0, -1), (0, 1, -1, 0)]
    + [(1, 0, 0, -1), (0, 1, 1, 0), (-1, 0, 0, 1), (0, -1, -1, 0)]
]
# Fixed polyominoes per free one (OEIS A000105 vs A001168): 1, 2, 4 or 8 orientations.
ORIENTATIONS = dict(I2=2, I3=2, L3=4, I4=2, L4=8, T4=4, S4=4, O4=1)
ORIENTATIONS |= dict(F5=8, I5=2, L5=8, N5=8, P5=8, T5=4, U5=4, V5=4, W5=4, X5=1, Y5=8, Z5=4)
# Placements on the empty matrix, counted by hand: orientations times the translations each allows.
PLACEMENTS = dict(I2=12, I3=6, L3=16, I4=0, L4=16, T4=8, S4=8, O4=4)
PLACEMENTS |= dict(F5=8, I5=0, L5=0, N5=0, P5=16, T5=4, U5=8, V5=4, W5=4, X5=1, Y5=0, Z5=4)
# The standard pictures, drawn here in other orientations than the module's.
PICTURES = {
    "I2": ["#", "#"],
    "I3": ["#", "#", "#"],
    "L3": ["##", "#."],
    "I4": ["#", "#", "#", "#"],
    "L4": ["###", "#.."],
    "T4": [".#.", "###"],
    "S4": ["#.", "##", ".#"],
    "O4": ["##", "##"],
    "F5": [".#.", "###", "..#"],
    "I5": ["#", "#", "#", "#", "#"],
    "L5": ["####", "#..."],
    "N5": ["##..", ".###"],
    "P5": ["###", ".##"],
    "T5": ["#..", "###", "#.."],
    "U5": ["##", "#.", "##"],
    "V5": ["###", "..#", "..#"],
    "W5": [".##", "##.", "#.."],
    "X5": [".#.", "###", ".#."],
    "Y5": ["..#.", "####"],
    "Z5": ["#..", "###", "..#"],
}


def picture(rows: list[str]) -> frozenset[tuple[int, int]]:
    return frozenset((r, c) for r in range(len(rows)) for c in range(len(rows[r])) if rows[r][c] == "#")


def at_origin(cells) -> frozenset[tuple[int, int]]:
    cells = list(cells)
    rows, cols = zip(*cells, strict=True)
    return frozenset((r - min(rows), c - min(cols)) for r, c in cells)


def images(cells) -> set[frozenset[tuple[int, int]]]:
    """The shape under the eight symmetries, each moved to the origin."""
    return {at_origin({(a * r + b * c, d * r + e * c) for r, c in cells}) for a, b, d, e in SYMMETRIES}


def coords(cell: int) -> tuple[int, int]:
    return divmod(cell - 1, 3)


def connected(cells) -> bool:
    cells = set(cells)
    seen, todo = set(), [min(cells)]
    while todo:
        cell = todo.pop()
        if cell not in seen:
            seen.add(cell)
            r, c = coords(cell)
            todo += [n for n in cells if abs(coords(n)[0] - r) + abs(coords(n)[1] - c) == 1]
    return seen == cells


def brute_placements(shape: str, free) -> set[frozenset[int]]:
    forms = images(picture(PICTURES[shape]))
    return {
        frozenset(subset)
        for subset in combinations(sorted(free), len(SHAPES[shape]))
        if connected(subset) and at_origin(map(coords, subset)) in forms
    }


def brute_room(free, shapes) -> int:
    return sum(len(brute_placements(s, free)) for s in shapes)


BLOCKED = [(), (5,), (1,), (2,), (1, 9), (2, 8), (2, 4, 6, 8), (1, 3, 7, 9), (1, 5, 9), (3, 4, 8), (4, 5, 6), (1, 2)]
BLOCKED += [tuple(random.Random(seed).sample(range(1, 10), seed % 6)) for seed in range(24)]


def test_shapes_are_the_standard_polyominoes():
    assert list(SHAPES) == list(PICTURES)
    for name, cells in SHAPES.items():
        assert len(cells) == int(name[1]) and at_origin(cells) in images(picture(PICTURES[name])), name
    pentominoes = [cells for name, cells in SHAPES.items() if name.endswith("5")]
    assert len({tuple(min(map(sorted, images(cells)))) for cells in pentominoes}) == 12


@pytest.mark.parametrize("shape", SHAPES)
def test_orientations(shape):
    found = orientations(shape)
    assert len(found) == ORIENTATIONS[shape] == len(images(picture(PICTURES[shape])))
    assert set(found) == images(picture(PICTURES[shape]))
    assert found == sorted(found, key=sorted)
    assert all(min(r for r, _ in o) == 0 == min(c for _, c in o) for o in found)


@pytest.mark.parametrize("shape", SHAPES)
def test_placements_on_the_empty_matrix(shape):
    found = placements(shape)
    assert len(found) == PLACEMENTS[shape] == len(set(found))
    assert set(found) == brute_placements(shape, ALL)
    assert found == sorted(found, key=sorted)


@pytest.mark.parametrize("blocked", BLOCKED, ids=str)
def test_placements_around_blocked_cells(blocked):
    free = ALL - set(blocked)
    for shape in SHAPES:
        found = placements(shape, blocked)
        assert set(found) == brute_placements(shape, free), shape
        assert fits(shape, free) == bool(found)


def test_every_placement_avoids_the_blocked_cells_and_is_connected():
    for size in range(10):
        for blocked in combinations(range(1, 10), size):
            for shape, cells in SHAPES.items():
                for p in placements(shape, blocked):
                    assert not p & set(blocked) and len(p) == len(cells) and connected(p)


@pytest.mark.parametrize("blocked", BLOCKED[:12], ids=str)
def test_room_and_best_placements(blocked):
    free = ALL - set(blocked)
    assert room(free) == brute_room(free, SHAPES)
    for shape in SHAPES:
        for later in (None, ("I2", "L3"), ("O4", "O4", "X5")):
            best = best_placements(shape, free, later)
            assert [p for p, _ in best] == sorted(
                placements(shape, blocked), key=lambda p: -brute_room(free - p, later or SHAPES)
            )
            assert all(left == room(free - p, later or SHAPES) for p, left in best)


def test_room_counts_each_placement():
    assert room(ALL) == sum(PLACEMENTS.values()) == 119
    assert room(()) == 0
    assert room({4, 5}, ["I2", "I3"]) == 1
    assert room({1, 2, 4, 5}, ["O4", "O4", "L3"]) == 2 + 4


def test_parse_cells():
    assert parse_cells("1,5") == (1, 5)
    assert parse_cells(" 9 , 1 ,5 ") == (9, 1, 5)
    assert parse_cells("") == parse_cells("  ") == ()


@pytest.mark.parametrize("text", ["0", "10", "a", "1,1", "1,,2", "1.5", "-1", "²", "1;2", "5, 5"])
def test_parse_cells_errors(text):
    with pytest.raises(ValueError, match=r"free .*1 to 9"):
        parse_cells(text, "free")


def test_bad_names():
    for call in (lambda: placements("Q4"), lambda: orientations("i2"), lambda: fits("X", ALL)):
        with pytest.raises(ValueError, match=r"shape must be one of I2, I3, L3, .*Z5, got"):
            call()
    with pytest.raises(ValueError, match="shapes must be one of"):
        room(ALL, ["I2", "Q"])
    with pytest.raises(ValueError, match="later must be one of"):
        best_placements("I2", ALL, ["Q"])
    with pytest.raises(ValueError, match="blocked must be cells 1 to 9, got 0"):
        placements("I2", [0])
    with pytest.raises(ValueError, match="free must be cells 1 to 9, got 10"):
        fits("I2", [1, 10])


def test_draw():
    assert draw({1, 2, 5}) == "##.\n.#.\n..."
    assert draw((), "X") == "...\n...\n..."
    assert draw(ALL, "o") == "ooo\nooo\nooo"


def test_a_board_picks_and_places():
    board = Board()
    assert board.ready("L4") is False and len(board.options("L4")) == len(placements("L4"))
    picked = board.pick(1).pick(4)
    assert picked.picked == {1, 4} and picked.pick(4).picked == {1}
    assert all({1, 4} <= p for p in picked.options("L4")) and picked.options("L4")
    with pytest.raises(ValueError, match="pick the 4 cells of a placement of L4"):
        picked.place("L4", "moon")
    best = picked.best("L4")
    assert best.ready("L4") and best.picked == best_placements("L4", range(1, 10))[0][0]
    placed = best.place("L4", "star")
    assert placed.taken == dict.fromkeys(best.picked, "star") and not placed.picked
    assert placed.free("L4") == placements("L4", placed.taken)
    with pytest.raises(ValueError, match="is taken until the night ends"):
        placed.pick(min(best.picked))
    with pytest.raises(ValueError, match="no placement of I4 fits"):
        placed.best("I4")
