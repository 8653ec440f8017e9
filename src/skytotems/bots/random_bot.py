"""The random bot: uniform over the legal actions (a baseline and a fuzzer)."""

from __future__ import annotations

from ..rules.actions import Action
from .base import View, decision_rng


class RandomBot:
    """Picks uniformly among the legal actions."""

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def choose(self, view: View, legal_actions: list[Action]) -> Action:
        """A uniformly random legal action (reproducible for a seed and a view)."""
        if len(legal_actions) == 1:
            return legal_actions[0]
        rng = decision_rng(self.seed, view)
        return legal_actions[rng.below(len(legal_actions))]
