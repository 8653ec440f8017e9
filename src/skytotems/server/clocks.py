"""Table clocks: a real-time bank per player, a turn-based limit per move, or none.

A player's clock runs while the engine waits on one of its seats. Real-time clocks
(fast, normal, slow) are a bank that gains an increment at the start of each of the
player's turns; turn-based clocks (24h, 72h) reset to their limit at each turn start,
so the player has that long to finish the turn. Time spent is never given back, not
even by an undo, and a server restart does not stop the clocks (they are wall-clock
times). The state is a small JSON object stored with the table.
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


class Clocks:
    """The clocks of one table: remaining ms per player and since when each one runs.

    `banks[p]` is the time left when `running[p]` (a wall-clock ms, or None when the
    clock is stopped) began; the time left now is ``banks[p] - (now - running[p])``.
    """

    def __init__(self, mode: ClockMode, players: int, scale: float = 1.0) -> None:
        self.mode = mode
        self.scale = scale
        self.bank_start = int(mode.bank * scale)
        self.increment = int(mode.increment * scale)
        self.banks = [self.bank_start] * players
        self.running: list[int | None] = [None] * players

    def remaining(self, player: int, now: int) -> int:
        """Milliseconds left to `player` now (may be negative once out of time)."""
        since = self.running[player]
        return self.banks[player] - (now - since if since is not None else 0)

    def expired(self, player: int, now: int) -> bool:
        return self.remaining(player, now) <= 0

    def update(self, pending: set[int], turn_starts: set[int], now: int) -> None:
        """After a change of state: charge the time spent, apply turn starts, and run the
        clocks of exactly the `pending` players (those the engine waits on)."""
        for p, since in enumerate(self.running):
            if since is not None:
                self.banks[p] -= now - since
                self.running[p] = None
        for p in turn_starts:
            if self.mode.turn_based:
                self.banks[p] = self.bank_start
            else:
                self.banks[p] = max(self.banks[p], 0) + self.increment
        for p in pending:
            self.running[p] = now

    def next_expiry(self, players: set[int]) -> int | None:
        """The wall-clock ms at which the first of `players` runs out, if any clock runs."""
        times = [since + self.banks[p] for p in players if (since := self.running[p]) is not None]
        return min(times) if times else None

    def to_json(self) -> dict[str, Any]:
        """The stored form (also what clients get, with the server's time beside it)."""
        return {"mode": self.mode.name, "banks": list(self.banks), "running": list(self.running)}

    @classmethod
    def from_json(cls, mode: ClockMode, data: dict[str, Any], scale: float) -> Clocks:
        clocks = cls(mode, len(data["banks"]), scale)
        clocks.banks = [int(b) for b in data["banks"]]
        clocks.running = [None if r is None else int(r) for r in data["running"]]
        return clocks

    def public(self, now: int) -> dict[str, Any]:
        """What every client is shown: the mode and each player's time left now."""
        return {
            "mode": self.mode.name,
            "server_ms": now,
            "players": [
                {"remaining_ms": self.remaining(p, now), "running": self.running[p] is not None}
                for p in range(len(self.banks))
            ],
        }
