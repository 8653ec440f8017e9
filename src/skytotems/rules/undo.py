"""Where undo stops: the events after which a player may not take an action back.

Undo is a convenience of the online game (the published rules have no undo), so the
engine only says which actions close the door to it: one that revealed something (a
random draw, a goal card, a choice from the bag, the starting cards) or after which
the turn changed hands. A player then undoes at most back to their last such action,
within their own turn; the server keeps the log, the engine this judgement.
"""

from __future__ import annotations

from collections.abc import Iterable

from .events import (
    CardRevealed,
    DesignChosen,
    Event,
    GameEnded,
    HoardAdded,
    PedestalsDrawn,
    PhaseStarted,
    RoundEnded,
    SlotFilled,
    StartCardsRevealed,
    StartChosen,
    TurnEnded,
    TurnStarted,
)

# Events after which undo may not go back: something was revealed or the turn changed hands.
REVEALING: tuple[type[Event], ...] = (
    CardRevealed,
    DesignChosen,
    StartCardsRevealed,
    StartChosen,
    SlotFilled,
    HoardAdded,
    TurnStarted,
    TurnEnded,
    RoundEnded,
    PhaseStarted,
    GameEnded,
)


def blocks_undo(events: Iterable[Event]) -> bool:
    """Whether an action that caused `events` is a barrier no undo may cross."""
    for event in events:
        if isinstance(event, REVEALING):
            return True
        if isinstance(event, PedestalsDrawn) and event.source != "wolf":
            return True  # the wolf takes a named design: nothing random is shown
    return False
