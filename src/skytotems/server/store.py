"""Storage: SQLAlchemy 2 models, repository functions and the group-commit writer.

The action log is append-only with a unique ``(table_id, seq)``; the game in memory is
a cache rebuilt from it. Nothing here is tied to SQLite: the only dialect-specific code
is the pragma hook that turns on WAL for SQLite files; PostgreSQL URLs are driven by
psycopg 3, and its migrations run under an advisory lock so that several processes
starting together migrate once.

Writes go through one `Writer` thread. It drains every queued write into one
transaction (a group commit), so many tables moving at once cost one commit, and it
resolves each caller's future only after that commit: an action is acknowledged only
once it is durable.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import queue
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

import orjson
from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    Connection,
    Engine,
    ForeignKey,
    Integer,
    String,
    Table,
    Text,
    UniqueConstraint,
    bindparam,
    create_engine,
    event,
    false,
    func,
    insert,
    select,
    text,
    true,
    update,
)
from sqlalchemy.engine import URL, make_url
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

# BigInteger ids autoincrement on every database; SQLite only does so for INTEGER.
BigId = BigInteger().with_variant(Integer(), "sqlite")


class Base(DeclarativeBase):
    """Metadata shared by the models and the migrations."""


class DeckRow(Base):
    """A deck file, stored once and shared by every table that played it (by hash)."""

    __tablename__ = "decks"
    id: Mapped[str] = mapped_column(String(64), primary_key=True)
    data: Mapped[dict[str, Any]] = mapped_column(JSON)


class TableRow(Base):
    """A table: its options, the secret seed, status and clocks (the log is apart)."""

    __tablename__ = "tables"
    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    created_ms: Mapped[int] = mapped_column(BigInteger)
    updated_ms: Mapped[int] = mapped_column(BigInteger)
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    deck_id: Mapped[str] = mapped_column(ForeignKey("decks.id"))
    seed: Mapped[int] = mapped_column(BigInteger)
    status: Mapped[str] = mapped_column(String(16), index=True)
    clock: Mapped[str] = mapped_column(String(16))
    clocks: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    result: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    stats: Mapped[list[Any] | None] = mapped_column(JSON, nullable=True)
    finished_ms: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    listed: Mapped[bool] = mapped_column(Boolean, default=True, server_default=true())
    # its idle humans' seats were handed to bots: its result will say "abandoned"
    abandoned: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    # counts every committed change of the table (log entries and the rest): a change is
    # stored only if the version is still the one its process read (see `Guard`)
    version: Mapped[int] = mapped_column(BigInteger, default=0, server_default="0")


class SeatRow(Base):
    """A player at a table: a human (with the hash of its secret token), a bot, or open."""

    __tablename__ = "seats"
    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id"), primary_key=True)
    player: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(40))
    kind: Mapped[str] = mapped_column(String(8))
    level: Mapped[str | None] = mapped_column(String(16), nullable=True)
    token_hash: Mapped[str | None] = mapped_column(String(64), nullable=True)


class ActionRow(Base):
    """One entry of a table's append-only log: an action or an undo."""

    __tablename__ = "actions"
    __table_args__ = (UniqueConstraint("table_id", "seq", name="uq_actions_table_seq"),)
    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id"))
    seq: Mapped[int] = mapped_column(Integer)
    player: Mapped[int | None] = mapped_column(Integer, nullable=True)
    kind: Mapped[str] = mapped_column(String(8))
    data: Mapped[dict[str, Any]] = mapped_column(JSON)
    at_ms: Mapped[int] = mapped_column(BigInteger)


class ChatRow(Base):
    """One chat message of a table: said by a seated player (channel "players") or by a
    spectator (channel "spectators"), kept as plain text."""

    __tablename__ = "chat"
    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id"), index=True)
    at_ms: Mapped[int] = mapped_column(BigInteger)
    player: Mapped[int | None] = mapped_column(Integer, nullable=True)
    channel: Mapped[str] = mapped_column(String(12))
    name: Mapped[str] = mapped_column(String(40))
    text: Mapped[str] = mapped_column(Text)


class AnalysisJobRow(Base):
    """The post-game analysis of one finished table at one level (docs/analysis.md):
    one row per (table, level), shared by everyone who asks. `claimed_by` is the claim of
    the worker computing it (a fresh id per claim) and `heartbeat_ms` when that worker
    last said it was alive; `decisions` holds what is done so far, so a job whose worker
    died is resumed where it stopped."""

    __tablename__ = "analysis_jobs"
    __table_args__ = (UniqueConstraint("table_id", "level", name="uq_analysis_table_level"),)
    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id"))
    level: Mapped[str] = mapped_column(String(16))
    status: Mapped[str] = mapped_column(String(8), index=True)
    done: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    total: Mapped[int | None] = mapped_column(Integer, nullable=True)
    decisions: Mapped[list[Any]] = mapped_column(JSON)
    result: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    error: Mapped[str | None] = mapped_column(Text, nullable=True)
    attempts: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    claimed_by: Mapped[str | None] = mapped_column(String(32), nullable=True)
    heartbeat_ms: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    requested_by: Mapped[str] = mapped_column(String(64), index=True)
    created_ms: Mapped[int] = mapped_column(BigInteger, index=True)
    updated_ms: Mapped[int] = mapped_column(BigInteger)


TABLES = cast(Table, TableRow.__table__)
CHAT = cast(Table, ChatRow.__table__)
SEATS = cast(Table, SeatRow.__table__)
ACTIONS = cast(Table, ActionRow.__table__)
DECKS = cast(Table, DeckRow.__table__)
ANALYSIS_JOBS = cast(Table, AnalysisJobRow.__table__)


def now_ms() -> int:
    """Wall-clock milliseconds, the unit of every stored time."""
    return int(time.time() * 1000)


def deck_id(data: dict[str, Any]) -> str:
    """A deck's id: the hash of its canonical JSON."""
    return hashlib.sha256(orjson.dumps(data, option=orjson.OPT_SORT_KEYS)).hexdigest()


def _json_text(value: Any) -> str:
    return orjson.dumps(value).decode()


# Any constant shared by every skytotems process: the key of the migration lock.
MIGRATION_LOCK_KEY = 0x5B7_707E


def database_url(url: str) -> URL:
    """`url` parsed, with plain `postgresql://` (and `postgres://`) driven by psycopg 3
    rather than SQLAlchemy's default driver (psycopg2, not a dependency)."""
    parsed = make_url(url)
    if parsed.drivername in ("postgresql", "postgres"):
        parsed = parsed.set(drivername="postgresql+psycopg")
    return parsed


# seconds a new PostgreSQL connection may take: an unreachable server is an error soon
# (a refused move, an unready process), not a request hanging on the network
PG_CONNECT_TIMEOUT_S = 5


def make_engine(url: str, sqlite_synchronous: str = "NORMAL") -> Engine:
    """An engine for `url`; SQLite files get WAL so readers never block the writer."""
    parsed = database_url(url)
    connect_args = {}
    if parsed.get_backend_name() == "postgresql" and "connect_timeout" not in parsed.query:
        connect_args["connect_timeout"] = PG_CONNECT_TIMEOUT_S
    engine = create_engine(
        parsed,
        json_serializer=_json_text,
        json_deserializer=orjson.loads,
        pool_pre_ping=True,
        connect_args=connect_args,
    )
    if engine.dialect.name == "sqlite":
        mode = sqlite_synchronous.upper()
        if mode not in ("OFF", "NORMAL", "FULL", "EXTRA"):
            raise ValueError(f"unknown SQLite synchronous mode {sqlite_synchronous!r}")

        @event.listens_for(engine, "connect")
        def _pragmas(dbapi_connection: Any, _record: Any) -> None:
            cursor = dbapi_connection.cursor()
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute(f"PRAGMA synchronous={mode}")
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.execute("PRAGMA busy_timeout=5000")
            cursor.close()

    return engine


def migrate(engine: Engine) -> None:
    """Bring the database to the newest schema with Alembic (run at every start)."""
    from alembic import command
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(Path(__file__).parent / "migrations"))
    # (configparser reads % as interpolation: a URL's escapes must be doubled)
    url = engine.url.render_as_string(hide_password=False).replace("%", "%%")
    config.set_main_option("sqlalchemy.url", url)
    with engine.begin() as connection:
        if engine.dialect.name == "postgresql":  # N processes starting: one migrates
            lock = text("SELECT pg_advisory_xact_lock(:key)")
            connection.execute(lock, {"key": MIGRATION_LOCK_KEY})
        config.attributes["connection"] = connection
        command.upgrade(config, "head")


# ------------------------------------------------------------------ repository


@dataclass(frozen=True, slots=True)
class StoredTable:
    """Everything stored about one table, as read back to rebuild its cache."""

    row: dict[str, Any]
    deck: dict[str, Any]
    seats: list[dict[str, Any]]
    entries: list[dict[str, Any]]
    chat: list[dict[str, Any]] = field(default_factory=list)


def save_deck(conn: Connection, data: dict[str, Any]) -> str:
    """Store a deck unless it is there already; return its id."""
    key = deck_id(data)
    if conn.execute(select(DECKS.c.id).where(DECKS.c.id == key)).first() is None:
        conn.execute(insert(DECKS).values(id=key, data=data))
    return key


def insert_table(conn: Connection, row: dict[str, Any], seats: Sequence[dict[str, Any]]) -> None:
    """A new table and its seats."""
    conn.execute(insert(TABLES).values(**row))
    conn.execute(insert(SEATS), [dict(s, table_id=row["id"]) for s in seats])


def update_table(conn: Connection, table_id: str, **values: Any) -> None:
    conn.execute(update(TABLES).where(TABLES.c.id == table_id).values(**values))


def update_seat(conn: Connection, table_id: str, player: int, **values: Any) -> None:
    conn.execute(
        update(SEATS).where(SEATS.c.table_id == table_id, SEATS.c.player == player).values(**values)
    )


def load_table(conn: Connection, table_id: str) -> StoredTable | None:
    """One table with its seats and its whole log, or None."""
    row = conn.execute(select(TABLES).where(TABLES.c.id == table_id)).mappings().first()
    if row is None:
        return None
    return _complete(conn, dict(row))


def table_version(conn: Connection, table_id: str) -> int | None:
    """The stored version of a table (None: no such table)."""
    version = conn.execute(select(TABLES.c.version).where(TABLES.c.id == table_id)).scalar()
    return None if version is None else int(version)


def load_tables(conn: Connection, statuses: Iterable[str]) -> list[StoredTable]:
    """Every table in one of `statuses` (the server reloads the unfinished ones at start)."""
    rows = conn.execute(
        select(TABLES).where(TABLES.c.status.in_(list(statuses))).order_by(TABLES.c.created_ms)
    ).mappings()
    return [_complete(conn, dict(r)) for r in rows.all()]


def list_tables(conn: Connection, status: str, limit: int) -> list[dict[str, Any]]:
    """Newest tables of a status with their seats, for the lobby and the records list."""
    rows = (
        conn.execute(
            select(
                TABLES.c.id,
                TABLES.c.options,
                TABLES.c.status,
                TABLES.c.clock,
                TABLES.c.created_ms,
                TABLES.c.finished_ms,
                TABLES.c.result,
            )
            .where(TABLES.c.status == status, TABLES.c.listed)
            .order_by(TABLES.c.created_ms.desc())
            .limit(limit)
        )
        .mappings()
        .all()
    )
    out = []
    for r in rows:
        seats = (
            conn.execute(
                select(SEATS.c.player, SEATS.c.name, SEATS.c.kind, SEATS.c.level)
                .where(SEATS.c.table_id == r["id"])
                .order_by(SEATS.c.player)
            )
            .mappings()
            .all()
        )
        out.append(dict(r, seats=[dict(s) for s in seats]))
    return out


# what the lobby reads of a table: its public columns, plus what rebuilding it needs
_LOBBY_COLUMNS = (
    "id", "options", "status", "clock", "created_ms", "finished_ms", "result", "listed",
    "abandoned", "version", "seed", "deck_id",
)  # fmt: skip


def open_listed(conn: Connection, limit: int) -> list[dict[str, Any]]:
    """The newest `limit` listed tables waiting or playing, each with its seats and its
    log's length (`seq`): one statement, so one consistent snapshot of committed data on
    every database (the lobby of every process reads it, not its own memory)."""
    seq = (
        select(func.coalesce(func.max(ACTIONS.c.seq), 0))
        .where(ACTIONS.c.table_id == TABLES.c.id)
        .scalar_subquery()
        .label("seq")
    )
    newest = (
        select(*(TABLES.c[name] for name in _LOBBY_COLUMNS), seq)
        .where(TABLES.c.status.in_(("waiting", "playing")), TABLES.c.listed)
        .order_by(TABLES.c.created_ms.desc(), TABLES.c.id)
        .limit(limit)
        .subquery()
    )
    statement = (
        select(newest, SEATS.c.player, SEATS.c.name, SEATS.c.kind, SEATS.c.level)
        .join(SEATS, SEATS.c.table_id == newest.c.id)
        .order_by(newest.c.created_ms.desc(), newest.c.id, SEATS.c.player)
    )
    tables: dict[str, dict[str, Any]] = {}
    for r in conn.execute(statement).mappings():
        table = tables.get(r["id"])
        if table is None:
            table = tables[r["id"]] = {c: r[c] for c in (*_LOBBY_COLUMNS, "seq")}
            table["seats"] = []
        seat = {"player": r["player"], "name": r["name"], "kind": r["kind"], "level": r["level"]}
        table["seats"].append(dict(seat, token_hash=None))
    return list(tables.values())


def log_prefixes(conn: Connection, lengths: dict[str, int]) -> dict[str, list[dict[str, Any]]]:
    """Each table's first `lengths[table]` log entries (the log is append-only: they are
    the entries it had when that length was read)."""
    out: dict[str, list[dict[str, Any]]] = {table_id: [] for table_id in lengths}
    if not lengths:
        return out
    rows = conn.execute(
        select(
            ACTIONS.c.table_id,
            ACTIONS.c.seq,
            ACTIONS.c.player,
            ACTIONS.c.kind,
            ACTIONS.c.data,
            ACTIONS.c.at_ms,
        )
        .where(ACTIONS.c.table_id.in_(list(lengths)))
        .order_by(ACTIONS.c.table_id, ACTIONS.c.seq)
    ).mappings()
    for r in rows:
        if r["seq"] <= lengths[r["table_id"]]:
            out[r["table_id"]].append({k: r[k] for k in ("seq", "player", "kind", "data", "at_ms")})
    return out


def load_decks(conn: Connection, ids: Iterable[str]) -> dict[str, dict[str, Any]]:
    """Deck files by id."""
    rows = conn.execute(select(DECKS.c.id, DECKS.c.data).where(DECKS.c.id.in_(list(ids))))
    return {str(key): data for key, data in rows}


def _complete(conn: Connection, row: dict[str, Any]) -> StoredTable:
    deck: dict[str, Any] = conn.execute(
        select(DECKS.c.data).where(DECKS.c.id == row["deck_id"])
    ).scalar_one()
    seats = (
        conn.execute(select(SEATS).where(SEATS.c.table_id == row["id"]).order_by(SEATS.c.player))
        .mappings()
        .all()
    )
    entries = (
        conn.execute(
            select(ACTIONS.c.seq, ACTIONS.c.player, ACTIONS.c.kind, ACTIONS.c.data, ACTIONS.c.at_ms)
            .where(ACTIONS.c.table_id == row["id"])
            .order_by(ACTIONS.c.seq)
        )
        .mappings()
        .all()
    )
    return StoredTable(
        row, deck, [dict(s) for s in seats], [dict(e) for e in entries], load_chat(conn, row["id"])
    )


@dataclass(frozen=True, slots=True)
class StoredChanges:
    """What another process may have changed of a table a process holds: its row, its
    seats, its log entries after a seq and (if asked) its last chat messages, all read in
    one snapshot, so they agree with each other."""

    row: dict[str, Any]
    seats: list[dict[str, Any]]
    entries: list[dict[str, Any]]
    chat: list[dict[str, Any]] | None


def load_changes(
    conn: Connection, table_id: str, after_seq: int, chat: int | None = None
) -> StoredChanges | None:
    """A table's row and seats, its log entries after `after_seq` and, unless `chat` is
    None, its last `chat` chat messages; None if there is no such table. The caller runs
    it in one transaction (`read_snapshot`)."""
    row = conn.execute(select(TABLES).where(TABLES.c.id == table_id)).mappings().first()
    if row is None:
        return None
    seats = (
        conn.execute(select(SEATS).where(SEATS.c.table_id == table_id).order_by(SEATS.c.player))
        .mappings()
        .all()
    )
    entries = (
        conn.execute(
            select(ACTIONS.c.seq, ACTIONS.c.player, ACTIONS.c.kind, ACTIONS.c.data, ACTIONS.c.at_ms)
            .where(ACTIONS.c.table_id == table_id, ACTIONS.c.seq > after_seq)
            .order_by(ACTIONS.c.seq)
        )
        .mappings()
        .all()
    )
    return StoredChanges(
        dict(row),
        [dict(s) for s in seats],
        [dict(e) for e in entries],
        None if chat is None else load_chat(conn, table_id, chat),
    )


def read_snapshot(engine: Engine, fn: Callable[[Connection], Any]) -> Any:
    """`fn` in one transaction that sees one state of the database (PostgreSQL: REPEATABLE
    READ, as several processes write at once; a SQLite file has one server process, whose
    table lock keeps its own writes of the table out while it reads)."""
    with engine.connect() as conn:
        if engine.dialect.name == "postgresql":
            conn = conn.execution_options(isolation_level="REPEATABLE READ")
        with conn.begin():
            return fn(conn)


def insert_chat(conn: Connection, row: dict[str, Any]) -> int:
    """Store one chat message; returns its id (the order of the table's chat)."""
    key = conn.execute(insert(CHAT).values(**row)).inserted_primary_key
    assert key is not None
    return int(key[0])


def load_chat(conn: Connection, table_id: str, limit: int = 200) -> list[dict[str, Any]]:
    """The last `limit` chat messages of a table, oldest first."""
    rows = (
        conn.execute(
            select(CHAT.c.id, CHAT.c.at_ms, CHAT.c.player, CHAT.c.channel, CHAT.c.name, CHAT.c.text)
            .where(CHAT.c.table_id == table_id)
            .order_by(CHAT.c.id.desc())
            .limit(limit)
        )
        .mappings()
        .all()
    )
    return [dict(r) for r in reversed(rows)]


# ---------------------------------------------------------------------- writer

_STOP = object()
INSERT_ENTRY = insert(ACTIONS)


class Conflict(Exception):
    """The table changed in the database since this process read it (another process
    stored a change first): nothing of the write was stored."""


@dataclass(frozen=True, slots=True)
class Guard:
    """The condition and the table columns of a change: stored only if the table's
    `version` is still `version` (then it counts one more); else `Conflict`.

    Every change of a table carries one, so of two processes changing one table from the
    same version exactly one succeeds (PostgreSQL re-checks the condition once the other
    transaction holding the row ends)."""

    table_id: str
    version: int
    values: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Write:
    """One unit of work: log entries to append, the table's guarded change, then an
    optional function of the connection."""

    entries: tuple[dict[str, Any], ...] = ()
    fn: Callable[[Connection], Any] | None = None
    guard: Guard | None = None


def store_if_current(conn: Connection, table_id: str, version: int, **values: Any) -> bool:
    """Update a table's columns without counting a change, if it is still at `version`
    (the clocks' heartbeat: a process whose copy is out of date stores nothing)."""
    statement = update(TABLES).where(TABLES.c.id == table_id, TABLES.c.version == version)
    return conn.execute(statement.values(**values)).rowcount == 1


class Writer:
    """One thread that commits queued writes in groups and resolves futures after commit.

    Every write queued while a commit runs joins the next transaction; log entries of
    the group go in one multi-row insert and guards of the same shape in one batch (the
    lean path of a busy server). If a group fails (a `Conflict`, a broken connection),
    each write is retried in its own transaction so one bad write cannot sink the others.
    """

    def __init__(self, engine: Engine, max_group: int = 512) -> None:
        self.engine = engine
        self.max_group = max_group
        self._queue: queue.SimpleQueue[Any] = queue.SimpleQueue()
        self._thread = threading.Thread(target=self._run, name="skytotems-writer", daemon=True)
        self._loop: asyncio.AbstractEventLoop | None = None
        self.commits = 0
        self.writes = 0

    @property
    def backlog(self) -> int:
        """Writes queued and not yet taken into a commit (a gauge of /metrics)."""
        return self._queue.qsize()

    def start(self, loop: asyncio.AbstractEventLoop) -> None:
        self._loop = loop
        self._thread.start()

    def submit(self, write: Write) -> asyncio.Future[Any]:
        """Queue a write; the future resolves once it is committed (or fails)."""
        assert self._loop is not None, "the writer is not started"
        future: asyncio.Future[Any] = self._loop.create_future()
        self._queue.put((write, future))
        return future

    def stop(self) -> None:
        """Commit what is queued, then end the thread."""
        if self._thread.is_alive():
            self._queue.put(_STOP)
            self._thread.join()

    def _run(self) -> None:
        conn: Connection | None = None
        try:
            while True:
                item = self._queue.get()
                if item is _STOP:
                    return
                group = [item]
                stop = False
                while len(group) < self.max_group:
                    try:
                        more = self._queue.get_nowait()
                    except queue.Empty:
                        break
                    if more is _STOP:
                        stop = True
                        break
                    group.append(more)
                conn = self._commit(conn, group)
                if stop:
                    return
        finally:
            if conn is not None:
                with contextlib.suppress(Exception):
                    conn.close()

    def _commit(
        self, conn: Connection | None, group: list[tuple[Write, asyncio.Future[Any]]]
    ) -> Connection | None:
        """Commit `group`; returns the connection to keep (None after it broke: one
        connection is kept between groups, with no pool round trip, until it fails)."""
        outcomes: list[tuple[asyncio.Future[Any], bool, Any]] = []
        try:
            conn = conn or self.engine.connect()
            with conn.begin():
                results = _execute(conn, [w for w, _ in group])
            outcomes = [(fut, True, r) for (_, fut), r in zip(group, results, strict=True)]
            self.commits += 1
        except Exception:
            conn = _healthy(conn)
            for write, fut in group:
                try:
                    conn = conn or self.engine.connect()
                    with conn.begin():
                        outcomes.append((fut, True, _execute(conn, [write])[0]))
                    self.commits += 1
                except Exception as exc:
                    conn = _healthy(conn)
                    outcomes.append((fut, False, _conflict_or(exc)))
        self.writes += len(group)
        assert self._loop is not None
        with contextlib.suppress(RuntimeError):  # a closed loop: nobody waits any more
            self._loop.call_soon_threadsafe(_resolve, outcomes)
        return conn


def _healthy(conn: Connection | None) -> Connection | None:
    """`conn` if it still works after a failed transaction, else None (closed)."""
    if conn is not None and conn.invalidated:
        with contextlib.suppress(Exception):
            conn.close()
        return None
    return conn


def _conflict_or(exc: Exception) -> Exception:
    """A duplicate `(table, seq)` is a `Conflict`: another process appended that entry."""
    if isinstance(exc, IntegrityError) and "uq_actions_table_seq" in str(exc.orig):
        return Conflict(str(exc.orig))
    if isinstance(exc, IntegrityError) and "actions.table_id, actions.seq" in str(exc.orig):
        return Conflict(str(exc.orig))  # SQLite names the columns, not the constraint
    return exc


def _execute(conn: Connection, writes: list[Write]) -> list[Any]:
    """Run a group of writes: every log entry in one insert, the guards batched by the
    columns they set (a short count is a `Conflict`), then each write's function."""
    entries = [e for w in writes for e in w.entries]
    if entries:
        entries.sort(key=lambda e: (e["table_id"], e["seq"]))  # one lock order everywhere
        conn.execute(INSERT_ENTRY, entries)
    by_shape: dict[tuple[str, ...], list[dict[str, Any]]] = {}
    for write in writes:
        if write.guard is not None:
            guard = write.guard
            params = {"_id": guard.table_id, "_version": guard.version, **guard.values}
            by_shape.setdefault(tuple(sorted(guard.values)), []).append(params)
    for shape, rows in sorted(by_shape.items()):
        statement = (
            update(TABLES)
            .where(TABLES.c.id == bindparam("_id"), TABLES.c.version == bindparam("_version"))
            .values(version=TABLES.c.version + 1, **{c: bindparam(c) for c in shape})
        )
        rows.sort(key=lambda r: str(r["_id"]))
        if conn.execute(statement, rows).rowcount != len(rows):
            raise Conflict("a table changed since it was read")
    return [write.fn(conn) if write.fn is not None else None for write in writes]


def _resolve(outcomes: list[tuple[asyncio.Future[Any], bool, Any]]) -> None:
    for future, ok, value in outcomes:
        if future.done():
            continue
        if ok:
            future.set_result(value)
        else:
            future.set_exception(value)
