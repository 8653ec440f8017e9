"""A heuristic estimate of the points a seat will end the game with.

Shared by the greedy bot (which picks the option that maximises it) and the MCTS bot
(which uses it at the end of a truncated playout). It reads a determinized `Game`
built from the bot's own view, never the real game.

estimate = points already scored
         + what the machine still owes the seat (pool, clouds, reward, blessings...)
         + the value of what the altar prepares, discounted by how likely it is to be
           finished in the actions left: totem sites that are a few pedestals short,
           columns nearing a cat, face-down goals close to met, room to place pedestals,
           and a small bonus for tall uncovered columns (the stuff of high totems).

"Need" is counted in pedestals still to add; a column of a scarce design (few left in
the bag) needs more effort per pedestal. The chance of finishing a need of n with A
pedestal-gaining actions left is exp(-n / (rate * A + 0.3)). Totem sites form a "plan":
the best projects that share no cell, each weighted less than the one before, since
they compete for the same pedestals. Each totem but the horse (whose extra turn gives
the action back) uses up one of the builds left: the full actions, plus the
final-totem turn, which can build one totem and nothing else, so it costs no
pedestal-gaining action.

The weights were set by paired solo series of the greedy bot (same deals, one weight
changed at a time); most changes were within the noise, the column-height bonus was not.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, fields
from functools import cache
from operator import itemgetter

from ..rules.altar import Altar
from ..rules.engine import Game
from ..rules.grid import DIRECTIONS, DOWN, RIGHT
from ..rules.missions import Mission
from ..rules.options import ROUNDS
from ..rules.pieces import CAT, T_BIRD, T_CAT, T_DRAGON, T_HORSE, T_WOLF, pedestal_points
from ..rules.steps import (
    BirdDraw,
    CatBlessing,
    CloudsOwed,
    DragonBuild,
    FillSlots,
    OpenPool,
    RevealReward,
    StartingChoice,
    TopOfTurn,
    WolfBlessing,
)
from ..rules.totems import CAT_HEIGHT
from .goal_model import fitted_goal_chance


@dataclass(frozen=True)
class Weights:
    """Tunable weights of the estimate (the defaults are the greedy bot's)."""

    potential: float = 1.2  # weight of a prepared totem site's value counted now
    goals: float = 0.8  # share of a near-met goal card's value counted now
    room: float = 0.5  # value of each free cloud (up to `room_cap`)
    rate: float = 1.0  # pedestals a seat adds to one project per action
    wolf_per_column: float = 1.2  # a wolf's blessing, per other uncovered column
    action_cost: float = 3.0  # what building a totem gives up: a build-pedestals action
    plan: tuple[float, ...] = (1.0, 0.6, 0.35, 0.2)  # weights of a plan's projects, best first
    height: float = 0.2  # bonus per pedestal above the first in uncovered columns
    height_power: float = 1.0  # how the height bonus grows with the column's height
    room_cap: int = 4  # free clouds beyond this many are worth nothing more
    # Value of blessings, in points (roughly what they bring on average); the wolf's
    # is `wolf_per_column` per column instead.
    bird_blessing: float = 5.0
    horse_blessing: float = 3.5
    dragon_blessing: float = 3.5
    cat_blessing: float = 3.5
    turn_value: float = 3.5  # what an unused action (an extra turn's too) is worth
    reveal_reward: float = 2.5  # the chosen pedestal a reveal brings
    pool_share: float = 0.9  # share of an owed pool pedestal's points counted now
    pool_bonus: float = 0.3  # plus this per owed pool pedestal (height, sites)
    owed_cloud: float = 0.25  # an owed cloud placement
    # Share of a face-down goal's chance taken from the model fitted to the hard level's
    # games (`goal_model`) instead of the distance's `chance` times `goals`: 0 in the
    # greedy bot's weights (docs/bots.md, "Goal chances fitted to the games").
    goal_fit: float = 0.0

    def __reduce__(self) -> tuple[type[Weights], tuple[object, ...]]:
        # by the constructor: compiled, a frozen class refuses pickle's field stores
        return (Weights, tuple(getattr(self, f.name) for f in fields(self)))

    def blessings(self) -> tuple[float, ...]:
        """The value of each totem kind's blessing, by kind (the wolf's: see `potential`)."""
        values = {
            T_BIRD: self.bird_blessing,
            T_HORSE: self.horse_blessing,
            T_DRAGON: self.dragon_blessing,
            T_CAT: self.cat_blessing,
        }
        return tuple(values.get(kind, 0.0) for kind in range(max(values) + 1))


def actions_left(game: Game, seat: int) -> tuple[int, int]:
    """(full actions `seat` still has, 1 if its final-totem turn is still to come).

    A full action gains pedestals or builds a totem; the final-totem turn (RULES.md §8)
    can only build. The current action counts while the seat has not used it yet; a
    horse's owed extra turn is a full action, in the final-totem phase too.
    """
    phase = game.phase
    if phase in ("last_reveals", "over"):
        return 0, 0
    if phase == "setup":
        return ROUNDS, 1
    n = game.n
    order_pos = (seat - game.start_player) % n
    done = game.turns_in_round
    extra = game.extra_turns if game.current == seat else 0
    steps = game.pending_steps
    acting_now = game.current == seat and bool(steps) and isinstance(steps[-1], TopOfTurn)
    this_round = 1 if order_pos > done or (order_pos == done and acting_now) else 0
    if phase == "final":
        return extra, this_round
    return ROUNDS - game.round + this_round + extra, 1


def design_costs(game: Game) -> tuple[float, ...]:
    """The effort of one pedestal of each design, by how many the bag still holds."""
    bag = game.bag
    return tuple([1.0 + 1.5 / (1 + bag[d]) for d in range(10)])


def chance(need: float, actions: int, rate: float = 1.0) -> float:
    """Chance that a project `need` pedestals short is finished with `actions` left."""
    if need <= 0:
        return 1.0
    if actions <= 0:
        return 0.0
    return math.exp(-need / chance_spread(actions, rate))


def chance_spread(actions: int, rate: float) -> float:
    """The pedestals `actions` can be expected to add: `chance` is exp(-need / this)."""
    return rate * actions + 0.3


WEIGHTS = Weights()


@cache
def _blessings(weights: Weights) -> tuple[float, ...]:
    """`weights.blessings()`, once per weights (an estimator is made per searched leaf)."""
    return weights.blessings()


# A candidate totem site: (kind, cells, pedestals still needed, points when built).
Site = tuple[int, tuple[int, ...], float, int]
# The altar-dependent part of estimates (plan, goals, room), by weights then by all it
# depends on (the altar's content, never its version), so a key never goes stale.
_ALTAR_PARTS: dict[Weights, dict[tuple[object, ...], tuple[int, float]]] = {}
_ALTAR_PARTS_LIMIT = 100_000
# `altar_part` by (altar version, actions left, final build, the seat's goal cards), for
# the estimators of one search, which share their costs and their games' options and
# cards (copies of one determinization): a version names one content, and looking it up
# spares building and hashing the content key. Scoped to a search, never the process:
# an altar unpickled from another process may carry a version this one also issues.
AltarMemo = dict[tuple[int, int, int, tuple[str, ...]], tuple[int, float]]
# An anchor cell, the totem kinds in play and the states of the cells around it.
AnchorKey = tuple[object, ...]
# A plan candidate: (value, cells, whether the build is free: a horse or a cat).
Valued = tuple[float, tuple[int, ...], bool]


class ValuedMemo:
    """`Estimator.valued` by (gaining actions, wolf blessing), then anchor key, at most
    `limit` entries in all (emptied when full). Each pair of figures has its own table,
    so a bound per table let a long-lived bot process grow to gigabytes: some hundred
    pairs meet in a few games."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.size = 0  # entries in all the tables
        self.tables: dict[tuple[int, float], dict[AnchorKey, tuple[Valued, ...]]] = {}

    def table(self, gaining: int, wolf: float) -> dict[AnchorKey, tuple[Valued, ...]]:
        """The entries of one pair of figures (the caller adds to it, then `added`)."""
        table = self.tables.get((gaining, wolf))
        if table is None:
            table = self.tables[(gaining, wolf)] = {}
        return table

    def added(self, count: int) -> None:
        """Count `count` new entries; empty every table once the limit is reached."""
        self.size += count
        if self.size >= self.limit:
            self.clear()

    def clear(self) -> None:
        self.tables.clear()
        self.size = 0


# `Estimator.valued` by weights (`ValuedMemo`).
_VALUED: dict[Weights, ValuedMemo] = {}
_VALUED_LIMIT = 300_000


class Estimator:
    """The estimate for one determinized game, with the bag-dependent costs precomputed."""

    def __init__(
        self,
        game: Game,
        weights: Weights = WEIGHTS,
        costs: tuple[float, ...] | None = None,
        altar_memo: AltarMemo | None = None,
    ) -> None:
        self.game = game
        self.w = weights
        # The memos by weights, found by identity without hashing them (an estimator
        # is made per searched leaf, and Weights hashes field by field).
        memos = _memos_of(weights)
        self.blessing, self.cache, self.valued_memo, self.ready_memo = memos
        # Cost of one pedestal of each design on an existing column: scarce designs cost
        # more. A search passes the costs of its root position (`design_costs`), so that
        # its leaves judge altars alike whatever their playouts drew.
        self.cost = design_costs(game) if costs is None else costs
        # `altar_part` by altar version, for estimators of one search (`AltarMemo`).
        self.altar_memo = altar_memo
        # `kind_sites` by altar version, then kind (-1: every kind).
        self.sites: dict[int, dict[int, list[Site]]] = {}
        self.anchors: dict[int, list[AnchorKey]] = {}  # `anchor_keys` by altar version

    # ----------------------------------------------------------------- pieces

    def value(self, seat: int) -> float:
        """Estimated final points of `seat`."""
        game = self.game
        altar = game.altars[seat]
        cards = sum(game.cards[c].points for c in game.revealed[seat])
        if game.phase == "over":
            return float(altar.pedestal_points() + altar.totem_points() + cards)
        actions, final_build = actions_left(game, seat)
        points, part = self.altar_part(seat, altar, actions, final_build)
        return points + cards + self.owed(seat) + part

    def altar_part(
        self, seat: int, altar: Altar, actions: int, final_build: int
    ) -> tuple[int, float]:
        """(the altar's points now: pedestals and totems; what it prepares: its plan, its
        face-down goals and its room), cached together: both follow from its content."""
        game = self.game
        by_version = self.altar_memo
        if by_version is not None:
            version_key = (altar.version, actions, final_build, tuple(game.goals[seat]))
            found = by_version.get(version_key)
            if found is not None:
                return found
        cards = game.cards
        cost = self.cost
        stacks = altar.stacks
        # Keyed by the altar's content (in iteration order, which sums and ties follow)
        # rather than its version: a search meets the same altar again on other copies,
        # e.g. a playout reply chosen on a copy, then applied to the game. Of the bag only
        # the costs of the altar's column designs count; of the goals, their missions.
        key = (
            tuple(stacks.items()),
            tuple(altar.clouds),
            tuple(altar.covered),
            tuple(altar.totems),
            tuple(altar.hoard),
            tuple([cost[s[0]] if s else 0.0 for s in stacks.values()]),
            actions,
            final_build,
            game.kinds,
            game.buildable_kinds,
            game.cat_in_play,
            tuple([(cards[c].points, cards[c].mission) for c in game.goals[seat]]),
        )
        entry = self.cache.get(key)
        if entry is None:
            part = (
                self.potential(altar, actions, final_build)
                + self.goals(seat, altar, actions)
                + (self.w.room * min(self.w.room_cap, free_clouds(altar)) if actions else 0.0)
            )
            if len(self.cache) >= _ALTAR_PARTS_LIMIT:
                self.cache.clear()
            entry = self.cache[key] = (altar.pedestal_points() + altar.totem_points(), part)
        if by_version is not None:
            if len(by_version) >= _ALTAR_PARTS_LIMIT:
                by_version.clear()
            by_version[version_key] = entry
        return entry

    def owed(self, seat: int) -> float:
        """What the machine still owes `seat`: pool pedestals, clouds, rewards, blessings."""
        game = self.game
        w = self.w
        total = 0.0
        for step in game.pending_steps:
            if isinstance(step, (StartingChoice, FillSlots)) or step.seat != seat:
                continue
            match step:
                case OpenPool():
                    total += sum(
                        w.pool_share * pedestal_points(d) + w.pool_bonus for d in game.pool
                    )
                case CloudsOwed():
                    total += w.owed_cloud * step.remaining
                case RevealReward():
                    total += w.reveal_reward if game.bag_total else 0.0
                case CatBlessing():
                    total += w.reveal_reward * (2 if step.first < 0 else 1)
                case BirdDraw():
                    total += 3 * 1.4
                case WolfBlessing():
                    altar = game.altars[seat]
                    for c in step.remaining:
                        d = altar.stacks[c][0]
                        if game.bag[d]:
                            total += pedestal_points(d) + w.pool_bonus
                case DragonBuild():
                    best = max((len(s) for s in game.slots), default=0) or 2
                    total += 1.3 * best
                case TopOfTurn():
                    total += w.turn_value  # an action not used yet (a horse's extra turn too)
        if game.current == seat:
            total += w.turn_value * game.extra_turns
        return total

    def potential(self, altar: Altar, actions: int, final_build: int) -> float:
        """The value of the best plan of non-overlapping totem sites and cat columns.

        Candidate projects are ranked by value (points and blessing, less the action a
        build takes, times the chance of finishing it); the best ones that share no cell
        are kept, each weighted less than the one before (they compete for pedestals).
        Every totem but the horse (which gives its action back) takes one of the builds
        left: the full actions and the final-totem turn, which builds for free.
        """
        if actions <= 0 and not final_build:
            return 0.0
        game = self.game
        w = self.w
        valued: list[Valued] = []
        # The wolf's blessing adds a pedestal to every other uncovered column.
        open_columns = sum(1 for c in altar.stacks if c not in altar.covered)
        wolf_blessing = w.wolf_per_column * max(0, open_columns - 2)
        # Actions that can gain pedestals before a build that still needs some.
        gaining = actions - (0 if final_build else 1)
        # `chance` inlined (this loop is the estimate's hot spot; same figures).
        spread = chance_spread(gaining, w.rate)
        # Valued per anchor cell, memoised: an anchor's sites and these figures
        # decide its entries (the wolf's blessing only where it has wolf sites).
        wolf = wolf_blessing if T_WOLF in game.buildable_kinds else 0.0
        memo = self.valued_memo
        table = memo.table(gaining, wolf)
        added = 0
        for anchor in self.anchor_keys(altar):
            entries = table.get(anchor)
            if entries is None:
                entries = table[anchor] = self.valued(anchor, gaining, spread, wolf)
                added += 1
            valued.extend(entries)
        if added:
            memo.added(added)
        if game.cat_in_play and actions > 0:
            for c, s in altar.stacks.items():
                if c not in altar.covered and len(s) >= 2:
                    need = (CAT_HEIGHT - len(s)) * self.cost[s[0]]
                    p = chance(need, actions, w.rate)
                    valued.append(((CAT_HEIGHT + w.cat_blessing) * p, (c,), True))
        valued.sort(key=itemgetter(0), reverse=True)  # stable: ties keep their order
        used: set[int] = set()
        total = 0.0
        picked = 0
        builds = actions + final_build
        free_build = final_build
        for value, cells, free in valued:
            if not used.isdisjoint(cells):
                continue
            if not free:
                if builds <= 0:
                    continue
                builds -= 1
                if free_build:  # the best build can wait for the final-totem turn
                    value += w.action_cost
                    free_build = 0
            used.update(cells)
            total += w.plan[picked] * value
            picked += 1
            if picked == len(w.plan):
                break
        if w.height and actions > 0:
            power = w.height_power
            total += w.height * sum(
                (len(s) - 1) ** power for c, s in altar.stacks.items() if c not in altar.covered
            )
        return w.potential * total

    def valued(
        self, anchor: AnchorKey, gaining: int, spread: float, wolf_blessing: float
    ) -> tuple[Valued, ...]:
        """The plan's candidates among an anchor's sites (`anchor_sites`, each need
        summed from its recipe): (value, cells, free build), where value is points and
        blessing less the action a build takes, times the chance of finishing the site
        with `gaining` pedestal-gaining actions; only those worth more than 0.05.

        Of candidates with the same cells and the same kind of build only the first of
        the most valuable is kept: the plan takes candidates best first (ties in order)
        and skips any whose cells are taken, so the others could never be picked.
        """
        exp = math.exp
        p = _costs(anchor)
        out: list[Valued] = []
        kept: dict[int, int] = {}  # group -> index in out
        for base, cells, free, group, i1, k1, i2, k2, i3, k3 in self.ready(
            _heights(anchor), gaining, spread, wolf_blessing
        ):
            need = k1 * p[i1] + k2 * p[i2] + k3 * p[i3]
            if need > 0:
                if gaining <= 0:
                    continue
                # `chance` inlined (the estimate's hot spot; same figures).
                value = base * exp(-need / spread)
            else:
                value = base  # times a chance of 1.0
            if value > 0.05:
                j = kept.get(group)
                if j is None or value > out[j][0]:
                    kept[group] = len(out)
                out.append((value, cells, free))
        if len(kept) == len(out):
            return tuple(out)
        return tuple([out[j] for j in sorted(kept.values())])

    def ready(
        self, heights: tuple[object, ...], gaining: int, spread: float, wolf_blessing: float
    ) -> tuple[Ready, ...]:
        """An anchor's recipes with their value before the chance, leaving out those
        that could not pass the plan's threshold at any costs (memoised).

        A column's cost per pedestal is above 1.0 (an empty cloud's is 1.0), so a
        need is at least its recipe's sum at costs of 1.0 and a value at most the
        value there: a recipe whose bound is below the threshold is left out.
        """
        memo = self.ready_memo
        key = (heights, gaining, wolf_blessing)
        found = memo.get(key)
        if found is not None:
            return found
        if len(memo) >= _READY_LIMIT:
            memo.clear()
        blessings = self.blessing
        action_cost = self.w.action_cost
        out: list[Ready] = []
        for kind, cells, points, group, i1, k1, i2, k2, i3, k3 in _recipes(heights):
            blessing = wolf_blessing if kind == T_WOLF else blessings[kind]
            # Building takes an action that could have gained pedestals instead.
            base = points + blessing - action_cost
            least = k1 + k2 + k3  # the need at costs of 1.0
            if least > 0:
                if gaining <= 0 or base * math.exp(-least / spread) < _SURELY_BELOW:
                    continue
            elif base <= 0.05:
                continue
            out.append((base, cells, kind == T_HORSE, group, i1, k1, i2, k2, i3, k3))
        found = memo[key] = tuple(out)
        return found

    def kind_sites(self, altar: Altar, kind: int) -> list[Site]:
        """The altar's totem sites of one kind, in anchor order (for the goals)."""
        by_kind = self.sites.get(altar.version)
        if by_kind is None:
            by_kind = self.sites[altar.version] = {}
        found = by_kind.get(kind)
        if found is None:
            every = by_kind.get(-1)
            if every is None:
                every = by_kind[-1] = [
                    site for anchor in self.anchor_keys(altar) for site in anchor_sites(anchor)
                ]
            found = by_kind[kind] = [site for site in every if site[0] == kind]
        return found

    def anchor_keys(self, altar: Altar) -> list[AnchorKey]:
        """`projects` of the altar, found once per altar version."""
        found = self.anchors.get(altar.version)
        if found is None:
            found = self.anchors[altar.version] = self.projects(altar, self.game.buildable_kinds)
        return found

    def projects(self, altar: Altar, kinds: tuple[int, ...]) -> list[AnchorKey]:
        """The keys of the altar's anchor cells: each cell that may start a totem site,
        with the totem kinds in play and the states of the cells around it (sites by
        `anchor_sites`).

        Every footprint touching a column or a free cloud is tried, at the lowest
        height its condition allows and one higher. The sites of one anchor cell depend
        only on the state of the cells around it, so they are memoised by that state:
        a search changes a few cells per step and finds the rest already computed.
        """
        stacks = altar.stacks
        covered = altar.covered
        clouds = altar.clouds
        cost = self.cost
        state: dict[int, CellState] = {}
        for c in clouds:
            s = stacks.get(c)
            state[c] = _COVERED if c in covered else (len(s), cost[s[0]]) if s else _EMPTY
        for c in covered:  # (always clouds in play; kept exact for any altar)
            state[c] = _COVERED
        for c, s in stacks.items():
            if c not in state:
                state[c] = (len(s), cost[s[0]]) if s else _NO_CLOUD
        get = state.get
        out: list[AnchorKey] = []
        for c in clouds:
            here = state[c]
            if here == _COVERED:  # equality: compiled code unboxes such tuples (no identity)
                continue
            out.append(
                (
                    c,
                    kinds,
                    here,
                    get(c + RIGHT, _NO_CLOUD),
                    get(c + 2 * RIGHT, _NO_CLOUD),
                    get(c + DOWN, _NO_CLOUD),
                    get(c + 2 * DOWN, _NO_CLOUD),
                    get(c - RIGHT, _NO_CLOUD),
                    get(c - DOWN, _NO_CLOUD),
                )
            )
        return out

    def goals(self, seat: int, altar: Altar, actions: int) -> float:
        """Face-down goals: met ones nearly in hand, near ones by their distance."""
        game = self.game
        fit = self.w.goal_fit
        total = 0.0
        for card_id in game.goals[seat]:
            card = game.cards[card_id]
            distance = mission_distance(card.mission, altar, self)
            value = card.points + self.w.reveal_reward
            if distance <= 0:
                total += value
            elif fit:
                guess = self.w.goals * chance(distance, actions, self.w.rate)
                fitted = fitted_goal_chance(card.mission, distance, actions)
                total += value * ((1.0 - fit) * guess + fit * fitted)
            else:
                total += self.w.goals * value * chance(distance, actions, self.w.rate)
        return total


# A cell as the site search sees it: (height, cost per pedestal); height -1 when a
# totem covers it, -2 when it has no cloud yet (a cloud must be gained first).
CellState = tuple[int, float]
_COVERED: CellState = (-1, 0.0)
_EMPTY: CellState = (0, 1.0)
_NO_CLOUD: CellState = (-2, 1.0)
# Sites by anchor and the states around it (`Estimator.projects`); bounded.
_ANCHOR_SITES: dict[AnchorKey, tuple[Site, ...]] = {}
_ANCHOR_SITES_LIMIT = 200_000


# A site's shape, found from the heights around its anchor alone: (kind, cells,
# points when built, group, i1, k1, i2, k2, i3, k3); its need is
# k1 * costs[i1] + k2 * costs[i2] + k3 * costs[i3], where costs are the anchor key's
# seven cells' costs per pedestal and 1.0 (index 7): k is the pedestals a cell needs,
# or the effort of a cell without a cloud (1.5 + target) at index 7; a two-cell site
# adds 0 * 1.0 (all terms are >= 0, so the sum is the reference's to the bit). Sites
# of one group share their cells and whether their build is free (a horse).
Recipe = tuple[int, tuple[int, ...], int, int, int, float, int, float, int, float]
# Recipes by anchor, kinds and heights around it: costs follow the bag, which changes
# at every draw, heights far less often; bounded.
_RECIPES: dict[tuple[object, ...], tuple[Recipe, ...]] = {}
_RECIPES_LIMIT = 100_000
# A recipe made ready for `Estimator.valued`: (points and blessing less the action a
# build takes, cells, free build, group, i1, k1, i2, k2, i3, k3).
Ready = tuple[float, tuple[int, ...], bool, int, int, float, int, float, int, float]
# Ready recipes by weights, then heights key, gaining actions and wolf blessing: only
# those that may reach the plan's threshold at some costs; bounded.
_READY: dict[Weights, dict[tuple[object, ...], tuple[Ready, ...]]] = {}
_READY_LIMIT = 100_000
Memos = tuple[
    tuple[float, ...],
    dict[tuple[object, ...], tuple[int, float]],
    ValuedMemo,
    dict[tuple[object, ...], tuple[Ready, ...]],
]


def _memos_for(weights: Weights) -> Memos:
    """The blessings and the memos of an estimator with `weights`."""
    return (
        _blessings(weights),
        _ALTAR_PARTS.setdefault(weights, {}),
        _valued_memo(weights),
        _READY.setdefault(weights, {}),
    )


def _valued_memo(weights: Weights) -> ValuedMemo:
    memo = _VALUED.get(weights)
    if memo is None:
        memo = _VALUED[weights] = ValuedMemo(_VALUED_LIMIT)
    return memo


# `_memos_for` by the identity of the weights, which each entry keeps alive so that
# their id is not reused; bounded, since each `replace` of weights is a new object.
_MEMOS_BY_ID: dict[int, tuple[Weights, Memos]] = {id(WEIGHTS): (WEIGHTS, _memos_for(WEIGHTS))}
_MEMOS_BY_ID_LIMIT = 64


def _memos_of(weights: Weights) -> Memos:
    """`_memos_for(weights)`, found by identity when these weights were met before."""
    entry = _MEMOS_BY_ID.get(id(weights))
    if entry is None:
        if len(_MEMOS_BY_ID) >= _MEMOS_BY_ID_LIMIT:
            _MEMOS_BY_ID.clear()
        entry = _MEMOS_BY_ID[id(weights)] = (weights, _memos_for(weights))
    return entry[1]


# Below this, a bound of a candidate's value is surely below the plan's threshold
# (0.05), floating-point rounding included.
_SURELY_BELOW = 0.05 * (1 - 1e-9)


def anchor_sites(key: AnchorKey) -> tuple[Site, ...]:
    """The sites of one anchor key (`Estimator.projects`), memoised, built from the
    heights' recipes (tests/bots/site_reference.py holds them equal to the plain search)."""
    sites = _ANCHOR_SITES.get(key)
    if sites is None:
        if len(_ANCHOR_SITES) >= _ANCHOR_SITES_LIMIT:
            _ANCHOR_SITES.clear()
        p = _costs(key)
        sites = _ANCHOR_SITES[key] = tuple(
            [
                (kind, cells, k1 * p[i1] + k2 * p[i2] + k3 * p[i3], points)
                for kind, cells, points, _, i1, k1, i2, k2, i3, k3 in anchor_recipes(key)
            ]
        )
    return sites


def _costs(key: AnchorKey) -> tuple[float, ...]:
    """The costs per pedestal of an anchor key's seven cells, then 1.0."""
    return (*[state[1] for state in key[2:]], 1.0)  # type: ignore[index]


def _heights(key: AnchorKey) -> tuple[object, ...]:
    """An anchor key without its costs: anchor, kinds, then the seven heights."""
    c, kinds, *states = key
    return (c, kinds, *[state[0] for state in states])  # type: ignore[index]


def anchor_recipes(key: AnchorKey) -> tuple[Recipe, ...]:
    """The recipes of an anchor key's sites, memoised by its heights."""
    return _recipes(_heights(key))


def _recipes(heights: tuple[object, ...]) -> tuple[Recipe, ...]:
    recipes = _RECIPES.get(heights)
    if recipes is None:
        if len(_RECIPES) >= _RECIPES_LIMIT:
            _RECIPES.clear()
        recipes = _RECIPES[heights] = _anchor_recipes(*heights)  # type: ignore[arg-type]
    return recipes


def _term(i: int, h: int, target: int) -> tuple[int, float]:
    """The effort to bring cell `i` from height `h` to `target`, as a recipe term (index,
    factor of the cell's cost): a cell without a cloud (-2) costs a returned pedestal for
    the cloud, then the column, at index 7 (cost 1.0)."""
    if h == -2:
        return (7, 1.5 + target)
    return (i, target - h)


def _recipe(
    kind: int, cells: tuple[int, ...], points: int, *terms: tuple[int, float]
) -> tuple[int, tuple[int, ...], int, tuple[tuple[int, float], ...]]:
    return (kind, cells, points, terms)


def _grouped(
    found: list[tuple[int, tuple[int, ...], int, tuple[tuple[int, float], ...]]],
) -> tuple[Recipe, ...]:
    """Recipes with their groups and their terms flattened (a missing third term 0)."""
    groups: dict[tuple[tuple[int, ...], bool], int] = {}
    out: list[Recipe] = []
    for kind, cells, points, terms in found:
        group = groups.setdefault((cells, kind == T_HORSE), len(groups))
        (i1, k1), (i2, k2), (i3, k3) = (*terms, (7, 0))[:3]
        out.append((kind, cells, points, group, i1, k1, i2, k2, i3, k3))
    return tuple(out)


def _anchor_recipes(
    c: int,
    kinds: tuple[int, ...],
    hc: int,
    h1r: int,
    h2r: int,
    h1d: int,
    h2d: int,
    hl: int,
    hu: int,
) -> tuple[Recipe, ...]:
    """The sites whose first cell is `c` (lines to the right and down, the bird's
    corners around it), each need left as terms of the cells' costs: cells are
    numbered as in the anchor key, 0 the anchor, 1 and 2 to the right, 3 and 4 down,
    5 left and 6 up."""
    out: list[tuple[int, tuple[int, ...], int, tuple[tuple[int, float], ...]]] = []
    for d, h1, i1, h2, i2 in ((RIGHT, h1r, 1, h2r, 2), (DOWN, h1d, 3, h2d, 4)):
        n1 = c + d
        n2 = c + 2 * d
        if h1 == -1:
            continue
        if T_HORSE in kinds and (hc > 0 or h1 > 0):
            for lo_h, lo_i, hi_h, hi_i in ((hc, 0, h1, i1), (h1, i1, hc, 0)):
                base = max(1, lo_h, hi_h - 2)
                for lo in (base, base + 1):
                    terms = (_term(lo_i, lo_h, lo), _term(hi_i, hi_h, lo + 2))
                    out.append(_recipe(T_HORSE, (c, n1), 2 * (lo + 2), *terms))
        if h2 == -1:
            continue
        if T_WOLF in kinds and (hc > 0 or h2 > 0):
            gap = max(h1, 0)
            base = max(2, hc, h2, gap)
            for h in (base, base + 1):
                out.append(_recipe(T_WOLF, (c, n1, n2), 3 * h, _term(0, hc, h), _term(i2, h2, h)))
        if T_DRAGON in kinds and (hc > 0 or h1 > 0 or h2 > 0):
            for a_h, a_i, b_h, b_i in ((hc, 0, h2, i2), (h2, i2, hc, 0)):
                base = max(1, a_h, h1 - 1, b_h - 2)
                first, middle = _term(a_i, a_h, base), _term(i1, h1, base + 1)
                last = _term(b_i, b_h, base + 2)
                out.append(_recipe(T_DRAGON, (c, n1, n2), 3 * (base + 2), first, middle, last))
    if T_BIRD in kinds and hc >= 0:
        for dx, ha, ia in ((RIGHT, h1r, 1), (-RIGHT, hl, 5)):
            if ha == -1:
                continue
            for dy, hb, ib in ((DOWN, h1d, 3), (-DOWN, hu, 6)):
                if hb == -1 or (hc <= 0 and ha <= 0 and hb <= 0):
                    continue
                base = max(2, hc, ha, hb)
                for h in (base, base + 1):
                    corner, side, other = _term(0, hc, h), _term(ia, ha, h), _term(ib, hb, h)
                    out.append(_recipe(T_BIRD, (c, c + dx, c + dy), 3 * h, corner, side, other))
    return _grouped(out)


def free_clouds(altar: Altar) -> int:
    """Empty, uncovered cloud cells: room for new columns."""
    stacks = altar.stacks
    covered = altar.covered
    return sum(1 for c in altar.clouds if c not in covered and c not in stacks)


def mission_distance(mission: Mission, altar: Altar, est: Estimator) -> float:
    """Roughly how many pedestals (or equivalent efforts) the altar is from `mission`.

    The engine's shortfall (a lower bound on the pieces still needed) is the measure;
    the mission types below refine it with what the bot knows of totem sites, the bag
    and the shapes' cells (their weights were tuned on solo series).
    """
    if mission.met(altar):
        return 0.0
    kind_of = mission.type
    stacks = altar.stacks
    if kind_of == "totem_count":
        kind = _int(mission, "kind")
        have = sum(1 for t in altar.totems if t.kind == kind)
        return _sites_need(altar, est, kind, _int(mission, "min") - have)
    if kind_of == "totem_over_rare_column":
        kind = _int(mission, "kind")
        if kind == T_CAT:
            return _cat_need(altar, est, rare_only=True, count=1)
        return _rare_site_need(altar, est, kind)
    if kind_of == "rare_designs":
        seen = {d for s in stacks.values() for d in s if d >= CAT}
        if mission.param("include_hoard"):
            seen.update(d for d in altar.hoard if d >= CAT)
        return float(_int(mission, "min") - len(seen))
    if kind_of == "column_kinds":
        kinds = {s[0] for s in stacks.values()}
        designs = mission.param("designs")
        assert isinstance(designs, tuple)
        return float(sum(1 for d in designs if d not in kinds))
    if kind_of == "tall_columns":
        count = _int(mission, "count")
        height = _int(mission, "height")
        heights = sorted((len(s) for s in stacks.values()), reverse=True)[:count]
        heights += [0] * (count - len(heights))
        return float(sum(max(0, height - h) for h in heights))
    if kind_of == "same_kind_tall_columns":
        count = _int(mission, "count")
        height = _int(mission, "height")
        by_kind: dict[int, list[int]] = {}
        for s in stacks.values():
            by_kind.setdefault(s[0], []).append(len(s))
        best = float(count * height)
        for hs in by_kind.values():
            hs = sorted(hs, reverse=True)[:count] + [0] * count
            best = min(best, float(sum(max(0, height - h) for h in hs[:count])))
        return best
    if kind_of == "cloud_cells":
        return 1.3 * (_int(mission, "min") - len(altar.clouds))
    if kind_of == "totem_kinds":
        have_kinds = {t.kind for t in altar.totems}
        missing = _int(mission, "min") - len(have_kinds)
        in_play = est.game.kinds  # the cat too: it counts once it arrives
        needs = sorted(_sites_need(altar, est, k, 1) for k in in_play if k not in have_kinds)
        if len(needs) < missing:
            return 99.0
        return sum(needs[:missing])
    if kind_of == "rare_pedestals":
        n = sum(1 for s in stacks.values() for d in s if d >= CAT)
        if mission.param("include_hoard"):
            n += sum(1 for d in altar.hoard if d >= CAT)
        return 1.5 * (_int(mission, "min") - n)
    if kind_of == "equal_square":
        return _square_need(altar, _int(mission, "min_height"))
    if kind_of == "staircase":
        return _staircase_need(altar, _int(mission, "length"))
    if kind_of == "courtyard":
        return _courtyard_need(altar)
    if kind_of == "all_rare_column":
        height = _int(mission, "height")
        best_h = max((len(s) for s in stacks.values() if min(s) >= CAT), default=0)
        return 1.5 * (height - best_h)
    return float(mission.shortfall(altar))


def _int(mission: Mission, name: str) -> int:
    """An integer parameter of a mission (kinds and counts are ints in the engine)."""
    value = mission.param(name)
    assert isinstance(value, int)
    return value


BUILD_EFFORT = 1.0  # a totem build's own effort, in pedestals (an action spent)
NO_SITE_NEED = 8.0  # pedestals to a totem site when the altar offers none yet
# A cat needs six pedestals of one design on one column; the slots seldom offer them,
# so each counts as this many pedestals of effort (kept cat goals were met 3 % of the
# time in greedy solo games while the plain count rated them as likely as any other).
CAT_GOAL_EFFORT = 5.0


def _build_effort(kind: int) -> float:
    """A build's own effort: none for the horse, whose extra turn gives the action back."""
    return 0.0 if kind == T_HORSE else BUILD_EFFORT


def _sites_need(altar: Altar, est: Estimator, kind: int, count: int) -> float:
    """Pedestals to `count` more totems of `kind` on sites that share no cell, plus
    each build's effort."""
    if count <= 0:
        return 0.0
    if kind == T_CAT:
        return _cat_need(altar, est, rare_only=False, count=count)
    build = _build_effort(kind)
    sites = sorted(est.kind_sites(altar, kind), key=itemgetter(2))
    used: set[int] = set()
    total = 0.0
    for _, cells, need, _ in sites:
        if any(c in used for c in cells):
            continue
        used.update(cells)
        total += need + build
        count -= 1
        if count == 0:
            return total
    return total + count * (NO_SITE_NEED + build)


def _rare_site_need(altar: Altar, est: Estimator, kind: int) -> float:
    """Pedestals to a totem of `kind` over a rare column (a wolf's gap does not count):
    a site over one, or a site with an empty cloud where a rare column may start."""
    stacks = altar.stacks
    best = NO_SITE_NEED + 2.0
    wolf = kind == T_WOLF
    for _, cells, need, _ in est.kind_sites(altar, kind):
        if need >= best:
            continue  # neither branch below could lower `best`
        rare = missing = False
        for c in (cells[0], cells[2]) if wolf else cells:
            s = stacks.get(c)
            if s is None:
                missing = True
            elif s and s[0] >= CAT:
                rare = True
                break
        if rare:
            if need < best:
                best = need
        elif missing and need + 2.0 < best:
            best = need + 2.0  # a rare pedestal must start that column
    return best + _build_effort(kind)


def _cat_need(altar: Altar, est: Estimator, *, rare_only: bool, count: int) -> float:
    """Pedestals until `count` uncovered columns (of rare kinds if `rare_only`) reach a
    cat's height, each pedestal costed by its design's scarcity."""
    needs = sorted(
        CAT_GOAL_EFFORT * (CAT_HEIGHT - len(s)) * est.cost[s[0]]
        for c, s in altar.stacks.items()
        if c not in altar.covered and (not rare_only or s[0] >= CAT)
    )
    needs += [CAT_GOAL_EFFORT * CAT_HEIGHT * 1.5 + 1.0] * count  # a column still to start
    return sum(needs[:count])


def _square_need(altar: Altar, min_height: int) -> float:
    best = 12.0
    stacks = altar.stacks
    for corner in altar.clouds:
        cells = (corner, corner + RIGHT, corner + DOWN, corner + RIGHT + DOWN)
        if any(c in altar.covered for c in cells):
            continue
        hs = [len(stacks.get(c, ())) for c in cells]
        h = max(min_height, *hs)
        need = float(sum(h - x for x in hs)) + 1.5 * sum(1 for c in cells if c not in altar.clouds)
        best = min(best, need)
    return best


def _staircase_need(altar: Altar, length: int) -> float:
    best = 12.0
    stacks = altar.stacks
    for start in altar.clouds:
        for d in DIRECTIONS:
            cells = [start + i * d for i in range(length)]
            hs = [len(stacks.get(c, ())) for c in cells]
            base = max(1, *(h - i for i, h in enumerate(hs)))
            need = float(sum(base + i - h for i, h in enumerate(hs)))
            need += sum(1.5 for c in cells if c not in altar.clouds)
            best = min(best, need)
    return best


def _courtyard_need(altar: Altar) -> float:
    best = 6.0
    stacks = altar.stacks
    for c in altar.clouds:
        if c in altar.covered or c in stacks:
            continue
        need = 0.0
        for d in DIRECTIONS:
            n = c + d
            if n in stacks:
                continue
            need += 1.0 if n in altar.clouds else 2.5
        best = min(best, need)
    return best


def evaluate(game: Game, seat: int, solo: bool | None = None) -> float:
    """Estimated final points of `seat` (in solo: of both altars together)."""
    est = Estimator(game)
    if game.options.solo if solo is None else solo:
        return sum(est.value(s) for s in range(game.n))
    return est.value(seat)
