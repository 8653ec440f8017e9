"""The tables this process holds in memory, each loaded from the database at most once.

Open tables (waiting or playing) stay in memory while they are open; closed ones
(finished or expired) are kept in a small cache of the most recently used. A table not
in memory is read back and rebuilt from its log (`Table.rebuild`); several requests for
it at once share one load. Decks are kept once per deck id.
"""

from __future__ import annotations

import asyncio
import re
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

from sqlalchemy import Connection, Engine
from sqlalchemy.exc import OperationalError

from skytotems import Deck, default_deck

from . import store
from .errors import not_found, storage_unreachable
from .table import CLOSED, Table

# what a table id can be (`secrets.token_urlsafe`, with room); anything else names no table
TABLE_ID = re.compile(r"[A-Za-z0-9_-]{1,32}")


class TableCache:
    """Open tables by id, the recently used closed ones, and the loads under way."""

    def __init__(self, engine: Engine, clock_scale: float, finished_size: int) -> None:
        self.engine = engine
        self.clock_scale = clock_scale
        self.finished_size = finished_size
        self.active: dict[str, Table] = {}
        self.finished: OrderedDict[str, Table] = OrderedDict()
        self._decks: dict[str, Deck] = {}
        self._default: tuple[Deck, str, dict[str, Any]] | None = None
        self._loading: dict[str, asyncio.Future[Table | None]] = {}

    def __len__(self) -> int:
        return len(self.active) + len(self.finished)

    async def load_unfinished(self) -> list[Table]:
        """Load every table still waiting or playing (at start); returns them."""
        stored = await asyncio.to_thread(
            self._read, lambda c: store.load_tables(c, ("waiting", "playing"))
        )
        tables = [self._rebuild(item) for item in stored]
        for table in tables:
            self.active[table.id] = table
        return tables

    def holds(self, table_id: str) -> bool:
        """Whether this process has the table in memory (or is loading it)."""
        return table_id in self.active or table_id in self.finished or table_id in self._loading

    def held(self, table_id: str) -> Table | None:
        """The table if it is in memory (never loaded for the asking); a copy replaced by
        a read-back is outdated."""
        return self.active.get(table_id) or self.finished.get(table_id)

    def stored_version(self, table_id: str) -> int | None:
        """The stored table's version (a blocking read: call it in a thread)."""
        version: int | None = self._read(lambda c: store.table_version(c, table_id))
        return version

    def forget(self, table_id: str) -> None:
        """Drop a table from memory (its next `get` reads it back from the database)."""
        self.active.pop(table_id, None)
        self.finished.pop(table_id, None)

    def _read(self, fn: Callable[[Connection], Any]) -> Any:
        with self.engine.connect() as conn:
            return fn(conn)

    def _rebuild(self, stored: store.StoredTable) -> Table:
        deck_id = stored.row["deck_id"]
        deck = self._decks.get(deck_id)
        if deck is None:
            deck = self._decks[deck_id] = Deck.from_json(stored.deck)
        return Table.rebuild(stored, deck, self.clock_scale)

    async def get(self, table_id: str) -> Table:
        """The table (from memory, or loaded once from the database); 404 if none."""
        # by where the table is kept, not by its status: a status changes (to finished,
        # to expired) before its commit ends and the table moves to the finished cache
        table = self.active.get(table_id)
        if table is None:
            table = self.finished.get(table_id)
            if table is not None:
                self.finished.move_to_end(table_id)
        if table is not None:
            return table
        if not TABLE_ID.fullmatch(table_id):
            raise not_found()  # never sent to the database (PostgreSQL refuses U+0000)
        pending = self._loading.get(table_id)
        if pending is None:
            pending = self._loading[table_id] = asyncio.get_running_loop().create_future()
            try:
                try:
                    stored = await asyncio.to_thread(
                        self._read, lambda c: store.load_table(c, table_id)
                    )
                except OperationalError:
                    raise storage_unreachable() from None
                loaded = None if stored is None else self._rebuild(stored)
                if loaded is not None:
                    self.remember(loaded)
                pending.set_result(loaded)
            except Exception as exc:
                pending.set_exception(exc)
                pending.exception()  # raised here; waiters, if any, get it through shield
                raise
            finally:
                del self._loading[table_id]
        found = await asyncio.shield(pending)
        if found is None:
            raise not_found()
        return found

    def remember(self, table: Table) -> None:
        """Keep `table`: among the open tables, or (closed) among the recent finished."""
        if table.status in CLOSED:
            self.active.pop(table.id, None)
            self.finished[table.id] = table
            while len(self.finished) > self.finished_size:
                self.finished.popitem(last=False)
        else:
            self.active[table.id] = table

    def default_deck(self) -> tuple[Deck, str, dict[str, Any]]:
        """The packaged deck, its id and its JSON (computed once)."""
        if self._default is None:
            deck = default_deck()
            data = deck.to_json()
            key = store.deck_id(data)
            self._default = (self._decks.setdefault(key, deck), key, data)
        return self._default
