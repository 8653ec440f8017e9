"""The one list of bots: every name a player, the server or the lobby may ask for.

The server's request schema, its `/api/bots` endpoint (which the lobby reads) and the
command-line tools all take their lists from here. The bot modules import `base`, never
this module, so the registry can import them directly (no import cycle).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from .base import Bot
from .greedy import GreedyBot
from .mcts import MctsBot
from .random_bot import RandomBot

_FACTORIES: Final[dict[str, Callable[[int], Bot]]] = {
    "random": RandomBot,
    "greedy": GreedyBot,
    "mcts-easy": lambda seed: MctsBot(seed, level="easy"),
    "mcts-medium": lambda seed: MctsBot(seed, level="medium"),
    "mcts-hard": lambda seed: MctsBot(seed, level="hard"),
    "mcts-expert": lambda seed: MctsBot(seed, level="expert"),
}

OFFERED: Final = tuple(_FACTORIES)
"""The bots offered to players, weakest first (the lobby's list)."""

ALIASES: Final = {"mcts": "mcts-medium"}
"""Older names kept so stored tables and scripts still work."""

BOT_NAMES: Final = (*OFFERED, *ALIASES)
"""Every name `make_bot` accepts: the offered bots, then the aliases."""


def canonical_name(name: str) -> str:
    """The registry name behind an alias (`mcts` is `mcts-medium`)."""
    return ALIASES.get(name, name)


def make_bot(name: str, seed: int = 0) -> Bot:
    """A new bot called `name` (one of BOT_NAMES), seeded with `seed`.

    ValueError names the valid bot names for anything else.
    """
    factory = _FACTORIES.get(canonical_name(name))
    if factory is None:
        raise ValueError(f"unknown bot {name!r}; expected one of {', '.join(BOT_NAMES)}")
    return factory(seed)
