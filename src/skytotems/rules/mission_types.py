"""The mission types a deck may name (RULES.md §9): predicate, measure and description.

A mission is the name of a type from this registry plus its parameters, so a corrected
or custom deck needs no code change. Each type answers three questions about an altar:
whether the mission is met now (the predicate: RULES.md §7), how far it is (the
shortfall: a lower bound on the pieces the altar must still gain, on which the bots and
the research environment build) and what it asks, in words. Predicates run at every
decision point, so they are plain loops that allocate almost nothing.
"""

from __future__ import annotations

import builtins
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Final, Literal

from .altar import Altar
from .grid import DIRECTIONS, STRIDE
from .pieces import CAT, COMMON_DESIGNS, DESIGN_NAMES, DESIGNS, TOTEM_KINDS, TOTEM_NAMES

# --- mission predicates ---------------------------------------------------------------
# Each takes the altar and its parameters by keyword and answers whether the mission is
# met now. "Column" means a non-empty stack, with or without a totem on it (RULES.md §9).
# Parameters named `min` follow the deck format; the builtin is not needed in them.


def _totem_over_rare_column(altar: Altar, *, kind: int) -> bool:
    """A totem of `kind` stands over a column whose bottom design is rare (gap excluded)."""
    stacks = altar.stacks
    for totem in altar.totems:
        if totem.kind == kind:
            for c in totem.over:
                stack = stacks.get(c)
                if stack and stack[0] >= CAT:
                    return True
    return False


def _totem_count(altar: Altar, *, kind: int, min: int) -> bool:
    """At least `min` totems of `kind`."""
    n = 0
    for totem in altar.totems:
        if totem.kind == kind:
            n += 1
            if n >= min:
                return True
    return False


def _rare_designs(altar: Altar, *, min: int, include_hoard: bool) -> bool:
    """At least `min` distinct rare designs in any position of any stack (+ the hoard)."""
    seen = 0
    for stack in altar.stacks.values():
        for d in stack:
            if d >= CAT:
                seen |= 1 << d
    if include_hoard:
        for d in altar.hoard:
            if d >= CAT:
                seen |= 1 << d
    return seen.bit_count() >= min


def _column_kinds(altar: Altar, *, designs: tuple[int, ...]) -> bool:
    """The kinds (bottom designs) of the columns include every design listed."""
    kinds = 0
    for stack in altar.stacks.values():
        if stack:
            kinds |= 1 << stack[0]
    for d in designs:  # noqa: SIM110 - a plain loop: no generator on this hot path
        if not kinds >> d & 1:
            return False
    return True


def _tall_columns(altar: Altar, *, count: int, height: int) -> bool:
    """At least `count` columns of height ≥ `height`."""
    n = 0
    for stack in altar.stacks.values():
        if len(stack) >= height:
            n += 1
            if n >= count:
                return True
    return False


def _same_kind_tall_columns(altar: Altar, *, count: int, height: int) -> bool:
    """At least `count` columns of height ≥ `height` that share one kind."""
    per_kind = [0] * len(DESIGNS)
    for stack in altar.stacks.values():
        if len(stack) >= height:
            k = stack[0]
            per_kind[k] += 1
            if per_kind[k] >= count:
                return True
    return False


def _cloud_cells(altar: Altar, *, min: int) -> bool:
    """At least `min` cloud cells, built on or not."""
    return len(altar.clouds) >= min


def _totem_kinds(altar: Altar, *, min: int) -> bool:
    """Totems of at least `min` different kinds."""
    kinds = 0
    for totem in altar.totems:
        kinds |= 1 << totem.kind
    return kinds.bit_count() >= min


def _rare_pedestals(altar: Altar, *, min: int, include_hoard: bool) -> bool:
    """At least `min` rare pedestals on the altar (+ the hoard)."""
    n = 0
    for stack in altar.stacks.values():
        for d in stack:
            if d >= CAT:
                n += 1
    if include_hoard:
        for d in altar.hoard:
            if d >= CAT:
                n += 1
    return n >= min


def _equal_square(altar: Altar, *, size: int, min_height: int) -> bool:
    """A size×size square of columns, all of one height ≥ `min_height`."""
    stacks = altar.stacks
    for corner, stack in stacks.items():  # every column is tried as the top-left corner
        h = len(stack)
        if h >= min_height and _square_of_height(stacks, corner, size, h):
            return True
    return False


def _square_of_height(
    stacks: Mapping[int, tuple[int, ...]], corner: int, size: int, h: int
) -> bool:
    """Whether every cell of the square at `corner` holds a column of height `h`."""
    for j in range(size):
        row = corner + j * STRIDE
        for i in range(size):
            stack = stacks.get(row + i)
            if stack is None or len(stack) != h:
                return False
    return True


def _staircase(altar: Altar, *, length: int, min_start: int) -> bool:
    """`length` columns in a straight line, heights h, h+1, … along it, h ≥ `min_start`.

    Starting from the lowest step and trying all four directions covers both reading
    directions of a line; diagonals are never lines (RULES.md §2).
    """
    stacks = altar.stacks
    for start, stack in stacks.items():
        h = len(stack)
        if h < min_start:
            continue
        for d in DIRECTIONS:
            k = 1
            c = start + d
            while k < length:
                step = stacks.get(c)
                if step is None or len(step) != h + k:
                    break
                k += 1
                c += d
            if k >= length:
                return True
    return False


def _courtyard(altar: Altar) -> bool:
    """An empty, uncovered cloud cell whose four edge-neighbours are all columns."""
    stacks = altar.stacks
    covered = altar.covered
    for c in altar.clouds:
        if c in covered or stacks.get(c):
            continue
        if (
            stacks.get(c + 1)
            and stacks.get(c - 1)
            and stacks.get(c + STRIDE)
            and stacks.get(c - STRIDE)
        ):
            return True
    return False


def _all_rare_column(altar: Altar, *, height: int) -> bool:
    """A column of at least `height` pedestals, every one of them rare."""
    for stack in altar.stacks.values():  # noqa: SIM110 - a plain loop, as above
        if len(stack) >= height and min(stack) >= CAT:
            return True
    return False


# --- shortfall measures ------------------------------------------------------------------
# Each takes the altar and the mission's parameters and answers a lower bound on the
# pieces (pedestals, totems and cloud cells) the altar must still gain to meet the
# mission: 0 exactly when the predicate holds, and never dropping by more than the
# pieces one step adds. Bots and the research environment build their estimates on it.
# A relaxation is always allowed (ignoring covers or the bag keeps the bound valid).


def _rare_bottom_open(altar: Altar) -> bool:
    """An uncovered column whose bottom design is rare exists (a totem may still go over it)."""
    covered = altar.covered
    return any(s and s[0] >= CAT and c not in covered for c, s in altar.stacks.items())


def _totem_over_rare_column_shortfall(altar: Altar, *, kind: int) -> int:
    """One totem, plus a rare pedestal to start a column when no rare column is open."""
    if _totem_over_rare_column(altar, kind=kind):
        return 0
    return 1 if _rare_bottom_open(altar) else 2


def _totem_count_shortfall(altar: Altar, *, kind: int, min: int) -> int:
    """The totems of `kind` still missing."""
    have = sum(1 for totem in altar.totems if totem.kind == kind)
    return max(0, min - have)


def _rare_designs_shortfall(altar: Altar, *, min: int, include_hoard: bool) -> int:
    """The distinct rare designs still missing, one pedestal each."""
    seen = {d for stack in altar.stacks.values() for d in stack if d >= CAT}
    if include_hoard:
        seen.update(d for d in altar.hoard if d >= CAT)
    return max(0, min - len(seen))


def _column_kinds_shortfall(altar: Altar, *, designs: tuple[int, ...]) -> int:
    """One pedestal to start a column of each kind still missing."""
    kinds = {stack[0] for stack in altar.stacks.values() if stack}
    return sum(1 for d in designs if d not in kinds)


def _tall_columns_shortfall(altar: Altar, *, count: int, height: int) -> int:
    """Pedestals to raise the `count` tallest columns (or new ones) to `height`."""
    heights = sorted((len(s) for s in altar.stacks.values()), reverse=True)[:count]
    heights += [0] * (count - len(heights))
    return sum(max(0, height - h) for h in heights)


def _same_kind_tall_columns_shortfall(altar: Altar, *, count: int, height: int) -> int:
    """The tall-columns shortfall of the best kind (a kind with no column yet: all of it)."""
    by_kind: dict[int, list[int]] = {}
    for stack in altar.stacks.values():
        if stack:
            by_kind.setdefault(stack[0], []).append(len(stack))
    best = count * height
    for heights in by_kind.values():
        tallest = sorted(heights, reverse=True)[:count]
        tallest += [0] * (count - len(tallest))
        best = builtins.min(best, sum(max(0, height - h) for h in tallest))
    return best


def _cloud_cells_shortfall(altar: Altar, *, min: int) -> int:
    """The cloud cells still missing."""
    return max(0, min - len(altar.clouds))


def _totem_kinds_shortfall(altar: Altar, *, min: int) -> int:
    """One totem of each kind still missing."""
    return max(0, min - len({totem.kind for totem in altar.totems}))


def _rare_pedestals_shortfall(altar: Altar, *, min: int, include_hoard: bool) -> int:
    """The rare pedestals still missing."""
    n = sum(1 for stack in altar.stacks.values() for d in stack if d >= CAT)
    if include_hoard:
        n += sum(1 for d in altar.hoard if d >= CAT)
    return max(0, min - n)


def _equal_square_shortfall(altar: Altar, *, size: int, min_height: int) -> int:
    """Pedestals to level the cheapest square that holds a column (or a new square)."""
    stacks = altar.stacks
    best = size * size * min_height
    corners = {c - i - j * STRIDE for c in stacks for j in range(size) for i in range(size)}
    for corner in corners:
        heights = [
            len(stacks.get(corner + i + j * STRIDE, ())) for j in range(size) for i in range(size)
        ]
        level = builtins.max(min_height, *heights)
        best = builtins.min(best, sum(level - h for h in heights))
    return best


def _staircase_shortfall(altar: Altar, *, length: int, min_start: int) -> int:
    """Pedestals to turn the cheapest line through a column (or a new line) into steps."""
    stacks = altar.stacks
    best = sum(min_start + k for k in range(length))
    for c in stacks:
        for d in DIRECTIONS:
            for k in range(length):  # `c` as the k-th step of a line read along `d`
                start = c - k * d
                heights = [len(stacks.get(start + i * d, ())) for i in range(length)]
                base = builtins.max(min_start, *(h - i for i, h in enumerate(heights)))
                best = builtins.min(best, sum(base + i - h for i, h in enumerate(heights)))
    return best


def _courtyard_shortfall(altar: Altar) -> int:
    """Columns still missing around the best free cell, plus its cloud if it has none."""
    stacks = altar.stacks
    covered = altar.covered
    best = 5  # a cell away from everything: a cloud and four columns
    candidates = {c + d for c in stacks for d in DIRECTIONS} | altar.clouds
    for c in candidates:
        if stacks.get(c) or c in covered:
            continue
        need = 0 if c in altar.clouds else 1
        for d in DIRECTIONS:
            if not stacks.get(c + d):
                need += 1
        best = builtins.min(best, need)
    return best


def _all_rare_column_shortfall(altar: Altar, *, height: int) -> int:
    """Rare pedestals to raise the tallest open all-rare column (or a new one) to `height`."""
    covered = altar.covered
    best = height
    for c, stack in altar.stacks.items():
        if stack and builtins.min(stack) >= CAT and (c not in covered or len(stack) >= height):
            best = builtins.min(best, max(0, height - len(stack)))
    return best


# --- descriptions (our own words, for help pages and tooltips) -------------------------


def _hoard_note(include_hoard: bool) -> str:
    return ", hoard included" if include_hoard else " on the altar"


def _describe_totem_count(*, kind: int, min: int) -> str:
    name = TOTEM_NAMES[kind]
    return f"a {name} totem" if min == 1 else f"{min} or more {name} totems"


def _describe_rare_designs(*, min: int, include_hoard: bool) -> str:
    if min == len(DESIGNS) - len(COMMON_DESIGNS):
        text = "a pedestal of each of the 4 rare designs"
    else:
        text = f"pedestals of {min} or more different rare designs"
    return text + _hoard_note(include_hoard)


def _describe_column_kinds(*, designs: tuple[int, ...]) -> str:
    if sorted(designs) == list(COMMON_DESIGNS):
        return "columns of all 6 common kinds"
    names = ", ".join(DESIGN_NAMES[d] for d in designs)
    if len(designs) == 1:
        return f"a column of kind {names}"
    return f"columns of each of these kinds: {names}"


def _describe_tall_columns(*, count: int, height: int) -> str:
    if count == 1:
        return f"a column of height {height} or more"
    return f"{count} or more columns of height {height} or more"


def _describe_same_kind(*, count: int, height: int) -> str:
    return f"{count} columns of the same kind, each of height {height} or more"


def _describe_totem_kinds(*, min: int) -> str:
    if min == len(TOTEM_KINDS) - 1:
        return f"totems of {min} different kinds"
    return f"totems of {min} or more different kinds"


def _describe_rare_pedestals(*, min: int, include_hoard: bool) -> str:
    return f"{min} or more rare pedestals" + _hoard_note(include_hoard)


def _describe_staircase(*, length: int, min_start: int) -> str:
    text = f"{length} columns in a straight line, each one pedestal taller than the last"
    return text if min_start <= 1 else f"{text}, starting at height {min_start} or more"


# --- the registry -----------------------------------------------------------------------

ParamKind = Literal["int", "bool", "totem", "designs"]


@dataclass(frozen=True, slots=True)
class MissionParam:
    """One parameter of a mission type: its name, value kind and (for ints) range."""

    name: str
    kind: ParamKind
    low: int = 1
    high: int | None = None


@dataclass(frozen=True, slots=True)
class MissionType:
    """A mission predicate with its parameters (sorted by name), description and shortfall."""

    name: str
    check: Callable[..., bool]
    params: tuple[MissionParam, ...]
    describe: Callable[..., str]
    # A lower bound on the pieces still needed (see the shortfall measures); a type
    # without one is refused when a deck names it.
    shortfall: Callable[..., int] | None


def _int(name: str, low: int = 1, high: int | None = None) -> MissionParam:
    return MissionParam(name, "int", low, high)


_TOTEM = MissionParam("kind", "totem")
_HOARD = MissionParam("include_hoard", "bool")
_RARE_COUNT = len(DESIGNS) - len(COMMON_DESIGNS)

_TYPES: Final = (
    MissionType(
        "totem_over_rare_column",
        _totem_over_rare_column,
        (_TOTEM,),
        lambda *, kind: f"a {TOTEM_NAMES[kind]} totem over at least one rare column",
        _totem_over_rare_column_shortfall,
    ),
    MissionType(
        "totem_count",
        _totem_count,
        (_TOTEM, _int("min")),
        _describe_totem_count,
        _totem_count_shortfall,
    ),
    MissionType(
        "rare_designs",
        _rare_designs,
        (_HOARD, _int("min", 1, _RARE_COUNT)),
        _describe_rare_designs,
        _rare_designs_shortfall,
    ),
    MissionType(
        "column_kinds",
        _column_kinds,
        (MissionParam("designs", "designs"),),
        _describe_column_kinds,
        _column_kinds_shortfall,
    ),
    MissionType(
        "tall_columns",
        _tall_columns,
        (_int("count"), _int("height")),
        _describe_tall_columns,
        _tall_columns_shortfall,
    ),
    MissionType(
        "same_kind_tall_columns",
        _same_kind_tall_columns,
        (_int("count"), _int("height")),
        _describe_same_kind,
        _same_kind_tall_columns_shortfall,
    ),
    MissionType(
        "cloud_cells",
        _cloud_cells,
        (_int("min"),),
        lambda *, min: f"{min} or more cloud cells",
        _cloud_cells_shortfall,
    ),
    MissionType(
        "totem_kinds",
        _totem_kinds,
        (_int("min", 1, len(TOTEM_KINDS)),),
        _describe_totem_kinds,
        _totem_kinds_shortfall,
    ),
    MissionType(
        "rare_pedestals",
        _rare_pedestals,
        (_HOARD, _int("min")),
        _describe_rare_pedestals,
        _rare_pedestals_shortfall,
    ),
    MissionType(
        "equal_square",
        _equal_square,
        (_int("min_height"), _int("size", 2)),
        lambda *, size, min_height: (
            f"a {size}×{size} square of columns of equal height, at least {min_height}"
        ),
        _equal_square_shortfall,
    ),
    MissionType(
        "staircase",
        _staircase,
        (_int("length", 2), _int("min_start")),
        _describe_staircase,
        _staircase_shortfall,
    ),
    MissionType(
        "courtyard",
        _courtyard,
        (),
        lambda: "an empty, uncovered cloud cell with a column on each of its four sides",
        _courtyard_shortfall,
    ),
    MissionType(
        "all_rare_column",
        _all_rare_column,
        (_int("height"),),
        lambda *, height: f"a column of {height} or more pedestals, all of them rare",
        _all_rare_column_shortfall,
    ),
)

MISSION_TYPES: Final[Mapping[str, MissionType]] = MappingProxyType({t.name: t for t in _TYPES})
"""Every mission predicate a deck may name, by type name."""
