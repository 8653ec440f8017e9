"""Altar notation: one line of text for one altar, parsed and printed back identically.

    <x>,<y> <row>/<row>/... [| <totem> <x>,<y> ...]... [| hoard <letters>]

- ``<x>,<y>``: the coordinates of the first cell of the first row (top-left corner of
  the smallest rectangle holding every cloud). x grows to the right, y downward; the
  starting tile is (0,0) (1,0) (0,1) (1,1).
- rows, top to bottom, separated by ``/`` (or new lines); cells in a row separated by one
  space: ``.`` no cloud, ``_`` an empty cloud, otherwise the column's pedestals bottom to
  top, one letter each: common ``r o y g b p`` (red orange yellow green blue purple),
  rare ``C W B H`` (cat wolf bird horse).
- one section per totem, in the order they were built: its kind and every cell it covers
  (a wolf's gap included). A totem's height is read from the columns under it.
- ``hoard`` and the designs in the dragon's hoard, in the order they arrived.

Example, the rulebook-style start ``0,0 rr _/_ b`` is a red column of 2 on (0,0), clouds
on (1,0) and (0,1), a blue pedestal on (1,1). See docs/notation.md.
"""

from __future__ import annotations

from .altar import Altar, PlacedTotem
from .errors import NotationError
from .grid import cell, xy
from .pieces import DESIGN_BY_LETTER, DESIGN_LETTERS, TOTEM_NAMES, TOTEM_SIZE, totem_from_name
from .totems import build_totem

NO_CLOUD = "."
EMPTY_CLOUD = "_"


def format_altar(altar: Altar) -> str:
    """The notation of `altar` (canonical: the exact text `parse_altar` reads back)."""
    if altar.clouds:
        xs = [xy(c)[0] for c in altar.clouds]
        ys = [xy(c)[1] for c in altar.clouds]
        x0, x1, y0, y1 = min(xs), max(xs), min(ys), max(ys)
    else:
        x0 = x1 = y0 = y1 = 0
    rows = []
    for y in range(y0, y1 + 1):
        cells = []
        for x in range(x0, x1 + 1):
            c = cell(x, y)
            stack = altar.stacks.get(c)
            if stack:
                cells.append("".join(DESIGN_LETTERS[d] for d in stack))
            elif c in altar.clouds:
                cells.append(EMPTY_CLOUD)
            else:
                cells.append(NO_CLOUD)
        rows.append(" ".join(cells))
    parts = [f"{x0},{y0} " + "/".join(rows)]
    for totem in altar.totems:
        coords = " ".join("{},{}".format(*xy(c)) for c in totem.cells)
        parts.append(f"{TOTEM_NAMES[totem.kind]} {coords}")
    if altar.hoard:
        parts.append("hoard " + "".join(DESIGN_LETTERS[d] for d in altar.hoard))
    return " | ".join(parts)


def parse_altar(text: str) -> Altar:
    """Read an altar from its notation; NotationError says what and where is wrong."""
    if not isinstance(text, str) or not text.strip():
        raise NotationError("empty altar notation")
    sections = [s.strip() for s in text.split("|")]
    altar = Altar.empty()
    _parse_grid(sections[0], altar)
    for section in sections[1:]:
        words = section.split()
        if not words:
            raise NotationError("empty section between '|'")
        if words[0] == "hoard":
            if len(words) != 2:
                raise NotationError("hoard: write its designs as one word, e.g. 'hoard rB'")
            altar.hoard = [_design(letter, "hoard") for letter in words[1]]
            continue
        try:
            kind = totem_from_name(words[0])
        except ValueError as exc:
            raise NotationError(str(exc)) from None
        cells = tuple(sorted(_coords(w) for w in words[1:]))
        if len(cells) != TOTEM_SIZE[kind] or len(set(cells)) != len(cells):
            raise NotationError(
                f"a {words[0]} covers {TOTEM_SIZE[kind]} different cells, got {len(words) - 1}"
            )
        for c in cells:
            if c in altar.covered:
                raise NotationError(f"{words[0]}: cell {'{},{}'.format(*xy(c))} is already covered")
        totem = build_totem(altar, kind, cells)
        if totem.height == 0:
            where = section[len(words[0]) :].strip()
            raise NotationError(f"{words[0]} at {where} stands on no column")
        altar.add_totem(PlacedTotem(kind, cells, totem.height))
    altar.touch()
    return altar


def _parse_grid(section: str, altar: Altar) -> None:
    head, _, body = section.strip().partition(" ")
    x0, y0 = xy(_coords(head))
    rows = [r.split() for r in body.replace("\n", "/").split("/") if r.strip()]
    if not rows:
        raise NotationError("no rows after the origin")
    width = len(rows[0])
    for y, row in enumerate(rows):
        if len(row) != width:
            raise NotationError(f"row {y + 1} has {len(row)} cells, the first row has {width}")
        for x, token in enumerate(row):
            try:
                c = cell(x0 + x, y0 + y)
            except ValueError as exc:
                raise NotationError(str(exc)) from None
            if token == NO_CLOUD:
                continue
            altar.clouds.add(c)
            if token != EMPTY_CLOUD:
                where = f"cell {x0 + x},{y0 + y}"
                altar.stacks[c] = tuple(_design(letter, where) for letter in token)


def _coords(word: str) -> int:
    try:
        x, y = (int(v) for v in word.split(","))
    except ValueError:
        raise NotationError(f"expected coordinates 'x,y', got {word!r}") from None
    try:
        return cell(x, y)
    except ValueError as exc:
        raise NotationError(str(exc)) from None


def _design(letter: str, where: str) -> int:
    design = DESIGN_BY_LETTER.get(letter)
    if design is None:
        raise NotationError(
            f"{where}: unknown design letter {letter!r}; use {' '.join(DESIGN_LETTERS)}"
        )
    return design
