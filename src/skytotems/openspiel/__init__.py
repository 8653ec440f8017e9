"""Sky Totems inside OpenSpiel (needs the ``openspiel`` extra).

``import skytotems.openspiel`` registers the Python game ``python_sky_totems``, so
``pyspiel.load_game("python_sky_totems", {"players": 2})`` works; docs/env.md describes
its actions, chance nodes, observations and information states.
"""

from .game import GAME_NAME, SeatObserver, SkyTotemsGame, SkyTotemsState, register

register()

__all__ = ["GAME_NAME", "SeatObserver", "SkyTotemsGame", "SkyTotemsState", "register"]
