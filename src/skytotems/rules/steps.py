"""The engine's pending steps, one small type per step of RULES.md §12.

The engine is a stack of these (innermost last, `Game.pending_steps`). Each step either
needs nobody's choice and is done at once, or asks one decision. They are NamedTuples,
so they cost what a tuple costs; unlike plain tuples, steps of different types never
compare equal. Each has a JSON form, a list naming the step first: that is the view's
`machine` section (docs/wire-format.md), and `step_from_json` reads it back.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple, TypeVar

from .grid import cell_from_json, cell_to_json

TURN_MODES = ("normal", "extra", "final")
CLOUD_REASONS = ("return", "bird", "start_card")


class StartingChoice(NamedTuple):
    """§4 step 3: every seat chooses its starting card (`choose_start`, simultaneous)."""

    def to_json(self) -> list[Any]:
        return _plain_json(self)


class StartingAltar(NamedTuple):
    """§12 setup order: `seat` builds its starting altar; a cloud from the card's icon is
    its `place_cloud` decision before the next seat builds."""

    seat: int

    def to_json(self) -> list[Any]:
        return _plain_json(self)


class FillSlots(NamedTuple):
    """§4 step 5: the slots are filled once every starting altar is built; round 1 begins."""

    def to_json(self) -> list[Any]:
        return _plain_json(self)


class TopOfTurn(NamedTuple):
    """§12 step 1-2: the top of `seat`'s turn (`turn`): reveal, or take the action.
    `mode`: normal, extra (a horse's) or final (the final-totem turn)."""

    seat: int
    mode: str

    def to_json(self) -> list[Any]:
        return _plain_json(self)


class AfterAction(NamedTuple):
    """§12 steps 4-5: the action is under way; then a horse's extra turn or the
    end-of-turn prompt."""

    seat: int
    mode: str

    def to_json(self) -> list[Any]:
        return _plain_json(self)


class EndOfTurnPrompt(NamedTuple):
    """§12 step 5: the end-of-turn prompt (`end_turn`), asked only while `seat` can
    reveal (always with the `confirm_turns` option); otherwise play passes on (step 6).
    Its JSON name is the neutral `turn_end` for every viewer (RULES.md §11)."""

    seat: int
    mode: str

    def to_json(self) -> list[Any]:
        return _plain_json(self)


class OpenPool(NamedTuple):
    """§12 Pools: `seat`'s open pool, one pedestal per `place_pedestal` decision."""

    seat: int

    def to_json(self) -> list[Any]:
        return _plain_json(self)


class CatCheck(NamedTuple):
    """§12 Cats / step 3: while an uncovered column of height ≥ 6 waits for its cat,
    `seat` chooses one (`choose_cat`)."""

    seat: int

    def to_json(self) -> list[Any]:
        return _plain_json(self)


class CloudsOwed(NamedTuple):
    """Clouds `seat` still places (`place_cloud`); `why`: return, bird or start_card."""

    seat: int
    remaining: int
    why: str

    def to_json(self) -> list[Any]:
        return _plain_json(self)


class RevealReward(NamedTuple):
    """§7: a reveal's reward design, chosen from the bag (`choose_design`)."""

    seat: int

    def to_json(self) -> list[Any]:
        return _plain_json(self)


class CatBlessing(NamedTuple):
    """§6 cat: two designs from the bag (`choose_design`); `first` is -1 before the first
    choice, then the first design (the second must differ)."""

    seat: int
    first: int

    def to_json(self) -> list[Any]:
        return _plain_json(self)


class BirdDraw(NamedTuple):
    """§6 bird: after its three clouds, 3 random pedestals form `seat`'s pool."""

    seat: int

    def to_json(self) -> list[Any]:
        return _plain_json(self)


class WolfBlessing(NamedTuple):
    """§6 wolf: `remaining` are the uncovered columns not yet served (`wolf_blessing`)."""

    seat: int
    remaining: tuple[int, ...]

    def to_json(self) -> list[Any]:
        return ["wolf", self.seat, [cell_to_json(c) for c in self.remaining]]


class DragonBuild(NamedTuple):
    """§6 dragon: after its hoard pedestal, a build-pedestals action (`dragon_build`)."""

    seat: int

    def to_json(self) -> list[Any]:
        return _plain_json(self)


class LastReveals(NamedTuple):
    """§8 last reveals: `seat` reveals one card at a time (`last_reveal`); `order`
    counts seats from the start player (0 for the start player)."""

    seat: int
    order: int

    def to_json(self) -> list[Any]:
        return _plain_json(self)


Step = (
    StartingChoice
    | StartingAltar
    | FillSlots
    | TopOfTurn
    | AfterAction
    | EndOfTurnPrompt
    | OpenPool
    | CatCheck
    | CloudsOwed
    | RevealReward
    | CatBlessing
    | BirdDraw
    | WolfBlessing
    | DragonBuild
    | LastReveals
)

# Each step's name in JSON (the view's `machine` section; docs/wire-format.md).
STEP_NAMES: dict[type[Step], str] = {
    StartingChoice: "choose_start",
    StartingAltar: "start_altar",
    FillSlots: "fill_slots",
    TopOfTurn: "turn",
    AfterAction: "after_action",
    EndOfTurnPrompt: "turn_end",
    OpenPool: "pool",
    CatCheck: "cats",
    CloudsOwed: "clouds",
    RevealReward: "reward",
    CatBlessing: "cat_design",
    BirdDraw: "bird_draw",
    WolfBlessing: "wolf",
    DragonBuild: "dragon_build",
    LastReveals: "last_reveals",
}
STEP_BY_NAME: dict[str, type[Step]] = {name: cls for cls, name in STEP_NAMES.items()}


def _plain_json(step: Step) -> list[Any]:
    return [STEP_NAMES[type(step)], *step]


def step_from_json(data: Any) -> Step:
    """A step from its JSON form; ValueError naming what is wrong."""
    if not isinstance(data, list) or not data or not isinstance(data[0], str):
        raise ValueError(f"a step is a list naming the step first, not {data!r}")
    cls = STEP_BY_NAME.get(data[0])
    if cls is None:
        raise ValueError(f"unknown step {data[0]!r}")
    args = data[1:]
    if len(args) != len(cls._fields):
        raise ValueError(f"step {data[0]!r} takes {len(cls._fields)} values, not {len(args)}")
    values: list[Any] = []
    for field, value in zip(cls._fields, args, strict=True):
        values.append(_READ_FIELD[field](data[0], value))
    return cls(*values)


def _int(field: str) -> Callable[[str, Any], int]:
    def read(step: str, value: Any) -> int:
        if not isinstance(value, int) or isinstance(value, bool):
            raise ValueError(f"step {step!r}: {field} must be an integer, not {value!r}")
        return value

    return read


def _choice(field: str, allowed: tuple[str, ...]) -> Callable[[str, Any], str]:
    def read(step: str, value: Any) -> str:
        if value not in allowed:
            raise ValueError(f"step {step!r}: {field} must be one of {allowed}, not {value!r}")
        return str(value)

    return read


def _cells(step: str, value: Any) -> tuple[int, ...]:
    if not isinstance(value, list):
        raise ValueError(f"step {step!r}: remaining must be a list of cells, not {value!r}")
    return tuple(cell_from_json(c) for c in value)


_READ_FIELD: dict[str, Callable[[str, Any], Any]] = {
    "seat": _int("seat"),
    "remaining": lambda step, value: (
        _cells(step, value) if step == "wolf" else _int("remaining")(step, value)
    ),
    "first": _int("first"),
    "order": _int("order"),
    "mode": _choice("mode", TURN_MODES),
    "why": _choice("why", CLOUD_REASONS),
}

S = TypeVar("S")


def _distinct(cls: type[S]) -> type[S]:
    """Steps of different types never compare equal (plain tuples of equal values would)."""

    def eq(self: tuple[Any, ...], other: object) -> bool:
        return type(other) is type(self) and tuple.__eq__(self, other)

    def ne(self: tuple[Any, ...], other: object) -> bool:
        return not eq(self, other)

    def hash_(self: tuple[Any, ...]) -> int:
        return hash((type(self).__name__, tuple(self)))

    for name, method in (("__eq__", eq), ("__ne__", ne), ("__hash__", hash_)):
        setattr(cls, name, method)
    return cls


for _cls in STEP_NAMES:
    _distinct(_cls)
