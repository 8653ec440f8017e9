"""Pedestal designs and totem kinds as small ints, with their names and letters.

The engine stores plain ints in its hot paths; names and letters exist for the
wire format, the altar notation and the screens (RULES.md §1).
"""

from __future__ import annotations

from typing import Final

# Pedestal designs (RULES.md §1). Commons are 0-5, rares 6-9.
RED: Final = 0
ORANGE: Final = 1
YELLOW: Final = 2
GREEN: Final = 3
BLUE: Final = 4
PURPLE: Final = 5
CAT: Final = 6
WOLF: Final = 7
BIRD: Final = 8
HORSE: Final = 9

DESIGNS: Final = tuple(range(10))
COMMON_DESIGNS: Final = (RED, ORANGE, YELLOW, GREEN, BLUE, PURPLE)
DESIGN_NAMES: Final = (
    "red",
    "orange",
    "yellow",
    "green",
    "blue",
    "purple",
    "cat",
    "wolf",
    "bird",
    "horse",
)
# One letter per design for the altar notation: lower case common, upper case rare.
DESIGN_LETTERS: Final = ("r", "o", "y", "g", "b", "p", "C", "W", "B", "H")
# A glyph per design so that colour is never the only cue (RULES.md §1).
DESIGN_GLYPHS: Final = ("♥", "◆", "★", "♣", "●", "▲", "C", "W", "B", "H")
COMMON_COUNT: Final = 15
RARE_COUNT: Final = 7
TOTAL_PEDESTALS: Final = 6 * COMMON_COUNT + 4 * RARE_COUNT  # 118
DESIGN_BY_NAME: Final = {name: d for d, name in enumerate(DESIGN_NAMES)}
DESIGN_BY_LETTER: Final = {letter: d for d, letter in enumerate(DESIGN_LETTERS)}


def is_rare(design: int) -> bool:
    """Rare pedestals (cat, wolf, bird, horse) are worth 2 points, commons 1."""
    return design >= CAT


def pedestal_points(design: int) -> int:
    """Points of one pedestal at the final scoring (RULES.md §8)."""
    return 2 if design >= CAT else 1


def full_bag() -> list[int]:
    """Counts per design of all 118 pedestals (RULES.md §1)."""
    return [COMMON_COUNT] * 6 + [RARE_COUNT] * 4


def design_from_name(name: str) -> int:
    """The design called `name`; ValueError naming the valid names otherwise."""
    try:
        return DESIGN_BY_NAME[name]
    except (KeyError, TypeError):
        raise ValueError(
            f"unknown pedestal design {name!r}; expected one of {', '.join(DESIGN_NAMES)}"
        ) from None


# Totem kinds (RULES.md §6).
T_BIRD: Final = 0
T_WOLF: Final = 1
T_HORSE: Final = 2
T_DRAGON: Final = 3
T_CAT: Final = 4
TOTEM_KINDS: Final = (T_BIRD, T_WOLF, T_HORSE, T_DRAGON, T_CAT)
TOTEM_NAMES: Final = ("bird", "wolf", "horse", "dragon", "cat")
TOTEM_BY_NAME: Final = {name: k for k, name in enumerate(TOTEM_NAMES)}
# Cells covered by each kind: the multiplier of its score (RULES.md §6).
TOTEM_SIZE: Final = (3, 3, 2, 3, 1)


def totem_from_name(name: str) -> int:
    """The totem kind called `name`; ValueError naming the valid kinds otherwise."""
    try:
        return TOTEM_BY_NAME[name]
    except (KeyError, TypeError):
        raise ValueError(
            f"unknown totem kind {name!r}; expected one of {', '.join(TOTEM_NAMES)}"
        ) from None
