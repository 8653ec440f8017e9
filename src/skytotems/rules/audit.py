"""What a referee, a test or a tool may read of a full game that no seat's view shows.

Views hide the dealt hands and the random generator (RULES.md §11). Code that holds the
whole `Game` (a test, the server's own checks, a tool replaying a record) reads them
here instead of reaching into the engine's fields.
"""

from __future__ import annotations

from .engine import Game


def dealt_hands(game: Game) -> tuple[tuple[str, ...], ...]:
    """The three card ids each seat was dealt at setup (RULES.md §4), by seat."""
    return tuple(game.hands)


def generator_secrets(game: Game) -> tuple[str, ...]:
    """The texts no view may contain (RULES.md §11): the seed and the generator's
    current state, in decimal. Use a large seed: a small one is found in any text."""
    return (str(game.seed), str(game.rng.state))
