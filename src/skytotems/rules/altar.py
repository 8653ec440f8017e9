"""One player's altar: clouds, columns of pedestals, totems and the dragon's hoard.

Placement rules of RULES.md §3 live here, next to the data they read. The altar
keeps a version number that every change bumps, so callers (totem sites, missions)
can cache what they compute from it.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .grid import DIRECTIONS, START_TILE, cell_from_json
from .pieces import DESIGN_BY_NAME, T_WOLF, TOTEM_BY_NAME, TOTEM_SIZE, pedestal_points

# Versions are unique across all altars of a process, so a cache keyed by version
# can never mistake one altar (or a copy that has since changed) for another.
_VERSIONS = itertools.count(1)


@dataclass(frozen=True, slots=True)
class PlacedTotem:
    """A totem standing on an altar.

    `cells` is canonical (ascending cell ids: along the line for wolf and dragon,
    so a wolf's gap is the middle cell); `height` is that of the highest column
    under it when built, which never changes afterwards (RULES.md §6).
    """

    kind: int
    cells: tuple[int, ...]
    height: int
    # Totems key the bots' memos at every estimate: hashed once, not field by field.
    _hash: int = field(init=False, repr=False, compare=False, hash=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_hash", hash((self.kind, self.cells, self.height)))

    def __hash__(self) -> int:
        return self._hash

    def __reduce__(self) -> tuple[type[PlacedTotem], tuple[int, tuple[int, ...], int]]:
        # rebuilt by its constructor: a compiled frozen class refuses pickle's field stores
        return (PlacedTotem, (self.kind, self.cells, self.height))

    @property
    def points(self) -> int:
        """Cells covered × height (RULES.md §6)."""
        return TOTEM_SIZE[self.kind] * self.height

    @property
    def over(self) -> tuple[int, ...]:
        """The columns the totem stands on: its cells, a wolf's gap excluded (RULES.md §9)."""
        if self.kind == T_WOLF:
            return (self.cells[0], self.cells[2])
        return self.cells


class Altar:
    """The grid of one seat. Mutated only through the engine's rule code."""

    __slots__ = ("clouds", "covered", "hoard", "stacks", "totems", "version")

    def __init__(self, *, _blank: bool = False) -> None:
        if _blank:  # an empty shell for `copy` to fill (a compiled class has no `__new__`)
            return
        self.clouds: set[int] = set(START_TILE)
        self.stacks: dict[int, tuple[int, ...]] = {}
        self.covered: set[int] = set()
        self.totems: list[PlacedTotem] = []
        self.hoard: list[int] = []
        self.version = next(_VERSIONS)

    @classmethod
    def empty(cls) -> Altar:
        """An altar with no cloud at all (for notation parsing)."""
        altar = cls()
        altar.clouds = set()
        return altar

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Altar:
        """An altar from its wire form (a view's ``altars[i]``), for consumers of views.

        KeyError or ValueError when a field is missing or a name or cell is unknown.
        """
        altar = cls.empty()
        altar.clouds = {cell_from_json(c) for c in data["clouds"]}
        altar.stacks = {
            cell_from_json(col["cell"]): tuple(DESIGN_BY_NAME[d] for d in col["stack"])
            for col in data["columns"]
        }
        for t in data["totems"]:
            cells = tuple(sorted(cell_from_json(c) for c in t["cells"]))
            altar.add_totem(PlacedTotem(TOTEM_BY_NAME[t["kind"]], cells, t["height"]))
        altar.hoard = [DESIGN_BY_NAME[d] for d in data["hoard"]]
        altar.touch()
        return altar

    def copy(self) -> Altar:
        """An independent copy (stacks are tuples, so shallow dict copies suffice)."""
        other = Altar(_blank=True)
        other.clouds = set(self.clouds)
        other.stacks = dict(self.stacks)
        other.covered = set(self.covered)
        other.totems = list(self.totems)
        other.hoard = list(self.hoard)
        other.version = self.version
        return other

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Altar):
            return NotImplemented
        return (
            self.clouds == other.clouds
            and self.stacks == other.stacks
            and self.covered == other.covered
            and self.totems == other.totems
            and sorted(self.hoard) == sorted(other.hoard)
        )

    __hash__ = None  # type: ignore[assignment]

    # --- reading -------------------------------------------------------------

    def height(self, c: int) -> int:
        """Pedestals on cell `c` (0 for an empty cloud or no cloud)."""
        stack = self.stacks.get(c)
        return len(stack) if stack else 0

    def kind(self, c: int) -> int | None:
        """Design of the bottom pedestal of the column on `c`, or None (RULES.md §2)."""
        stack = self.stacks.get(c)
        return stack[0] if stack else None

    def pedestals(self) -> list[int]:
        """Every pedestal on the altar and in the hoard (what scores, RULES.md §8)."""
        out = [d for stack in self.stacks.values() for d in stack]
        out.extend(self.hoard)
        return out

    def pedestal_count(self) -> int:
        """Number of pedestals on the altar and in the hoard."""
        return sum(len(s) for s in self.stacks.values()) + len(self.hoard)

    def pedestal_points(self) -> int:
        """Points from pedestals: 1 per common, 2 per rare, hoard included."""
        return sum(pedestal_points(d) for d in self.pedestals())

    def totem_points(self) -> int:
        """Points from the totems standing on this altar."""
        return sum(t.points for t in self.totems)

    def pedestal_cells(self, design: int) -> list[int]:
        """All cells where a pedestal of `design` may go now, ascending."""
        if design in self.hoard:
            cells = [c for c in self.clouds if c not in self.covered]
        else:
            stacks = self.stacks
            covered = self.covered
            cells = []
            for c in self.clouds:
                if c in covered:
                    continue
                stack = stacks.get(c)
                if not stack or stack[0] == design:
                    cells.append(c)
        cells.sort()
        return cells

    def can_place_cloud(self, c: int) -> bool:
        """RULES.md §3: a new cloud touches an existing one by an edge and is not covered."""
        if c in self.clouds or c in self.covered:
            return False
        clouds = self.clouds
        return any(n in clouds for n in (c + 1, c - 1, c + DIRECTIONS[2], c - DIRECTIONS[2]))

    def cloud_cells(self) -> list[int]:
        """All cells where a cloud may be placed now, ascending."""
        clouds = self.clouds
        around = {c + d for c in clouds for d in DIRECTIONS}
        around -= clouds
        around -= self.covered
        return sorted(around)

    # --- changing (engine only) -----------------------------------------------

    def touch(self) -> None:
        """Mark the altar as changed after editing its fields directly."""
        self.version = next(_VERSIONS)

    def add_cloud(self, c: int) -> None:
        self.clouds.add(c)
        self.version = next(_VERSIONS)

    def add_pedestal(self, design: int, c: int) -> None:
        stack = self.stacks.get(c)
        self.stacks[c] = (*stack, design) if stack else (design,)
        self.version = next(_VERSIONS)

    def add_totem(self, totem: PlacedTotem) -> None:
        self.totems.append(totem)
        self.covered.update(totem.cells)
        self.version = next(_VERSIONS)

    def add_hoard(self, design: int) -> None:
        self.hoard.append(design)
        self.version = next(_VERSIONS)
