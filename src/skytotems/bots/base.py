"""The bot protocol and the helpers every bot shares (the names are in `registry`).

A bot sees what a player sees: its seat's view (`skytotems.view(game, seat)`) and the
legal actions of that seat. It never receives the `Game`. Bots that need a full game
(to look ahead) build one from the view with the engine's determinization
(`sample_hidden` + `game_from_view`), so they cannot cheat by construction.

Decisions are reproducible: each decision draws its random numbers from a generator
seeded by the bot's seed and the view's move number and seat, never from the clock.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, Protocol, runtime_checkable

from ..rules.actions import Action
from ..rules.determinize import game_from_view, sample_hidden
from ..rules.engine import Game
from ..rules.rng import Rng

View = dict[str, Any]


@runtime_checkable
class Bot(Protocol):
    """Anything that picks one of the legal actions from a view."""

    name: str

    def choose(self, view: View, legal_actions: list[Action]) -> Action:
        """One of `legal_actions` (which are all the seat's legal actions now)."""
        ...


def decision_rng(seed: int, view: View, salt: int = 0) -> Rng:
    """A generator for one decision, fixed by the bot seed and the view's position."""
    seat = view["viewer"] if view["viewer"] is not None else -1
    mixer = Rng((seed * 0x9E3779B1 + salt) & ((1 << 64) - 1))
    mixer.state ^= (view["move"] * 1_000_003 + seat * 7919 + 1) & ((1 << 64) - 1)
    mixer.next64()
    return Rng(mixer.next64())


def acting_seat(legal_actions: list[Action]) -> int:
    """The seat the bot is deciding for (every legal action names it)."""
    return legal_actions[0].seat


def determinize(view: View, rng: Rng) -> Game:
    """A full game consistent with `view`: hidden cards and future draws sampled."""
    return game_from_view(view, sample_hidden(view, rng))


def determinizations(view: View, rng: Rng, count: int) -> list[Game]:
    """`count` sampled games for `view`; empty if the engine cannot build one.

    A bot must never raise: should the engine refuse a view (a determinization bug),
    the caller falls back on a plain legal choice instead of failing the game.
    """
    try:
        return [determinize(view, rng) for _ in range(count)]
    except ValueError:
        return []


@contextmanager
def collector_paused() -> Iterator[None]:
    """Python's cyclic garbage collector paused for one decision, as it was after.

    A search allocates millions of short-lived objects, and each burst of them starts a
    collection that walks the estimate's memos (hundreds of thousands of live tuples):
    16 % of a solo decision's time, for nothing, since a search makes no reference
    cycles (reference counting frees all it drops; tests/bots/test_collector.py checks
    both). Paused, the collector catches up after the decision (docs/bots.md "The
    collector paused")."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()
