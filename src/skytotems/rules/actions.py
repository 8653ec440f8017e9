"""Actions: the small immutable values a seat sends to the engine (DESIGN.md §1).

Each action names its seat. The JSON form is the wire format of the server, the
browser, records and bots: ``{"type": "<type>", "seat": n, ...fields}`` with
cells as ``[x, y]``, designs and totem kinds by name (docs/wire-format.md).
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, ClassVar

from .errors import MalformedAction
from .wire import decode_field, encode_field, text_field


@dataclass(frozen=True, slots=True)
class Action:
    """Base of every action."""

    type: ClassVar[str] = "action"
    seat: int

    def to_json(self) -> dict[str, Any]:
        """The documented wire form of this action."""
        out: dict[str, Any] = {"type": self.type, "seat": self.seat}
        for f in fields(self):
            if f.name == "seat":
                continue
            out[f.name] = encode_field(f.name, getattr(self, f.name))
        return out

    def __str__(self) -> str:
        parts = [f"{f.name}={text_field(f.name, getattr(self, f.name))}" for f in fields(self)[1:]]
        return f"{self.type}(seat {self.seat}{', ' if parts else ''}{', '.join(parts)})"


@dataclass(frozen=True, slots=True)
class ChooseStart(Action):
    """Keep `card` face up as the starting altar; the other two become goals (RULES.md §4)."""

    type: ClassVar[str] = "choose_start"
    card: str


@dataclass(frozen=True, slots=True)
class TakeSlot(Action):
    """Build pedestals: take every pedestal of one slot (RULES.md §5)."""

    type: ClassVar[str] = "take_slot"
    slot: int


@dataclass(frozen=True, slots=True)
class DrawFromBag(Action):
    """Build pedestals when every slot is empty: draw 2 at random (RULES.md §5)."""

    type: ClassVar[str] = "draw_from_bag"


@dataclass(frozen=True, slots=True)
class BuildTotem(Action):
    """Build a totem of `kind` on `cells` (canonical order: ascending cell ids)."""

    type: ClassVar[str] = "build_totem"
    kind: int
    cells: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Pass(Action):
    """Build no totem in the final-totem phase (RULES.md §8)."""

    type: ClassVar[str] = "pass"


@dataclass(frozen=True, slots=True)
class PlacePedestal(Action):
    """Place one pedestal of the open pool on `cell` (RULES.md §3)."""

    type: ClassVar[str] = "place_pedestal"
    design: int
    cell: int


@dataclass(frozen=True, slots=True)
class ReturnPedestal(Action):
    """Return one pedestal of the open pool to the bag, gaining a cloud (RULES.md §3)."""

    type: ClassVar[str] = "return_pedestal"
    design: int


@dataclass(frozen=True, slots=True)
class PlaceCloud(Action):
    """Place a gained cloud on `cell` (RULES.md §3)."""

    type: ClassVar[str] = "place_cloud"
    cell: int


@dataclass(frozen=True, slots=True)
class Reveal(Action):
    """Reveal a face-down goal card whose mission is met (RULES.md §7)."""

    type: ClassVar[str] = "reveal"
    card: str


@dataclass(frozen=True, slots=True)
class ChooseDesign(Action):
    """Take a pedestal of `design` from the bag (reveal reward, cat blessing)."""

    type: ClassVar[str] = "choose_design"
    design: int


@dataclass(frozen=True, slots=True)
class ChooseCat(Action):
    """Place the next owed cat on the column at `cell` (RULES.md §12 Cats)."""

    type: ClassVar[str] = "choose_cat"
    cell: int


@dataclass(frozen=True, slots=True)
class WolfTake(Action):
    """Wolf blessing: stack one pedestal of the column's own kind on `cell`."""

    type: ClassVar[str] = "wolf_take"
    cell: int


@dataclass(frozen=True, slots=True)
class WolfStop(Action):
    """Wolf blessing: take nothing more."""

    type: ClassVar[str] = "wolf_stop"


@dataclass(frozen=True, slots=True)
class EndTurn(Action):
    """End the turn at the end-of-turn prompt, or stop revealing in the last reveals."""

    type: ClassVar[str] = "end_turn"


ACTION_TYPES: dict[str, type[Action]] = {
    cls.type: cls
    for cls in (
        ChooseStart,
        TakeSlot,
        DrawFromBag,
        BuildTotem,
        Pass,
        PlacePedestal,
        ReturnPedestal,
        PlaceCloud,
        Reveal,
        ChooseDesign,
        ChooseCat,
        WolfTake,
        WolfStop,
        EndTurn,
    )
}


def action_from_json(data: object) -> Action:
    """Read an action from its wire form; MalformedAction says what is wrong."""
    if not isinstance(data, dict):
        raise MalformedAction(f"an action must be a JSON object, got {type(data).__name__}")
    kind = data.get("type")
    cls = ACTION_TYPES.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise MalformedAction(
            f"unknown action type {kind!r}; expected one of {', '.join(sorted(ACTION_TYPES))}"
        )
    names = [f.name for f in fields(cls)]
    extra = set(data) - set(names) - {"type"}
    if extra:
        raise MalformedAction(f"{kind}: unexpected field(s) {', '.join(sorted(extra))}")
    values = []
    for name in names:
        if name not in data:
            raise MalformedAction(f"{kind}: missing field {name!r}")
        try:
            values.append(decode_field(name, data[name]))
        except (ValueError, TypeError) as exc:
            raise MalformedAction(f"{kind}: field {name!r}: {exc}") from None
    return cls(*values)
