"""The table service: the only code that changes a table (create, join, cancel, expire,
play, undo, take-over).

Every change follows the same path under the table's lock: check it, apply it to the
cached game, commit it through the writer, and only then publish it through the
`Publisher` (an action is acknowledged only after its commit). Every commit is guarded
by the table's version (`store.Guard`; a log entry also by the unique `(table, seq)`),
so with several processes on one database, a change made on a copy older than the
stored table is refused: the copy is read back, everyone here is sent what was stored
since the state they were shown (the other process's entries' events), and the change
is tried again on it (a move made on a view that is now out of date is answered
`stale`). If the commit fails otherwise, the cache is rebuilt from the database and the
sender gets an error. What other processes stored is folded into the copies here
(`catch_up`), on their notice through the Redis bus or at the lease survey. The work no
player's message drives (bot moves, clocks) listens to changes (`autoplay.Autoplay`) on
the tables whose lease this process holds (`leases`); the tables in memory are kept by
`cache.TableCache`.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import secrets
import time
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from sqlalchemy import Connection, Engine

from skytotems import (
    Action,
    Event,
    Game,
    GameOptions,
    IllegalAction,
    MalformedAction,
    OptionsError,
    action_from_json,
    final_places,
    score_sheet,
)
from skytotems.rules.events import TurnStarted
from skytotems.rules.scoring import solo_band
from skytotems.rules.stats import game_stats
from skytotems.rules.undo import blocks_undo

from . import store
from .bots import BOT_LEVELS
from .bus import GuardedPublisher, Publisher
from .cache import TableCache
from .catchup import fold_changes, from_notice
from .clocks import CLOCK_MODES, Clocks, time_out_notice
from .errors import ServiceError, expired_error
from .leases import Leases, LocalLeases
from .metrics import NO_METRICS, ServiceMetrics
from .settings import Settings
from .table import CLOSED, Player, Step, Table, hash_token

log = logging.getLogger("skytotems.server")

# the shortest clock limit (the fast real-time bank), for the idle sweep's period
FASTEST_CLOCK_MS = min(m.bank for m in CLOCK_MODES.values() if m is not None)

# Called after every change of a table, once it is committed and published.
ChangeListener = Callable[[Table], None]
T = TypeVar("T")

# How many times a change refused for an outdated copy is tried again on a fresh one.
CONFLICT_RETRIES = 3


class Outdated(ServiceError):
    """The table in memory is older than the stored one (another process changed it):
    it was read back; the change is tried again on the fresh copy."""

    def __init__(self) -> None:
        super().__init__(
            "stale", "the table changed meanwhile (another server stored a change first)", 409
        )


class TableService:
    """Every table of this server process; the only code that changes a table."""

    def __init__(
        self,
        settings: Settings,
        engine: Engine,
        writer: store.Writer,
        publisher: Publisher,
        leases: Leases | None = None,
        local: Publisher | None = None,
    ) -> None:
        """`publisher` announces this process's changes (to every process, with several);
        `local` shows this process's sockets what it learns from the database."""
        self.settings = settings
        self.writer = writer
        self.publisher = GuardedPublisher(publisher)
        self.leases: Leases = leases or LocalLeases()
        self.local = GuardedPublisher(local) if local is not None else self.publisher
        self.listeners: list[ChangeListener] = []
        self.metrics: ServiceMetrics = NO_METRICS  # the app's /metrics, when it serves them
        self.tables = TableCache(engine, settings.clock_scale, settings.finished_cache_size)
        self._sweeper: asyncio.Task[None] | None = None
        self._unloaded: set[str] = set()  # tables to read back once the database answers
        self._recoverer: asyncio.Task[None] | None = None
        self._closing = False

    # ---------------------------------------------------------------- loading

    async def start(self) -> None:
        """Alone on the database (local leases): reload every unfinished table, whose
        bots and clocks pick up where they were. With shared leases, the lease keeper
        adopts the tables nobody drives instead."""
        if isinstance(self.leases, LocalLeases):
            resumed = await self.tables.load_unfinished()
            for table in resumed:
                await self._adopted(table)
            log.info("skytotems: %d unfinished table(s) resumed", len(resumed))
        await self.expire_waiting()
        self._sweeper = asyncio.get_running_loop().create_task(self._sweep_waiting())

    async def close(self) -> None:
        """Stop changing tables on our own (the expiry sweep; listeners hear no more)."""
        self._closing = True
        tasks = [t for t in (self._sweeper, self._recoverer) if t is not None]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    async def get(self, table_id: str) -> Table:
        """The table (from memory, or loaded once from the database); 404 if none."""
        return await self.tables.get(table_id)

    async def committed(self, table_id: str) -> Table:
        """The table with no change in flight, so everything read from it is committed.

        A change applies to the cached table, then commits, under the table's lock (its
        status turns `finished` before the final entry is durable): waiting for the lock
        means a reader never serves a record, result or view that a crash could undo. The
        caller must read the table before its next await."""
        while True:
            table = await self.get(table_id)
            async with table.lock:
                pass
            if self.tables.held(table_id) is table:
                return table
            # the commit failed and the table was read back from the store: use that one

    async def _reload(self, table: Table, shown_seq: int | None = None) -> Table | None:
        """After a failed commit, or a change stored by another process: forget the cache
        and read the table back, now or (the database unreachable) as soon as it answers
        again, so that its bots and clocks resume by themselves once it is back. This
        process's sockets, which were shown `shown_seq`, get what the log holds since (or,
        without it, start again from the stored state). Returns the fresh copy (None:
        left to the recovery)."""
        if self.tables.held(table.id) is table:
            self.tables.forget(table.id)
        if table.timer is not None:  # the fresh copy's clocks arm their own
            table.timer.cancel()
        try:
            fresh = await self.get(table.id)
        except ServiceError as exc:
            if exc.code != "storage":
                raise
            self._unloaded.add(table.id)
            if self._recoverer is None or self._recoverer.done():
                self._recoverer = asyncio.get_running_loop().create_task(self._recover())
            return None
        self._reloaded(fresh, shown_seq)
        return fresh

    def _reloaded(self, fresh: Table, shown_seq: int | None = None) -> None:
        events = None if shown_seq is None else fresh.events_since(shown_seq)
        if events is not None and shown_seq == 0:  # the deal was shown with the first view
            events = events[len(fresh.game.setup_events) :]
        self.local.publish(fresh, events or [], [], reset=events is None)
        self._after_change(fresh)

    async def _recover(self, retry_s: float = 0.5) -> None:
        """Read back the tables whose reload failed, once the database answers again (one
        task for them all: an unreachable database is asked once per `retry_s`)."""
        while self._unloaded and not self._closing:
            await asyncio.sleep(retry_s)
            for table_id in sorted(self._unloaded):
                try:
                    fresh = await self.get(table_id)
                except ServiceError as exc:
                    if exc.code == "storage":
                        break  # still unreachable: wait and try again
                    self._unloaded.discard(table_id)
                    continue
                self._unloaded.discard(table_id)
                self._reloaded(fresh)

    async def _retrying(self, table: Table, change: Callable[[Table], Awaitable[T]]) -> T:
        """`change(table)`, tried again on the fresh copy while it finds `table` outdated."""
        for _ in range(CONFLICT_RETRIES):
            try:
                return await change(table)
            except Outdated:
                table = await self.get(table.id)
        return await change(table)

    def _check_current(self, table: Table) -> None:
        """Under the table's lock: refuse a copy that was replaced (read back) meanwhile."""
        if self.tables.held(table.id) is not table:
            raise Outdated()

    # ---------------------------------------------------------------- leases

    async def adopt(self, table_id: str) -> None:
        """This process just took the lease of `table_id`: bring it up to date, resume its
        clocks and drive its bots and clocks."""
        table = await self.get(table_id)
        fresh = await asyncio.to_thread(self.tables.stored_version, table_id)
        if fresh is not None and fresh > table.version:
            await self.catch_up(table_id, version=fresh)
        await self._adopted(self.tables.held(table_id) or table)

    async def _adopted(self, table: Table) -> None:
        """Resume the clocks of a table this process now drives (the time since they were
        last known to run, its previous holder's downtime, is charged to nobody); stored
        so that every process counts from the same state."""

        async def resume(table: Table) -> None:
            async with table.lock:
                self._check_current(table)
                if table.clocks is None or table.status != "playing":
                    return
                table.clocks.resume(store.now_ms())
                guard = store.Guard(table.id, table.version, {"clocks": table.clocks.to_json()})
                await self._commit(table, store.Write(guard=guard))
                self.publisher.publish(table, [], [])  # the clocks as they run again

        try:
            await self._retrying(table, resume)
        except ServiceError as exc:
            log.warning("skytotems: resuming the clocks of %s failed: %s", table.id, exc.message)
        self._after_change(self.tables.held(table.id) or table)

    async def refresh(self, open_versions: dict[str, int]) -> None:
        """Catch the tables in memory up with the stored ones (`open_versions`: each open
        table's stored version, as the lease keeper read them): their sockets are shown
        the new entries' events, as with a notice on the bus (`catch_up`)."""
        for table in list(self.tables.active.values()):
            stored = open_versions.get(table.id)
            if stored is None:  # closed since, or created after that read: ask again
                stored = await asyncio.to_thread(self.tables.stored_version, table.id)
            if stored is None or stored <= table.version:
                continue
            with contextlib.suppress(ServiceError):
                await self.catch_up(table.id, version=stored)
        for table_id in open_versions:
            if self.leases.holds(table_id) and self.tables.held(table_id) is None:
                await self.adopt(table_id)  # a key shared with a table held already
        self.metrics.leases(self.leases.count)

    def leases_lost(self) -> None:
        """The leases are gone (their connection broke): stop driving every table."""
        self.metrics.leases(0)
        for table in list(self.tables.active.values()):
            self._after_change(table)

    # ------------------------------------------------------------ catching up

    async def catch_up(
        self,
        table_id: str,
        notices: list[dict[str, Any]] | None = None,
        chat: bool = False,
        seq: int | None = None,
        version: int | None = None,
        change: dict[str, Any] | None = None,
    ) -> None:
        """Bring this process's copy of a table (if it holds one) up to the database after
        another process changed it (up to `seq`, or to the stored `version`, or anything),
        and show this process's sockets the new entries, in seq order, with that
        process's `notices` (and, when `chat`, the chat said there), through the local
        hub only (the other processes read the database themselves). The `change` sent
        with the notification (`catchup.stored_change`) is folded without reading the
        database when this copy is at the version it was made on."""
        if not self.tables.holds(table_id):
            return
        notices = notices or []
        while True:
            table = await self.get(table_id)
            async with table.lock:
                if self.tables.held(table_id) is not table:
                    continue  # read back meanwhile: catch up the copy now held
                if seq is not None and seq <= table.seq and not notices and not chat:
                    return  # a move this copy already holds (read with an earlier one)
                if version is not None and version <= table.version:
                    return  # a change this copy already holds
                history = self.settings.chat_history if chat else None
                changes = None if change is None or chat else from_notice(table, change)
                if changes is None:
                    read = functools.partial(
                        store.load_changes, table_id=table_id, after_seq=table.seq, chat=history
                    )
                    changes = await asyncio.to_thread(store.read_snapshot, self.tables.engine, read)
                if changes is None:
                    return
                shown_seq = table.seq
                caught = fold_changes(table, changes, self.settings.clock_scale, history or 0)
                if caught is None:
                    await self._reload(table, shown_seq)
                    return
                if caught.entries or caught.changed or notices:
                    self.local.publish(table, caught.events, notices, reset=caught.reset)
                for message in caught.chat:
                    self.local.publish_chat(table, message)
                if table.status in CLOSED:
                    self.tables.remember(table)
            if caught.entries or caught.changed:
                self._after_change(table)
            return

    # --------------------------------------------------------------- expiring

    async def expire_waiting(self) -> int:
        """Close every table still waiting for players `waiting_expiry_s` after its
        creation: it leaves the lobby and memory, and can no longer be joined."""
        limit_ms = self.settings.waiting_expiry_s * 1000
        now = store.now_ms()
        stale = [
            t
            for t in self.tables.active.values()
            if t.status == "waiting" and now - t.created_ms >= limit_ms and self.leases.holds(t.id)
        ]
        closed = 0
        for table in stale:
            async with table.lock:
                if table.status != "waiting" or self.tables.held(table.id) is not table:
                    continue
                try:
                    await self._close_waiting(table, now, {"type": "table_expired"})
                except ServiceError:
                    continue  # reloaded as it was stored; the next sweep tries again
            closed += 1
        if closed:
            log.info("skytotems: %d table(s) expired without starting", closed)
        return closed

    async def cancel(self, table: Table, player: int) -> None:
        """`player` (seated, checked by the caller) closes their table before its game
        starts, as an expiry would: it leaves the lobby and refuses joins and moves."""
        await self._retrying(table, lambda t: self._cancel(t, player))

    async def _cancel(self, table: Table, player: int) -> None:
        async with table.lock:
            self._check_current(table)
            if table.status == "expired":
                raise expired_error(410)
            if table.status != "waiting":
                raise ServiceError(
                    "started", "this game has started: only a waiting table can be cancelled", 409
                )
            await self._close_waiting(
                table, store.now_ms(), {"type": "table_cancelled", "player": player}
            )

    async def _close_waiting(self, table: Table, now: int, notice: dict[str, Any]) -> None:
        """Waiting → expired, stored, then told to everyone watching (`notice`) and moved
        out of the open tables. The caller holds the table's lock."""
        table.status = "expired"
        values = {"status": "expired", "updated_ms": now}
        await self._commit(table, store.Write(guard=store.Guard(table.id, table.version, values)))
        self.publisher.publish(table, [], [notice])
        self.tables.remember(table)

    async def _sweep_waiting(self) -> None:
        """Expire waiting tables and abandon idle ones every so often (a tenth of the
        shortest limit, at most hourly)."""
        limits = [
            self.settings.waiting_expiry_s,
            self.settings.idle_without_clock_s,
            self.settings.idle_clock_limits * FASTEST_CLOCK_MS / 1000 * self.settings.clock_scale,
        ]
        period = min(3600.0, max(0.05, min(limits) / 10))
        while not self._closing:
            await asyncio.sleep(period)
            try:
                await self.expire_waiting()
                await self.abandon_idle()
            except Exception:
                log.exception("skytotems: expiring waiting or idle tables failed")

    # ------------------------------------------------------------- abandoning

    def is_idle(self, table: Table, now: int) -> bool:
        """Whether a playing table's humans have stopped playing: no human has acted for
        `idle_without_clock_s` (no clock) or `idle_clock_limits` times the clock's limit
        (a turn-based move limit, a real-time starting bank), or, on a real-time clock,
        every human is out of time."""
        humans = [p.index for p in table.players if p.kind == "human"]
        if table.status != "playing" or not humans:
            return False
        quiet_ms = now - max(table.human_active_ms, table.created_ms)
        if table.clocks is None:
            return quiet_ms >= self.settings.idle_without_clock_s * 1000
        clocks = table.clocks
        if not clocks.mode.turn_based and all(clocks.expired(p, now) for p in humans):
            return True
        return quiet_ms >= self.settings.idle_clock_limits * clocks.bank_start

    async def abandon_if_idle(self, table: Table) -> bool:
        """If `table` is idle (`is_idle`), hand every human seat to the take-over bot: the
        game is played out, its result marked abandoned, and its players are told
        (`taken_over` for each seat, then `table_abandoned`). The clocks' time-out
        handling calls this too."""
        return await self._retrying(table, self._abandon_if_idle)

    async def _abandon_if_idle(self, table: Table) -> bool:
        async with table.lock:
            self._check_current(table)
            now = store.now_ms()
            if not self.is_idle(table, now):
                return False
            seats = [p for p in table.players if p.kind == "human"]
            level = self.settings.takeover_level
            for player in seats:
                player.kind, player.level = "bot", level
            table.abandoned = True
            # a player whose time ran out just now (before the timer said so) is told too
            timed_out = []
            if table.clocks is not None:
                timed_out = table.clocks.update(table.clocked_players(), set(), now)
            clocks = table.clocks.to_json() if table.clocks else None
            indexes = [p.index for p in seats]

            def write(c: Connection) -> None:
                for index in indexes:
                    store.update_seat(c, table.id, index, kind="bot", level=level)

            values = {"clocks": clocks, "abandoned": True, "updated_ms": now}
            guard = store.Guard(table.id, table.version, values)
            await self._commit(table, store.Write(fn=write, guard=guard))
            taken = [
                {"type": "taken_over", "player": i, "level": level, "automatic": True}
                for i in indexes
            ]
            abandoned = {"type": "table_abandoned", "players": indexes, "level": level}
            notices = [*(time_out_notice(p) for p in timed_out), *taken, abandoned]
            self.publisher.publish(table, [], notices)
        log.info("skytotems: table %s abandoned by its humans; bots play it out", table.id)
        self._after_change(table)
        return True

    async def abandon_idle(self) -> int:
        """`abandon_if_idle` for every playing table; how many were abandoned."""
        now = store.now_ms()
        idle = [
            t
            for t in self.tables.active.values()
            if self.is_idle(t, now) and self.leases.holds(t.id)
        ]
        abandoned = 0
        for table in idle:
            try:
                abandoned += await self.abandon_if_idle(table)
            except ServiceError:
                continue  # reloaded as it was stored; the next sweep tries again
        return abandoned

    # --------------------------------------------------------------- creating

    async def create(
        self,
        options_json: dict[str, Any],
        seats: list[dict[str, Any]],
        clock: str,
        listed: bool = True,
    ) -> tuple[Table, list[tuple[int, str]]]:
        """A new table; returns it and the secret token of each human seat."""
        try:
            options = GameOptions.from_json(options_json)
        except OptionsError as exc:
            raise ServiceError("bad_options", str(exc), 422) from None
        if len(seats) != options.players:
            raise ServiceError(
                "bad_seats",
                f"{options.players} player(s) need {options.players} seat(s), got {len(seats)}",
                422,
            )
        deck, deck_key, deck_json = self.tables.default_deck()
        seed = secrets.randbits(63)
        try:
            game = Game(options, seed, deck)
        except OptionsError as exc:
            raise ServiceError("bad_options", str(exc), 422) from None
        players: list[Player] = []
        tokens: list[tuple[int, str]] = []
        for index, seat in enumerate(seats):
            kind = seat["type"]
            if kind == "bot":
                level = seat.get("level") or self.settings.takeover_level
                if level not in BOT_LEVELS:
                    raise ServiceError("bad_seats", f"unknown bot level {level!r}", 422)
                players.append(Player(index, seat.get("name") or f"Bot ({level})", "bot", level))
            elif kind == "human":
                token = secrets.token_urlsafe(24)
                tokens.append((index, token))
                name = seat.get("name") or f"Player {index + 1}"
                players.append(Player(index, name, "human", None, hash_token(token)))
            else:
                players.append(Player(index, seat.get("name") or "", "open"))
        now = store.now_ms()
        mode = CLOCK_MODES[clock]
        table = Table(
            id=secrets.token_urlsafe(9),
            options=options,
            seed=seed,
            deck_id=deck_key,
            deck=deck,
            clock=clock,
            status="waiting",
            created_ms=now,
            players=players,
            game=game,
            clocks=None if mode is None else Clocks(mode, len(players), self.settings.clock_scale),
            listed=listed,
        )
        self._start_if_full(table, now)
        row = {
            "id": table.id,
            "created_ms": now,
            "updated_ms": now,
            "options": options.to_json(),
            "deck_id": table.deck_id,
            "seed": seed,
            "status": table.status,
            "clock": clock,
            "clocks": table.clocks.to_json() if table.clocks else None,
            "listed": listed,
        }
        seat_rows = [
            {
                "player": p.index,
                "name": p.name,
                "kind": p.kind,
                "level": p.level,
                "token_hash": p.token_hash,
            }
            for p in players
        ]

        def write(conn: Connection) -> None:
            store.save_deck(conn, deck_json)
            store.insert_table(conn, row, seat_rows)

        await self.writer.submit(store.Write(fn=write))
        self.tables.remember(table)
        try:
            await self.leases.acquire([table.id])  # its creator drives it, if it can
        except Exception as exc:  # another process adopts it at its next survey
            log.warning("skytotems: no lease for the new table %s: %s", table.id, exc)
        self._after_change(table)
        return table, tokens

    def _start_if_full(self, table: Table, now: int) -> bool:
        """Waiting → playing once no seat is open; clocks start then."""
        if table.status != "waiting" or any(p.kind == "open" for p in table.players):
            return False
        table.status = "playing"
        if table.clocks is not None:
            table.clocks.update(table.clocked_players(), set(), now)
        return True

    async def join(self, table_id: str, name: str) -> tuple[Table, int, str]:
        """Take the first open seat; the game starts when none is left. Of two joiners of
        one seat on two processes, the one stored first gets it; the other is given the
        next open seat of the fresh table, if any."""
        return await self._retrying(await self.get(table_id), lambda t: self._join(t, name))

    async def _join(self, table: Table, name: str) -> tuple[Table, int, str]:
        async with table.lock:
            self._check_current(table)
            if table.status == "expired":
                raise expired_error(410)
            player = next((p for p in table.players if p.kind == "open"), None)
            if player is None:
                raise ServiceError("table_full", "this table has no open seat", 409)
            token = secrets.token_urlsafe(24)
            now = store.now_ms()
            player.kind, player.name, player.token_hash = "human", name, hash_token(token)
            table.human_active_ms = now
            started = self._start_if_full(table, now)
            clocks = table.clocks.to_json() if table.clocks else None
            status = table.status
            index, token_hash = player.index, player.token_hash

            def write(conn: Connection) -> None:
                store.update_seat(
                    conn, table.id, index, kind="human", name=name, token_hash=token_hash
                )

            values: dict[str, Any] = {"updated_ms": now}
            if started:
                values.update(status=status, clocks=clocks)
            guard = store.Guard(table.id, table.version, values)
            await self._commit(table, store.Write(fn=write, guard=guard))
            self.publisher.publish(
                table, [], [{"type": "player_joined", "player": index, "name": name}]
            )
        self._after_change(table)
        return table, index, token

    # ---------------------------------------------------------------- playing

    async def act(
        self,
        table: Table,
        player: int,
        seq: int,
        data: object,
        reply_to: object = None,
        msg_id: Any = None,
    ) -> None:
        """A player's action: checked, committed, then published (acknowledged to `reply_to`)."""
        try:
            try:
                action = action_from_json(data)
            except MalformedAction as exc:
                raise ServiceError("malformed_action", str(exc)) from None
            await self.play(table, player, seq, action, reply_to, msg_id)
        except ServiceError as exc:
            self.metrics.refused(exc.code)
            raise

    async def play(
        self,
        table: Table,
        player: int,
        seq: int,
        action: Action,
        reply_to: object = None,
        msg_id: Any = None,
        by_bot: bool = False,
    ) -> None:
        """Apply `action` of `player` (a bot's when `by_bot`) made on the view at `seq`."""
        await self._retrying(
            table, lambda t: self._play(t, player, seq, action, reply_to, msg_id, by_bot)
        )

    async def _play(
        self,
        table: Table,
        player: int,
        seq: int,
        action: Action,
        reply_to: object,
        msg_id: Any,
        by_bot: bool,
    ) -> None:
        arrived = time.perf_counter()
        async with table.lock:
            self._check_current(table)
            self._check_can_act(table, player, by_bot)
            game = table.game
            if game.is_over:
                raise ServiceError("game_over", "the game is over")
            if action.seat not in table.engine_seats(player):
                raise ServiceError("not_your_seat", f"you do not play seat {action.seat}")
            decision = game.decision
            simultaneous = decision.kind == "choose_start" and action.seat in decision.seats
            if seq != table.seq and not simultaneous:
                raise ServiceError(
                    "stale", f"your view is at seq {seq}, the table is at seq {table.seq}"
                )
            try:
                events = game.apply(action)
            except IllegalAction as exc:
                raise ServiceError(exc.reason, str(exc)) from None
            now = store.now_ms()
            table.append_entry(Step(table.seq + 1, action, blocks_undo(events)))
            entry = {
                "table_id": table.id,
                "seq": table.seq,
                "player": player,
                "kind": "action",
                "data": action.to_json(),
                "at_ms": now,
            }
            write, notices = self._log_write(table, entry, events, now)
            await self._commit(table, write)
            self.publisher.publish(table, events, notices, ack=(reply_to, msg_id))
            self.metrics.moved(time.perf_counter() - arrived, by_bot)
            if not by_bot:
                table.human_active_ms = now
            if table.status == "finished":
                self.tables.remember(table)
        self._after_change(table)

    def _check_can_act(self, table: Table, player: int, by_bot: bool) -> None:
        if table.status == "waiting":
            raise ServiceError("waiting", "the game starts once every seat is taken")
        if table.status == "expired":
            raise expired_error()
        kind = table.players[player].kind
        if by_bot != (kind == "bot"):
            raise ServiceError("bot_seat", "a bot plays this seat now")

    def _log_write(
        self, table: Table, entry: dict[str, Any], events: list[Event], now: int
    ) -> tuple[store.Write, list[dict[str, Any]]]:
        """The write of a log entry, with the table's own changes (clocks, end) if any,
        and the notices they call for (a `time_out` of a player whose time ran out)."""
        values, timed_out = self._state_change(table, events, now)
        notices = [time_out_notice(p) for p in timed_out]
        return store.Write((entry,), guard=store.Guard(table.id, table.version, values)), notices

    def _state_change(
        self, table: Table, events: list[Event], now: int
    ) -> tuple[dict[str, Any], list[int]]:
        """Clocks and end of game after `events`: the table columns to write (if any) and
        the players found out of time."""
        values: dict[str, Any] = {}
        timed_out: list[int] = []
        if table.game.is_over:
            table.status = "finished"
            table.finished_ms = now
            game = table.game
            table.result = {
                "totals": [score_sheet(game, s).total for s in range(game.n)],
                "places": final_places(game),
            }
            if game.options.solo:  # both altars score together, rated by the rulebook's bands
                total = sum(table.result["totals"])
                table.result["solo"] = {"total": total, "band": solo_band(total)}
            if table.abandoned:
                table.result["abandoned"] = True
            values.update(
                status="finished", finished_ms=now, result=table.result, stats=game_stats(game)
            )
        if table.clocks is not None:
            humans = table.humans()  # a bot's seat gains no increment
            starts = {
                p
                for e in events
                if isinstance(e, TurnStarted) and (p := table.owner(e.seat)) in humans
            }
            timed_out = table.clocks.update(table.clocked_players(), starts, now)
            values["clocks"] = table.clocks.to_json()
        if values:
            values["updated_ms"] = now
        return values, timed_out

    async def _commit(self, table: Table, write: store.Write) -> Any:
        """Store `write` (made on `table`, whose lock the caller holds); the table's
        version counts it. Refused as made on an outdated copy: `Outdated`, the table
        read back and this process's sockets shown the events stored since the seq they
        were shown (no reset)."""
        try:
            result = await self.writer.submit(write)
        except store.Conflict:
            log.info("skytotems: table %s was changed elsewhere; reading it back", table.id)
            await self._reload(table, table.seq - len(write.entries))
            raise Outdated() from None
        except Exception:
            log.exception("skytotems: commit failed on table %s; reloading it", table.id)
            await self._reload(table, table.seq - len(write.entries))
            raise ServiceError(
                "storage", "the server could not store that; try again", 503
            ) from None
        if write.guard is not None:
            table.version += 1
            table.last_write = (write, table.version)
        return result

    async def undo(
        self,
        table: Table,
        player: int,
        seq: int,
        to: str,
        reply_to: object = None,
        msg_id: Any = None,
    ) -> None:
        """Undo the last action or back to the start of the turn (an appended log entry)."""
        await self._retrying(table, lambda t: self._undo(t, player, seq, to, reply_to, msg_id))

    async def _undo(
        self, table: Table, player: int, seq: int, to: str, reply_to: object, msg_id: Any
    ) -> None:
        async with table.lock:
            self._check_current(table)
            self._check_can_act(table, player, by_bot=False)
            if seq != table.seq:
                raise ServiceError(
                    "stale", f"your view is at seq {seq}, the table is at seq {table.seq}"
                )
            floor = table.undo_floor(player)
            if floor is None:
                raise ServiceError(
                    "cannot_undo",
                    "nothing to undo: undo stays within your own turn and never goes back "
                    "past a reveal, a random draw or a choice from the bag",
                )
            target = floor if to == "turn" else len(table.steps) - 1
            now = store.now_ms()
            table.human_active_ms = now
            table.undo_to(target)
            entry = {
                "table_id": table.id,
                "seq": table.seq,
                "player": player,
                "kind": "undo",
                "data": {"to": target, "mode": to},
                "at_ms": now,
            }
            write, notices = self._log_write(table, entry, [], now)
            await self._commit(table, write)
            self.publisher.publish(
                table,
                [],
                [{"type": "undone", "player": player, "to_move": target, "mode": to}, *notices],
                ack=(reply_to, msg_id),
                reset=True,
            )
        self._after_change(table)

    async def takeover(
        self, table: Table, requester: int | None, target: int, automatic: bool = False
    ) -> None:
        """A bot (settings.takeover_level) plays `target` from now on: its time ran out."""
        await self._retrying(table, lambda t: self._takeover(t, requester, target, automatic))

    async def _takeover(
        self, table: Table, requester: int | None, target: int, automatic: bool
    ) -> None:
        async with table.lock:
            self._check_current(table)
            if not 0 <= target < len(table.players):
                raise ServiceError("no_such_player", f"there is no player {target}")
            victim = table.players[target]
            now = store.now_ms()
            if not automatic:
                if requester is None or table.players[requester].kind != "human":
                    raise ServiceError("not_a_player", "only a human player at this table may ask")
                if requester == target:
                    raise ServiceError("takeover_self", "you cannot hand your own seat to a bot")
            if table.status != "playing" or victim.kind != "human":
                raise ServiceError("not_takeable", f"player {target} is not a human in play")
            if table.clocks is None or not table.clocks.expired(target, now):
                raise ServiceError("time_left", f"player {target} still has time on the clock")
            victim.kind, victim.level = "bot", self.settings.takeover_level
            # a target whose time ran out before the timer said so is told of it here
            newly_out = table.clocks.newly_expired({target}, now)
            table.clocks.mark_out([target])  # the seat stays out of time under the bot
            timed_out = sorted(
                {*newly_out, *table.clocks.update(table.clocked_players(), set(), now)}
            )
            clocks = table.clocks.to_json()
            level = victim.level

            def write(c: Connection) -> None:
                store.update_seat(c, table.id, target, kind="bot", level=level)

            guard = store.Guard(table.id, table.version, {"clocks": clocks, "updated_ms": now})
            await self._commit(table, store.Write(fn=write, guard=guard))
            taken = {"type": "taken_over", "player": target, "level": level, "automatic": automatic}
            notices = [*(time_out_notice(p) for p in timed_out), taken]
            self.publisher.publish(table, [], notices)
        self._after_change(table)

    # ------------------------------------------------------------------- chat

    async def say(
        self,
        table: Table,
        player: int | None,
        text: str,
        name: str | None,
        sender: object,
        msg_id: Any = None,
    ) -> dict[str, Any]:
        """A chat message: a seated `player` speaks in the players' channel, a spectator
        (player None, under `name`) in the spectators' one. Stored, then published;
        `sender` (the connection, acknowledged with `msg_id`) is what the rate limit counts
        for a spectator; a player's limit holds across all their connections."""
        text = text.strip()
        if not text:
            raise ServiceError("chat_empty", "say something")
        limit = self.settings.chat_max_chars
        if len(text) > limit:
            raise ServiceError("chat_too_long", f"chat messages are limited to {limit} characters")
        if table.status == "expired":
            raise expired_error()
        now = store.now_ms()
        key = player if player is not None else sender
        window_ms = self.settings.chat_rate_window_s * 1000
        recent = [t for t in table.chat_sent.get(key, []) if now - t < window_ms]
        if len(recent) >= self.settings.chat_rate_count:
            raise ServiceError("chat_rate", "too many messages: wait a few seconds")
        if len(table.chat_sent) > 64:  # forget the senders who went quiet
            table.chat_sent = {
                k: v for k, v in table.chat_sent.items() if v and now - v[-1] < window_ms
            }
        table.chat_sent[key] = [*recent, now]
        if player is None:
            channel, speaker = "spectators", (name or "").strip()[:40] or "?"
        else:
            channel, speaker = "players", table.players[player].name
        row = {
            "table_id": table.id,
            "at_ms": now,
            "player": player,
            "channel": channel,
            "name": speaker,
            "text": text,
        }
        async with table.lock:
            chat_id = await self._commit(table, store.Write(fn=lambda c: store.insert_chat(c, row)))
            message = {k: v for k, v in row.items() if k != "table_id"} | {"id": chat_id}
            table.chat.append(message)
            del table.chat[: -self.settings.chat_history]
            self.publisher.publish_chat(table, message, ack=(sender, msg_id))
        return message

    async def time_out(self, table: Table) -> list[int]:
        """Mark (and store) every player of `table` whose time is up as out of time, and
        tell the table; returns them. The clocks' timer calls this."""
        return await self._retrying(table, self._time_out)

    async def _time_out(self, table: Table) -> list[int]:
        async with table.lock:
            self._check_current(table)
            if table.clocks is None or table.status != "playing":
                return []
            now = store.now_ms()
            fresh = table.clocks.newly_expired(table.clocked_players(), now)
            if not fresh:
                return []
            table.clocks.mark_out(fresh)
            table.clocks.alive = now
            clocks = table.clocks.to_json()

            guard = store.Guard(table.id, table.version, {"clocks": clocks, "updated_ms": now})
            await self._commit(table, store.Write(guard=guard))
            self.publisher.publish(table, [], [time_out_notice(p) for p in fresh])
        return fresh

    async def store_heartbeat(self) -> int:
        """Store now as the moment every running clock this process drives is known to run
        (so a crash or restart charges at most the time since); returns how many. Not a
        change of the table (its version stays): a copy that is out of date stores
        nothing, and is caught up by the lease keeper."""
        now = store.now_ms()
        stored = []
        for table in self.tables.active.values():
            if (
                table.clocks is not None
                and table.status == "playing"
                and self.leases.holds(table.id)
                and not table.lock.locked()  # a change in flight stores the clocks itself
            ):
                table.clocks.alive = now
                stored.append((table.id, table.version, table.clocks.to_json()))
        if not stored:
            return 0

        def write(c: Connection) -> int:
            return sum(
                store.store_if_current(c, table_id, version, clocks=clocks)
                for table_id, version, clocks in stored
            )

        count: int = await self.writer.submit(store.Write(fn=write))
        return count

    # ------------------------------------------------------------- listening

    def _after_change(self, table: Table) -> None:
        """Tell the listeners (bots, clocks) that `table` changed; one failing listener
        never keeps the change from the others."""
        if self._closing:
            return
        for listener in self.listeners:
            try:
                listener(table)
            except Exception:
                log.exception("skytotems: a listener failed after a change of table %s", table.id)
