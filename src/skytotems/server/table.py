"""One table in memory: the record the service keeps, and the folding of its log.

A table's game in memory is a cache of its log: `Table.rebuild` replays the stored
entries, undo entries folded into the effective action list (`fold_log`), so a restart,
even after kill -9, resumes every game exactly. Nothing here stores or publishes: the
service changes a table, the store keeps it, the hub shows it.

Players and seats: a table has one player per engine seat, except solo where the one
player owns both altars (engine seats 0 and 1).
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from skytotems import Action, Deck, Event, Game, GameOptions, action_from_json
from skytotems.rules.undo import blocks_undo

from . import store
from .clocks import CLOCK_MODES, Clocks

# Statuses of a table whose game will not change again.
CLOSED = ("finished", "expired")


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass(frozen=True, slots=True)
class FoldedLog:
    """A log read back: the effective actions as (seq, action JSON), the effective length
    after each entry (index = seq), and every undo as (seq, the length it went back to)."""

    effective: list[tuple[int, dict[str, Any]]]
    effective_after: list[int]
    undos: list[tuple[int, int]]


def fold_log(entries: Iterable[dict[str, Any]]) -> FoldedLog:
    """Fold stored log entries (actions and undos, in seq order) into the effective list."""
    effective: list[tuple[int, dict[str, Any]]] = []
    effective_after = [0]
    undos = []
    for entry in entries:
        if entry["kind"] == "undo":
            to = int(entry["data"]["to"])
            del effective[to:]
            undos.append((entry["seq"], to))
        else:
            effective.append((entry["seq"], entry["data"]))
        effective_after.append(len(effective))
    return FoldedLog(effective, effective_after, undos)


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
    # shown among the lobby's open tables (a game against bots or with invited friends
    # only is not: its players find it through their own seat tokens)
    listed: bool = True
    # the last chat messages (channel "players" or "spectators"), oldest first
    chat: list[dict[str, Any]] = field(default_factory=list)
    # when each sender (a player, or a spectator's connection) last spoke: the rate limit
    chat_sent: dict[object, list[float]] = field(default_factory=dict)
    # when a human last changed the game (joined, moved, undid); 0: since its creation
    human_active_ms: int = 0
    # its idle humans' seats were handed to bots (the result says so once it is over)
    abandoned: bool = False
    # the stored table's version this copy is at (store.Guard: a change made on an
    # older copy is refused by the database)
    version: int = 0
    # the last change this process stored and the version it made: the Redis bus sends
    # it along (`catchup.stored_change`, built only there), so the other processes can
    # fold it in without reading it back
    last_write: tuple[store.Write, int] | None = None

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

    def humans(self) -> set[int]:
        return {p.index for p in self.players if p.kind == "human"}

    def every_human_out_of_time(self, now: int) -> bool:
        """A clocked table in play whose every human seat has run out of time (nobody
        with time is left to play or to hand the others to a bot)."""
        if self.clocks is None or self.status != "playing":
            return False
        clocks = self.clocks
        return all(clocks.expired(p, now) for p in self.humans())

    # ------------------------------------------------------------------- undo

    def undo_floor(self, player: int) -> int | None:
        """The earliest effective length `player` may go back to, or None if no undo.

        Undo stays inside the player's own turn: it never crosses an action of another
        seat nor one that revealed something (`blocks_undo`).
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

    def undo_to(self, length: int) -> None:
        """Account for an undo entry back to `length` effective actions: the game is
        replayed to there (the engine has no way back)."""
        game = Game(self.options, self.seed, self.deck)
        for step in self.steps[:length]:
            game.apply_fast(step.action)
        self.game = game
        self.append_entry(None, undo_to=length)

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
            "listed": self.listed,
            "to_move": sorted(self.pending_players()) if self.status == "playing" else [],
        }

    # ----------------------------------------------------------------- rebuild

    @classmethod
    def rebuild(cls, stored: store.StoredTable, deck: Deck, clock_scale: float) -> Table:
        """The table as its stored log says (undo entries fold the effective list)."""
        row = stored.row
        options = GameOptions.from_json(row["options"])
        folded = fold_log(stored.entries)
        game = Game(options, int(row["seed"]), deck)
        steps = []
        for seq, data in folded.effective:
            action = action_from_json(data)
            events = game.apply(action)
            steps.append(Step(seq, action, blocks_undo(events)))
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
            )  # still running: only the process that takes the table's lease resumes them
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
            effective_after=folded.effective_after,
            undos=folded.undos,
            finished_ms=row["finished_ms"],
            result=row["result"],
            listed=bool(row.get("listed", True)),
            abandoned=bool(row.get("abandoned", False)),
            chat=list(stored.chat),
            human_active_ms=max([row["created_ms"], *(e["at_ms"] for e in stored.entries)]),
            version=int(row.get("version") or 0),
        )
