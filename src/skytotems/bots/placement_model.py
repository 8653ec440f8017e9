"""A fitted rule of thumb for placing pedestals in playouts (docs/bots.md, "A fitted
placement rule").

A playout places the pedestals it takes many thousand times a decision, too often to
rate each place by the heuristic estimate (a copy of the game and an estimate per
option: 1.6 x a solo decision's time). The tallest-column rule of thumb picks the
estimate's place in about 60 % of placements. This rule scores each option by a few
local features (the height it makes, the equal neighbours and wolf legs it makes or
breaks, rare designs, free clouds) weighted by a conditional logit fitted to the
estimate's own choices in greedy solo games (`scripts/fit_placement_model.py`, which
prints the weights' lines): it picks the estimate's place in about 76 % of them, and a
search takes the same time with it. A level may place its solo playouts' pedestals by
it (`Level.solo_playout_placements = "fitted"`), or rate by the estimate the few options
the rule scores close to its best (`close_placements`, `"checked"`); none does, since
the hard level scored no higher with either over the solo command's 60 games.
"""

from __future__ import annotations

from typing import Final

from ..rules.actions import Action, PlacePedestal, ReturnPedestal
from ..rules.altar import Altar
from ..rules.engine import Game
from ..rules.grid import DIRECTIONS
from ..rules.pieces import is_rare
from ..rules.rng import Rng
from .evaluation import free_clouds
from .greedy import prune

# The features of one option, in the order of `placement_features` and the weights.
FEATURE_NAMES: Final = (
    "return",  # the option returns the pedestal for a cloud
    "return_free",  # a return, by the free clouds left (of 6)
    "empty",  # starts a column on an empty cloud
    "height",  # the column's height after it (of 6)
    "cat_high",  # the column reaches 6 (a cat's)
    "pair_made",  # neighbours at the new height (2 or more): bird and wolf sites
    "pair_broken",  # neighbours at the old height (2 or more) it leaves
    "leg_made",  # columns two cells away in a line at the new height: wolf legs
    "leg_broken",  # such columns at the old height
    "horse_made",  # neighbours two apart from the new height
    "horse_broken",  # neighbours two apart from the old height
    "step_made",  # neighbours one apart from the new height: dragon steps
    "neighbours",  # neighbouring columns
    "rare",  # a rare design
    "rare_empty",  # a rare design starting a column
    "low",  # stacked on a column of 1 or 2
    "other",  # not a placement (a reveal among the options)
    "free_clouds",  # a placement, by the free clouds left (of 6)
)

# The weights of the features, fitted by `scripts/fit_placement_model.py` (see its
# docstring for the data), which prints these lines. Named one by one: compiled, each is
# a constant in `placement_value`'s arithmetic.
W_RETURN: Final = -2.17
W_RETURN_FREE: Final = -0.57
W_EMPTY: Final = 0.29
W_HEIGHT: Final = 0.71
W_CAT_HIGH: Final = 0.33
W_PAIR_MADE: Final = 0.2
W_PAIR_BROKEN: Final = -0.94
W_LEG_MADE: Final = 0.98
W_LEG_BROKEN: Final = -0.94
W_HORSE_MADE: Final = -0.12
W_HORSE_BROKEN: Final = -0.85
W_STEP_MADE: Final = 0.18
W_NEIGHBOURS: Final = -0.15
W_RARE: Final = 0.66
W_RARE_EMPTY: Final = 0.44
W_LOW: Final = 0.93
W_OTHER: Final = 0.25
W_FREE_CLOUDS: Final = 0.46
PLACEMENT_WEIGHTS: Final[tuple[float, ...]] = (
    W_RETURN,
    W_RETURN_FREE,
    W_EMPTY,
    W_HEIGHT,
    W_CAT_HIGH,
    W_PAIR_MADE,
    W_PAIR_BROKEN,
    W_LEG_MADE,
    W_LEG_BROKEN,
    W_HORSE_MADE,
    W_HORSE_BROKEN,
    W_STEP_MADE,
    W_NEIGHBOURS,
    W_RARE,
    W_RARE_EMPTY,
    W_LOW,
    W_OTHER,
    W_FREE_CLOUDS,
)


Surroundings = tuple[int, int, int, int, int, int, int, int]


def surroundings(altar: Altar, cell: int, old: int) -> Surroundings:
    """What raising the column on `cell` from height `old` to `old + 1` does to the
    uncovered columns around it: (neighbouring columns, pairs made, pairs broken, wolf
    legs made, wolf legs broken, horse steps made, horse steps broken, dragon steps
    made); a pair is a neighbour at the same height of at least 2, a wolf leg a column
    two cells away in a line at such a height."""
    stacks = altar.stacks
    covered = altar.covered
    new = old + 1
    neighbours = pair_made = pair_broken = horse_made = horse_broken = step_made = 0
    leg_made = leg_broken = 0
    for d in DIRECTIONS:
        near = cell + d
        column = stacks.get(near)
        x = len(column) if column and near not in covered else 0
        if x:
            neighbours += 1
            if x == new and new >= 2:
                pair_made += 1
            if x == old and old >= 2:
                pair_broken += 1
            if abs(x - new) == 2:
                horse_made += 1
            if old and abs(x - old) == 2:
                horse_broken += 1
            if abs(x - new) == 1:
                step_made += 1
        far = cell + 2 * d
        column = stacks.get(far)
        y = len(column) if column and far not in covered else 0
        if y >= 2:
            if y == new:
                leg_made += 1
            if y == old:
                leg_broken += 1
    return (
        neighbours,
        pair_made,
        pair_broken,
        leg_made,
        leg_broken,
        horse_made,
        horse_broken,
        step_made,
    )


def placement_features(altar: Altar, action: Action, free: int) -> list[float]:
    """The features of `action` (an option of a placement decision) on `altar`, which
    has `free` free clouds (`free_clouds`), in `FEATURE_NAMES`' order."""
    f = [0.0] * len(FEATURE_NAMES)
    room = min(free, 6) / 6
    if isinstance(action, ReturnPedestal):
        f[0] = 1.0
        f[1] = room
        return f
    if not isinstance(action, PlacePedestal):
        f[16] = 1.0
        return f
    stack = altar.stacks.get(action.cell)
    old = len(stack) if stack else 0
    new = old + 1
    rare = is_rare(action.design)
    near = surroundings(altar, action.cell, old)
    f[2] = 1.0 if old == 0 else 0.0
    f[3] = min(new, 6) / 6
    f[4] = 1.0 if new >= 6 else 0.0
    f[5], f[6], f[7], f[8] = near[1], near[2], near[3], near[4]
    f[9], f[10], f[11], f[12] = near[5], near[6], near[7], near[0]
    f[13] = 1.0 if rare else 0.0
    f[14] = 1.0 if rare and old == 0 else 0.0
    f[15] = 1.0 if old in (1, 2) else 0.0
    f[17] = room
    return f


def placement_score(features: list[float]) -> float:
    """The fitted rule's score of one option's features (higher first)."""
    total = 0.0
    for weight, value in zip(PLACEMENT_WEIGHTS, features, strict=True):
        total += weight * value
    return total


def placement_value(altar: Altar, action: Action, free: int) -> float:
    """`placement_score(placement_features(altar, action, free))`, without building the
    features list (a playout's hot path: equal to it, as tests/bots/test_placement_model.py
    checks on the options of seeded games)."""
    room = min(free, 6) / 6
    if isinstance(action, ReturnPedestal):
        return W_RETURN + W_RETURN_FREE * room
    if not isinstance(action, PlacePedestal):
        return W_OTHER
    stack = altar.stacks.get(action.cell)
    old = len(stack) if stack else 0
    new = old + 1
    near = surroundings(altar, action.cell, old)
    value = W_FREE_CLOUDS * room + W_HEIGHT * (min(new, 6) / 6)
    if old == 0:
        value += W_EMPTY
    if new >= 6:
        value += W_CAT_HIGH
    if is_rare(action.design):
        value += W_RARE + (W_RARE_EMPTY if old == 0 else 0.0)
    if old == 1 or old == 2:
        value += W_LOW
    return (
        value
        + W_PAIR_MADE * near[1]
        + W_PAIR_BROKEN * near[2]
        + W_LEG_MADE * near[3]
        + W_LEG_BROKEN * near[4]
        + W_HORSE_MADE * near[5]
        + W_HORSE_BROKEN * near[6]
        + W_STEP_MADE * near[7]
        + W_NEIGHBOURS * near[0]
    )


def fitted_placement(game: Game, seat: int, legal: list[Action], rng: Rng) -> Action:
    """Of the options `prune` keeps, the one the fitted rule scores highest (ties broken
    by `rng`, as the rule of thumb breaks them)."""
    altar = game.altars[seat]
    free = free_clouds(altar)
    best = legal[0]
    best_score = float("-inf")
    for action in prune(game, legal):
        score = placement_value(altar, action, free) + rng.below(100) / 1e4
        if score > best_score:
            best, best_score = action, score
    return best


def close_placements(game: Game, seat: int, legal: list[Action], margin: float) -> list[Action]:
    """The options `prune` keeps that the fitted rule scores within `margin` of its best,
    best first (ties in legal order): where the rule's choice is close, a playout may
    rate these few by the estimate (docs/bots.md, "Placements the fitted rule is unsure
    of"); where one option stands out, only it."""
    altar = game.altars[seat]
    free = free_clouds(altar)
    options = prune(game, legal)
    scores = [placement_value(altar, action, free) for action in options]
    best = max(scores)
    close = [k for k in range(len(options)) if scores[k] >= best - margin]
    close.sort(key=lambda k: -scores[k])
    return [options[k] for k in close]
