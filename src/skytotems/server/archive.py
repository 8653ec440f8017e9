"""Finished games: records, replays step by step, statistics and the list of finished tables.

A record holds the seed (and so every card that was hidden), so all of this is served
only once the game is over. The list of finished tables is read from the database,
never from one process's memory.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from typing import Any

from sqlalchemy import Engine

from skytotems import Game, events_for, make_record, view
from skytotems.rules.stats import game_stats

from . import store
from .errors import ServiceError
from .table import Table


def require_finished(table: Table, what: str) -> None:
    if table.status != "finished":
        raise ServiceError("not_finished", what, 409)


def record(table: Table) -> dict[str, Any]:
    """The engine's JSON record; it holds the seed, so only once the game is over."""
    require_finished(table, "the record holds the seed: it is served once the game is over")
    return make_record(table.game)


def replay_steps(table: Table) -> list[dict[str, Any]]:
    """Every step of a finished game, computed in one pass: at effective move m, the
    spectator's view, the action that led there and its events (for the replay viewer)."""
    require_finished(table, "replays come once the game is over")
    moves = len(table.steps)
    game = Game(table.options, table.seed, table.deck)

    def step(move: int, action: Any, events: Any) -> dict[str, Any]:
        return {
            "move": move,
            "moves": moves,
            "action": action,
            "events": [e.to_json() for e in events_for(events, None, table.options.solo)],
            "view": view(game, None),
        }

    steps = [step(0, None, game.setup_events)]
    for index, entry in enumerate(table.steps, start=1):
        steps.append(step(index, entry.action.to_json(), game.apply(entry.action)))
    return steps


class ReplayCache:
    """The replay steps of the `size` most recently replayed finished games, so a viewer
    stepping through a game costs one replay, not one from move 0 per step."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._games: OrderedDict[str, list[dict[str, Any]]] = OrderedDict()

    async def step(self, table: Table, move: int) -> dict[str, Any]:
        """A finished game at effective move `move` (0 to its number of moves)."""
        require_finished(table, "replays come once the game is over")
        moves = len(table.steps)
        if not 0 <= move <= moves:
            raise ServiceError("no_such_move", f"moves go from 0 to {moves}", 404)
        steps = self._games.get(table.id)
        if steps is None:
            steps = await asyncio.to_thread(replay_steps, table)
            self._games[table.id] = steps
            while len(self._games) > max(0, self.size):
                self._games.popitem(last=False)
        else:
            self._games.move_to_end(table.id)
        return steps[move]


def stats(table: Table) -> list[dict[str, Any]]:
    """Per player: totems by kind, pedestals, clouds, cards, points by source."""
    require_finished(table, "statistics come once the game is over")
    return game_stats(table.game)


class Archive:
    """The finished tables in the database (the records page's list)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    async def finished(self, limit: int) -> list[dict[str, Any]]:
        """The newest `limit` finished tables, public facts only."""
        rows = await asyncio.to_thread(self._list, "finished", limit)
        return [
            {
                "id": r["id"],
                "options": r["options"],
                "status": r["status"],
                "clock": r["clock"],
                "seats": r["seats"],
                "created_ms": r["created_ms"],
                "finished_ms": r["finished_ms"],
                "result": r["result"],
            }
            for r in rows
        ]

    def _list(self, status: str, limit: int) -> list[dict[str, Any]]:
        with self.engine.connect() as conn:
            return store.list_tables(conn, status, limit)
