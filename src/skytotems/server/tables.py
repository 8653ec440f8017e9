"""The table service: create, join, act, undo, clocks, bot seats and take-overs.

A table's game in memory is a cache of its log: `Table.rebuild` replays the stored
entries (undo entries folded into the effective action list), so a restart, even after
kill -9, resumes every game exactly. Every change follows the same path under the
table's lock: check it, apply it to the cached game, commit it through the writer,
and only then publish it (an action is acknowledged only after its commit). If the
commit fails, the cache is rebuilt from the database and the sender gets an error.

Players and seats: a table has one player per engine seat, except solo where the one
player owns both altars (engine seats 0 and 1).
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import logging
import secrets
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from sqlalchemy import Connection, Engine

from skytotems import (
    Action,
    Deck,
    Event,
    Game,
    GameOptions,
    IllegalAction,
    MalformedAction,
    OptionsError,
    action_from_json,
    events_for,
    final_places,
    score_sheet,
    view,
)
from skytotems.rules.events import (
    CardRevealed,
    DesignChosen,
    GameEnded,
    HoardAdded,
    PedestalsDrawn,
    PhaseStarted,
    RoundEnded,
    SlotFilled,
    StartCardsRevealed,
    StartChosen,
    TurnEnded,
    TurnStarted,
)
from skytotems.rules.grid import START_TILE
from skytotems.rules.pieces import TOTEM_NAMES

from . import store
from .bots import BOT_LEVELS, BotPool, bot_seed
from .clocks import CLOCK_MODES, Clocks
from .settings import Settings

if TYPE_CHECKING:
    from .hub import Conn, Hub

log = logging.getLogger("skytotems.server")

# Events after which undo may not go back: something was revealed (a random draw, a
# goal card, a choice from the bag, the starting cards) or the turn changed hands.
_REVEALING = (
    CardRevealed,
    DesignChosen,
    StartCardsRevealed,
    StartChosen,
    SlotFilled,
    HoardAdded,
    TurnStarted,
    TurnEnded,
    RoundEnded,
    PhaseStarted,
    GameEnded,
)


def reveals(events: list[Event]) -> bool:
    """Whether an action's events close the door to undo (see `_REVEALING`)."""
    for event in events:
        if isinstance(event, _REVEALING):
            return True
        if isinstance(event, PedestalsDrawn) and event.source != "wolf":
            return True  # the wolf takes a named design: nothing random is shown
    return False


# Statuses of a table whose game will not change again.
CLOSED = ("finished", "expired")


def expired_error(status: int = 400) -> ServiceError:
    """What a join or a move on a table closed for want of players gets."""
    return ServiceError("table_expired", "this table was closed: its game never started", status)


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


class ServiceError(Exception):
    """A refusal sent to the client: a short `code` and a sentence; nothing changed."""

    def __init__(self, code: str, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status


@dataclass(slots=True)
class Player:
    index: int
    name: str
    kind: str  # human | bot | open
    level: str | None = None
    token_hash: str | None = None

    def public(self) -> dict[str, Any]:
        return {"player": self.index, "name": self.name, "kind": self.kind, "level": self.level}


@dataclass(frozen=True, slots=True)
class Step:
    """One effective action: its log seq and whether undo stops here.

    Its events are not kept: thousands of live tables would hold millions of small
    objects that every full garbage collection walks (pauses of a tenth of a second).
    The rare reader of old events (a socket resuming) replays them instead.
    """

    seq: int
    action: Action
    barrier: bool


@dataclass(eq=False)
class Table:
    """One table in memory: the cached game and everything needed to serve it."""

    id: str
    options: GameOptions
    seed: int
    deck_id: str
    deck: Deck
    clock: str
    status: str
    created_ms: int
    players: list[Player]
    game: Game
    clocks: Clocks | None = None
    seq: int = 0
    steps: list[Step] = field(default_factory=list)
    # the effective length after each log entry (index = seq), and every undo as (seq, to)
    effective_after: list[int] = field(default_factory=lambda: [0])
    undos: list[tuple[int, int]] = field(default_factory=list)
    finished_ms: int | None = None
    result: dict[str, Any] | None = None
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    bot_tasks: dict[int, asyncio.Task[None]] = field(default_factory=dict)
    timer: asyncio.TimerHandle | None = None
    announced_expired: set[int] = field(default_factory=set)

    # ---------------------------------------------------------------- players

    def owner(self, seat: int) -> int:
        """The player who plays engine seat `seat` (solo: one player owns both)."""
        return 0 if self.options.solo else seat

    def engine_seats(self, player: int) -> tuple[int, ...]:
        return (0, 1) if self.options.solo else (player,)

    def view_seat(self, player: int | None) -> int | None:
        """The engine seat whose view `player` gets (solo views show both altars)."""
        return None if player is None else self.engine_seats(player)[0]

    def player_by_token(self, token: str) -> int | None:
        digest = hash_token(token)
        for p in self.players:
            if p.token_hash is not None and hmac.compare_digest(p.token_hash, digest):
                return p.index
        return None

    def pending_players(self) -> set[int]:
        if self.game.is_over:
            return set()
        return {self.owner(s) for s in self.game.decision.seats}

    def clocked_players(self) -> set[int]:
        """Pending players whose clock runs: humans, once the game has started."""
        if self.status != "playing":
            return set()
        return {p for p in self.pending_players() if self.players[p].kind == "human"}

    # ------------------------------------------------------------------- undo

    def undo_floor(self, player: int) -> int | None:
        """The earliest effective length `player` may go back to, or None if no undo.

        Undo stays inside the player's own turn: it never crosses an action of another
        seat nor one that revealed something (`reveals`).
        """
        if self.game.is_over:
            return None
        seats = self.engine_seats(player)
        k = len(self.steps)
        while k > 0:
            step = self.steps[k - 1]
            if step.barrier or step.action.seat not in seats:
                break
            k -= 1
        return k if k < len(self.steps) else None

    def events_since(self, seq: int) -> list[Event] | None:
        """Engine events after log seq `seq` (from 0: the deal and setup first), or None
        when an undo since then went back past what that seq showed (the client must
        start again from the view)."""
        if not 0 <= seq <= self.seq:
            return None
        seen = self.effective_after[seq]
        if any(to < seen for undo_seq, to in self.undos if undo_seq > seq):
            return None
        if seq > 0 and seen == len(self.steps):
            return []
        game = Game(self.options, self.seed, self.deck)
        events = list(game.setup_events) if seq == 0 else []
        for step in self.steps[:seen]:
            game.apply_fast(step.action)
        events.extend(e for step in self.steps[seen:] for e in game.apply(step.action))
        return events

    def append_entry(self, step: Step | None, undo_to: int | None = None) -> None:
        """Account for one more log entry: an effective action, or an undo back to a length."""
        self.seq += 1
        if step is not None:
            self.steps.append(step)
        else:
            assert undo_to is not None
            del self.steps[undo_to:]
            self.undos.append((self.seq, undo_to))
        self.effective_after.append(len(self.steps))

    # --------------------------------------------------------------- summaries

    def summary(self) -> dict[str, Any]:
        """Public facts only (TableSummary)."""
        return {
            "id": self.id,
            "options": self.options.to_json(),
            "status": self.status,
            "clock": self.clock,
            "seats": [p.public() for p in self.players],
            "seq": self.seq,
            "move": len(self.game.history),
            "created_ms": self.created_ms,
            "finished_ms": self.finished_ms,
            "result": self.result,
        }

    # ----------------------------------------------------------------- rebuild

    @classmethod
    def rebuild(cls, stored: store.StoredTable, deck: Deck, clock_scale: float) -> Table:
        """The table as its stored log says (undo entries fold the effective list)."""
        row = stored.row
        options = GameOptions.from_json(row["options"])
        effective: list[tuple[int, dict[str, Any]]] = []
        effective_after = [0]
        undos = []
        for entry in stored.entries:
            if entry["kind"] == "undo":
                to = int(entry["data"]["to"])
                del effective[to:]
                undos.append((entry["seq"], to))
            else:
                effective.append((entry["seq"], entry["data"]))
            effective_after.append(len(effective))
        game = Game(options, int(row["seed"]), deck)
        steps = []
        for seq, data in effective:
            action = action_from_json(data)
            events = game.apply(action)
            steps.append(Step(seq, action, reveals(events)))
        players = [
            Player(s["player"], s["name"], s["kind"], s["level"], s["token_hash"])
            for s in stored.seats
        ]
        mode = CLOCK_MODES[row["clock"]]
        clocks = None
        if mode is not None:
            clocks = (
                Clocks.from_json(mode, row["clocks"], clock_scale)
                if row["clocks"]
                else Clocks(mode, len(players), clock_scale)
            )
        return cls(
            id=row["id"],
            options=options,
            seed=int(row["seed"]),
            deck_id=row["deck_id"],
            deck=deck,
            clock=row["clock"],
            status=row["status"],
            created_ms=row["created_ms"],
            players=players,
            game=game,
            clocks=clocks,
            seq=len(stored.entries),
            steps=steps,
            effective_after=effective_after,
            undos=undos,
            finished_ms=row["finished_ms"],
            result=row["result"],
        )


def game_stats(game: Game) -> list[dict[str, Any]]:
    """Per seat: totems by kind, pedestals, clouds placed, cards, points by source."""
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


class TableService:
    """Every table of this server process; the only code that changes a table."""

    def __init__(
        self, settings: Settings, engine: Engine, writer: store.Writer, bots: BotPool, hub: Hub
    ) -> None:
        self.settings = settings
        self.engine = engine
        self.writer = writer
        self.bots = bots
        self.hub = hub
        self.active: dict[str, Table] = {}
        self.finished: OrderedDict[str, Table] = OrderedDict()
        self._decks: dict[str, Deck] = {}
        self._default: tuple[Deck, str, dict[str, Any]] | None = None
        self._loading: dict[str, asyncio.Future[Table | None]] = {}
        self._timer_tasks: set[asyncio.Task[None]] = set()  # held so none is collected early
        self._closing = False

    # ---------------------------------------------------------------- loading

    async def start(self) -> None:
        """Reload every unfinished table; bots and clocks pick up where they were."""
        stored = await asyncio.to_thread(
            self._read, lambda c: store.load_tables(c, ("waiting", "playing"))
        )
        for item in stored:
            table = self._rebuild(item)
            self.active[table.id] = table
            self._after_change(table)
        log.info("skytotems: %d unfinished table(s) resumed", len(stored))
        await self.expire_waiting()
        sweeper = asyncio.get_running_loop().create_task(self._sweep_waiting())
        self._timer_tasks.add(sweeper)
        sweeper.add_done_callback(self._timer_tasks.discard)

    async def close(self) -> None:
        self._closing = True
        tasks: list[asyncio.Task[None]] = []
        for table in self.active.values():
            if table.timer is not None:
                table.timer.cancel()
            tasks.extend(table.bot_tasks.values())
        tasks.extend(self._timer_tasks)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    def _read(self, fn: Callable[[Connection], Any]) -> Any:
        with self.engine.connect() as conn:
            return fn(conn)

    def _rebuild(self, stored: store.StoredTable) -> Table:
        deck_id = stored.row["deck_id"]
        deck = self._decks.get(deck_id)
        if deck is None:
            deck = self._decks[deck_id] = Deck.from_json(stored.deck)
        return Table.rebuild(stored, deck, self.settings.clock_scale)

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
        if len(table_id) > 32:
            raise ServiceError("not_found", "there is no such table", 404)
        pending = self._loading.get(table_id)
        if pending is None:
            pending = self._loading[table_id] = asyncio.get_running_loop().create_future()
            try:
                stored = await asyncio.to_thread(
                    self._read, lambda c: store.load_table(c, table_id)
                )
                loaded = None if stored is None else self._rebuild(stored)
                if loaded is not None:
                    self._remember(loaded)
                pending.set_result(loaded)
            except Exception as exc:
                pending.set_exception(exc)
                raise
            finally:
                del self._loading[table_id]
        found = await asyncio.shield(pending)
        if found is None:
            raise ServiceError("not_found", "there is no such table", 404)
        return found

    def _remember(self, table: Table) -> None:
        if table.status in CLOSED:
            self.active.pop(table.id, None)
            self.finished[table.id] = table
            while len(self.finished) > self.settings.finished_cache_size:
                self.finished.popitem(last=False)
        else:
            self.active[table.id] = table

    async def _reload(self, table: Table) -> None:
        """After a failed commit: forget the cache and read the table back."""
        self.active.pop(table.id, None)
        self.finished.pop(table.id, None)
        fresh = await self.get(table.id)
        self.hub.publish(fresh, [], [], reset=True)  # everyone starts again from the store

    # --------------------------------------------------------------- expiring

    async def expire_waiting(self) -> int:
        """Close every table still waiting for players `waiting_expiry_s` after its
        creation: it leaves the lobby and memory, and can no longer be joined."""
        limit_ms = self.settings.waiting_expiry_s * 1000
        now = store.now_ms()
        stale = [
            t
            for t in self.active.values()
            if t.status == "waiting" and now - t.created_ms >= limit_ms
        ]
        closed = 0
        for table in stale:
            async with table.lock:
                if table.status != "waiting":
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
        async with table.lock:
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

        def write(conn: Connection, table_id: str = table.id) -> None:
            store.update_table(conn, table_id, status="expired", updated_ms=now)

        await self._commit(table, store.Write(fn=write))
        self.hub.publish(table, [], [notice])
        self._remember(table)

    async def _sweep_waiting(self) -> None:
        """Expire waiting tables every so often (a tenth of the limit, at most hourly)."""
        period = min(3600.0, max(0.05, self.settings.waiting_expiry_s / 10))
        while not self._closing:
            await asyncio.sleep(period)
            try:
                await self.expire_waiting()
            except Exception:
                log.exception("skytotems: expiring waiting tables failed")

    # --------------------------------------------------------------- creating

    async def create(
        self, options_json: dict[str, Any], seats: list[dict[str, Any]], clock: str
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
        deck, deck_key, deck_json = self._default_deck()
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
        self.active[table.id] = table
        self._after_change(table)
        return table, tokens

    def _default_deck(self) -> tuple[Deck, str, dict[str, Any]]:
        """The packaged deck, its id and its JSON (computed once)."""
        if self._default is None:
            from skytotems import default_deck

            deck = default_deck()
            data = deck.to_json()
            key = store.deck_id(data)
            self._default = (self._decks.setdefault(key, deck), key, data)
        return self._default

    def _start_if_full(self, table: Table, now: int) -> bool:
        """Waiting → playing once no seat is open; clocks start then."""
        if table.status != "waiting" or any(p.kind == "open" for p in table.players):
            return False
        table.status = "playing"
        if table.clocks is not None:
            table.clocks.update(table.clocked_players(), set(), now)
        return True

    async def join(self, table_id: str, name: str) -> tuple[Table, int, str]:
        """Take the first open seat; the game starts when none is left."""
        table = await self.get(table_id)
        async with table.lock:
            if table.status == "expired":
                raise expired_error(410)
            player = next((p for p in table.players if p.kind == "open"), None)
            if player is None:
                raise ServiceError("table_full", "this table has no open seat", 409)
            token = secrets.token_urlsafe(24)
            now = store.now_ms()
            player.kind, player.name, player.token_hash = "human", name, hash_token(token)
            started = self._start_if_full(table, now)
            clocks = table.clocks.to_json() if table.clocks else None
            status = table.status
            index, token_hash = player.index, player.token_hash

            def write(conn: Connection) -> None:
                store.update_seat(
                    conn, table.id, index, kind="human", name=name, token_hash=token_hash
                )
                if started:
                    store.update_table(conn, table.id, status=status, clocks=clocks, updated_ms=now)

            await self._commit(table, store.Write(fn=write))
            self.hub.publish(table, [], [{"type": "player_joined", "player": index, "name": name}])
        self._after_change(table)
        return table, index, token

    # ---------------------------------------------------------------- playing

    async def act(
        self,
        table: Table,
        player: int,
        seq: int,
        data: object,
        conn: Conn | None = None,
        msg_id: Any = None,
    ) -> None:
        """A player's action: checked, committed, then published (ack to `conn`)."""
        try:
            action = action_from_json(data)
        except MalformedAction as exc:
            raise ServiceError("malformed_action", str(exc)) from None
        await self._play(table, player, seq, action, conn, msg_id, by_bot=False)

    async def _play(
        self,
        table: Table,
        player: int,
        seq: int,
        action: Action,
        conn: Conn | None,
        msg_id: Any,
        by_bot: bool,
    ) -> None:
        async with table.lock:
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
            table.append_entry(Step(table.seq + 1, action, reveals(events)))
            entry = {
                "table_id": table.id,
                "seq": table.seq,
                "player": player,
                "kind": "action",
                "data": action.to_json(),
                "at_ms": now,
            }
            await self._commit(table, self._log_write(table, entry, events, now))
            self.hub.publish(table, events, [], ack=(conn, msg_id))
            if table.status == "finished":
                self._remember(table)
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
    ) -> store.Write:
        """The write of a log entry, with the table's own changes (clocks, end) if any."""
        values = self._state_change(table, events, now)
        if not values:
            return store.Write((entry,))
        return store.Write((entry,), lambda c: store.update_table(c, table.id, **values))

    def _state_change(self, table: Table, events: list[Event], now: int) -> dict[str, Any]:
        """Clocks and end of game after `events`; the table columns to write (if any)."""
        values: dict[str, Any] = {}
        if table.game.is_over:
            table.status = "finished"
            table.finished_ms = now
            game = table.game
            table.result = {
                "totals": [score_sheet(game, s).total for s in range(game.n)],
                "places": final_places(game),
            }
            values.update(
                status="finished", finished_ms=now, result=table.result, stats=game_stats(game)
            )
        if table.clocks is not None:
            starts = {table.owner(e.seat) for e in events if isinstance(e, TurnStarted)}
            table.clocks.update(table.clocked_players(), starts, now)
            table.announced_expired = {
                p for p in table.announced_expired if table.clocks.expired(p, now)
            }
            values["clocks"] = table.clocks.to_json()
        if values:
            values["updated_ms"] = now
        return values

    async def _commit(self, table: Table, write: store.Write) -> None:
        try:
            await self.writer.submit(write)
        except Exception:
            log.exception("skytotems: commit failed on table %s; reloading it", table.id)
            await self._reload(table)
            raise ServiceError(
                "storage", "the server could not store that; try again", 503
            ) from None

    async def undo(
        self,
        table: Table,
        player: int,
        seq: int,
        to: str,
        conn: Conn | None = None,
        msg_id: Any = None,
    ) -> None:
        """Undo the last action or back to the start of the turn (an appended log entry)."""
        async with table.lock:
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
            kept = [s.action for s in table.steps[:target]]
            game = Game(table.options, table.seed, table.deck)
            for action in kept:
                game.apply_fast(action)
            now = store.now_ms()
            table.game = game
            table.append_entry(None, undo_to=target)
            entry = {
                "table_id": table.id,
                "seq": table.seq,
                "player": player,
                "kind": "undo",
                "data": {"to": target, "mode": to},
                "at_ms": now,
            }
            await self._commit(table, self._log_write(table, entry, [], now))
            self.hub.publish(
                table,
                [],
                [{"type": "undone", "player": player, "to_move": target, "mode": to}],
                ack=(conn, msg_id),
                reset=True,
            )
        self._after_change(table)

    async def takeover(
        self, table: Table, requester: int | None, target: int, automatic: bool = False
    ) -> None:
        """A bot (settings.takeover_level) plays `target` from now on: its time ran out."""
        async with table.lock:
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
            table.announced_expired.discard(target)
            table.clocks.update(table.clocked_players(), set(), now)
            clocks = table.clocks.to_json()
            level = victim.level

            def write(c: Connection) -> None:
                store.update_seat(c, table.id, target, kind="bot", level=level)
                store.update_table(c, table.id, clocks=clocks, updated_ms=now)

            await self._commit(table, store.Write(fn=write))
            self.hub.publish(
                table,
                [],
                [{"type": "taken_over", "player": target, "level": level, "automatic": automatic}],
            )
        self._after_change(table)

    # ------------------------------------------------------- bots and clocks

    def _after_change(self, table: Table) -> None:
        """Start what the new state calls for: bot moves and the clock timer."""
        if self._closing:
            return
        self._schedule_bots(table)
        self._arm_timer(table)

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
            )
            await self._play(table, player, seq, action, None, None, by_bot=True)
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
        if not self._closing and self.active.get(table.id) is table:
            self._schedule_bots(table)

    def _arm_timer(self, table: Table) -> None:
        if table.timer is not None:
            table.timer.cancel()
            table.timer = None
        if table.clocks is None or table.status != "playing":
            return
        waiting = table.clocked_players() - table.announced_expired
        at = table.clocks.next_expiry(waiting)
        if at is None:
            return
        delay = max(0.0, (at - store.now_ms()) / 1000)
        loop = asyncio.get_running_loop()
        table.timer = loop.call_later(delay, self._start_timer_task, table)

    def _start_timer_task(self, table: Table) -> None:
        task = asyncio.get_running_loop().create_task(self._on_timer(table))
        self._timer_tasks.add(task)
        task.add_done_callback(self._timer_tasks.discard)

    async def _on_timer(self, table: Table) -> None:
        """A clock ran out: tell the table; if no human with time is left, bots take over."""
        table.timer = None
        if table.clocks is None or table.status != "playing" or self._closing:
            return
        now = store.now_ms()
        out = [p for p in table.clocked_players() if table.clocks.expired(p, now)]
        fresh = [p for p in out if p not in table.announced_expired]
        table.announced_expired.update(fresh)
        if fresh:
            self.hub.publish(table, [], [{"type": "time_out", "player": p} for p in fresh])
        for p in out:
            others = [
                q
                for q in table.players
                if q.index != p and q.kind == "human" and not table.clocks.expired(q.index, now)
            ]
            if not others:
                try:
                    await self.takeover(table, None, p, automatic=True)
                except ServiceError as exc:
                    log.debug("skytotems: automatic take-over skipped: %s", exc.message)
        self._arm_timer(table)

    # ---------------------------------------------------------------- records

    def record(self, table: Table) -> dict[str, Any]:
        """The engine's JSON record; it holds the seed, so only once the game is over."""
        from skytotems import make_record

        if table.status != "finished":
            raise ServiceError(
                "not_finished",
                "the record holds the seed: it is served once the game is over",
                409,
            )
        return make_record(table.game)

    def replay_step(self, table: Table, move: int) -> dict[str, Any]:
        """A finished game at effective move `move`: the spectator's view, the action that
        led there and its events (for the replay viewer)."""
        if table.status != "finished":
            raise ServiceError("not_finished", "replays come once the game is over", 409)
        moves = len(table.steps)
        if not 0 <= move <= moves:
            raise ServiceError("no_such_move", f"moves go from 0 to {moves}", 404)
        game = Game(table.options, table.seed, table.deck)
        for step in table.steps[: max(0, move - 1)]:
            game.apply_fast(step.action)
        if move == 0:
            action, events = None, game.setup_events
        else:
            last = table.steps[move - 1].action
            action, events = last.to_json(), game.apply(last)
        return {
            "move": move,
            "moves": moves,
            "action": action,
            "events": [e.to_json() for e in events_for(events, None, table.options.solo)],
            "view": view(game, None),
        }

    def stats(self, table: Table) -> list[dict[str, Any]]:
        if table.status != "finished":
            raise ServiceError("not_finished", "statistics come once the game is over", 409)
        return game_stats(table.game)

    async def finished_list(self, limit: int) -> list[dict[str, Any]]:
        rows = await asyncio.to_thread(
            self._read, lambda c: store.list_tables(c, "finished", limit)
        )
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
