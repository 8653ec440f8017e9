"""A face-down goal's chance of being met by the game's end, fitted to the levels' own
solo games (docs/bots.md, "Goal chances fitted to the games").

The estimate counts a goal not yet met at its value times a chance that falls with its
distance (`mission_distance`, in pedestals) over the actions left. Measured on the hard
level's solo games, that chance is far off: at the first round, goals 6-14 pedestals
away were met 86 % of the time while the estimate counted 0.2-0.4 of their value, and
Twin Peaks or a Grand Staircase seldom, whatever their distance. This model is a
logistic regression of whether a kept goal was met, on its distance, the actions left
and the mission's type, fitted by `scripts/fit_goal_model.py` (which prints the
constants below) on the positions at each round's start of seeded solo games of the
hard and medium levels (the hard level's constant). The hard level uses it to choose its
solo starting cards, that is, which goals to keep (`Level.solo_start_goal_fit`).
"""

from __future__ import annotations

import math
from typing import Final

from ..rules.missions import Mission
from ..rules.pieces import T_CAT

# The logit's terms, fitted by `scripts/fit_goal_model.py` (see its docstring for the
# data), which prints these lines: a constant, per pedestal of distance, per action
# left, per pedestal of distance per action left (+1), and an offset per mission type.
GOAL_CONSTANT: Final = 2.752
GOAL_NEED: Final = -0.0834
GOAL_ACTIONS: Final = 0.1033
GOAL_NEED_PER_ACTION: Final = -1.2223
GOAL_TYPE_OFFSETS: Final[dict[str, float]] = {
    "all_rare_column": -1.140,
    "cloud_cells": 0.962,
    "column_kinds": -0.037,
    "courtyard": -1.036,
    "equal_square": 0.673,
    "rare_designs": -1.336,
    "rare_pedestals": 2.008,
    "same_kind_tall_columns": -2.616,
    "staircase": -2.644,
    "tall_columns": -0.886,
    "totem_count": 0.427,
    "totem_count:cat": 2.952,
    "totem_kinds": 0.664,
    "totem_over_rare_column": 0.584,
    "totem_over_rare_column:cat": 1.426,
}


def goal_type(mission: Mission) -> str:
    """The mission's type as the model tells them apart: a cat's totem missions (the cat
    arrives by itself, on a column 6 high) apart from the other kinds'."""
    name = mission.type
    if name in ("totem_count", "totem_over_rare_column") and mission.param("kind") == T_CAT:
        return name + ":cat"
    return name


def goal_features(need: float, actions: int) -> tuple[float, float, float]:
    """The model's terms other than the constant and the type's offset."""
    return need, float(actions), need / (actions + 1.0)


def fitted_goal_chance(mission: Mission, need: float, actions: int) -> float:
    """The fitted chance that a goal `need` pedestals away (`mission_distance`) is met
    with `actions` full actions left: 0 with none left, as the distance's own chance."""
    if need <= 0:
        return 1.0
    if actions <= 0:
        return 0.0
    by_need, by_actions, by_need_per_action = goal_features(need, actions)
    logit = (
        GOAL_CONSTANT
        + GOAL_NEED * by_need
        + GOAL_ACTIONS * by_actions
        + GOAL_NEED_PER_ACTION * by_need_per_action
        + GOAL_TYPE_OFFSETS.get(goal_type(mission), 0.0)
    )
    if logit < -30.0:
        return 0.0
    return 1.0 / (1.0 + math.exp(-logit))
