"""Typed errors: each says what was wrong, none reveals hidden information."""

from __future__ import annotations


class SkyTotemsError(Exception):
    """Base of every error the rules package raises on purpose."""


class IllegalAction(SkyTotemsError, ValueError):
    """An action that the game does not allow now; the game is left untouched.

    `reason` is a short machine-readable code, the message a sentence for people.
    """

    reason = "illegal"

    def __init__(self, message: str, reason: str | None = None) -> None:
        super().__init__(message)
        if reason is not None:
            self.reason = reason


class NotYourDecision(IllegalAction):
    """The acting seat is not one the pending decision waits on."""

    reason = "not_your_decision"


class WrongDecision(IllegalAction):
    """The action does not answer the kind of decision that is pending."""

    reason = "wrong_decision"


class GameOver(IllegalAction):
    """The game has ended; nothing more can be applied."""

    reason = "game_over"


class MalformedAction(SkyTotemsError, ValueError):
    """An action (usually from JSON) that cannot even be read."""


class DeckError(SkyTotemsError, ValueError):
    """A deck file that does not follow the deck schema."""


class NotationError(SkyTotemsError, ValueError):
    """Altar notation that cannot be parsed."""


class RecordError(SkyTotemsError, ValueError):
    """A game record that cannot be replayed (malformed, or an action is illegal)."""


class OptionsError(SkyTotemsError, ValueError):
    """Game options that make no game (player count, totem set, tie-break)."""
