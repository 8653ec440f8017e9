"""The altar deck (RULES.md §9) as values: starting layouts, cards and the deck.

Construction checks every value, whether a card is built in code or read from a deck
file: `deck_file` only reads the JSON and hands its fields to these constructors.
Missions live in `missions`, their types in `mission_types`.
"""

from __future__ import annotations

import functools
import os
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Final

from .deck_file import FORMAT, json_from_text, read_deck_json, read_deck_text
from .errors import DeckError
from .grid import START_TILE, cell_to_json, xy
from .missions import Mission, is_int
from .pieces import DESIGN_NAMES, DESIGNS, TOTEM_KINDS, TOTEM_NAMES

FORMAT_VERSION: Final = 1
# Card ids travel in records and on the wire, so keep them to plain slugs.
ID_PATTERN: Final = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")


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
            if not is_int(c) or c not in START_TILE:
                raise DeckError(
                    f"{where}.cell: {_cell_text(c)} is outside the 2×2 start tile "
                    "(0,0) (1,0) (0,1) (1,1)"
                )
            if c in seen:
                raise DeckError(f"{where}.cell: {_cell_text(c)} is used by two columns")
            seen.add(c)
            if not isinstance(stack, tuple) or not stack:
                raise DeckError(f"{where}.stack: must be a non-empty list of pedestals")
            for j, d in enumerate(stack):
                if not is_int(d) or d not in DESIGNS:
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
    if is_int(c):
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
        if not isinstance(self.id, str):
            raise DeckError(f"id: must be a string, got {self.id!r}")
        if not ID_PATTERN.fullmatch(self.id):
            raise DeckError(
                f"id: must be lower-case letters and digits joined by '-', got {self.id!r}"
            )
        if not isinstance(self.name, str) or not self.name.strip():
            raise DeckError(f"name: must be a non-empty string, got {self.name!r}")
        if self.tag is not None and (not is_int(self.tag) or self.tag not in TOTEM_KINDS):
            raise DeckError(f"tag: must be a totem kind or null, got {self.tag!r}")
        if not is_int(self.points) or self.points < 1:
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
        if self.version != FORMAT_VERSION or not is_int(self.version):
            raise DeckError(
                f"deck: unsupported version {self.version!r} (this engine reads "
                f"version {FORMAT_VERSION})"
            )
        cards = tuple(self.cards)
        if not cards:
            raise DeckError("deck: cards must be a non-empty list of card objects")
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
        read = read_deck_json(data)
        cards = []
        for card in read.cards:
            try:
                cards.append(
                    Card(
                        card.id,
                        card.name,
                        card.tag,
                        card.points,
                        Mission(*card.mission),
                        StartLayout(*card.start),
                    )
                )
            except DeckError as exc:
                raise DeckError(f"{card.label}: {exc}") from None
        return cls(read.name, read.version, tuple(cards))


def parse_deck(text: str, source: str = "deck") -> Deck:
    """A deck from JSON text; syntax errors become DeckError naming `source`."""
    return Deck.from_json(json_from_text(text, source))


def load_deck(path: str | os.PathLike[str] | None = None) -> Deck:
    """Read a deck file (None: the packaged deck); every failure is a DeckError."""
    return parse_deck(*read_deck_text(path))


@functools.cache
def default_deck() -> Deck:
    """The packaged reconstructed deck (RULES.md §9), read once."""
    return load_deck()
