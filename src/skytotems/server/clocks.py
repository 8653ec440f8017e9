"""Table clocks: a real-time bank per player, a turn-based limit per move, or none.

A player's clock runs while the engine waits on one of its seats. Real-time clocks
(fast, normal, slow) are a bank that gains an increment at the start of each of the
player's turns; turn-based clocks (24h, 72h) reset to their limit at each turn start,
so the player has that long to finish the turn. Time spent is never given back, not
even by an undo.

Running out is a state, not a moment: a player out of time may still move, but stays
out (shows 0:00, gains no increment, no fresh turn limit) and may be handed to a bot
until the game ends. The server's downtime is not charged: the state records `alive`,
the last moment the server was known to run the clock (a heartbeat stores it every few
seconds), and the process that takes the table over (at its start, or from a process
that died: server/leases.py) stops its running clocks there and starts them again.
The state is a small JSON object stored with the table.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

SECOND = 1000
HOUR = 3600 * SECOND


@dataclass(frozen=True, slots=True)
class ClockMode:
    """How a table's clock works: `bank` ms at start, `increment` ms per turn (real time),
    or a fresh `bank` at each turn (turn-based)."""

    name: str
    bank: int
    increment: int
    turn_based: bool

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "bank_ms": self.bank,
            "increment_ms": self.increment,
            "turn_based": self.turn_based,
        }


CLOCK_MODES: dict[str, ClockMode | None] = {
    "none": None,
    "fast": ClockMode("fast", 180 * SECOND, 15 * SECOND, False),
    "normal": ClockMode("normal", 360 * SECOND, 30 * SECOND, False),
    "slow": ClockMode("slow", 720 * SECOND, 60 * SECOND, False),
    "24h": ClockMode("24h", 24 * HOUR, 0, True),
    "72h": ClockMode("72h", 72 * HOUR, 0, True),
}


def time_out_notice(player: int) -> dict[str, Any]:
    """The server event that tells a table `player` has run out of time."""
    return {"type": "time_out", "player": player}


class Clocks:
    """The clocks of one table: remaining ms per player and since when each one runs.

    `banks[p]` is the time left when `running[p]` (a wall-clock ms, or None when the
    clock is stopped) began; the time left now is ``banks[p] - (now - running[p])``.
    `out[p]` is set once `p` has run out of time and stays set. `alive` is the last
    wall-clock ms at which the server was known to run these clocks.
    """

    def __init__(self, mode: ClockMode, players: int, scale: float = 1.0) -> None:
        self.mode = mode
        self.scale = scale
        self.bank_start = int(mode.bank * scale)
        self.increment = int(mode.increment * scale)
        self.banks = [self.bank_start] * players
        self.running: list[int | None] = [None] * players
        self.out = [False] * players
        self.alive: int | None = None

    def remaining(self, player: int, now: int) -> int:
        """Milliseconds left to `player` now (may be negative once out of time)."""
        since = self.running[player]
        return self.banks[player] - (now - since if since is not None else 0)

    def shown(self, player: int, now: int) -> int:
        """The time left as shown: never negative, 0 once out of time."""
        return 0 if self.out[player] else max(0, self.remaining(player, now))

    def expired(self, player: int, now: int) -> bool:
        """Out of time: marked so, or the bank is used up now (not yet marked)."""
        return self.out[player] or self.remaining(player, now) <= 0

    def newly_expired(self, players: set[int], now: int) -> list[int]:
        """Those of `players` whose time is up now but who are not marked out yet."""
        return sorted(p for p in players if not self.out[p] and self.remaining(p, now) <= 0)

    def mark_out(self, players: list[int]) -> None:
        for p in players:
            self.out[p] = True

    def update(self, pending: set[int], turn_starts: set[int], now: int) -> list[int]:
        """After a change of state: charge the time spent, apply turn starts, and run the
        clocks of exactly the `pending` players (those the engine waits on). Returns the
        players who ran out of time by now and were not marked out yet (now marked)."""
        for p, since in enumerate(self.running):
            if since is not None:
                self.banks[p] -= now - since
                self.running[p] = None
        fresh = [p for p, bank in enumerate(self.banks) if bank <= 0 and not self.out[p]]
        self.mark_out(fresh)
        for p in turn_starts:
            if self.out[p]:
                continue  # out of time stays out: no increment, no fresh turn limit
            if self.mode.turn_based:
                self.banks[p] = self.bank_start
            else:
                self.banks[p] += self.increment
        for p in pending:
            self.running[p] = now
        self.alive = now
        return fresh

    def resume(self, now: int) -> None:
        """When a process takes the table over: running clocks stop where the server was
        last known alive and run again from `now`, so the time the server was down is
        charged to nobody."""
        if self.alive is not None:
            for p, since in enumerate(self.running):
                if since is not None:
                    self.banks[p] -= max(0, self.alive - since)
                    self.running[p] = now
        self.alive = now

    def next_expiry(self, players: set[int]) -> int | None:
        """The wall-clock ms at which the first of `players` runs out, if any clock runs."""
        times = [since + self.banks[p] for p in players if (since := self.running[p]) is not None]
        return min(times) if times else None

    def to_json(self) -> dict[str, Any]:
        """The stored form."""
        return {
            "mode": self.mode.name,
            "banks": list(self.banks),
            "running": list(self.running),
            "out": list(self.out),
            "alive": self.alive,
        }

    @classmethod
    def from_json(cls, mode: ClockMode, data: dict[str, Any], scale: float) -> Clocks:
        clocks = cls(mode, len(data["banks"]), scale)
        clocks.banks = [int(b) for b in data["banks"]]
        clocks.running = [None if r is None else int(r) for r in data["running"]]
        clocks.out = [bool(o) for o in data.get("out") or clocks.out]
        alive = data.get("alive")
        clocks.alive = None if alive is None else int(alive)
        return clocks

    def public(self, now: int) -> dict[str, Any]:
        """What every client is shown: the mode and each player's time left now (never
        negative), whether it runs, and whether the player is out of time."""
        return {
            "mode": self.mode.name,
            "server_ms": now,
            "players": [
                {
                    "remaining_ms": self.shown(p, now),
                    "running": self.running[p] is not None,
                    "out": self.out[p],
                }
                for p in range(len(self.banks))
            ],
        }
