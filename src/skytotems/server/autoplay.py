"""Bots and clocks: the work on a table that no player's message drives.

After every change of a table (the service tells its listeners), a bot whose seat the
engine waits on is asked for a move (in a worker process), and the clock timer is
armed for the first pending human to run out of time; when it fires, the player is
marked out of time (stored, the table is told) and, if no other human has time left, a
bot takes over. A heartbeat stores every few seconds that the clocks still run, so a
restart charges nobody for the server's downtime (clocks.Clocks.resume). Moves and
take-overs go through the service like any player's. With several server processes
this is the work one process at a time holds for a table (DESIGN.md §4): only the
tables whose lease this process holds are driven (`leases`); the others are left
alone, and their bot moves and timers here are cancelled when a lease is lost.
"""

from __future__ import annotations

import asyncio
import logging

from skytotems import view

from . import store
from .bots import BotPool, bot_seed
from .errors import ServiceError
from .leases import LocalLeases
from .service import TableService
from .settings import Settings
from .table import Table

log = logging.getLogger("skytotems.server")


class Autoplay:
    """Moves the bots and runs the clocks of the tables of `service`."""

    def __init__(self, service: TableService, bots: BotPool) -> None:
        self.service = service
        self.bots = bots
        self.settings: Settings = service.settings
        self._timer_tasks: set[asyncio.Task[None]] = set()  # held so none is collected early
        self._closing = False
        self._heartbeat = asyncio.get_running_loop().create_task(self._beat())
        service.listeners.append(self.table_changed)
        if not isinstance(service.leases, LocalLeases):
            bots.warm()  # any table may come to this process when another one dies

    async def close(self) -> None:
        """Cancel every pending bot move and clock timer (at shutdown)."""
        self._closing = True
        tasks: list[asyncio.Task[None]] = []
        for table in self.service.tables.active.values():
            if table.timer is not None:
                table.timer.cancel()
            tasks.extend(table.bot_tasks.values())
        tasks.extend(self._timer_tasks)
        tasks.append(self._heartbeat)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    def table_changed(self, table: Table) -> None:
        """Start what the new state calls for: bot moves and the clock timer (on a table
        this process drives; on another, stop whatever ran here)."""
        if self._closing:
            return
        if not self.service.leases.holds(table.id):
            self._stop(table)
            return
        self._schedule_bots(table)
        self._arm_timer(table)

    @staticmethod
    def _stop(table: Table) -> None:
        if table.timer is not None:
            table.timer.cancel()
            table.timer = None
        for task in table.bot_tasks.values():
            task.cancel()

    def _schedule_bots(self, table: Table) -> None:
        if table.status != "playing":
            return
        for seat in table.game.decision.seats:
            player = table.players[table.owner(seat)]
            if player.kind == "bot" and seat not in table.bot_tasks:
                table.bot_tasks[seat] = asyncio.create_task(self._bot_move(table, seat))

    async def _bot_move(self, table: Table, seat: int) -> None:
        player = table.owner(seat)
        retry = False
        try:
            if self.settings.bot_delay_ms:
                await asyncio.sleep(self.settings.bot_delay_ms / 1000)
            game, seq = table.game, table.seq
            level = table.players[player].level or self.settings.takeover_level
            action = await self.bots.choose(
                level,
                bot_seed(table.seed, seat, seq),
                view(game, seat),
                game.legal_actions(seat),
                table=table.id,
            )
            if not self.service.leases.holds(table.id):
                return  # the lease was lost meanwhile: the new holder moves
            await self.service.play(table, player, seq, action, by_bot=True)
        except ServiceError as exc:
            log.debug("skytotems: bot move on %s dropped: %s", table.id, exc.message)
            retry = exc.code == "storage"
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("skytotems: bot failed on table %s seat %d", table.id, seat)
            retry = True
        finally:
            if table.bot_tasks.get(seat) is asyncio.current_task():
                del table.bot_tasks[seat]
        if retry:
            await asyncio.sleep(1.0)
        if not self._closing and self.service.tables.active.get(table.id) is table:
            self._schedule_bots(table)

    def _arm_timer(self, table: Table, hand_over: bool = True) -> None:
        """Fire at the next running out of time (or at once, when `hand_over` and a
        pending seat out of time is for a bot to take)."""
        if table.timer is not None:
            table.timer.cancel()
            table.timer = None
        if table.clocks is None or table.status != "playing":
            return
        clocks = table.clocks
        waiting = {p for p in table.clocked_players() if not clocks.out[p]}
        at = clocks.next_expiry(waiting)
        if at is None:
            if hand_over and self._seats_for_bots(table, store.now_ms()):
                self._start_timer_task(table)  # nobody with time can move: hand it over now
            return
        delay = max(0.0, (at - store.now_ms()) / 1000)
        loop = asyncio.get_running_loop()
        table.timer = loop.call_later(delay, self._start_timer_task, table)

    @staticmethod
    def _seats_for_bots(table: Table, now: int) -> list[int]:
        """Pending players out of time while no other human at the table has time left:
        a bot takes them over (else the game would wait forever)."""
        clocks = table.clocks
        if clocks is None or table.status != "playing":
            return []
        with_time = {p for p in table.humans() if not clocks.expired(p, now)}
        return [
            p
            for p in sorted(table.clocked_players())
            if clocks.expired(p, now) and not with_time - {p}
        ]

    def _start_timer_task(self, table: Table) -> None:
        task = asyncio.get_running_loop().create_task(self._on_timer(table))
        self._timer_tasks.add(task)
        task.add_done_callback(self._timer_tasks.discard)

    async def _on_timer(self, table: Table) -> None:
        """A clock ran out: the player is marked out of time (stored, told to the table);
        a pending player out of time is handed to a bot if no other human has time."""
        table.timer = None
        if table.clocks is None or table.status != "playing" or self._closing:
            return
        if not self.service.leases.holds(table.id):
            return
        try:
            await self.service.time_out(table)
        except ServiceError as exc:
            log.debug("skytotems: time-out on %s not stored: %s", table.id, exc.message)
        try:
            if await self.service.abandon_if_idle(table):
                return  # every human is out of time: bots play the game out (it re-arms)
        except ServiceError as exc:
            log.debug("skytotems: abandoning an idle table failed: %s", exc.message)
        for p in self._seats_for_bots(table, store.now_ms()):
            try:
                await self.service.takeover(table, None, p, automatic=True)
            except ServiceError as exc:
                log.debug("skytotems: automatic take-over skipped: %s", exc.message)
        self._arm_timer(table, hand_over=False)  # a refused take-over is not retried at once

    async def _beat(self) -> None:
        """Store the heartbeat of the running clocks every `clock_heartbeat_s`."""
        while not self._closing:
            await asyncio.sleep(self.settings.clock_heartbeat_s)
            try:
                await self.service.store_heartbeat()
            except Exception:
                log.exception("skytotems: storing the clocks' heartbeat failed")
