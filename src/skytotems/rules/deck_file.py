"""The deck file reader (RULES.md §9): JSON text to the card constructors' arguments.

The printed card faces are not public, so the deck is a replaceable JSON file
(``data/deck.json``, described by ``data/deck.schema.json``). This module only reads
JSON: it refuses broken syntax, missing or unexpected fields and unknown names, and
turns names into the engine's ints and ``[x, y]`` into cells. Every value check lives
in the constructors of `Mission`, `StartLayout`, `Card` and `Deck`, which the deck
(`cards.Deck.from_json`) feeds with what this module returns.

Wire format of one card::

    {"id": "wolf-pack", "name": "Pack", "tag": "wolf", "points": 8,
     "mission": {"type": "totem_count", "kind": "wolf", "min": 2},
     "start": {"columns": [{"cell": [0, 0], "stack": ["purple"]}], "cloud": true}}
"""

from __future__ import annotations

import importlib.resources
import json
import os
from typing import Any, Final, NamedTuple

from .errors import DeckError
from .grid import cell_from_json
from .mission_types import MISSION_TYPES, MissionParam
from .pieces import DESIGN_BY_NAME, DESIGN_NAMES, TOTEM_BY_NAME, TOTEM_NAMES

FORMAT: Final = "skytotems-deck"
_CARD_FIELDS: Final = ("id", "name", "tag", "points", "mission", "start")
_DECK_FIELDS: Final = ("format", "version", "name", "cards")
_START_TILE_TEXT: Final = "the 2×2 start tile (0,0) (1,0) (0,1) (1,1)"

# The constructors check every value, so the reader hands them on as read (typed here as
# the constructors declare them; a wrong type is refused there with the field's name).
MissionArguments = tuple[str, tuple[tuple[str, object], ...]]
StartArguments = tuple[tuple[tuple[int, tuple[int, ...]], ...], bool]


class CardArguments(NamedTuple):
    """One card as read: `label` names it in errors ("card 'x' (index i)")."""

    label: str
    id: str
    name: str
    tag: int | None
    points: int
    mission: MissionArguments
    start: StartArguments


class DeckArguments(NamedTuple):
    """The deck file as read, before the constructors check its values."""

    name: str
    version: int
    cards: tuple[CardArguments, ...]


def read_deck_json(data: object) -> DeckArguments:
    """The deck object's fields; DeckError naming the card and field at fault."""
    obj = _fields(data, _DECK_FIELDS, "deck")
    if obj["format"] != FORMAT:
        raise DeckError(f"deck: format must be {FORMAT!r}, got {obj['format']!r}")
    raw_cards = obj["cards"]
    if not isinstance(raw_cards, list):
        raise DeckError("deck: cards must be a non-empty list of card objects")
    cards = []
    for i, raw in enumerate(raw_cards):
        label = f"card at index {i}"
        if isinstance(raw, dict) and isinstance(raw.get("id"), str):
            label = f"card {raw['id']!r} (index {i})"
        try:
            cards.append(_card_from_json(raw, label))
        except DeckError as exc:
            raise DeckError(f"{label}: {exc}") from None
    return DeckArguments(_as(obj["name"]), _as(obj["version"]), tuple(cards))


def _as(value: object) -> Any:
    """A value handed on unchecked: the constructor receiving it checks it."""
    return value


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


def _card_from_json(raw: object, label: str) -> CardArguments:
    obj = _fields(raw, _CARD_FIELDS, "")  # the caller's prefix already names the card
    tag = obj["tag"]
    if tag is not None and (not isinstance(tag, str) or tag not in TOTEM_BY_NAME):
        raise DeckError(
            f"tag: unknown totem kind {tag!r}; expected null or one of {', '.join(TOTEM_NAMES)}"
        )
    return CardArguments(
        label=label,
        id=_as(obj["id"]),
        name=_as(obj["name"]),
        tag=None if tag is None else TOTEM_BY_NAME[tag],
        points=_as(obj["points"]),
        mission=read_mission_json(obj["mission"]),
        start=_start_from_json(obj["start"]),
    )


def read_mission_json(raw: object) -> MissionArguments:
    """A mission's wire form as `Mission`'s arguments (names turned into ints)."""
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
    return spec.name, tuple((p.name, _param_from_json(p, obj[p.name])) for p in spec.params)


def _param_from_json(param: MissionParam, raw: object) -> object:
    """Names become ints; the values are checked by `Mission` itself."""
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


def _start_from_json(raw: object) -> StartArguments:
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
        if not isinstance(stack, list):
            raise DeckError(f"{where}.stack: must be a non-empty list of design names")
        designs = tuple(_design_from_json(d, f"{where}.stack[{j}]") for j, d in enumerate(stack))
        columns.append((c, designs))
    return tuple(columns), _as(obj["cloud"])


def _start_cell_from_json(raw: object, where: str) -> int:
    try:
        return cell_from_json(raw)
    except ValueError:
        if isinstance(raw, list) and len(raw) == 2:
            raise DeckError(f"{where}: ({raw[0]},{raw[1]}) is outside {_START_TILE_TEXT}") from None
        raise DeckError(f"{where}: must be [x, y] with two integers, got {raw!r}") from None


# --- text and files ----------------------------------------------------------------------


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


def json_from_text(text: str, source: str = "deck") -> object:
    """Deck JSON from text; syntax errors become DeckError naming `source`."""
    try:
        return json.loads(
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


def read_deck_text(path: str | os.PathLike[str] | None = None) -> tuple[str, str]:
    """A deck file's text and its name for errors (None: the packaged deck)."""
    if path is None:
        resource = importlib.resources.files(__name__.rpartition(".")[0]) / "data" / "deck.json"
        source = "packaged deck.json"
        try:
            return resource.read_text(encoding="utf-8"), source
        except OSError as exc:
            raise DeckError(f"cannot read the {source}: {exc}") from exc
    source = os.fspath(path)
    try:
        with open(path, encoding="utf-8") as f:
            return f.read(), source
    except (OSError, UnicodeDecodeError) as exc:
        raise DeckError(f"cannot read deck file {source}: {exc}") from exc
