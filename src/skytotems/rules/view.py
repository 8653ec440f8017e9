"""Views: the only door through which game state reaches a player (RULES.md §11).

`view(game, seat)` holds everything public plus `seat`'s own secrets;
`view(game, None)` is the spectator's. Views are plain JSON-serialisable dicts and
hold enough of the public machine state that a searching bot can rebuild a full
game from one (`skytotems.rules.determinize`). The generator's state, the seed and
the cards left in the box never appear in a view.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .events import Event
from .grid import cell_to_json
from .notation import format_altar
from .pieces import DESIGN_NAMES, TOTEM_NAMES
from .scoring import final_places, score_sheet, solo_band

if TYPE_CHECKING:
    from .altar import Altar
    from .engine import Game

VIEW_FORMAT = "skytotems-view"
VIEW_VERSION = 1


def sees_private(game: Game, viewer: int | None, owner: int) -> bool:
    """Whether `viewer` may see `owner`'s secrets (its own seat; in solo, both)."""
    if viewer is None:
        return False
    return viewer == owner or game.options.solo


def altar_json(altar: Altar) -> dict[str, Any]:
    """An altar in the wire format (with its notation for convenience)."""
    return {
        "notation": format_altar(altar),
        "clouds": sorted(cell_to_json(c) for c in altar.clouds),
        "columns": [
            {"cell": cell_to_json(c), "stack": [DESIGN_NAMES[d] for d in stack]}
            for c, stack in sorted(altar.stacks.items())
        ],
        "totems": [
            {
                "kind": TOTEM_NAMES[t.kind],
                "cells": [cell_to_json(c) for c in t.cells],
                "height": t.height,
                "points": t.points,
            }
            for t in altar.totems
        ],
        "hoard": [DESIGN_NAMES[d] for d in altar.hoard],
        "covered": sorted(cell_to_json(c) for c in altar.covered),
    }


def view(game: Game, seat: int | None, include_deck: bool = True) -> dict[str, Any]:
    """What `seat` (None: a spectator) may know now, as a JSON-serialisable dict.

    `include_deck=False` leaves out the card definitions (static for a game), which a
    server sends once rather than with every update.
    """
    over = game.phase == "over"
    all_chosen = all(c is not None for c in game.start_cards)
    sheets = [score_sheet(game, s) for s in range(game.n)]
    seats = []
    for s, sheet in enumerate(sheets):
        private = sees_private(game, seat, s) or over
        entry: dict[str, Any] = {
            "seat": s,
            "chosen": game.start_cards[s] is not None,
            "start_card": game.start_cards[s] if (all_chosen or private) else None,
            "revealed": list(game.revealed[s]),
            "goal_count": len(game.goals[s]),
            "score": {
                "pedestals": sheet.common_points + sheet.rare_points,
                "totems": sum(sheet.totems.values()),
                "cards": sheet.cards,
                "total": sheet.total,
            },
        }
        if private:
            revealable = set(game.revealable(s)) if not over else set()
            entry["goals"] = [
                {"card": c, "points": game.cards[c].points, "revealable": c in revealable}
                for c in game.goals[s]
            ]
            if game.phase == "setup":
                entry["hand"] = list(game.hands[s])
        seats.append(entry)
    out: dict[str, Any] = {
        "format": VIEW_FORMAT,
        "version": VIEW_VERSION,
        "viewer": seat,
        "options": game.options.to_json(),
        "seats_count": game.n,
        "solo": game.options.solo,
        "kinds": [TOTEM_NAMES[k] for k in game.kinds],
        "phase": game.phase,
        "round": game.round,
        "first_player": game.first_player,
        "start_player": game.start_player,
        "current": game.current,
        "turns_in_round": game.turns_in_round,
        "extra_turns": game.extra_turns,
        "slots": [[DESIGN_NAMES[d] for d in sorted(slot)] for slot in game.slots],
        "bag": {DESIGN_NAMES[d]: n for d, n in enumerate(game.bag)},
        "bag_total": game.bag_total,
        "pool": [DESIGN_NAMES[d] for d in sorted(game.pool)],
        "altars": [altar_json(a) for a in game.altars],
        "seats": seats,
        # The pending steps; the end-of-turn prompt reads as the neutral `turn_end` for
        # every viewer, since it exists only when its owner could reveal (RULES.md §11).
        "machine": [step.to_json() for step in game.pending_steps],
        "move": game.base_move + len(game.history),
    }
    if include_deck:
        out["deck"] = game.deck_json()
    if over:
        out["decision"] = None
        out["legal_actions"] = []
        out["score_sheets"] = [sh.to_json() for sh in sheets]
        out["places"] = final_places(game, sheets)
        if game.options.solo:
            total = sum(sh.total for sh in sheets)
            out["solo"] = {"total": total, "band": solo_band(total)}
    else:
        decision = game.decision
        # In solo one person holds both seats, so either seat's view is the owner's.
        solo = seat is not None and game.options.solo
        mine = seat is not None and (seat in decision.seats or solo)
        out["decision"] = (decision if mine else decision.public()).to_json()
        if solo:
            out["legal_actions"] = [a.to_json() for a in game.legal_actions()]
        elif mine and seat is not None:
            out["legal_actions"] = [a.to_json() for a in game.legal_actions(seat)]
        else:
            out["legal_actions"] = []
    return out


def events_for(events: list[Event], seat: int | None, solo: bool = False) -> list[Event]:
    """`events` as `seat` may see them (hidden cards blanked)."""
    return [e.for_seat(seat, solo) for e in events]
