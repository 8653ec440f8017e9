"""The game's one random generator: SplitMix64, explicit so replays match everywhere.

Python's `random.Random` may change its algorithms between versions; a record must
replay identically on any machine, so the engine owns its generator (DESIGN.md §2).
Its state never leaves the engine: views and records carry the seed only once the
game is over.
"""

from __future__ import annotations

_MASK = (1 << 64) - 1
_GAMMA = 0x9E3779B97F4A7C15


class Rng:
    """SplitMix64 (Steele, Lea & Flood 2014): tiny, fast, and well distributed."""

    __slots__ = ("state",)

    def __init__(self, seed: int) -> None:
        self.state = seed & _MASK

    def copy(self) -> Rng:
        other = Rng.__new__(Rng)
        other.state = self.state
        return other

    def next64(self) -> int:
        """The next 64-bit output."""
        self.state = s = (self.state + _GAMMA) & _MASK
        z = ((s ^ (s >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A uniform integer in [0, n) with no modulo bias (rejection sampling)."""
        if n <= 0:
            raise ValueError("below() needs a positive bound")
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            x = self.next64()
            if x < limit:
                return x % n

    def shuffle(self, items: list[object]) -> None:
        """Fisher–Yates shuffle in place."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]

    def weighted(self, counts: list[int], total: int) -> int:
        """An index drawn with probability counts[i] / total (total = sum(counts) > 0)."""
        r = self.below(total)
        for i, c in enumerate(counts):
            if r < c:
                return i
            r -= c
        raise ValueError("weighted(): total exceeds the sum of counts")
