"""The research API: Sky Totems for reinforcement learning (needs the ``env`` extra).

- `sky_totems_v0`: the PettingZoo AEC environment (``sky_totems_v0.env()``,
  ``sky_totems_v0.raw_env``), documented in ``raw_env``'s docstring;
- `SkyTotemsGymEnv`: a Gymnasium single-agent wrapper where one seat learns and the
  others are bots;
- `encoding`: the fixed action enumeration (`ActionCodec`) and the observation arrays
  (`ObservationEncoder`).

The rules engine does not depend on this package: ``import skytotems`` stays
standard-library only, and ``skytotems.env`` needs numpy, gymnasium and pettingzoo.
"""

from . import sky_totems_v0
from .encoding import DEFAULT_WINDOW, TOTEM_SHAPES, ActionCodec, ObservationEncoder
from .gym_wrapper import Opponent, SkyTotemsGymEnv, random_opponent, resolve_opponent

__all__ = [
    "DEFAULT_WINDOW",
    "TOTEM_SHAPES",
    "ActionCodec",
    "ObservationEncoder",
    "Opponent",
    "SkyTotemsGymEnv",
    "random_opponent",
    "resolve_opponent",
    "sky_totems_v0",
]
