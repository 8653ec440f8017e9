"""Cells of the unbounded altar grid packed into single ints (RULES.md §2).

A cell (x, y) is stored as ``x + y * STRIDE``; x grows to the right, y downward.
Neighbours are then ``c ± 1`` and ``c ± STRIDE``, which keeps the hot paths to
integer additions. Coordinates must stay within ±HALF (far beyond any real game:
an altar gains at most a few clouds per turn).
"""

from __future__ import annotations

from typing import Final

STRIDE: Final = 1 << 12
HALF: Final = STRIDE // 2
RIGHT: Final = 1
DOWN: Final = STRIDE
DIRECTIONS: Final = (1, -1, STRIDE, -STRIDE)
START_TILE: Final = (0, 1, STRIDE, STRIDE + 1)  # (0,0) (1,0) (0,1) (1,1)


def cell(x: int, y: int) -> int:
    """Pack coordinates into a cell id; ValueError when out of the supported range."""
    if not (-HALF < x < HALF and -HALF < y < HALF):
        raise ValueError(f"cell ({x},{y}) is outside the supported altar range ±{HALF - 1}")
    return x + y * STRIDE


def xy(c: int) -> tuple[int, int]:
    """Unpack a cell id into (x, y)."""
    y = (c + HALF) // STRIDE
    return c - y * STRIDE, y


def cell_to_json(c: int) -> list[int]:
    """A cell in the wire format: ``[x, y]``."""
    x, y = xy(c)
    return [x, y]


def cell_from_json(value: object) -> int:
    """Parse ``[x, y]``; ValueError with the reason otherwise."""
    if (
        not isinstance(value, (list, tuple))
        or len(value) != 2
        or not all(isinstance(v, int) and not isinstance(v, bool) for v in value)
    ):
        raise ValueError(f"a cell must be [x, y] with two integers, got {value!r}")
    return cell(value[0], value[1])


def format_cell(c: int) -> str:
    """A cell as text, ``x,y``, as used by the notation and the terminal."""
    x, y = xy(c)
    return f"{x},{y}"
