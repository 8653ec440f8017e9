"""Bots: random, greedy and information-set MCTS players, the arena and the solo challenge.

Every bot implements `Bot.choose(view, legal_actions)`; `make_bot(name, seed)` builds
one by name (`random`, `greedy`, `mcts-easy`, `mcts-medium`, `mcts-hard`,
`mcts-expert`, `mcts`).
"""

from .base import Bot
from .registry import BOT_NAMES, canonical_name, make_bot

__all__ = ["BOT_NAMES", "Bot", "canonical_name", "make_bot"]
