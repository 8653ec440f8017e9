"""The research API: Sky Totems for reinforcement learning (needs the ``env`` extra).

- `sky_totems_v0`: the PettingZoo AEC environment (``sky_totems_v0.env()``,
  ``sky_totems_v0.raw_env``), documented in ``raw_env``'s docstring;
- `SkyTotemsGymEnv`: a Gymnasium single-agent wrapper where one seat learns and the
  others are bots, also made by ``gymnasium.make("skytotems/SkyTotems-v0", ...)``
  (registered by importing this package);
- `encoding`: the fixed action enumeration (`ActionCodec`) and the observation arrays
  (`ObservationEncoder`).

The rules engine does not depend on this package: ``import skytotems`` stays
standard-library only, and ``skytotems.env`` needs numpy, gymnasium and pettingzoo.
"""

import gymnasium

from . import sky_totems_v0
from .encoding import DEFAULT_WINDOW, TOTEM_SHAPES, ActionCodec, ObservationEncoder
from .gym_wrapper import Opponent, SkyTotemsGymEnv, random_opponent, resolve_opponent

GYMNASIUM_ID = "skytotems/SkyTotems-v0"

if GYMNASIUM_ID not in gymnasium.registry:
    gymnasium.register(id=GYMNASIUM_ID, entry_point="skytotems.env.gym_wrapper:SkyTotemsGymEnv")

__all__ = [
    "DEFAULT_WINDOW",
    "GYMNASIUM_ID",
    "TOTEM_SHAPES",
    "ActionCodec",
    "ObservationEncoder",
    "Opponent",
    "SkyTotemsGymEnv",
    "random_opponent",
    "resolve_opponent",
    "sky_totems_v0",
]
