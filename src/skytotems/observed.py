"""A game as one observer sees it, rebuilt from that observer's view (RULES.md §11).

Screens that draw a game (the terminal's `render`) read this instead of the `Game`, so
what they show is what the view holds and nothing hidden can leak through them. It
offers the fields a screen reads under the engine's names, and satisfies
`scoring.ScoredGame`, so score sheets are computed from it as from the game.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .rules.altar import Altar
from .rules.cards import Card, Deck
from .rules.decisions import Decision
from .rules.deck_file import FORMAT
from .rules.options import GameOptions
from .rules.pieces import DESIGN_BY_NAME, DESIGN_NAMES


class Observed:
    """What `view(game, viewer)` shows, in the engine's types (ints, `Altar`, `Card`)."""

    def __init__(self, view: Mapping[str, Any]) -> None:
        self.viewer: int | None = view["viewer"]
        self.options = GameOptions.from_json(view["options"])
        self.n: int = view["seats_count"]
        self.phase: str = view["phase"]
        self.round: int = view["round"]
        self.start_player: int = view["start_player"]
        self.first_player: int = view["first_player"]
        self.move: int = view["move"]
        self.slots = [[DESIGN_BY_NAME[d] for d in slot] for slot in view["slots"]]
        self.bag = [view["bag"][name] for name in DESIGN_NAMES]
        self.bag_total: int = view["bag_total"]
        self.altars = [Altar.from_json(a) for a in view["altars"]]
        seats = view["seats"]
        self.revealed = [list(s["revealed"]) for s in seats]
        self.goal_counts = [s["goal_count"] for s in seats]
        self.chosen = [bool(s["chosen"]) for s in seats]
        # Own seats only: others' face-down goals and hands are not in the view.
        self.goals = [[g["card"] for g in s.get("goals", ())] for s in seats]
        self._revealable = [
            tuple(g["card"] for g in s.get("goals", ()) if g["revealable"]) for s in seats
        ]
        self.hands = [tuple(s.get("hand", ())) for s in seats]
        deck = Deck.from_json(
            {"format": FORMAT, "version": 1, "name": "in play", "cards": view["deck"]}
        )
        self.cards: dict[str, Card] = {c.id: c for c in deck}
        pending = view["decision"]
        self.decision = (
            None
            if pending is None
            else Decision(pending["kind"], tuple(pending["seats"]), dict(pending["context"]))
        )

    @property
    def is_over(self) -> bool:
        return self.phase == "over"

    def card(self, card_id: str) -> Card:
        """The card with this id (every card in play is public)."""
        return self.cards[card_id]

    def revealable(self, seat: int) -> tuple[str, ...]:
        """`seat`'s face-down goals whose mission is met now, if the observer owns it."""
        return self._revealable[seat]
