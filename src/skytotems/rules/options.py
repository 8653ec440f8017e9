"""Game options: player count (1 = solo with two altars), totem set, tie-break (RULES.md §10),
and the privacy option "every turn ends with a confirmation" (RULES.md §11)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .errors import OptionsError
from .pieces import T_BIRD, T_CAT, T_DRAGON, T_HORSE, T_WOLF, TOTEM_KINDS, totem_from_name
from .rng import Rng

TOTEM_SETS = ("beginner", "dragon", "cat-plus-three", "random-four")
BEGINNER = (T_BIRD, T_WOLF, T_HORSE, T_CAT)
WITH_DRAGON = (T_WOLF, T_HORSE, T_DRAGON, T_CAT)
TIE_BREAKS = ("bga", "rulebook")
SLOTS_BY_SEATS = {2: 3, 3: 4, 4: 5}  # RULES.md §1; solo plays as 2 seats
TOTAL_SLOTS = 5
ROUNDS = 10


@dataclass(frozen=True, slots=True)
class GameOptions:
    """What a table decides before the game.

    `totems` is one of TOTEM_SETS or four comma-separated kind names
    (e.g. "bird,wolf,horse,dragon"); `players` = 1 means solo (two altars).
    `confirm_turns` (RULES.md §11): every turn ends with the end-of-turn prompt and the
    last reveals ask every seat, whether or not a reveal is possible, so that others
    cannot tell from a turn's end whether its player could reveal a goal. Off by
    default, the published game's behaviour.
    """

    players: int = 2
    totems: str = "beginner"
    tie_break: str = "bga"
    confirm_turns: bool = False

    def __post_init__(self) -> None:
        if not isinstance(self.players, int) or not 1 <= self.players <= 4:
            raise OptionsError(f"players must be 1 (solo) to 4, got {self.players!r}")
        if self.tie_break not in TIE_BREAKS:
            raise OptionsError(
                f"tie_break must be one of {', '.join(TIE_BREAKS)}, got {self.tie_break!r}"
            )
        if not isinstance(self.confirm_turns, bool):
            raise OptionsError(f"confirm_turns must be true or false, got {self.confirm_turns!r}")
        if self.totems not in TOTEM_SETS:
            self.hand_picked_kinds()  # validates

    @property
    def solo(self) -> bool:
        """One person plays two altars as a 2-player game (RULES.md §10)."""
        return self.players == 1

    @property
    def seats(self) -> int:
        """Number of altars (2 in solo)."""
        return 2 if self.players == 1 else self.players

    @property
    def slots(self) -> int:
        """Pedestal slots in use (RULES.md §1)."""
        return SLOTS_BY_SEATS[self.seats]

    def hand_picked_kinds(self) -> tuple[int, ...]:
        """The four kinds named by hand; OptionsError if they are not four distinct kinds."""
        names = [n.strip() for n in self.totems.split(",") if n.strip()]
        try:
            kinds = tuple(sorted({totem_from_name(n) for n in names}))
        except ValueError as exc:
            raise OptionsError(f"totem set {self.totems!r}: {exc}") from None
        if len(kinds) != 4 or len(names) != 4:
            raise OptionsError(
                f"totem set {self.totems!r}: name exactly four different totems, or one of "
                f"{', '.join(TOTEM_SETS)}"
            )
        return kinds

    def resolve_kinds(self, rng: Rng) -> tuple[int, ...]:
        """The four kinds in play; random sets use the game's own generator (RULES.md §10)."""
        if self.totems == "beginner":
            return tuple(sorted(BEGINNER))
        if self.totems == "dragon":
            return tuple(sorted(WITH_DRAGON))
        if self.totems == "cat-plus-three":
            others = [k for k in TOTEM_KINDS if k != T_CAT]
            left_out = others[rng.below(len(others))]
            return tuple(k for k in TOTEM_KINDS if k != left_out)
        if self.totems == "random-four":
            left_out = TOTEM_KINDS[rng.below(len(TOTEM_KINDS))]
            return tuple(k for k in TOTEM_KINDS if k != left_out)
        return self.hand_picked_kinds()

    def to_json(self) -> dict[str, Any]:
        """The options as JSON; `confirm_turns` only when on, so that the records and
        views of games without it stay as they were (docs/record-format.md)."""
        out: dict[str, Any] = {
            "players": self.players,
            "totems": self.totems,
            "tie_break": self.tie_break,
        }
        if self.confirm_turns:
            out["confirm_turns"] = True
        return out

    @classmethod
    def from_json(cls, data: object) -> GameOptions:
        if not isinstance(data, dict):
            raise OptionsError("options must be a JSON object")
        extra = set(data) - {"players", "totems", "tie_break", "confirm_turns"}
        if extra:
            raise OptionsError(f"unknown option(s): {', '.join(sorted(extra))}")
        totems = data.get("totems", "beginner")
        if not isinstance(totems, str):
            raise OptionsError("totems must be a string")
        tie_break = data.get("tie_break", "bga")
        if not isinstance(tie_break, str):
            raise OptionsError("tie_break must be a string")
        players = data.get("players", 2)
        if not isinstance(players, int) or isinstance(players, bool):
            raise OptionsError("players must be an integer")
        confirm_turns = data.get("confirm_turns", False)
        if not isinstance(confirm_turns, bool):
            raise OptionsError("confirm_turns must be true or false")
        return cls(players=players, totems=totems, tie_break=tie_break, confirm_turns=confirm_turns)
