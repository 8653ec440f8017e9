"""The pending decision: which seat(s) must choose, what kind of choice, and its context.

The engine always waits on exactly one decision (DESIGN.md §1). Kinds:

- ``choose_start``   every seat that has not chosen yet (simultaneous, secret)
- ``turn``           top of a turn: reveal, build pedestals or a totem (final: or pass)
- ``place_pedestal`` the next pedestal of the open pool: place, return, or reveal
- ``place_cloud``    where a gained cloud goes
- ``choose_design``  a design from the bag (reveal reward, cat blessing)
- ``choose_cat``     which column of height ≥ 6 gets the next cat
- ``wolf_blessing``  take one more pedestal for a column, or stop
- ``dragon_build``   the dragon's build-pedestals action
- ``end_turn``       the end-of-turn prompt: reveal or end the turn
- ``last_reveal``    the last reveals before scoring: reveal or stop
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

DECISION_KINDS = (
    "choose_start",
    "turn",
    "place_pedestal",
    "place_cloud",
    "choose_design",
    "choose_cat",
    "wolf_blessing",
    "dragon_build",
    "end_turn",
    "last_reveal",
)
# What other seats are told a seat is doing: the end-of-turn prompt reads as "turn",
# so a prompt (which, unless the game confirms every turn, exists only when a reveal is
# possible) never names itself.
PUBLIC_KIND = {kind: kind for kind in DECISION_KINDS} | {"end_turn": "turn"}


@dataclass(frozen=True, slots=True)
class Decision:
    """A pending decision. `context` holds public facts in JSON form (pool, remaining...).

    The engine shares one decision between games where its step decides it (a seat's
    turn, a pool of the same designs...), so the context is read-only: copy it (as
    `to_json` does) to change it."""

    kind: str
    seats: tuple[int, ...]
    context: Mapping[str, Any] = field(default_factory=dict)

    def __repr__(self) -> str:
        # The read-only context shows as the plain dict it reads as.
        return f"Decision(kind={self.kind!r}, seats={self.seats!r}, context={dict(self.context)!r})"

    def __reduce__(self) -> tuple[type[Decision], tuple[str, tuple[int, ...], dict[str, Any]]]:
        # by the constructor, with a context of its own (a shared one is a read-only
        # mapping, which pickle refuses; compiled, the class refuses field stores)
        return (Decision, (self.kind, self.seats, dict(self.context)))

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "seats": list(self.seats), "context": self._own_context()}

    def _own_context(self) -> dict[str, Any]:
        """The context as the caller's to change: its lists (a pool's designs, cells)
        copied too, since a shared decision's lists are other games' as well."""
        return {k: list(v) if isinstance(v, list) else v for k, v in self.context.items()}

    def public(self) -> Decision:
        """The decision as seats other than its owner see it (RULES.md §11)."""
        return Decision(PUBLIC_KIND[self.kind], self.seats, self._own_context())
