"""Final scoring: scorepad-like sheets, places and tie-breaks (RULES.md §8, §10)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from .altar import Altar
from .cards import Card
from .options import GameOptions
from .pieces import TOTEM_NAMES, is_rare


class ScoredGame(Protocol):
    """What scoring reads of a game (the engine's `Game` is one): no import of the engine."""

    @property
    def n(self) -> int: ...
    @property
    def options(self) -> GameOptions: ...
    @property
    def first_player(self) -> int: ...
    @property
    def altars(self) -> Sequence[Altar]: ...
    @property
    def revealed(self) -> Sequence[Sequence[str]]: ...
    @property
    def cards(self) -> Mapping[str, Card]: ...


SOLO_BANDS = (
    (180, "Chosen by the Gods"),
    (160, "Go Down in History"),
    (130, "Wonderful"),
    (100, "Decent"),
    (0, "Unfinished"),
)


@dataclass(frozen=True, slots=True)
class ScoreSheet:
    """One seat's scorepad column: a line per totem kind, pedestals, cards, total."""

    seat: int
    totems: dict[str, int]
    totem_count: int
    common_pedestals: int
    rare_pedestals: int
    cards: int
    revealed: tuple[str, ...] = field(default=())

    @property
    def common_points(self) -> int:
        return self.common_pedestals

    @property
    def rare_points(self) -> int:
        return 2 * self.rare_pedestals

    @property
    def total(self) -> int:
        return sum(self.totems.values()) + self.common_points + self.rare_points + self.cards

    def lines(self) -> list[tuple[str, int]]:
        """Lines in the scorepad's order (top to bottom)."""
        out = [(name, self.totems[name]) for name in TOTEM_NAMES]
        out += [
            (f"common pedestals ({self.common_pedestals} × 1)", self.common_points),
            (f"rare pedestals ({self.rare_pedestals} × 2)", self.rare_points),
            ("altar cards", self.cards),
            ("total", self.total),
        ]
        return out

    def to_json(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "totems": dict(self.totems),
            "totem_count": self.totem_count,
            "common_pedestals": self.common_pedestals,
            "common_points": self.common_points,
            "rare_pedestals": self.rare_pedestals,
            "rare_points": self.rare_points,
            "cards": self.cards,
            "revealed": list(self.revealed),
            "total": self.total,
        }


def altar_sheet(
    altar: Altar, card_points: int = 0, seat: int = 0, revealed: tuple[str, ...] = ()
) -> ScoreSheet:
    """The score of one altar: every pedestal (under totems too, hoard included),
    each totem's cells × height, and revealed cards (RULES.md §8)."""
    totems = {name: 0 for name in TOTEM_NAMES}
    for t in altar.totems:
        totems[TOTEM_NAMES[t.kind]] += t.points
    pedestals = altar.pedestals()
    rare = sum(1 for d in pedestals if is_rare(d))
    return ScoreSheet(
        seat=seat,
        totems=totems,
        totem_count=len(altar.totems),
        common_pedestals=len(pedestals) - rare,
        rare_pedestals=rare,
        cards=card_points,
        revealed=revealed,
    )


def score_sheet(game: ScoredGame, seat: int) -> ScoreSheet:
    """`seat`'s score now (its final score once the game is over)."""
    revealed = tuple(game.revealed[seat])
    points = sum(game.cards[c].points for c in revealed)
    return altar_sheet(game.altars[seat], points, seat, revealed)


def final_places(game: ScoredGame, sheets: Sequence[ScoreSheet] | None = None) -> list[int]:
    """Place of each seat (1 = winner). Tie-breaks of RULES.md §8:

    - bga: among tied scores, the seat later in round 1's turn order ranks higher;
    - rulebook: more totems ranks higher; still tied seats share the place.
    Solo has one result, so both altars share place 1. `sheets`, when the caller has
    them already, are the seats' score sheets.
    """
    n = game.n
    if game.options.solo:
        return [1] * n
    if sheets is None:
        sheets = [score_sheet(game, s) for s in range(n)]
    if game.options.tie_break == "bga":
        position = {(game.first_player + i) % n: i for i in range(n)}
        keys = [(sheets[s].total, position[s]) for s in range(n)]
    else:
        keys = [(sheets[s].total, sheets[s].totem_count) for s in range(n)]
    return [1 + sum(1 for o in range(n) if keys[o] > keys[s]) for s in range(n)]


def solo_band(total: int) -> str:
    """The rulebook's rating of a solo total (RULES.md §10)."""
    for floor, name in SOLO_BANDS:
        if total >= floor:
            return name
    return SOLO_BANDS[-1][1]
