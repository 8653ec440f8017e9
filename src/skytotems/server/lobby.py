"""The lobby's open tables, read from the database, never from this process's memory.

With several processes on one database a table lives in the memory of the processes
that serve it, not of every process: the list of open tables, their seats and status
come from one read of the stored tables. What only the game knows (its effective
moves, whose turn it is) is taken from this process's copy when that copy is at the
stored version, else from the stored log replayed once per version and kept.
"""

from __future__ import annotations

import asyncio
from typing import Any

from sqlalchemy import Engine

from skytotems import Deck

from . import store
from .cache import TableCache
from .table import Table


class Lobby:
    """Summaries of the newest listed open tables, as committed in the database."""

    def __init__(self, engine: Engine, tables: TableCache) -> None:
        self.engine = engine
        self.tables = tables
        # table id -> (stored version, its summary): a summary replayed from the log
        self._replayed: dict[str, tuple[int, dict[str, Any]]] = {}
        self._decks: dict[str, Deck] = {}

    async def open_tables(self, limit: int) -> list[dict[str, Any]]:
        """The newest `limit` listed tables waiting or playing, newest first."""
        rows = await asyncio.to_thread(self._read, lambda c: store.open_listed(c, limit))
        summaries: dict[str, dict[str, Any]] = {}
        missing: dict[str, dict[str, Any]] = {}
        for row in rows:
            summary = self._known(row)
            if summary is None:
                missing[row["id"]] = row
            else:
                summaries[row["id"]] = summary
        if missing:
            replayed = await asyncio.to_thread(self._replay, missing)
            for table_id, (version, summary) in replayed.items():
                self._replayed[table_id] = (version, summary)
                summaries[table_id] = summary
        # kept for the tables still listed only: bounded by the largest `limit`
        if len(self._replayed) > 2 * len(rows):
            self._replayed = {k: v for k, v in self._replayed.items() if k in summaries}
        return [summaries[row["id"]] for row in rows]

    def _known(self, row: dict[str, Any]) -> dict[str, Any] | None:
        """The summary at the row's version without reading the log, if at hand: this
        process's copy at that version with no change in flight, or one replayed before."""
        version = int(row["version"])
        held = self.tables.held(row["id"])
        if (
            held is not None
            and held.version == version
            and held.seq == row["seq"]
            and not held.lock.locked()
        ):
            return held.summary()
        replayed = self._replayed.get(row["id"])
        if replayed is not None and replayed[0] == version:
            return replayed[1]
        return None

    def _replay(self, rows: dict[str, dict[str, Any]]) -> dict[str, tuple[int, dict[str, Any]]]:
        """Each table rebuilt from its stored rows and log: (version, summary) by id (a
        blocking read; decks are parsed once and kept)."""
        with self.engine.connect() as conn:
            logs = store.log_prefixes(conn, {k: int(r["seq"]) for k, r in rows.items()})
            unknown = {r["deck_id"] for r in rows.values()} - self._decks.keys()
            decks = store.load_decks(conn, unknown)
        for deck_id, data in decks.items():
            self._decks.setdefault(deck_id, Deck.from_json(data))
        out = {}
        for table_id, row in rows.items():
            stored = store.StoredTable(dict(row, clocks=None), {}, row["seats"], logs[table_id])
            table = Table.rebuild(stored, self._decks[row["deck_id"]], clock_scale=1.0)
            out[table_id] = (int(row["version"]), table.summary())
        return out

    def _read(self, fn: Any) -> Any:
        with self.engine.connect() as conn:
            return fn(conn)
