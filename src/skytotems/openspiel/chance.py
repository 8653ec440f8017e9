"""Explicit chance for OpenSpiel: every random draw of the engine becomes a chance node.

The engine draws through one generator (``skytotems.rules.rng.Rng``): ``below(n)`` for
the start player, the random totem set and each step of the deal's shuffle, and
``weighted(bag, total)`` for each pedestal drawn from the bag. `ScriptedRng` answers
those calls from a list of outcomes chosen outside the engine and, when the list runs
out, raises `ChanceNeeded` with the distribution of the next call. `resolve` re-runs a
step (the setup or one action, on a copy) with the outcomes chosen so far, so an
OpenSpiel state is a pure function of its history and the engine's rules stay the only
rules: nothing here knows when or how many pedestals are drawn.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeVar

from ..rules.rng import Rng

Distribution = tuple[tuple[int, float], ...]
T = TypeVar("T")


class ChanceNeeded(Exception):
    """The step needs one more chance outcome, drawn from `distribution`."""

    def __init__(self, distribution: Distribution) -> None:
        super().__init__(f"a chance outcome is needed from {len(distribution)} outcomes")
        self.distribution = distribution


class ScriptedRng(Rng):
    """A generator whose draws are given: outcome k answers the k-th non-trivial call.

    ``below(1)`` has one possible answer and consumes nothing; ``next64`` is refused
    (the engine's steps never call it, and a 64-bit chance node would be no node).
    """

    __slots__ = ("outcomes", "used")

    def __init__(self, outcomes: Sequence[int] = ()) -> None:
        super().__init__(0)
        self.outcomes = tuple(outcomes)
        self.used = 0

    def copy(self) -> ScriptedRng:
        other = ScriptedRng(self.outcomes)
        other.used = self.used
        return other

    def next64(self) -> int:
        raise TypeError("explicit chance covers below() and weighted() draws only")

    def below(self, n: int) -> int:
        if n <= 0:
            raise ValueError("below() needs a positive bound")
        if n == 1:
            return 0
        return self._next(tuple((i, 1.0 / n) for i in range(n)))

    def weighted(self, counts: list[int], total: int) -> int:
        return self._next(tuple((i, c / total) for i, c in enumerate(counts) if c))

    def _next(self, distribution: Distribution) -> int:
        if self.used >= len(self.outcomes):
            raise ChanceNeeded(distribution)
        outcome = self.outcomes[self.used]
        if all(outcome != o for o, _ in distribution):
            raise ValueError(f"chance outcome {outcome} is impossible here")
        self.used += 1
        return outcome


def resolve(step: Callable[[ScriptedRng], T], outcomes: Sequence[int]) -> T | Distribution:
    """Run `step` with `outcomes` as its draws: its result when they suffice, else the
    distribution of the next draw it needs. `step` must work on its own copy."""
    try:
        return step(ScriptedRng(outcomes))
    except ChanceNeeded as needed:
        return needed.distribution
