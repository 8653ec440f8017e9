"""The MCTS bot: information-set Monte-Carlo tree search over the atomic decisions.

What it cannot see (opponents' face-down goals, the order of future draws) it samples:
each decision builds a few determinized games from its own view with the engine's
`sample_hidden` + `game_from_view` (never from hidden state), and every iteration plays
on a copy of one of them with a fresh draw order. The tree is a single-observer
information-set tree (Cowling, Powley & Whitehouse 2012): its nodes are the bot's own
decisions of the current turn (placing each pedestal, each cloud, the slot or totem,
the reward design...), keyed by the action sequence; an action's "availability" counts
the iterations in which it was legal, and UCB uses it in place of the parent's visits.

- Selection: UCB1 over the available actions, each action's value starting from a prior
  (the greedy bot's estimate after the action and, for a slot, totem or design, after
  its follow-ups; worth `prior_visits` visits); progressive widening lets only the
  best-prior actions in at first, more as visits grow.
- Playout: the rest of the bot's own turn by the one-step estimate, then a fast
  rule-based policy for every other seat until the bot's next turn begins (so taking
  the slot an opponent wanted shows; in solo the hard level's, and in duels the expert
  level's, its second turn ahead), or the game ends; at the hard level the other
  seats choose their turn's action (slot or totem) by the heuristic estimate instead,
  which models a strong opponent's reply far better. The position is scored by the
  heuristic estimate (`evaluation.Estimator`), final scores if the game ended. The
  value is the bot's estimate minus its best opponent's (in solo: both altars' sum).
- The search over one turn is reused across its small decisions: the subtree of the
  action just played becomes the next root.

Levels are iteration budgets, so a seeded run is reproducible; the time cap is only a
safety limit. A decision with one legal action, or with a card to reveal (revealing
never costs anything), is answered without search.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field, fields, replace
from functools import cache
from typing import Any, Literal, get_args

from ..rules.actions import (
    Action,
    BuildTotem,
    ChooseCat,
    ChooseDesign,
    ChooseStart,
    DrawFromBag,
    EndTurn,
    Pass,
    PlaceCloud,
    PlacePedestal,
    ReturnPedestal,
    Reveal,
    TakeSlot,
    WolfStop,
    WolfTake,
)
from ..rules.engine import Game
from ..rules.grid import DIRECTIONS
from ..rules.options import ROUNDS
from ..rules.pieces import T_HORSE, TOTEM_SIZE, is_rare
from ..rules.rng import Rng
from .base import View, acting_seat, collector_paused, decision_rng, determinizations
from .evaluation import WEIGHTS, AltarMemo, Estimator, Weights, design_costs
from .greedy import LOOK_AHEAD_KINDS, GreedyBot, best_reveal, prune, settle_start
from .placement_model import close_placements, fitted_placement

# The named choices of level fields. Spelt out as aliases, since a compiled class's
# annotations no longer say which strings a Literal allows (`custom_level` reads these).
# A playout policy: rules of thumb ("fast") or the heuristic estimate ("estimate").
PlayoutPolicy = Literal["fast", "estimate"]
# How playouts place pedestals: the tallest-column rule of thumb ("fast"), the fitted
# rule (`placement_model`), the fitted rule with its close options rated by the
# heuristic estimate ("checked"), or the estimate of each option ("estimate").
PlacementPolicy = Literal["fast", "fitted", "checked", "estimate"]
Costs = Literal["leaf", "root"]


@dataclass(frozen=True)
class Level:
    """A search level: its iteration budget and its safety time cap."""

    iterations: int
    determinizations: int
    time_cap: float  # seconds; only a safety limit, the budget is the iteration count
    exploration: float = 4.0  # UCB constant, in points of the value
    # The UCB constant in solo, where one mind plays both altars for their sum
    # (measured apart: docs/bots.md "Solo settings").
    solo_exploration: float = 4.0
    prior_visits: float = 2.0  # weight of the one-step prior, in visits
    widen_base: int = 2  # actions considered at first
    widen_rate: float = 0.5  # exponent of visit count growth of the considered set
    # The playouts' horizon in games of 3-4 players: 0, stop as the turn ends; n, stop
    # as own turn n begins (every other seat's turns between cost time).
    playout_turns: int = 1
    # The horizon in two-player games (measured apart: docs/bots.md "The expert level").
    duel_playout_turns: int = 1
    # The playouts' horizon in solo (measured apart: docs/bots.md "Solo settings").
    solo_playout_turns: int = 1
    # In the last `endgame_rounds` rounds (and the final-totem turns) playouts run to
    # the end of the game and score the final points instead of the estimate.
    endgame_rounds: int = 0
    # How other seats choose their turn's action in playouts: "fast" (rules of thumb)
    # or "estimate" (the best of a few candidates by the heuristic estimate).
    opponent_turn: PlayoutPolicy = "fast"
    # Which bag prices the designs in the estimate: each leaf's own ("leaf"), or the
    # root position's ("root": one price for the whole search, so that altars met again
    # in other playouts hit the estimate's memo; it pays where the other seats' turns
    # are estimated, docs/bots.md "Faster search").
    costs: Costs = "leaf"
    # How solo playouts place pedestals after a turn's action (the estimated turns play
    # their candidates on by the rule of thumb): "fast" (the tallest matching column),
    # "fitted" (`placement_model`'s rule, fitted to the estimate's choices, at about the
    # rule of thumb's cost: no stronger over the solo command's 60 games, so no released
    # level uses it; docs/bots.md "A fitted placement rule"), "checked" (the fitted
    # rule, its close options rated by the estimate: no stronger either, at 1.6 x the
    # CPU time of a turn decision; docs/bots.md "Placements the fitted rule is unsure
    # of") or "estimate" (the placement the heuristic estimate rates best: stronger in
    # solo, but in every turn at 1.6 x the time, over hard's 1 s a decision, so no
    # released level uses it; docs/bots.md "Placements by the estimate in solo playouts").
    solo_playout_placements: PlacementPolicy = "fast"
    # With placements by the estimate, how many of the options it rates: the best by
    # the rule of thumb's ranking (`ranked_placements`); 0, every option `prune` keeps.
    # With "checked" placements, at most this many of the fitted rule's close options
    # (0: all of them).
    solo_placement_candidates: int = 0
    # With "checked" placements, the options the fitted rule scores within this margin
    # of its best are rated by the estimate (`placement_model.close_placements`).
    solo_placement_margin: float = 1.5
    # With placements by the estimate, in how many of a playout's turns (from the
    # first, the other altar's; 0: in all, even to the end of the game); the later
    # turns place by the rule of thumb. In the first 2 turns the hard level scored
    # lower over the solo command's 60 games, and no faster, so no released level
    # places by the estimate (docs/bots.md "Placements in the first turns").
    solo_placement_turns: int = 0
    # In solo, whether a decision that reuses the turn's tree counts the visits its root
    # already has towards the budget, running only what it lacks (at least a quarter
    # of the budget): the turn's small decisions then cost less than its first. It paid
    # for the placements above, but the two together scored lower over the solo
    # command's 60 games than the level without either, so no released level uses it
    # (docs/bots.md "Counting the reused tree towards the solo budget").
    solo_reused_visits_count: bool = False
    # The heuristic estimate's weights in this level's searches (leaves, priors,
    # estimated turns), for measuring variants (`custom_level`'s `weights.NAME`);
    # every released level keeps the greedy bot's (`WEIGHTS`): a near-met goal counted
    # in full scored the same over the solo command's 60 games (docs/bots.md "The
    # estimate's weights in the search").
    weights: Weights = WEIGHTS
    # Whether a decision stops its search once the most visited root action leads the
    # next by more than the iterations left: the same choice as the full budget's from
    # the same root, in solo for 0.5-0.65 x the time; but the turn's next decision then
    # reuses a thinner subtree, and over the solo command's 60 games the hard level
    # scored lower with it (alone, and paying for placements by the estimate or for
    # 720 iterations), so no released level stops (docs/bots.md "Stopping a decided
    # search").
    stop_decided: bool = False
    # Whether a decision stops once decided (as `stop_decided`) and hands the iterations
    # it did not run on to the bot's next decisions (at most `CARRY_CAP` x the budget in
    # one of them): the same iterations a game, spent where a choice is still open. Over
    # the solo command's own 60 deals +1.1 +- 3.3 points paired, no established gain, so
    # no released level carries (docs/bots.md "Iterations a decided search did not run").
    carry_decided: bool = False
    # In solo, the share of the fitted goal chance (`Weights.goal_fit`) in the searches
    # of the starting cards alone: which goals to keep judged by how often such goals
    # were met from such a start in the levels' own games (+2.7 +- 2.8 points over the
    # 70 solo deals where it changed a choice; docs/bots.md "Goal chances fitted to the
    # games"); the game itself takes `solo_goal_fit`. Duels keep the distance's chance:
    # measured in solo only.
    solo_start_goal_fit: float = 0.0
    # In solo, the share of the fitted goal chance in the searches of the game itself
    # (every decision but the starting cards'), for measuring variants: at 0.5, half the
    # fitted chance and half the distance's (the fitted chance alone hardly falls with
    # the distance). Over both series' 60 solo deals, +0.9 +- 2.3 points paired, the two
    # series apart (+3.4 and -1.6), no established gain, so no released level takes it
    # (docs/bots.md "The game itself by half the fitted chance").
    solo_goal_fit: float = 0.0

    def __reduce__(self) -> tuple[type[Level], tuple[object, ...]]:
        # by the constructor: compiled, a frozen class refuses pickle's field stores
        return (Level, tuple(getattr(self, f.name) for f in fields(self)))


LEVELS = {
    "easy": Level(iterations=12, determinizations=2, time_cap=0.5),
    "medium": Level(iterations=80, determinizations=4, time_cap=3.0),
    # The hard level explores twice as widely: with its budget and estimated replies
    # that measured better than the default (docs/bots.md, "Search settings"), and in
    # solo three times, its playouts there running on to its second turn ahead
    # (docs/bots.md, "Solo settings"). Its
    # playouts run to the end of the game in the last 3 rounds (+4.1 points a solo game
    # on the stand-in, docs/bots.md "Exact ends"); its 480 iterations take, compiled,
    # the CPU time its 400 took on the pure-Python path (docs/bots.md, "Compiled path").
    # In solo it chooses its starting cards with the goals' fitted chances (docs/bots.md,
    # "Goal chances fitted to the games").
    "hard": Level(
        iterations=480,
        determinizations=8,
        time_cap=20.0,
        exploration=8.0,
        solo_exploration=12.0,
        solo_playout_turns=2,
        opponent_turn="estimate",
        costs="root",
        endgame_rounds=3,
        solo_start_goal_fit=1.0,
    ),
}
# The strongest opponent: the hard level with twice its budget and sampled games, and in
# duels playouts on to its second turn ahead (which won more against hard than three
# times the budget did), sized to at most 2.5 s of one core per decision (docs/bots.md,
# "The expert level").
LEVELS["expert"] = replace(
    LEVELS["hard"], iterations=960, determinizations=16, duel_playout_turns=2, time_cap=60.0
)
MAX_PLAYOUT_STEPS = 400


# The level fields `custom_level` accepts only above 0 (every other number: at least 0).
POSITIVE_FIELDS = frozenset({"iterations", "determinizations"})
# How `custom_level` reads a yes/no field (any case); anything else is refused.
BOOLEAN_WORDS = {"true": True, "1": True, "yes": True, "false": False, "0": False, "no": False}


def custom_level(base: str, settings: list[str]) -> Level:
    """The level named `base` with `FIELD=VALUE` settings applied, each value read as
    its field's type (for benchmarks comparing a variant with a released level), and
    `weights.NAME=VALUE` settings applied to its estimate's weights (numbers only).

    ValueError names what is wrong: an unknown level or field, a value that is not of
    the field's type or, for a field of named choices, not one of them (a typo such as
    `costs=rot` must not measure the default instead)."""
    if base not in LEVELS:
        raise ValueError(f"unknown level {base!r}; expected one of {', '.join(LEVELS)}")
    level = LEVELS[base]
    # each field's type by its value (a compiled class's annotations are not all there)
    kinds: dict[str, Any] = {f.name: type(getattr(level, f.name)) for f in fields(Level)}
    kinds.update(opponent_turn=PlayoutPolicy, costs=Costs, solo_playout_placements=PlacementPolicy)
    del kinds["weights"]  # set weight by weight, as `weights.NAME`
    changes: dict[str, Any] = {}
    weight_changes: dict[str, Any] = {}
    # the weights a number sets (not the plan's tuple, nor the room cap's count)
    settable = [f.name for f in fields(Weights) if type(getattr(level.weights, f.name)) is float]
    for item in settings:
        name, _, text = item.partition("=")
        if name.startswith("weights."):
            weight = name.removeprefix("weights.")
            if weight not in settable:
                expected = ", ".join(settable)
                raise ValueError(f"unknown estimate weight {weight!r}; expected one of {expected}")
            try:
                weight_changes[weight] = float(text)
            except ValueError:
                raise ValueError(f"{name} must be a number, not {text!r}") from None
            continue
        if name not in kinds:
            raise ValueError(f"unknown level field {name!r}; expected one of {', '.join(kinds)}")
        choices = get_args(kinds[name])
        if choices and text not in choices:
            raise ValueError(f"{name} must be one of {', '.join(choices)}, not {text!r}")
        if kinds[name] is bool:  # bool("false") would be True
            if text.lower() not in BOOLEAN_WORDS:
                raise ValueError(f"{name} must be true or false, not {text!r}")
            changes[name] = BOOLEAN_WORDS[text.lower()]
            continue
        try:
            changes[name] = text if choices else kinds[name](text)
        except ValueError:
            kind = "an integer" if kinds[name] is int else "a number"
            raise ValueError(f"{name} must be {kind}, not {text!r}") from None
        value = changes[name]
        if isinstance(value, (int, float)):
            # a search of no iterations or sampled games plays nothing it can measure
            least = 1 if name in POSITIVE_FIELDS else 0
            if not least <= value < math.inf:
                raise ValueError(f"{name} must be a finite number >= {least}, not {text!r}")
    if weight_changes:
        changes["weights"] = replace(level.weights, **weight_changes)
    return replace(level, **changes)


@dataclass
class Node:
    """One information set of the bot's own turn: visit statistics of its actions."""

    visits: int = 0
    children: dict[Action, Node] = field(default_factory=dict)
    stats: dict[Action, list[float]] = field(default_factory=dict)  # [visits, total, avail]
    priors: dict[Action, float] = field(default_factory=dict)


class MctsBot:
    """Information-set MCTS with heuristic priors and truncated heuristic playouts."""

    def __init__(self, seed: int = 0, level: str | Level = "medium") -> None:
        if isinstance(level, Level):
            self.level = level
            self.name = "mcts-custom"
        elif level in LEVELS:
            self.level = LEVELS[level]
            self.name = f"mcts-{level}"
        else:
            raise ValueError(f"unknown MCTS level {level!r}; expected one of {', '.join(LEVELS)}")
        self.seed = seed
        # Search reuse across the small decisions of one turn.
        self._last: tuple[int, int, tuple[object, ...], Node, Action] | None = None
        self.last_iterations = 0
        # Iterations that decisions stopped once decided did not run (`carry_decided`).
        self.carried = 0

    # ------------------------------------------------------------- the decision

    def choose(self, view: View, legal_actions: list[Action]) -> Action:
        """The most visited root action after the iteration budget."""
        seat = acting_seat(legal_actions)
        root = self._reused_root(view, seat)
        with collector_paused():
            action = self._decide(view, legal_actions, seat, root)
        self._last = (view["move"], seat, turn_key_of_view(view), root, action)
        return action

    def _decide(self, view: View, legal: list[Action], seat: int, root: Node) -> Action:
        self.last_iterations = 0
        if len(legal) == 1:
            return legal[0]
        reveal = best_reveal(view, legal)
        if reveal is not None:
            return reveal
        rng = decision_rng(self.seed, view)
        level = self.level
        games = determinizations(view, rng, level.determinizations)
        if not games:
            return legal[0]
        search = Search(self, games[0], seat, bool(view["solo"]))
        deadline = time.perf_counter() + level.time_cap
        budget = fresh_iterations(level, root, search.solo)
        stopping = level.stop_decided or level.carry_decided
        if level.carry_decided:
            extra = min(self.carried, (CARRY_CAP - 1) * budget)
            self.carried -= extra
            budget += extra
        legal_set = set(legal)
        for i in range(budget):
            game = games[i % len(games)].copy()
            game.rng = Rng(rng.next64())  # a fresh order of future draws
            search.iterate(root, game, Rng(rng.next64()))
            self.last_iterations += 1
            if time.perf_counter() > deadline:
                break
            left = budget - i - 1
            if stopping and i % STOP_CHECK_EVERY == 0 and decided(root, legal_set, left):
                if level.carry_decided:
                    self.carried += left
                break
        best: Action | None = None
        best_key = (-1.0, float("-inf"))
        for action, (n, total, _avail) in root.stats.items():
            if action not in legal_set:
                continue
            key = (n, total / n if n else root.priors.get(action, float("-inf")))
            if key > best_key:
                best, best_key = action, key
        if best is None:  # no iteration finished: fall back on the priors
            search.ensure_priors(root, games[0], legal)
            best = max(legal, key=lambda a: root.priors.get(a, float("-inf")))
        return best

    def _reused_root(self, view: View, seat: int) -> Node:
        """The subtree of the action we just played, when this decision follows it."""
        last = self._last
        if last is not None:
            move, last_seat, key, node, action = last
            if view["move"] == move + 1 and seat == last_seat and turn_key_of_view(view) == key:
                child = node.children.get(action)
                if child is not None:
                    return child
        return Node()


STOP_CHECK_EVERY = 8  # iterations between the checks of `decided`
CARRY_CAP = 3  # a decision's budget with carried iterations: at most this x the level's


def decided(root: Node, legal: set[Action], left: int) -> bool:
    """Whether `left` more iterations can no longer change the root's most visited
    legal action (it leads every other by more than that many visits)."""
    first = second = 0.0
    for action, (n, _total, _avail) in root.stats.items():
        if action not in legal:
            continue
        if n > first:
            first, second = n, first
        elif n > second:
            second = n
    return first - second > left


def fresh_iterations(level: Level, root: Node, solo: bool) -> int:
    """The iterations a decision runs: the level's budget, or where the level counts a
    reused tree's visits (solo), what the root lacks of it, at least a quarter."""
    if solo and level.solo_reused_visits_count:
        return max(level.iterations - root.visits, level.iterations // 4)
    return level.iterations


@cache
def with_goal_fit(weights: Weights, fit: float) -> Weights:
    """`weights` with the fitted goal chance's share `fit`, one object per pair (the
    estimate's memos are found by the weights' identity)."""
    return replace(weights, goal_fit=fit)


def turn_key_of_view(view: View) -> tuple[object, ...]:
    """Which turn a view is in (same key ⇒ the same turn of the same seat)."""
    return (view["phase"], view["round"], view["turns_in_round"], view["current"])


def turn_key(game: Game) -> tuple[object, ...]:
    """`turn_key_of_view` for a game."""
    return (game.phase, game.round, game.turns_in_round, game.current)


class Search:
    """The search of one decision: tree policy, playout and values."""

    def __init__(self, bot: MctsBot, game: Game, seat: int, solo: bool) -> None:
        self.level = bot.level
        self.seat = seat
        self.solo = solo
        level = self.level
        self.exploration = level.solo_exploration if solo else level.exploration
        if solo:
            self.playout_turns = level.solo_playout_turns
        elif game.n == 2:
            self.playout_turns = level.duel_playout_turns
        else:
            self.playout_turns = level.playout_turns
        self.estimate_placements = solo and level.solo_playout_placements == "estimate"
        self.fitted_placements = solo and level.solo_playout_placements == "fitted"
        self.checked_placements = solo and level.solo_playout_placements == "checked"
        self.placement_candidates = level.solo_placement_candidates
        self.placement_turns = level.solo_placement_turns or MAX_PLAYOUT_STEPS
        self.turn = turn_key(game)
        self.costs = design_costs(game) if self.level.costs == "root" else None
        # Altar parts by version, shared by this search's estimates: only with the root's
        # costs, since an estimate at a leaf's own costs differs from leaf to leaf.
        self.altar_memo: AltarMemo | None = {} if self.costs is not None else None
        self.weights = level.weights
        if solo:
            starting = game.decision.kind == "choose_start"
            fit = level.solo_start_goal_fit if starting else level.solo_goal_fit
            if fit:
                self.weights = with_goal_fit(level.weights, fit)
        self.greedy = GreedyBot(
            bot.seed, weights=self.weights, costs=self.costs, altar_memo=self.altar_memo
        )

    # ---------------------------------------------------------------- values

    def estimator(self, game: Game) -> Estimator:
        """The heuristic estimate of `game` at this search's costs, with its memo."""
        return Estimator(game, self.weights, self.costs, self.altar_memo)

    def value(self, game: Game) -> float:
        """The bot's estimate minus its best opponent's (solo: both altars' sum)."""
        est = self.estimator(game)
        if self.solo:
            return sum(est.value(s) for s in range(game.n))
        mine = est.value(self.seat)
        others = max(est.value(s) for s in range(game.n) if s != self.seat)
        return mine - others

    def ensure_priors(self, node: Node, game: Game, actions: list[Action]) -> None:
        """Greedy estimates of actions not yet scored at this node: one step after the
        action, or, for actions that open more decisions (a slot, a totem, a design),
        after the greedy bot's follow-ups."""
        look_ahead = game.decision.kind in LOOK_AHEAD_KINDS
        for action in actions:
            if action in node.priors:
                continue
            child = game.copy()
            child.apply_fast(action)
            if isinstance(action, ChooseStart):
                settle_start(child)
            if look_ahead:
                self.greedy.play_follow_ups(child, self.seat)
            node.priors[action] = self.value(child)

    # ------------------------------------------------------------- iteration

    def in_tree(self, game: Game) -> bool:
        """Whether the next decision is the bot's own, in the turn being searched."""
        if game.is_over:
            return False
        return self.seat in game.decision.seats and turn_key(game) == self.turn

    def iterate(self, root: Node, game: Game, rng: Rng) -> None:
        """One iteration: select and expand within the turn, play out, back up."""
        level = self.level
        path: list[tuple[Node, Action]] = []
        node = root
        while self.in_tree(game):
            legal = game.legal_actions(self.seat)
            reveals = [a for a in legal if isinstance(a, Reveal)]
            if reveals:
                legal = [max(reveals, key=lambda a: (game.cards[a.card].points, a.card))]
            if len(legal) == 1:
                action = legal[0]
                expanded = False
            else:
                options = prune(game, legal)
                self.ensure_priors(node, game, options)
                options.sort(key=lambda a: -node.priors[a])
                width = level.widen_base + int(node.visits**level.widen_rate)
                options = options[:width]
                action, expanded = self.select(node, options)
            path.append((node, action))
            node.visits += 1
            game.apply_fast(action)
            child = node.children.get(action)
            if child is None:
                child = node.children[action] = Node()
            node = child
            if expanded:
                break
        value = self.playout(game, rng)
        for parent, action in path:
            stat = parent.stats.setdefault(action, [0.0, 0.0, 0.0])
            stat[0] += 1
            stat[1] += value

    def select(self, node: Node, options: list[Action]) -> tuple[Action, bool]:
        """UCB1 with availability counts; an action never tried is expanded first."""
        level = self.level
        best = options[0]
        best_score = float("-inf")
        for action in options:
            stat = node.stats.get(action)
            if stat is None:
                stat = node.stats[action] = [0.0, 0.0, 0.0]
            stat[2] += 1
        for action in options:
            n, total, avail = node.stats[action]
            if n == 0:
                return action, True
            prior = node.priors[action]
            mean = (total + prior * level.prior_visits) / (n + level.prior_visits)
            score = mean + self.exploration * math.sqrt(math.log(avail + 1) / n)
            if score > best_score:
                best, best_score = action, score
        return best, False

    def finish_turn(self, game: Game) -> None:
        """The rest of the bot's own turn, each decision by the one-step estimate."""
        for _ in range(MAX_PLAYOUT_STEPS):
            if not self.in_tree(game):
                return
            legal = game.legal_actions(self.seat)
            reveals = [a for a in legal if isinstance(a, Reveal)]
            if reveals:
                game.apply_fast(reveals[0])
                continue
            if len(legal) == 1:
                game.apply_fast(legal[0])
                continue
            game.apply_fast(self.best_by_estimate(game, self.seat, prune(game, legal)))

    def best_by_estimate(self, game: Game, seat: int, options: list[Action]) -> Action:
        """Of `options` (legal, not empty), the one after which the one-step estimate of
        `seat` is highest."""
        best = options[0]
        best_value = float("-inf")
        for action in options:
            child = game.copy()
            child.apply_fast(action)
            value = self.estimator(child).value(seat)
            if value > best_value:
                best, best_value = action, value
        return best

    def estimated_placement(
        self, game: Game, seat: int, legal: list[Action], every_option: bool
    ) -> Action:
        """A playout's placement by the estimate: of the options `prune` keeps (the rule
        of thumb's best few where the level says), or, `every_option` false ("checked"),
        of the fitted rule's close options; its own choice where one stands out."""
        count = self.placement_candidates
        if every_option:
            return self.best_by_estimate(game, seat, ranked_placements(game, seat, legal, count))
        close = close_placements(game, seat, legal, self.level.solo_placement_margin)
        if count > 0:
            close = close[:count]
        if len(close) == 1:
            return close[0]
        return self.best_by_estimate(game, seat, close)

    def playout(self, game: Game, rng: Rng) -> float:
        """The rest of the turn by the one-step estimate, then the playout policy (fast,
        or the estimate's where the level says) for every seat until the bot's next
        turn(s) begin (or the game ends); then the value."""
        self.finish_turn(game)
        turns_left = self.playout_turns
        endgame = self.level.endgame_rounds
        if endgame > 0 and (
            game.phase in ("final", "last_reveals")
            or (game.phase == "play" and game.round > ROUNDS - endgame)
        ):
            turns_left = MAX_PLAYOUT_STEPS  # near the end: play it out, score it exactly
        turn = turn_key(game)
        estimate_placements = self.estimate_placements
        turns_started = 0  # the playout's turns begun (placements by the estimate)
        for _ in range(MAX_PLAYOUT_STEPS):
            if game.is_over:
                break
            decision = game.decision
            seat = decision.seats[0]
            key = turn_key(game)
            if key != turn:
                if turns_left <= 0:
                    break  # horizon 0: value the position as the turn ends
                turn = key
                turns_started += 1
                if turns_started > self.placement_turns:
                    estimate_placements = False  # the later turns by the rule of thumb
                if game.current == self.seat and decision.kind == "turn":
                    turns_left -= 1
                    if turns_left <= 0:
                        break
            legal = game.legal_actions(seat)
            if self.level.opponent_turn == "estimate" and decision.kind == "turn":
                action = estimated_turn(
                    game,
                    seat,
                    legal,
                    rng,
                    self.solo,
                    self.costs,
                    self.altar_memo,
                    self.weights,
                )
            elif (
                (estimate_placements or self.checked_placements)
                and len(legal) > 1
                and isinstance(legal[0], (PlacePedestal, ReturnPedestal))
            ):
                action = self.estimated_placement(game, seat, legal, estimate_placements)
            else:
                action = fast_action(game, seat, legal, rng, self.fitted_placements)
            game.apply_fast(action)
        return self.value(game)


# ---------------------------------------------------------------- playout policy


def fast_action(
    game: Game, seat: int, legal: list[Action], rng: Rng, fitted_placements: bool = False
) -> Action:
    """A cheap, sensible rule-based choice (the playout policy; never raises); pedestals
    placed by the fitted rule (`placement_model`) if `fitted_placements`."""
    if len(legal) == 1:
        return legal[0]
    first = legal[0]
    for a in legal:
        if isinstance(a, Reveal):
            return a
    if isinstance(first, ChooseStart):
        return legal[rng.below(len(legal))]
    if isinstance(first, PlaceCloud):
        clouds = game.altars[seat].clouds
        best_touch = -1
        choices: list[Action] = []
        for a in legal:
            assert isinstance(a, PlaceCloud)
            touch = sum(1 for d in DIRECTIONS if a.cell + d in clouds)
            if touch > best_touch:
                best_touch, choices = touch, [a]
            elif touch == best_touch:
                choices.append(a)
        return choices[rng.below(len(choices))]
    if isinstance(first, (PlacePedestal, ReturnPedestal)):
        if fitted_placements:
            return fitted_placement(game, seat, legal, rng)
        return _fast_placement(game, seat, legal, rng)
    if isinstance(first, ChooseDesign):
        return _fast_design(game, seat, legal)
    if isinstance(first, ChooseCat):
        return first
    if isinstance(first, (WolfTake, WolfStop)):
        return first  # every take adds points; WolfStop comes last
    if isinstance(first, EndTurn):
        return first
    return _fast_turn(game, seat, legal, rng)


ESTIMATED_TOTEMS = 3  # the highest-scoring totems an estimated turn considers


def estimated_turn(
    game: Game,
    seat: int,
    legal: list[Action],
    rng: Rng,
    solo: bool,
    costs: tuple[float, ...] | None = None,
    altar_memo: AltarMemo | None = None,
    weights: Weights = WEIGHTS,
) -> Action:
    """A turn's action for a playout seat: each slot (or the bag draw) and the few
    highest-scoring totems, each played out to the end of its turn by the fast policy
    and judged by the heuristic estimate (solo: both altars'); `altar_memo` is the
    search's, with its fixed `costs`."""
    altar = game.altars[seat]
    totems: list[tuple[int, Action]] = []
    candidates: list[Action] = []
    for a in legal:
        if isinstance(a, BuildTotem):
            height = max(altar.height(c) for c in a.cells)
            totems.append((TOTEM_SIZE[a.kind] * height, a))
        elif isinstance(a, Reveal):
            return a
        else:
            candidates.append(a)
    totems.sort(key=lambda pa: -pa[0])
    candidates.extend(a for _, a in totems[:ESTIMATED_TOTEMS])
    if len(candidates) == 1:
        return candidates[0]
    key = turn_key(game)
    best = candidates[0]
    best_value = float("-inf")
    for action in candidates:
        child = game.copy()
        child.apply_fast(action)
        for _ in range(MAX_PLAYOUT_STEPS):
            if child.is_over or turn_key(child) != key or child.decision.kind == "turn":
                break
            acting = child.decision.seats[0]
            child.apply_fast(fast_action(child, acting, child.legal_actions(acting), rng))
        est = Estimator(child, weights, costs, altar_memo)
        value = sum(est.value(s) for s in range(child.n)) if solo else est.value(seat)
        if value > best_value:
            best, best_value = action, value
    return best


def _fast_turn(game: Game, seat: int, legal: list[Action], rng: Rng) -> Action:
    """Build a good totem when there is one, otherwise take the fullest slot."""
    altar = game.altars[seat]
    best_totem: Action | None = None
    best_points = 0
    slots: list[Action] = []
    fallback: Action = legal[-1]
    for a in legal:
        if isinstance(a, BuildTotem):
            height = max(altar.height(c) for c in a.cells)
            points = TOTEM_SIZE[a.kind] * height + (4 if a.kind == T_HORSE else 0)
            if points > best_points:
                best_points, best_totem = points, a
        elif isinstance(a, (TakeSlot, DrawFromBag)):
            slots.append(a)
        elif isinstance(a, Pass):
            fallback = a
    final = game.phase == "final"
    if best_totem is not None and (final or best_points >= 9 or not slots):
        return best_totem
    if not slots:
        return fallback
    most = max(len(game.slots[a.slot]) if isinstance(a, TakeSlot) else 2 for a in slots)
    full = [a for a in slots if (len(game.slots[a.slot]) if isinstance(a, TakeSlot) else 2) == most]
    return full[rng.below(len(full))]


def placement_rank(stacks: dict[int, tuple[int, ...]], action: Action) -> float:
    """The rule of thumb's ranking of one placement (higher first): a matching column
    below 6 by its height, a full one, an empty cloud by the columns it touches, then
    anything else (a return)."""
    if isinstance(action, PlacePedestal):
        stack = stacks.get(action.cell)
        if stack:
            h = len(stack)
            return 10.0 + h if h < 6 else 5.0
        return 1.0 + sum(1 for d in DIRECTIONS if action.cell + d in stacks)
    return 0.0


def ranked_placements(game: Game, seat: int, legal: list[Action], count: int) -> list[Action]:
    """The `count` placements `prune` keeps that rank best by the rule of thumb (0: all
    of them), so that the estimate rates only those (stable: ties keep legal order)."""
    options = prune(game, legal)
    if count <= 0 or len(options) <= count:
        return options
    stacks = game.altars[seat].stacks
    return sorted(options, key=lambda a: -placement_rank(stacks, a))[:count]


def _fast_placement(game: Game, seat: int, legal: list[Action], rng: Rng) -> Action:
    """Stack on the tallest matching column below 6, else start a column next to others,
    else return the pedestal for a cloud."""
    altar = game.altars[seat]
    stacks = altar.stacks
    best: Action | None = None
    best_score = -1.0
    returns: list[Action] = []
    for a in legal:
        if isinstance(a, PlacePedestal):
            score = placement_rank(stacks, a) + rng.below(100) / 1000.0
            if score > best_score:
                best_score, best = score, a
        elif isinstance(a, ReturnPedestal):
            returns.append(a)
    if best is not None:
        return best
    return returns[0] if returns else legal[0]


def _fast_design(game: Game, seat: int, legal: list[Action]) -> Action:
    """A design that stacks on one of our columns (rare first), else a rare one."""
    altar = game.altars[seat]
    kinds = {s[0] for c, s in altar.stacks.items() if c not in altar.covered and len(s) < 6}
    best = legal[0]
    best_score = -1
    for a in legal:
        assert isinstance(a, ChooseDesign)
        score = (2 if a.design in kinds else 0) + (1 if is_rare(a.design) else 0)
        if score > best_score:
            best, best_score = a, score
    return best
