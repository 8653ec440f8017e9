"""Events: what happened, returned by `Game.apply` for logs and animations.

Events pass through the same per-seat filter as views (`for_seat`) before they
leave the engine: a dealt hand or a secret starting choice is blanked for
everyone but its owner (RULES.md §11). The JSON form mirrors the actions'.
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from typing import Any, ClassVar

from .wire import encode_field, text_field


@dataclass(frozen=True, slots=True)
class Event:
    """Base of every event."""

    type: ClassVar[str] = "event"

    def to_json(self) -> dict[str, Any]:
        """The documented wire form of this event."""
        out: dict[str, Any] = {"type": self.type}
        for f in fields(self):
            out[f.name] = encode_field(f.name, getattr(self, f.name))
        return out

    def for_seat(self, seat: int | None, solo: bool = False) -> Event:
        """This event as `seat` may see it (None: a spectator)."""
        return self

    def __str__(self) -> str:
        parts = [f"{f.name}={text_field(f.name, getattr(self, f.name))}" for f in fields(self)]
        return f"{self.type}({', '.join(parts)})"


@dataclass(frozen=True, slots=True)
class CardsDealt(Event):
    """Three altar cards dealt to `seat`; others only learn how many."""

    type: ClassVar[str] = "cards_dealt"
    seat: int
    cards: tuple[str, ...]
    count: int

    def for_seat(self, seat: int | None, solo: bool = False) -> Event:
        if seat == self.seat or (solo and seat is not None):
            return self
        return replace(self, cards=())


@dataclass(frozen=True, slots=True)
class StartChosen(Event):
    """`seat` has chosen its starting card; which one stays secret until all have."""

    type: ClassVar[str] = "start_chosen"
    seat: int
    card: str

    def for_seat(self, seat: int | None, solo: bool = False) -> Event:
        if seat == self.seat or (solo and seat is not None):
            return self
        return replace(self, card="")


@dataclass(frozen=True, slots=True)
class StartCardsRevealed(Event):
    """Every starting card, face up, once all seats have chosen (RULES.md §4)."""

    type: ClassVar[str] = "start_cards_revealed"
    cards: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class TotemSetChosen(Event):
    """The four totems in play (drawn at random for the random options)."""

    type: ClassVar[str] = "totem_set"
    kinds: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class StartPlayerChosen(Event):
    """The random start player of round 1."""

    type: ClassVar[str] = "start_player"
    seat: int


@dataclass(frozen=True, slots=True)
class PedestalsDrawn(Event):
    """Pedestals taken from the bag by `seat`; `source` says why (start, draw, bird, hoard,
    wolf). Slot fills and refills are `SlotFilled`, choices from the bag `DesignChosen`.
    Every drawn pedestal is public (RULES.md §11)."""

    type: ClassVar[str] = "pedestals_drawn"
    seat: int | None
    source: str
    designs: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class SlotFilled(Event):
    """Pedestals put into a slot at setup or at the end of a round."""

    type: ClassVar[str] = "slot_filled"
    slot: int
    designs: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class SlotTaken(Event):
    """`seat` took every pedestal of a slot."""

    type: ClassVar[str] = "slot_taken"
    seat: int
    slot: int
    designs: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class PedestalPlaced(Event):
    """A pedestal put on a cell (`source`: pool, start, wolf)."""

    type: ClassVar[str] = "pedestal_placed"
    seat: int
    design: int
    cell: int
    source: str


@dataclass(frozen=True, slots=True)
class PedestalReturned(Event):
    """A pool pedestal returned to the bag for a cloud."""

    type: ClassVar[str] = "pedestal_returned"
    seat: int
    design: int


@dataclass(frozen=True, slots=True)
class CloudPlaced(Event):
    """A cloud added to an altar."""

    type: ClassVar[str] = "cloud_placed"
    seat: int
    cell: int


@dataclass(frozen=True, slots=True)
class TotemBuilt(Event):
    """A totem raised (a cat arriving by itself included)."""

    type: ClassVar[str] = "totem_built"
    seat: int
    kind: int
    cells: tuple[int, ...]
    height: int
    points: int


@dataclass(frozen=True, slots=True)
class HoardAdded(Event):
    """A random pedestal moved into the dragon's hoard."""

    type: ClassVar[str] = "hoard_added"
    seat: int
    design: int


@dataclass(frozen=True, slots=True)
class CardRevealed(Event):
    """A goal card turned face up; its points are locked in (RULES.md §7)."""

    type: ClassVar[str] = "card_revealed"
    seat: int
    card: str
    points: int


@dataclass(frozen=True, slots=True)
class DesignChosen(Event):
    """A pedestal chosen from the bag (`purpose`: reward or cat)."""

    type: ClassVar[str] = "design_chosen"
    seat: int
    design: int
    purpose: str


@dataclass(frozen=True, slots=True)
class NothingGained(Event):
    """An effect found nothing to give (empty bag, no design left)."""

    type: ClassVar[str] = "nothing_gained"
    seat: int
    reason: str


@dataclass(frozen=True, slots=True)
class TurnStarted(Event):
    """`seat` begins a turn (`mode`: normal, extra, final)."""

    type: ClassVar[str] = "turn_started"
    seat: int
    round: int
    mode: str


@dataclass(frozen=True, slots=True)
class TurnEnded(Event):
    """`seat`'s turn is over; play passes on."""

    type: ClassVar[str] = "turn_ended"
    seat: int


@dataclass(frozen=True, slots=True)
class Passed(Event):
    """`seat` built no final totem."""

    type: ClassVar[str] = "passed"
    seat: int


@dataclass(frozen=True, slots=True)
class RoundEnded(Event):
    """End of round: the marker advances and the start player passes left (RULES.md §8)."""

    type: ClassVar[str] = "round_ended"
    round: int
    next_start_player: int


@dataclass(frozen=True, slots=True)
class PhaseStarted(Event):
    """A new phase: play, final_totem, last_reveals."""

    type: ClassVar[str] = "phase_started"
    phase: str


@dataclass(frozen=True, slots=True)
class GameEnded(Event):
    """Final scores (totals by seat), places (1 = best) and the goals left face down."""

    type: ClassVar[str] = "game_ended"
    totals: tuple[int, ...]
    places: tuple[int, ...]
    hidden_goals: tuple[tuple[str, ...], ...]
