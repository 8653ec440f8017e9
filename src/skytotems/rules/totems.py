"""Where each totem may stand: footprints and conditions of RULES.md §6.

A *site* is the canonical tuple of cells (ascending ids) a totem would cover.
Conditions read heights only, so columns of any kinds qualify. The cat is never
an action: `cat_cells` lists the columns where a cat is owed.
"""

from __future__ import annotations

from .altar import Altar, PlacedTotem
from .grid import DOWN, RIGHT
from .pieces import T_BIRD, T_DRAGON, T_HORSE, T_WOLF

CAT_HEIGHT = 6  # a column this high gets a cat (RULES.md §6)


def bird_sites(altar: Altar) -> list[tuple[int, ...]]:
    """L shapes of three uncovered columns of equal height ≥ 2 (RULES.md §6 Bird)."""
    stacks = altar.stacks
    covered = altar.covered
    found: set[tuple[int, ...]] = set()
    for corner, stack in stacks.items():
        h = len(stack)
        if h < 2 or corner in covered:
            continue
        # An arm is an uncovered column of the corner's height (heights inlined: this
        # runs at every turn's totem options).
        arms_x = [
            n
            for n in (corner - RIGHT, corner + RIGHT)
            if n not in covered and len(stacks.get(n, ())) == h
        ]
        if not arms_x:
            continue
        arms_y = [
            n
            for n in (corner - DOWN, corner + DOWN)
            if n not in covered and len(stacks.get(n, ())) == h
        ]
        for a in arms_x:
            for b in arms_y:
                found.add(tuple(sorted((corner, a, b))))
    return sorted(found)


def wolf_sites(altar: Altar) -> list[tuple[int, ...]]:
    """Two uncovered legs of equal height ≥ 2 with one uncovered gap cell between them,
    the gap no higher than the legs (an empty cloud or no cloud at all) (RULES.md §6 Wolf)."""
    stacks = altar.stacks
    covered = altar.covered
    found: list[tuple[int, ...]] = []
    for leg, stack in stacks.items():
        h = len(stack)
        if h < 2 or leg in covered:
            continue
        for d in (RIGHT, DOWN):
            gap = leg + d
            other = gap + d
            if gap in covered or other in covered or len(stacks.get(other, ())) != h:
                continue
            gap_stack = stacks.get(gap)
            if gap_stack and len(gap_stack) > h:
                continue
            found.append((leg, gap, other))
    found.sort()
    return found


def horse_sites(altar: Altar) -> list[tuple[int, ...]]:
    """Two adjacent uncovered columns of heights l and l+2, l ≥ 1 (RULES.md §6 Horse)."""
    stacks = altar.stacks
    covered = altar.covered
    found: list[tuple[int, ...]] = []
    for c, stack in stacks.items():
        if c in covered:
            continue
        h = len(stack)
        for d in (RIGHT, DOWN):
            n = c + d
            other = stacks.get(n)
            if other and n not in covered and abs(len(other) - h) == 2:
                found.append((c, n))
    found.sort()
    return found


def dragon_sites(altar: Altar) -> list[tuple[int, ...]]:
    """Three uncovered columns in a straight line with heights h, h+1, h+2 in order,
    read either way, h ≥ 1 (RULES.md §6 Dragon)."""
    stacks = altar.stacks
    covered = altar.covered
    found: list[tuple[int, ...]] = []
    for c, stack in stacks.items():
        if c in covered:
            continue
        h = len(stack)
        for d in (RIGHT, DOWN):
            h2 = _free_height(altar, c + d)
            if h2 == 0 or abs(h2 - h) != 1:
                continue
            h3 = _free_height(altar, c + 2 * d)
            if h3 and h3 - h2 == h2 - h:
                found.append((c, c + d, c + 2 * d))
    found.sort()
    return found


def cat_cells(altar: Altar) -> list[int]:
    """Uncovered columns of height ≥ 6: each is owed a cat (RULES.md §6 Cat, §12)."""
    covered = altar.covered
    return sorted(
        c for c, stack in altar.stacks.items() if len(stack) >= CAT_HEIGHT and c not in covered
    )


def cat_owed(altar: Altar) -> bool:
    """Whether any cat is owed (`bool(cat_cells(altar))`, asked at every pedestal)."""
    covered = altar.covered
    for c, stack in altar.stacks.items():  # noqa: SIM110 (a loop: any() of a generator is slower)
        if len(stack) >= CAT_HEIGHT and c not in covered:
            return True
    return False


SITE_FINDERS = {
    T_BIRD: bird_sites,
    T_WOLF: wolf_sites,
    T_HORSE: horse_sites,
    T_DRAGON: dragon_sites,
}


def sites(altar: Altar, kind: int) -> list[tuple[int, ...]]:
    """All cells where a totem of `kind` may be built now (empty for the cat)."""
    finder = SITE_FINDERS.get(kind)
    return finder(altar) if finder else []


def build_totem(altar: Altar, kind: int, cells: tuple[int, ...]) -> PlacedTotem:
    """The totem that would stand on `cells`, with its height (highest column under it)."""
    totem = PlacedTotem(kind, cells, 0)
    height = max(altar.height(c) for c in totem.over)
    return PlacedTotem(kind, cells, height)


def _free_height(altar: Altar, c: int) -> int:
    """Height of an uncovered cell; -1 when covered so that it never matches."""
    if c in altar.covered:
        return -1
    stack = altar.stacks.get(c)
    return len(stack) if stack else 0
