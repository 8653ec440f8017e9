"""The bot protocol, the registry of bot names, and helpers every bot shares.

A bot sees what a player sees: its seat's view (`skytotems.view(game, seat)`) and the
legal actions of that seat. It never receives the `Game`. Bots that need a full game
(to look ahead) build one from the view with the engine's determinization
(`sample_hidden` + `game_from_view`), so they cannot cheat by construction.

Decisions are reproducible: each decision draws its random numbers from a generator
seeded by the bot's seed and the view's move number and seat, never from the clock.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol, runtime_checkable

from ..rules.actions import Action
from ..rules.determinize import game_from_view, sample_hidden
from ..rules.engine import Game
from ..rules.rng import Rng

View = dict[str, Any]

BOT_NAMES = ("random", "greedy", "mcts-easy", "mcts-medium", "mcts-hard", "mcts")
ALIASES = {"mcts": "mcts-medium"}


@runtime_checkable
class Bot(Protocol):
    """Anything that picks one of the legal actions from a view."""

    name: str

    def choose(self, view: View, legal_actions: list[Action]) -> Action:
        """One of `legal_actions` (which are all the seat's legal actions now)."""
        ...


def canonical_name(name: str) -> str:
    """The registry name behind an alias (`mcts` is `mcts-medium`)."""
    return ALIASES.get(name, name)


def make_bot(name: str, seed: int = 0) -> Bot:
    """A new bot called `name` (one of BOT_NAMES), seeded with `seed`.

    ValueError names the valid bot names for anything else.
    """
    factories = _factories()
    key = canonical_name(name)
    if key not in factories:
        raise ValueError(f"unknown bot {name!r}; expected one of {', '.join(BOT_NAMES)}")
    return factories[key](seed)


def _factories() -> dict[str, Callable[[int], Bot]]:
    # Imported here: the bot modules import this one.
    from .greedy import GreedyBot
    from .mcts import MctsBot
    from .random_bot import RandomBot

    return {
        "random": RandomBot,
        "greedy": GreedyBot,
        "mcts-easy": lambda seed: MctsBot(seed, level="easy"),
        "mcts-medium": lambda seed: MctsBot(seed, level="medium"),
        "mcts-hard": lambda seed: MctsBot(seed, level="hard"),
    }


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
