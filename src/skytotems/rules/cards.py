"""The altar deck (RULES.md §9) as data: cards, missions and a validating loader.

The printed card faces are not public, so the deck is a replaceable JSON file
(``data/deck.json``, described by ``data/deck.schema.json``). A mission is the name of
a predicate from a small registry plus its parameters, so a corrected or custom deck
needs no code change. Predicates read the altar directly and run at every decision
point, so they are plain loops that allocate almost nothing.

Wire format of one card::

    {"id": "wolf-pack", "name": "Pack", "tag": "wolf", "points": 8,
     "mission": {"type": "totem_count", "kind": "wolf", "min": 2},
     "start": {"columns": [{"cell": [0, 0], "stack": ["purple"]}], "cloud": true}}
"""

from __future__ import annotations

import functools
import importlib.resources
import json
import os
import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Final, Literal

from .altar import Altar
from .errors import DeckError
from .grid import DIRECTIONS, START_TILE, STRIDE, cell, cell_to_json, xy
from .pieces import (
    CAT,
    COMMON_DESIGNS,
    DESIGN_BY_NAME,
    DESIGN_NAMES,
    DESIGNS,
    TOTEM_BY_NAME,
    TOTEM_KINDS,
    TOTEM_NAMES,
)

FORMAT: Final = "skytotems-deck"
FORMAT_VERSION: Final = 1
# Card ids travel in records and on the wire, so keep them to plain slugs.
ID_PATTERN: Final = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")

_CARD_FIELDS: Final = ("id", "name", "tag", "points", "mission", "start")
_DECK_FIELDS: Final = ("format", "version", "name", "cards")

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
    """A mission predicate with its parameters (sorted by name) and its description."""

    name: str
    check: Callable[..., bool]
    params: tuple[MissionParam, ...]
    describe: Callable[..., str]


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
    ),
    MissionType("totem_count", _totem_count, (_TOTEM, _int("min")), _describe_totem_count),
    MissionType(
        "rare_designs",
        _rare_designs,
        (_HOARD, _int("min", 1, _RARE_COUNT)),
        _describe_rare_designs,
    ),
    MissionType(
        "column_kinds",
        _column_kinds,
        (MissionParam("designs", "designs"),),
        _describe_column_kinds,
    ),
    MissionType(
        "tall_columns",
        _tall_columns,
        (_int("count"), _int("height")),
        _describe_tall_columns,
    ),
    MissionType(
        "same_kind_tall_columns",
        _same_kind_tall_columns,
        (_int("count"), _int("height")),
        _describe_same_kind,
    ),
    MissionType(
        "cloud_cells",
        _cloud_cells,
        (_int("min"),),
        lambda *, min: f"{min} or more cloud cells",
    ),
    MissionType(
        "totem_kinds",
        _totem_kinds,
        (_int("min", 1, len(TOTEM_KINDS)),),
        _describe_totem_kinds,
    ),
    MissionType(
        "rare_pedestals",
        _rare_pedestals,
        (_HOARD, _int("min")),
        _describe_rare_pedestals,
    ),
    MissionType(
        "equal_square",
        _equal_square,
        (_int("min_height"), _int("size", 2)),
        lambda *, size, min_height: (
            f"a {size}×{size} square of columns of equal height, at least {min_height}"
        ),
    ),
    MissionType(
        "staircase",
        _staircase,
        (_int("length", 2), _int("min_start")),
        _describe_staircase,
    ),
    MissionType(
        "courtyard",
        _courtyard,
        (),
        lambda: "an empty, uncovered cloud cell with a column on each of its four sides",
    ),
    MissionType(
        "all_rare_column",
        _all_rare_column,
        (_int("height"),),
        lambda *, height: f"a column of {height} or more pedestals, all of them rare",
    ),
)

MISSION_TYPES: Final[Mapping[str, MissionType]] = MappingProxyType({t.name: t for t in _TYPES})
"""Every mission predicate a deck may name, by type name."""


# --- value checks shared by the constructors and the loader ------------------------------


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _check_param(param: MissionParam, value: object) -> object:
    """The parameter value in its canonical form; DeckError naming the field otherwise."""
    where = f"mission.{param.name}"
    if param.kind == "int":
        if not _is_int(value):
            raise DeckError(f"{where}: must be an integer, got {value!r}")
        assert isinstance(value, int)
        if value < param.low or (param.high is not None and value > param.high):
            bounds = f"≥ {param.low}" if param.high is None else f"{param.low}…{param.high}"
            raise DeckError(f"{where}: must be an integer {bounds}, got {value}")
        return value
    if param.kind == "bool":
        if not isinstance(value, bool):
            raise DeckError(f"{where}: must be true or false, got {value!r}")
        return value
    if param.kind == "totem":
        if not _is_int(value) or value not in TOTEM_KINDS:
            raise DeckError(f"{where}: must be a totem kind, got {value!r}")
        return value
    # designs: a non-empty list of distinct designs
    if not isinstance(value, (tuple, list)) or not value:
        raise DeckError(f"{where}: must be a non-empty list of designs, got {value!r}")
    for i, d in enumerate(value):
        if not _is_int(d) or d not in DESIGNS:
            raise DeckError(f"{where}[{i}]: must be a pedestal design, got {d!r}")
    if len(set(value)) != len(value):
        raise DeckError(f"{where}: lists a design twice")
    return tuple(value)


def _param_to_json(param: MissionParam, value: object) -> object:
    if param.kind == "totem":
        assert isinstance(value, int)
        return TOTEM_NAMES[value]
    if param.kind == "designs":
        assert isinstance(value, tuple)
        return [DESIGN_NAMES[d] for d in value]
    return value


def _param_from_json(param: MissionParam, raw: object) -> object:
    """Names become ints; the ranges are checked later by `Mission` itself."""
    where = f"mission.{param.name}"
    if param.kind == "totem":
        if not isinstance(raw, str) or raw not in TOTEM_BY_NAME:
            raise DeckError(
                f"{where}: unknown totem kind {raw!r}; expected one of {', '.join(TOTEM_NAMES)}"
            )
        return TOTEM_BY_NAME[raw]
    if param.kind == "designs":
        if not isinstance(raw, list):
            raise DeckError(f"{where}: must be a list of design names, got {raw!r}")
        return tuple(_design_from_json(d, f"{where}[{i}]") for i, d in enumerate(raw))
    return raw


def _design_from_json(raw: object, where: str) -> int:
    if not isinstance(raw, str) or raw not in DESIGN_BY_NAME:
        raise DeckError(
            f"{where}: unknown pedestal design {raw!r}; expected one of {', '.join(DESIGN_NAMES)}"
        )
    return DESIGN_BY_NAME[raw]


# --- value types -----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Mission:
    """A card's condition: a registered predicate and its parameters, hashable.

    `params` is normalised to ``((name, value), ...)`` sorted by name, with totem kinds
    and designs as ints, so two equal missions compare and hash equal. Construction
    checks the type and every parameter, raising `DeckError`.
    """

    type: str
    params: tuple[tuple[str, object], ...] = ()
    _spec: MissionType = field(init=False, repr=False, compare=False, hash=False)
    _kwargs: dict[str, Any] = field(init=False, repr=False, compare=False, hash=False)

    def __post_init__(self) -> None:
        spec = MISSION_TYPES.get(self.type) if isinstance(self.type, str) else None
        if spec is None:
            raise DeckError(
                f"mission.type: unknown mission type {self.type!r}; "
                f"expected one of {', '.join(MISSION_TYPES)}"
            )
        if not isinstance(self.params, (tuple, list)):
            raise DeckError(f"mission: params must be (name, value) pairs, got {self.params!r}")
        given: dict[str, object] = {}
        for pair in self.params:
            if not (isinstance(pair, tuple) and len(pair) == 2 and isinstance(pair[0], str)):
                raise DeckError(f"mission: a parameter must be a (name, value) pair: {pair!r}")
            if pair[0] in given:
                raise DeckError(f"mission: parameter {pair[0]!r} given twice")
            given[pair[0]] = pair[1]
        names = [p.name for p in spec.params]
        for name in names:
            if name not in given:
                raise DeckError(f"mission: missing parameter {name!r} for type {self.type!r}")
        for name in given:
            if name not in names:
                raise DeckError(f"mission: unexpected parameter {name!r} for type {self.type!r}")
        params = tuple((p.name, _check_param(p, given[p.name])) for p in spec.params)
        object.__setattr__(self, "params", params)
        object.__setattr__(self, "_spec", spec)
        object.__setattr__(self, "_kwargs", dict(params))

    @classmethod
    def of(cls, type: str, **params: object) -> Mission:
        """Convenience constructor: ``Mission.of("totem_count", kind=T_WOLF, min=2)``."""
        return cls(type, tuple(params.items()))

    def param(self, name: str) -> object:
        """One parameter's value (KeyError when the type has no such parameter)."""
        return self._kwargs[name]

    def met(self, altar: Altar) -> bool:
        """Whether the altar meets the mission right now (RULES.md §7)."""
        return self._spec.check(altar, **self._kwargs)

    def describe(self) -> str:
        """The condition as an English phrase, e.g. "2 or more wolf totems"."""
        return self._spec.describe(**self._kwargs)

    def to_json(self) -> dict[str, object]:
        """The wire form: ``{"type": ..., <param>: ...}`` with names for kinds and designs."""
        out: dict[str, object] = {"type": self.type}
        for p in self._spec.params:
            out[p.name] = _param_to_json(p, self._kwargs[p.name])
        return out

    def __getstate__(self) -> tuple[str, tuple[tuple[str, object], ...]]:
        return (self.type, self.params)

    def __setstate__(self, state: tuple[str, tuple[tuple[str, object], ...]]) -> None:
        object.__setattr__(self, "type", state[0])
        object.__setattr__(self, "params", state[1])
        self.__post_init__()


@dataclass(frozen=True, slots=True)
class StartLayout:
    """A card's starting-altar half: columns on the 2×2 start tile and the cloud icon.

    `columns` holds ``(cell, designs bottom→top)``; cells are `grid.cell` ids inside
    `grid.START_TILE`, each at most once (RULES.md §4).
    """

    columns: tuple[tuple[int, tuple[int, ...]], ...]
    cloud: bool = False

    def __post_init__(self) -> None:
        seen: set[int] = set()
        for i, column in enumerate(self.columns):
            where = f"start.columns[{i}]"
            if not (isinstance(column, tuple) and len(column) == 2):
                raise DeckError(f"{where}: must be a (cell, designs) pair, got {column!r}")
            c, stack = column
            if not _is_int(c) or c not in START_TILE:
                raise DeckError(
                    f"{where}.cell: {_cell_text(c)} is outside the 2×2 start tile "
                    "(0,0) (1,0) (0,1) (1,1)"
                )
            if c in seen:
                raise DeckError(f"{where}.cell: {_cell_text(c)} is used by two columns")
            seen.add(c)
            if not isinstance(stack, tuple) or not stack:
                raise DeckError(f"{where}.stack: must hold at least one pedestal")
            for j, d in enumerate(stack):
                if not _is_int(d) or d not in DESIGNS:
                    raise DeckError(f"{where}.stack[{j}]: must be a pedestal design, got {d!r}")
        if not isinstance(self.cloud, bool):
            raise DeckError(f"start.cloud: must be true or false, got {self.cloud!r}")

    def to_json(self) -> dict[str, object]:
        """The wire form: ``{"columns": [{"cell": [x, y], "stack": [...]}], "cloud": b}``."""
        return {
            "columns": [
                {"cell": cell_to_json(c), "stack": [DESIGN_NAMES[d] for d in stack]}
                for c, stack in self.columns
            ],
            "cloud": self.cloud,
        }


def _cell_text(c: object) -> str:
    if _is_int(c):
        assert isinstance(c, int)
        x, y = xy(c)
        return f"({x},{y})"
    return repr(c)


@dataclass(frozen=True, slots=True)
class Card:
    """One altar card: a mission half worth `points` and a starting-altar half.

    `tag` is the totem kind the card belongs to (removed with it), or None.
    """

    id: str
    name: str
    tag: int | None
    points: int
    mission: Mission
    start: StartLayout

    def __post_init__(self) -> None:
        if not isinstance(self.id, str) or not ID_PATTERN.fullmatch(self.id):
            raise DeckError(
                f"id: must be lower-case letters and digits joined by '-', got {self.id!r}"
            )
        if not isinstance(self.name, str) or not self.name.strip():
            raise DeckError(f"name: must be a non-empty string, got {self.name!r}")
        if self.tag is not None and (not _is_int(self.tag) or self.tag not in TOTEM_KINDS):
            raise DeckError(f"tag: must be a totem kind or null, got {self.tag!r}")
        if not _is_int(self.points) or self.points < 1:
            raise DeckError(f"points: must be a positive integer, got {self.points!r}")
        if not isinstance(self.mission, Mission):
            raise DeckError(f"mission: must be a Mission, got {self.mission!r}")
        if not isinstance(self.start, StartLayout):
            raise DeckError(f"start: must be a StartLayout, got {self.start!r}")

    def to_json(self) -> dict[str, object]:
        """The wire form of the card (see the module docstring)."""
        return {
            "id": self.id,
            "name": self.name,
            "tag": None if self.tag is None else TOTEM_NAMES[self.tag],
            "points": self.points,
            "mission": self.mission.to_json(),
            "start": self.start.to_json(),
        }


@dataclass(frozen=True, slots=True)
class Deck:
    """The whole altar deck, immutable; cards keep the file's order (RULES.md §1, §9)."""

    name: str
    version: int
    cards: tuple[Card, ...]
    _by_id: dict[str, Card] = field(init=False, repr=False, compare=False, hash=False)

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not self.name.strip():
            raise DeckError(f"deck: name must be a non-empty string, got {self.name!r}")
        if self.version != FORMAT_VERSION or not _is_int(self.version):
            raise DeckError(
                f"deck: unsupported version {self.version!r} (this engine reads "
                f"version {FORMAT_VERSION})"
            )
        cards = tuple(self.cards)
        by_id: dict[str, Card] = {}
        index: dict[str, int] = {}
        for i, card in enumerate(cards):
            if not isinstance(card, Card):
                raise DeckError(f"deck: cards[{i}] is not a Card: {card!r}")
            if card.id in by_id:
                raise DeckError(
                    f"card {card.id!r} (index {i}): duplicate id, already used by the card "
                    f"at index {index[card.id]}"
                )
            by_id[card.id] = card
            index[card.id] = i
        object.__setattr__(self, "cards", cards)
        object.__setattr__(self, "_by_id", by_id)

    def __len__(self) -> int:
        return len(self.cards)

    def __iter__(self) -> Iterator[Card]:
        return iter(self.cards)

    def __getstate__(self) -> tuple[str, int, tuple[Card, ...]]:
        return (self.name, self.version, self.cards)

    def __setstate__(self, state: tuple[str, int, tuple[Card, ...]]) -> None:
        object.__setattr__(self, "name", state[0])
        object.__setattr__(self, "version", state[1])
        object.__setattr__(self, "cards", state[2])
        self.__post_init__()

    def card(self, card_id: str) -> Card:
        """The card with this id; KeyError naming the id and the deck otherwise."""
        try:
            return self._by_id[card_id]
        except (KeyError, TypeError):
            raise KeyError(f"no card with id {card_id!r} in deck {self.name!r}") from None

    def for_totems(self, kinds: Iterable[int]) -> list[Card]:
        """The cards in play: those tagged with a totem not in `kinds` are removed (§4)."""
        wanted = set(kinds)
        return [c for c in self.cards if c.tag is None or c.tag in wanted]

    def to_json(self) -> dict[str, object]:
        """The deck file's content; ``Deck.from_json(d.to_json()) == d``."""
        return {
            "format": FORMAT,
            "version": self.version,
            "name": self.name,
            "cards": [c.to_json() for c in self.cards],
        }

    @classmethod
    def from_json(cls, data: object) -> Deck:
        """Read and validate a deck; DeckError naming the card and field at fault."""
        obj = _fields(data, _DECK_FIELDS, "deck")
        if obj["format"] != FORMAT:
            raise DeckError(f"deck: format must be {FORMAT!r}, got {obj['format']!r}")
        version = obj["version"]
        if not _is_int(version) or version != FORMAT_VERSION:
            raise DeckError(
                f"deck: unsupported version {version!r} (this engine reads "
                f"version {FORMAT_VERSION})"
            )
        name = obj["name"]
        if not isinstance(name, str) or not name.strip():  # checked here to type `name`
            raise DeckError(f"deck: name must be a non-empty string, got {name!r}")
        raw_cards = obj["cards"]
        if not isinstance(raw_cards, list) or not raw_cards:
            raise DeckError("deck: cards must be a non-empty list of card objects")
        cards = []
        for i, raw in enumerate(raw_cards):
            label = f"card at index {i}"
            if isinstance(raw, dict) and isinstance(raw.get("id"), str):
                label = f"card {raw['id']!r} (index {i})"
            try:
                cards.append(_card_from_json(raw))
            except DeckError as exc:
                raise DeckError(f"{label}: {exc}") from None
        return cls(name, FORMAT_VERSION, tuple(cards))


def _fields(raw: object, names: tuple[str, ...], where: str) -> dict[str, object]:
    """`raw` as a JSON object with exactly the fields `names` (`where` prefixes errors)."""
    prefix = f"{where}: " if where else ""
    if not isinstance(raw, dict):
        raise DeckError(f"{prefix}must be a JSON object, got {type(raw).__name__}")
    for name in names:
        if name not in raw:
            raise DeckError(f"{prefix}missing field {name!r}")
    for key in raw:
        if key not in names:
            raise DeckError(f"{prefix}unexpected field {key!r}")
    return raw


def _card_from_json(raw: object) -> Card:
    obj = _fields(raw, _CARD_FIELDS, "")  # the caller's prefix already names the card
    tag = obj["tag"]
    if tag is not None and (not isinstance(tag, str) or tag not in TOTEM_BY_NAME):
        raise DeckError(
            f"tag: unknown totem kind {tag!r}; expected null or one of {', '.join(TOTEM_NAMES)}"
        )
    points = obj["points"]
    if isinstance(points, bool) or not isinstance(points, int) or points < 1:
        raise DeckError(f"points: must be a positive integer, got {points!r}")
    card_id = obj["id"]
    name = obj["name"]
    if not isinstance(card_id, str):
        raise DeckError(f"id: must be a string, got {card_id!r}")
    if not isinstance(name, str):
        raise DeckError(f"name: must be a string, got {name!r}")
    return Card(
        id=card_id,
        name=name,
        tag=None if tag is None else TOTEM_BY_NAME[tag],
        points=points,
        mission=_mission_from_json(obj["mission"]),
        start=_start_from_json(obj["start"]),
    )


def _mission_from_json(raw: object) -> Mission:
    if not isinstance(raw, dict):
        raise DeckError(f"mission: must be a JSON object, got {type(raw).__name__}")
    if "type" not in raw:
        raise DeckError("mission: missing field 'type'")
    kind = raw["type"]
    spec = MISSION_TYPES.get(kind) if isinstance(kind, str) else None
    if spec is None:
        raise DeckError(
            f"mission.type: unknown mission type {kind!r}; "
            f"expected one of {', '.join(MISSION_TYPES)}"
        )
    obj = _fields(raw, ("type", *(p.name for p in spec.params)), "mission")
    params = tuple((p.name, _param_from_json(p, obj[p.name])) for p in spec.params)
    return Mission(spec.name, params)


def _start_from_json(raw: object) -> StartLayout:
    obj = _fields(raw, ("columns", "cloud"), "start")
    raw_columns = obj["columns"]
    if not isinstance(raw_columns, list):
        raise DeckError(f"start.columns: must be a list, got {type(raw_columns).__name__}")
    columns = []
    for i, raw_column in enumerate(raw_columns):
        where = f"start.columns[{i}]"
        col = _fields(raw_column, ("cell", "stack"), where)
        c = _start_cell_from_json(col["cell"], f"{where}.cell")
        stack = col["stack"]
        if not isinstance(stack, list) or not stack:
            raise DeckError(f"{where}.stack: must be a non-empty list of design names")
        designs = tuple(_design_from_json(d, f"{where}.stack[{j}]") for j, d in enumerate(stack))
        columns.append((c, designs))
    cloud = obj["cloud"]
    if not isinstance(cloud, bool):
        raise DeckError(f"start.cloud: must be true or false, got {cloud!r}")
    return StartLayout(tuple(columns), cloud)


def _start_cell_from_json(raw: object, where: str) -> int:
    if not isinstance(raw, list) or len(raw) != 2 or not all(_is_int(v) for v in raw):
        raise DeckError(f"{where}: must be [x, y] with two integers, got {raw!r}")
    x, y = raw
    if not (0 <= x <= 1 and 0 <= y <= 1):
        raise DeckError(f"{where}: ({x},{y}) is outside the 2×2 start tile (0,0) (1,0) (0,1) (1,1)")
    return cell(x, y)


# --- loading ---------------------------------------------------------------------------


def _object_without_duplicates(pairs: list[tuple[str, object]]) -> dict[str, object]:
    """JSON objects with a repeated key are refused instead of keeping the last value."""
    out: dict[str, object] = {}
    for key, value in pairs:
        if key in out:
            raise DeckError(f"duplicate key {key!r} in a JSON object")
        out[key] = value
    return out


def _refuse_constant(name: str) -> object:
    raise DeckError(f"{name} is not allowed in a deck file")


def parse_deck(text: str, source: str = "deck") -> Deck:
    """A deck from JSON text; syntax errors become DeckError naming `source`."""
    try:
        data = json.loads(
            text,
            object_pairs_hook=_object_without_duplicates,
            parse_constant=_refuse_constant,
        )
    except json.JSONDecodeError as exc:
        raise DeckError(
            f"{source}: invalid JSON at line {exc.lineno} column {exc.colno}: {exc.msg}"
        ) from None
    except DeckError as exc:
        raise DeckError(f"{source}: {exc}") from None
    return Deck.from_json(data)


def load_deck(path: str | os.PathLike[str] | None = None) -> Deck:
    """Read a deck file (None: the packaged deck); every failure is a DeckError."""
    if path is None:
        resource = importlib.resources.files(__name__.rpartition(".")[0]) / "data" / "deck.json"
        source = "packaged deck.json"
        try:
            text = resource.read_text(encoding="utf-8")
        except OSError as exc:
            raise DeckError(f"cannot read the {source}: {exc}") from exc
    else:
        source = os.fspath(path)
        try:
            with open(path, encoding="utf-8") as f:
                text = f.read()
        except (OSError, UnicodeDecodeError) as exc:
            raise DeckError(f"cannot read deck file {source}: {exc}") from exc
    return parse_deck(text, source)


@functools.cache
def default_deck() -> Deck:
    """The packaged reconstructed deck (RULES.md §9), read once."""
    return load_deck()
