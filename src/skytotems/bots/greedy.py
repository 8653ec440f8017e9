"""The greedy bot: a readable heuristic player.

At each decision it tries every (sensible) option on a determinized copy of the game
and keeps the one whose result scores best under `evaluation.Estimator`: the points
already made plus the value of what the altar prepares (totem sites almost complete,
goal cards close to met, columns nearing a cat, room for more columns).

For an option that opens more decisions of its own turn (taking a slot, building a
totem, choosing a design, the dragon's build), it first plays those follow-ups with a
quick one-step version of itself, so "take slot 2" is judged by where its pedestals
would actually go. It reveals a card as soon as it may: points are locked in and the
reward is a free pedestal, so waiting never pays.
"""

from __future__ import annotations

from ..rules.actions import Action, PlaceCloud, PlacePedestal, Reveal
from ..rules.engine import Game
from ..rules.grid import DIRECTIONS
from .base import View, acting_seat, decision_rng, determinizations
from .evaluation import WEIGHTS, AltarMemo, Estimator, Weights

# Decisions that continue the same turn and that a look-ahead plays through.
FOLLOW_UPS = frozenset(
    {
        "place_pedestal",
        "place_cloud",
        "choose_design",
        "choose_cat",
        "wolf_blessing",
        "dragon_build",
    }
)
# Options whose value depends on the follow-up decisions they open.
LOOK_AHEAD_KINDS = frozenset({"turn", "choose_design", "dragon_build", "choose_start"})
MAX_FOLLOW_UPS = 12
EMPTY_CELLS_TRIED = 3  # empty clouds tried per design (those next to most columns)
CLOUD_CELLS_TRIED = 6  # cloud cells tried (those touching most clouds)


class GreedyBot:
    """Best option by the heuristic estimate, with a short look-ahead within the turn."""

    name = "greedy"

    def __init__(
        self,
        seed: int = 0,
        weights: Weights = WEIGHTS,
        costs: tuple[float, ...] | None = None,
        altar_memo: AltarMemo | None = None,
    ) -> None:
        self.seed = seed
        self.weights = weights
        self.costs = costs  # fixed design costs (a search's root), or None: the game's
        self.altar_memo = altar_memo  # a search's memo of altar parts (with fixed costs)

    def choose(self, view: View, legal_actions: list[Action]) -> Action:
        """The legal action with the best estimated result for this seat (or both in solo)."""
        if len(legal_actions) == 1:
            return legal_actions[0]
        reveal = best_reveal(view, legal_actions)
        if reveal is not None:
            return reveal
        rng = decision_rng(self.seed, view)
        games = determinizations(view, rng, 1)
        if not games:
            return legal_actions[0]
        return self.choose_in_game(games[0], acting_seat(legal_actions), legal_actions)

    def choose_in_game(self, game: Game, seat: int, legal_actions: list[Action]) -> Action:
        """The choice of `choose` on a game already built from the seat's view (a
        determinization: playouts call this for every seat, with no view to rebuild)."""
        solo = game.options.solo
        kind = game.decision.kind
        look_ahead = kind in LOOK_AHEAD_KINDS
        options = prune(game, legal_actions)
        best_action = options[0]
        best_value = float("-inf")
        for action in options:
            child = game.copy()
            child.apply_fast(action)
            if kind == "choose_start":
                settle_start(child)
            if look_ahead:
                self.play_follow_ups(child, seat)
            value = self.value(child, seat, solo)
            if value > best_value + 1e-9:
                best_value = value
                best_action = action
        return best_action

    def value(self, game: Game, seat: int, solo: bool) -> float:
        """The estimate this bot maximises: its seat's, or both altars' in solo."""
        est = Estimator(game, self.weights, self.costs, self.altar_memo)
        if solo:
            return sum(est.value(s) for s in range(game.n))
        return est.value(seat)

    def play_follow_ups(self, game: Game, seat: int) -> None:
        """Play the rest of the turn's small decisions with the one-step greedy choice."""
        solo = game.options.solo
        for _ in range(MAX_FOLLOW_UPS):
            if game.is_over:
                return
            decision = game.decision
            if decision.kind not in FOLLOW_UPS or (not solo and decision.seats != (seat,)):
                return
            acting = decision.seats[0]
            legal = game.legal_actions(acting)
            if len(legal) == 1:
                game.apply_fast(legal[0])
                continue
            options = prune(game, legal)
            best_action = options[0]
            best_value = float("-inf")
            for action in options:
                child = game.copy()
                child.apply_fast(action)
                value = self.value(child, acting, solo)
                if value > best_value + 1e-9:
                    best_value = value
                    best_action = action
            game.apply_fast(best_action)


def best_reveal(view: View, legal_actions: list[Action]) -> Action | None:
    """The revealable card worth most, if any (revealing never costs anything)."""
    reveals = [a for a in legal_actions if isinstance(a, Reveal)]
    if not reveals:
        return None
    points: dict[str, int] = {}
    for entry in view["seats"]:
        for goal in entry.get("goals", []):
            points[goal["card"]] = goal["points"]
    return max(reveals, key=lambda a: (points.get(a.card, 0), a.card))


def settle_start(game: Game) -> None:
    """After our starting card, let every other seat pick its first card (to see the altar)."""
    for _ in range(game.n):
        if game.is_over or game.decision.kind != "choose_start":
            return
        seat = game.decision.seats[0]
        game.apply_fast(game.legal_actions(seat)[0])


def prune(game: Game, legal: list[Action]) -> list[Action]:
    """The options worth trying: every stack on a matching column, the few best empty
    clouds per design, returns, the best-connected cloud cells; all other kinds as is."""
    first = legal[0]
    if isinstance(first, PlaceCloud):
        altar = game.altars[first.seat]
        clouds = altar.clouds
        cells = [a for a in legal if isinstance(a, PlaceCloud)]
        cells.sort(key=lambda a: -sum(1 for d in DIRECTIONS if a.cell + d in clouds))
        return list(cells[:CLOUD_CELLS_TRIED])
    if not any(isinstance(a, PlacePedestal) for a in legal):
        return legal
    altar = game.altars[first.seat]
    stacks = altar.stacks
    kept: list[Action] = []
    empties: dict[int, list[PlacePedestal]] = {}
    for a in legal:
        if isinstance(a, PlacePedestal):
            if a.cell in stacks:
                kept.append(a)
            else:
                empties.setdefault(a.design, []).append(a)
        else:
            kept.append(a)
    for options in empties.values():
        options.sort(key=lambda a: -sum(1 for d in DIRECTIONS if a.cell + d in stacks))
        kept.extend(options[:EMPTY_CELLS_TRIED])
    return kept
