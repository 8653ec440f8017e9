"""A finished game's statistics per seat, for score sheets and the records page.

Everything here is read from the final state and the score sheets (RULES.md §8), so
every consumer (the server's records, a future analysis) counts the same way.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .grid import START_TILE
from .pieces import TOTEM_NAMES
from .scoring import final_places, score_sheet

if TYPE_CHECKING:
    from .engine import Game


def game_stats(game: Game) -> list[dict[str, Any]]:
    """Per seat: place, totems by kind, pedestals, clouds placed, cards, points by source."""
    places = final_places(game)
    out = []
    for seat in range(game.n):
        sheet = score_sheet(game, seat)
        altar = game.altars[seat]
        counts = dict.fromkeys(TOTEM_NAMES, 0)
        for totem in altar.totems:
            counts[TOTEM_NAMES[totem.kind]] += 1
        out.append(
            {
                "seat": seat,
                "place": places[seat],
                "totems": counts,
                "pedestals": {"common": sheet.common_pedestals, "rare": sheet.rare_pedestals},
                "clouds": len(altar.clouds) - len(START_TILE),
                "cards": {"revealed": list(sheet.revealed), "count": len(sheet.revealed)},
                "points": {
                    "totems": dict(sheet.totems),
                    "common_pedestals": sheet.common_points,
                    "rare_pedestals": sheet.rare_points,
                    "cards": sheet.cards,
                    "total": sheet.total,
                },
            }
        )
    return out
