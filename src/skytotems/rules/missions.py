"""A card's mission as a value (RULES.md §9): a registered type and checked parameters.

Construction is the one place a mission is validated, whether it is built in code or
read from a deck file (the reader only turns names into ints).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .altar import Altar
from .deck_file import read_mission_json
from .errors import DeckError
from .mission_types import MISSION_TYPES, MissionParam, MissionType
from .pieces import DESIGN_NAMES, DESIGNS, TOTEM_KINDS, TOTEM_NAMES

# --- parameter checks -------------------------------------------------------------------


def is_int(value: object) -> bool:
    """An int that is not a bool (JSON's true is no count)."""
    return isinstance(value, int) and not isinstance(value, bool)


def _check_param(param: MissionParam, value: object) -> object:
    """The parameter value in its canonical form; DeckError naming the field otherwise."""
    where = f"mission.{param.name}"
    if param.kind == "int":
        if not is_int(value):
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
        if not is_int(value) or value not in TOTEM_KINDS:
            raise DeckError(f"{where}: must be a totem kind, got {value!r}")
        return value
    # designs: a non-empty list of distinct designs
    if not isinstance(value, (tuple, list)) or not value:
        raise DeckError(f"{where}: must be a non-empty list of designs, got {value!r}")
    for i, d in enumerate(value):
        if not is_int(d) or d not in DESIGNS:
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
    # Missions key the bots' memos at every estimate: hashed once, not field by field.
    _hash: int = field(init=False, repr=False, compare=False, hash=False)

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
        if spec.shortfall is None:
            raise DeckError(
                f"mission.type: mission type {self.type!r} has no shortfall measure, "
                "so no bot could aim at it"
            )
        params = tuple((p.name, _check_param(p, given[p.name])) for p in spec.params)
        object.__setattr__(self, "params", params)
        object.__setattr__(self, "_spec", spec)
        object.__setattr__(self, "_kwargs", dict(params))
        object.__setattr__(self, "_hash", hash((self.type, params)))

    def __hash__(self) -> int:
        return self._hash

    @classmethod
    def of(cls, type: str, **params: object) -> Mission:
        """Convenience constructor: ``Mission.of("totem_count", kind=T_WOLF, min=2)``."""
        return cls(type, tuple(params.items()))

    @classmethod
    def from_json(cls, data: object) -> Mission:
        """A mission from its wire form (``card["mission"]`` of a view's deck); DeckError."""
        return cls(*read_mission_json(data))

    def param(self, name: str) -> object:
        """One parameter's value (KeyError when the type has no such parameter)."""
        return self._kwargs[name]

    def met(self, altar: Altar) -> bool:
        """Whether the altar meets the mission right now (RULES.md §7)."""
        return self._spec.check(altar, **self._kwargs)

    def shortfall(self, altar: Altar) -> int:
        """A lower bound on the pieces (pedestals, totems, clouds) the altar must still
        gain to meet the mission; 0 exactly when it is met."""
        measure = self._spec.shortfall
        assert measure is not None  # refused at construction
        return measure(altar, **self._kwargs)

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
