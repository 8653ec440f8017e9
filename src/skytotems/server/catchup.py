"""Folding what another server process changed of a table into this process's copy.

With several processes on one database (docs/scale-out.md), the table a process holds
in memory may have been changed by another one: log entries appended, a seat taken,
clocks charged, the game ended, chat said. The database is the source of truth: the
changes are read back from it (`store.load_changes`, everything after the copy's seq)
and folded in here, entry by entry, so the process shows its sockets each entry once,
in seq order, and never acts on a game older than the log's head.

The usual change, one log entry and the table's columns with it, also comes along with
its notification (`stored_change`, `from_notice`): a copy that is at exactly the version
that change was made on folds it without reading the database (versions count every
change, so the copy then holds all that came before it); any other copy reads the
database as above.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from skytotems import Event, IllegalAction, MalformedAction, action_from_json
from skytotems.rules.undo import blocks_undo

from .clocks import CLOCK_MODES, Clocks
from .store import Guard, StoredChanges, Write
from .table import Step, Table

# the table columns a change may carry that a copy holds (`_copy_row`)
FOLDED_COLUMNS = ("status", "finished_ms", "result", "listed", "clocks")


@dataclass(slots=True)
class CaughtUp:
    """What folding changed: the engine `events` of the new entries (none after an undo,
    which calls for a `reset` of every watcher's view), how many `entries` were new,
    whether anything else of the table `changed`, and the new `chat` messages."""

    events: list[Event] = field(default_factory=list)
    reset: bool = False
    entries: int = 0
    changed: bool = False
    chat: list[dict[str, Any]] = field(default_factory=list)


def fold_changes(
    table: Table, changes: StoredChanges, clock_scale: float, chat_history: int
) -> CaughtUp | None:
    """Bring `table` to `changes` (read after its seq). None when they cannot be folded
    (an entry missing or refused by the engine): the copy must be rebuilt from the log,
    and may have been changed in part."""
    out = CaughtUp()
    for entry in changes.entries:
        if entry["seq"] != table.seq + 1:
            return None
        if entry["kind"] == "undo":
            table.undo_to(int(entry["data"]["to"]))
            out.reset = True
        else:
            try:
                action = action_from_json(entry["data"])
                events = table.game.apply(action)
            except (MalformedAction, IllegalAction):
                return None
            out.events.extend(events)
            table.append_entry(Step(entry["seq"], action, blocks_undo(events)))
        out.entries += 1
    if out.reset:
        out.events = []
    out.changed = _copy_row(table, changes, clock_scale)
    for entry in changes.entries:  # what a human did last (an idle table is abandoned)
        player = entry["player"]
        if player is not None and table.players[player].kind == "human":
            table.human_active_ms = max(table.human_active_ms, int(entry["at_ms"]))
    if changes.chat is not None:
        out.chat = _new_chat(table, changes.chat, chat_history)
    return out


def stored_change(write: Write, version: int) -> dict[str, Any] | None:
    """What the bus sends along with the notification of `write`, now stored at
    `version`: its log entries and the table columns it set (None: a change that is not
    all there, such as a seat taken, which the other processes read back)."""
    guard: Guard | None = write.guard
    if write.fn is not None or guard is None or not write.entries:
        return None
    entries = [{k: v for k, v in e.items() if k != "table_id"} for e in write.entries]
    columns = {k: v for k, v in guard.values.items() if k in FOLDED_COLUMNS}
    return {"v": version, "e": entries, "c": columns}


def from_notice(table: Table, change: dict[str, Any]) -> StoredChanges | None:
    """The change sent with a notification as if read back after `table`'s seq, if
    `table` is at exactly the version it was made on (else None: read the database)."""
    entries = change["e"]
    if change["v"] != table.version + 1 or not entries or entries[0]["seq"] != table.seq + 1:
        return None
    row: dict[str, Any] = {
        "status": table.status,
        "finished_ms": table.finished_ms,
        "result": table.result,
        "listed": table.listed,
        "clocks": table.clocks.to_json() if table.clocks else None,
    }
    row.update(change["c"])
    row["version"] = change["v"]
    seats = [
        {"player": p.index, "kind": p.kind, "name": p.name, "level": p.level,
         "token_hash": p.token_hash}
        for p in table.players
    ]  # fmt: skip
    return StoredChanges(row, seats, list(entries), None)


def _copy_row(table: Table, changes: StoredChanges, clock_scale: float) -> bool:
    """The stored seats, status, result, clocks and version into `table`; whether any
    of them but the version differed."""
    row = changes.row
    before = _seen(table, table.clocks.to_json() if table.clocks else None)
    for seat in changes.seats:
        player = table.players[seat["player"]]
        player.kind, player.name = seat["kind"], seat["name"]
        player.level, player.token_hash = seat["level"], seat["token_hash"]
    table.status = row["status"]
    table.finished_ms = row["finished_ms"]
    table.result = row["result"]
    table.listed = bool(row.get("listed", True))
    # the stored version counts every change read here: the next guarded change is made
    # on it (an older one would be refused once, as made on an outdated copy)
    table.version = int(row["version"])
    mode = CLOCK_MODES[table.clock]
    if mode is not None and row["clocks"]:
        table.clocks = Clocks.from_json(mode, row["clocks"], clock_scale)
    return before != _seen(table, row["clocks"])


def _seen(table: Table, clocks: dict[str, Any] | None) -> tuple[Any, ...]:
    """What the players see of `table`'s row and seats, with `clocks` as stored (without
    the heartbeat's `alive`, which changes nothing seen)."""
    return (
        [(p.kind, p.name, p.level, p.token_hash) for p in table.players],
        table.status,
        table.finished_ms,
        table.result,
        table.listed,
        None if clocks is None else {k: v for k, v in clocks.items() if k != "alive"},
    )


def _new_chat(
    table: Table, stored: list[dict[str, Any]], chat_history: int
) -> list[dict[str, Any]]:
    """The stored messages `table` lacks (said through another process), oldest first;
    `table.chat` gains them, in the order of their ids."""
    known = {m["id"] for m in table.chat}
    oldest = min(known) if len(known) >= chat_history else -1
    new = [m for m in stored if m["id"] not in known and m["id"] > oldest]
    if new:
        table.chat = sorted([*table.chat, *new], key=lambda m: int(m["id"]))[-chat_history:]
    return new
