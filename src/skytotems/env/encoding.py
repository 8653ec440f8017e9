"""The fixed action enumeration and the observation arrays of `sky_totems_v0`.

Everything that turns engine values into numbers for a learner lives here, in one
place, so that the environment, the Gymnasium wrapper, tests and training code agree.

The window
----------
Altars are unbounded (RULES.md §2); arrays are not. Cells are seen through a square
window of ``window × window`` cells (default 16) centred on the 2×2 starting tile:
x and y run over ``[1 - window/2, window/2]``, i.e. ``[-7, 8]`` by default. Array
element ``[row, col]`` is the cell ``(x0 + col, y0 + row)`` with ``x0 = y0 =
1 - window/2`` (rows go down, as y does). Measured: in 300 games of `random` bots and
20 of `greedy` bots (2-4 players) no cloud lay farther than 5.5 (random) or 6.5
(greedy) cells from the tile's centre, while the default window reaches 7.5; only a
player who deliberately lays its clouds in a long line leaves it.

At the edge:

- an action is *representable* when every cell it names lies inside the window;
  legal actions that are not representable are masked out (the learner cannot
  build its own altar outside the window);
- when a decision has legal actions but none of them is representable (only
  possible for ``place_cloud`` and ``choose_cat``, the only decisions without a
  cell-free alternative), the mask holds exactly one entry, ``FALLBACK``, which plays
  the legal action nearest to the window (smallest Chebyshev distance of its cells
  from the window; ties: the engine's order of legal actions);
- clouds and pedestals outside the window are not drawn in the planes; each seat's
  ``outside`` entry counts them.

The action space (``ActionCodec.size`` indices, 5,923 with the default window)
-------------------------------------------------------------------------------
In this order, each block starting where the previous ends (``ActionCodec.blocks``):

===================  ===========  =================================================
block                size         meaning of the offset inside the block
===================  ===========  =================================================
``choose_start``     3            card index in the seat's hand (``observation.hand``)
``reveal``           2            index in the seat's face-down goals (``goals``)
``take_slot``        5            slot number
``draw_from_bag``    1
``pass``             1            (final totem phase)
``end_turn``         1            end-of-turn prompt, or stop the last reveals
``wolf_stop``        1
``choose_design``    10           design 0-9 (red orange yellow green blue purple
                                  cat wolf bird horse)
``return_pedestal``  10           design
``fallback``         1            see the window above
``place_pedestal``   10 × C       ``design * C + cell``
``place_cloud``      C            cell
``choose_cat``       C            cell
``wolf_take``        C            cell
``build_totem``      10 × C       ``shape * C + anchor cell``
===================  ===========  =================================================

``C = window²``; a cell's index is ``row * window + col``. A totem index whose shape
would reach past the window's edge from its anchor names no action (284 such indices
with the default window); it is always masked out. Totem shapes
(``TOTEM_SHAPES``): 0-3 bird L, anchored on its corner, with arms towards
(+x,+y) (−x,+y) (+x,−y) (−x,−y); 4-5 wolf, 6-7 horse, 8-9 dragon, each horizontal
then vertical, anchored on its leftmost/topmost cell (a wolf's gap is its middle
cell). Every canonical site of every buildable kind has exactly one shape and anchor.
The cat is never built as an action: it arrives through ``choose_cat``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

import numpy as np
from gymnasium import spaces

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
from ..rules.altar import Altar
from ..rules.decisions import DECISION_KINDS
from ..rules.engine import Game
from ..rules.grid import STRIDE, cell, xy
from ..rules.missions import Mission
from ..rules.options import TOTAL_SLOTS
from ..rules.pieces import (
    DESIGN_BY_NAME,
    DESIGNS,
    T_BIRD,
    T_DRAGON,
    T_HORSE,
    T_WOLF,
    TOTAL_PEDESTALS,
    TOTEM_BY_NAME,
    TOTEM_KINDS,
    is_rare,
)

DEFAULT_WINDOW: Final = 16
MAX_SEATS: Final = 4
HAND_SIZE: Final = 3
MAX_GOALS: Final = 2
NUM_DESIGNS: Final = len(DESIGNS)
PHASES: Final = ("setup", "play", "final", "last_reveals", "over")
TURN_MODES: Final = ("normal", "extra", "final")

# (totem kind, name, cell offsets (dx, dy) from the anchor). Order is part of the API.
TOTEM_SHAPES: Final[tuple[tuple[int, str, tuple[tuple[int, int], ...]], ...]] = (
    (T_BIRD, "bird L +x+y", ((0, 0), (1, 0), (0, 1))),
    (T_BIRD, "bird L -x+y", ((0, 0), (-1, 0), (0, 1))),
    (T_BIRD, "bird L +x-y", ((0, 0), (1, 0), (0, -1))),
    (T_BIRD, "bird L -x-y", ((0, 0), (-1, 0), (0, -1))),
    (T_WOLF, "wolf horizontal", ((0, 0), (1, 0), (2, 0))),
    (T_WOLF, "wolf vertical", ((0, 0), (0, 1), (0, 2))),
    (T_HORSE, "horse horizontal", ((0, 0), (1, 0))),
    (T_HORSE, "horse vertical", ((0, 0), (0, 1))),
    (T_DRAGON, "dragon horizontal", ((0, 0), (1, 0), (2, 0))),
    (T_DRAGON, "dragon vertical", ((0, 0), (0, 1), (0, 2))),
)
_BIRD_SHAPE_BY_ARMS: Final = {
    (shape[2][1][0], shape[2][2][1]): i for i, shape in enumerate(TOTEM_SHAPES[:4])
}
_LINE_SHAPES: Final = {
    (T_WOLF, 1): 4,
    (T_WOLF, STRIDE): 5,
    (T_HORSE, 1): 6,
    (T_HORSE, STRIDE): 7,
    (T_DRAGON, 1): 8,
    (T_DRAGON, STRIDE): 9,
}


def _block_sizes(cells: int) -> tuple[tuple[str, int], ...]:
    return (
        ("choose_start", HAND_SIZE),
        ("reveal", MAX_GOALS),
        ("take_slot", TOTAL_SLOTS),
        ("draw_from_bag", 1),
        ("pass", 1),
        ("end_turn", 1),
        ("wolf_stop", 1),
        ("choose_design", NUM_DESIGNS),
        ("return_pedestal", NUM_DESIGNS),
        ("fallback", 1),
        ("place_pedestal", NUM_DESIGNS * cells),
        ("place_cloud", cells),
        ("choose_cat", cells),
        ("wolf_take", cells),
        ("build_totem", len(TOTEM_SHAPES) * cells),
    )


@dataclass(frozen=True)
class ActionCodec:
    """The bijection between representable engine actions and indices 0 … size-1.

    `hand` and `goals` are the acting seat's own card lists, in the order its view
    gives them (``view["seats"][seat]["hand"]`` and ``[...]["goals"]``), because
    ``choose_start`` and ``reveal`` indices point into them.
    """

    window: int = DEFAULT_WINDOW
    origin: int = field(init=False)
    cells: int = field(init=False)
    blocks: Mapping[str, tuple[int, int]] = field(init=False)
    size: int = field(init=False)

    def __post_init__(self) -> None:
        if not isinstance(self.window, int) or self.window < 4 or self.window % 2:
            raise ValueError(f"window must be an even integer ≥ 4, got {self.window!r}")
        object.__setattr__(self, "origin", 1 - self.window // 2)
        object.__setattr__(self, "cells", self.window * self.window)
        blocks: dict[str, tuple[int, int]] = {}
        start = 0
        for name, size in _block_sizes(self.cells):
            blocks[name] = (start, size)
            start += size
        object.__setattr__(self, "blocks", blocks)
        object.__setattr__(self, "size", start)

    @property
    def fallback(self) -> int:
        """The index played when no legal action is representable."""
        return self.blocks["fallback"][0]

    # -- cells ------------------------------------------------------------------

    def cell_index(self, c: int) -> int | None:
        """Index of engine cell `c` in the window (row-major), None outside it."""
        x, y = xy(c)
        col, row = x - self.origin, y - self.origin
        if 0 <= col < self.window and 0 <= row < self.window:
            return row * self.window + col
        return None

    def index_cell(self, i: int) -> int:
        """The engine cell of window index `i`."""
        row, col = divmod(i, self.window)
        return cell(col + self.origin, row + self.origin)

    def xy_index(self, x: int, y: int) -> tuple[int, int] | None:
        """(row, col) of coordinates (x, y) in the window arrays, None outside it."""
        col, row = x - self.origin, y - self.origin
        if 0 <= col < self.window and 0 <= row < self.window:
            return row, col
        return None

    def distance_outside(self, c: int) -> int:
        """Chebyshev distance from cell `c` to the window (0 inside)."""
        x, y = xy(c)
        low, high = self.origin, self.origin + self.window - 1
        dx = max(low - x, 0, x - high)
        dy = max(low - y, 0, y - high)
        return max(dx, dy)

    # -- actions ----------------------------------------------------------------

    def encode(
        self, action: Action, hand: Sequence[str] = (), goals: Sequence[str] = ()
    ) -> int | None:
        """The index of `action`, or None when it is not representable (a cell outside
        the window, or a card missing from `hand` / `goals`)."""
        blocks = self.blocks
        if isinstance(action, PlacePedestal):
            i = self.cell_index(action.cell)
            return (
                None if i is None else blocks["place_pedestal"][0] + action.design * self.cells + i
            )
        if isinstance(action, BuildTotem):
            return self._encode_totem(action)
        if isinstance(action, (PlaceCloud, ChooseCat, WolfTake)):
            i = self.cell_index(action.cell)
            return None if i is None else blocks[action.type][0] + i
        if isinstance(action, (ReturnPedestal, ChooseDesign)):
            return blocks[action.type][0] + action.design
        if isinstance(action, TakeSlot):
            return blocks["take_slot"][0] + action.slot
        if isinstance(action, ChooseStart):
            return (
                blocks["choose_start"][0] + hand.index(action.card) if action.card in hand else None
            )
        if isinstance(action, Reveal):
            return blocks["reveal"][0] + goals.index(action.card) if action.card in goals else None
        if isinstance(action, (DrawFromBag, Pass, EndTurn, WolfStop)):
            return blocks[action.type][0]
        raise TypeError(f"no index for action {action!r}")

    def _encode_totem(self, action: BuildTotem) -> int | None:
        cells = action.cells
        if action.kind == T_BIRD:
            if len(cells) != 3:
                return None
            corner = next(
                (c for c in cells if all(abs(o - c) in (1, STRIDE) for o in cells if o != c)),
                None,
            )
            if corner is None:
                return None
            arms = [o - corner for o in cells if o != corner]
            dx = next((a for a in arms if abs(a) == 1), 0)
            dy = next((a // STRIDE for a in arms if abs(a) == STRIDE), 0)
            shape = _BIRD_SHAPE_BY_ARMS.get((dx, dy))
            anchor = corner
        else:
            if len(cells) < 2:
                return None
            shape = _LINE_SHAPES.get((action.kind, cells[1] - cells[0]))
            anchor = cells[0]
        if shape is None or len(TOTEM_SHAPES[shape][2]) != len(cells):
            return None
        if any(self.cell_index(c) is None for c in cells):
            return None
        anchor_index = self.cell_index(anchor)
        assert anchor_index is not None
        return self.blocks["build_totem"][0] + shape * self.cells + anchor_index

    def block_of(self, index: int) -> tuple[str, int]:
        """(block name, offset inside the block) of an index."""
        if not 0 <= index < self.size:
            raise ValueError(f"action index {index} is outside 0..{self.size - 1}")
        for name, (start, size) in self.blocks.items():
            if index < start + size:
                return name, index - start
        raise AssertionError("unreachable")  # pragma: no cover

    def decode(
        self, index: int, seat: int, hand: Sequence[str] = (), goals: Sequence[str] = ()
    ) -> Action:
        """The engine action of `index` for `seat` (not necessarily legal now).

        ValueError for the fallback index (it depends on the legal actions: see
        `fallback_action`), for a card index beyond `hand` / `goals`, and for the
        unused ``build_totem`` indices whose shape would leave the window (always
        masked out).
        """
        name, k = self.block_of(index)
        cells = self.cells
        if name == "place_pedestal":
            design, i = divmod(k, cells)
            return PlacePedestal(seat, design, self.index_cell(i))
        if name == "build_totem":
            shape, i = divmod(k, cells)
            kind, name, offsets = TOTEM_SHAPES[shape]
            ax, ay = xy(self.index_cell(i))
            if any(self.xy_index(ax + dx, ay + dy) is None for dx, dy in offsets):
                raise ValueError(f"index {index}: a {name} at {ax},{ay} leaves the window")
            return BuildTotem(
                seat, kind, tuple(sorted(cell(ax + dx, ay + dy) for dx, dy in offsets))
            )
        if name == "place_cloud":
            return PlaceCloud(seat, self.index_cell(k))
        if name == "choose_cat":
            return ChooseCat(seat, self.index_cell(k))
        if name == "wolf_take":
            return WolfTake(seat, self.index_cell(k))
        if name == "choose_design":
            return ChooseDesign(seat, k)
        if name == "return_pedestal":
            return ReturnPedestal(seat, k)
        if name == "take_slot":
            return TakeSlot(seat, k)
        if name == "choose_start":
            if k >= len(hand):
                raise ValueError(f"choose_start {k}: the hand holds {len(hand)} card(s)")
            return ChooseStart(seat, hand[k])
        if name == "reveal":
            if k >= len(goals):
                raise ValueError(f"reveal {k}: {len(goals)} face-down goal(s)")
            return Reveal(seat, goals[k])
        simple: dict[str, type[Action]] = {
            "draw_from_bag": DrawFromBag,
            "pass": Pass,
            "end_turn": EndTurn,
            "wolf_stop": WolfStop,
        }
        if name in simple:
            return simple[name](seat)
        raise ValueError("the fallback index has no fixed action: see fallback_action()")

    def describe(self, index: int) -> str:
        """A short human reading of an index, e.g. ``place_pedestal red at 3,-1``."""
        name, k = self.block_of(index)
        if name == "fallback":
            return "fallback (nearest legal action outside the window)"
        if name in ("choose_start", "reveal"):
            return f"{name} card #{k}"
        return str(self.decode(index, 0, ("?",) * HAND_SIZE, ("?",) * MAX_GOALS))

    def fallback_action(self, legal: Sequence[Action]) -> Action:
        """The legal action the fallback index plays: nearest to the window."""
        if not legal:
            raise ValueError("no legal action")
        return min(
            legal, key=lambda a: max((self.distance_outside(c) for c in action_cells(a)), default=0)
        )

    def legal_index_map(
        self, legal: Sequence[Action], hand: Sequence[str] = (), goals: Sequence[str] = ()
    ) -> dict[int, Action]:
        """Index → legal action for every representable legal action; when there are
        legal actions but none is representable, ``{FALLBACK: nearest action}``."""
        out: dict[int, Action] = {}
        for action in legal:
            index = self.encode(action, hand, goals)
            if index is not None:
                if index in out:  # pragma: no cover - the encoding is injective (tested)
                    raise AssertionError(f"{action} and {out[index]} share index {index}")
                out[index] = action
        if legal and not out:
            out[self.fallback] = self.fallback_action(legal)
        return out

    def seat_index_map(self, game: Game, seat: int) -> dict[int, Action]:
        """`legal_index_map` of `seat`'s legal actions now, with its own hand and goals
        in the order its view lists them (``game.hands`` and ``game.goals``)."""
        return self.legal_index_map(game.legal_actions(seat), game.hands[seat], game.goals[seat])

    def mask(self, index_map: Mapping[int, Action]) -> np.ndarray:
        """The int8 action mask of an index map."""
        mask = np.zeros(self.size, dtype=np.int8)
        if index_map:
            mask[list(index_map)] = 1
        return mask


def action_cells(action: Action) -> tuple[int, ...]:
    """The cells an action names (none for cell-free actions)."""
    if isinstance(action, BuildTotem):
        return action.cells
    c = getattr(action, "cell", None)
    return () if c is None else (c,)


# --- observations ------------------------------------------------------------------------


def flat_observation_space(encoder: ObservationEncoder) -> spaces.Box:
    """The float32 Box of `flatten_observation` (the encoder's arrays, key after key in
    the order of ``encoder.space``), for libraries that take one vector."""
    box = spaces.flatten_space(encoder.space)
    assert isinstance(box, spaces.Box)  # a Dict of Boxes flattens to a Box
    return spaces.Box(box.low.astype(np.float32), box.high.astype(np.float32), dtype=np.float32)


def flatten_observation(
    encoder: ObservationEncoder, arrays: Mapping[str, np.ndarray]
) -> np.ndarray:
    """The encoder's arrays as one float32 vector (see `flat_observation_space`)."""
    return np.asarray(spaces.flatten(encoder.space, arrays), dtype=np.float32)


def _box(low: float, high: float, shape: tuple[int, ...], dtype: Any) -> spaces.Box:
    return spaces.Box(low=low, high=high, shape=shape, dtype=dtype)


class ObservationEncoder:
    """Turns one seat's view (``skytotems.view(game, seat)``) into the documented arrays.

    Seats are *relative*: index 0 is the observing seat, 1 the next seat clockwise (its
    left), and so on; entries of seats absent from a smaller game are zero (-1 where -1
    means "none"). Cards are numbered by their position in the sorted ids of the deck
    (`card_ids`), -1 for none.
    """

    def __init__(self, card_ids: Sequence[str], window: int = DEFAULT_WINDOW) -> None:
        self.window = window
        self.origin = 1 - window // 2
        self.card_ids = tuple(sorted(card_ids))
        self.card_index = {c: i for i, c in enumerate(self.card_ids)}
        w, s, n_cards = window, MAX_SEATS, len(self.card_ids)
        self.space = spaces.Dict(
            {
                "heights": _box(0, TOTAL_PEDESTALS, (s, w, w), np.int16),
                "kinds": _box(-1, NUM_DESIGNS - 1, (s, w, w), np.int8),
                "clouds": _box(0, 1, (s, w, w), np.int8),
                "covered": _box(0, 1, (s, w, w), np.int8),
                "totems": _box(-1, len(TOTEM_KINDS) - 1, (s, w, w), np.int8),
                "outside": _box(0, 4096, (s, 2), np.int16),
                "hoard": _box(0, TOTAL_PEDESTALS, (s, NUM_DESIGNS), np.int16),
                "seats": _box(0, 1, (s,), np.int8),
                "scores": _box(0, 4096, (s,), np.int16),
                "revealed_points": _box(0, 255, (s,), np.int16),
                "goal_counts": _box(0, MAX_GOALS, (s,), np.int8),
                "start_cards": _box(-1, n_cards - 1, (s,), np.int16),
                "start_player": _box(0, 1, (s,), np.int8),
                "first_player": _box(0, 1, (s,), np.int8),
                "acting": _box(0, 1, (s,), np.int8),
                "slots": _box(0, TOTAL_PEDESTALS, (TOTAL_SLOTS, NUM_DESIGNS), np.int16),
                "slots_used": _box(0, 1, (TOTAL_SLOTS,), np.int8),
                "bag": _box(0, TOTAL_PEDESTALS, (NUM_DESIGNS,), np.int16),
                "pool": _box(0, TOTAL_PEDESTALS, (NUM_DESIGNS,), np.int16),
                "hand": _box(-1, n_cards - 1, (HAND_SIZE,), np.int16),
                "goals": _box(-1, n_cards - 1, (MAX_GOALS,), np.int16),
                "goal_points": _box(0, 255, (MAX_GOALS,), np.int16),
                "goal_revealable": _box(0, 1, (MAX_GOALS,), np.int8),
                "goal_progress": _box(0.0, 1.0, (MAX_GOALS,), np.float32),
                "kinds_in_play": _box(0, 1, (len(TOTEM_KINDS),), np.int8),
                "round": _box(0, 10, (1,), np.int8),
                "phase": _box(0, 1, (len(PHASES),), np.int8),
                "decision": _box(0, 1, (len(DECISION_KINDS),), np.int8),
                "turn_mode": _box(0, 1, (len(TURN_MODES),), np.int8),
                "clouds_to_place": _box(0, 255, (1,), np.int16),
                "cat_first_design": _box(-1, NUM_DESIGNS - 1, (1,), np.int8),
                "extra_turns": _box(0, 255, (1,), np.int16),
            }
        )

    def encode(self, view: Mapping[str, Any]) -> dict[str, np.ndarray]:
        """The observation of the view's viewer (a seat, never a spectator)."""
        me = view["viewer"]
        if me is None:
            raise ValueError("observations are built from a seat's view, not a spectator's")
        n = view["seats_count"]
        w = self.window
        s = MAX_SEATS
        heights = np.zeros((s, w, w), np.int16)
        kinds = np.full((s, w, w), -1, np.int8)
        clouds = np.zeros((s, w, w), np.int8)
        covered = np.zeros((s, w, w), np.int8)
        totems = np.full((s, w, w), -1, np.int8)
        outside = np.zeros((s, 2), np.int16)
        hoard = np.zeros((s, NUM_DESIGNS), np.int16)
        seats = np.zeros(s, np.int8)
        scores = np.zeros(s, np.int16)
        revealed_points = np.zeros(s, np.int16)
        goal_counts = np.zeros(s, np.int8)
        start_cards = np.full(s, -1, np.int16)
        start_player = np.zeros(s, np.int8)
        first_player = np.zeros(s, np.int8)
        acting = np.zeros(s, np.int8)
        o = self.origin
        card_index = self.card_index
        points_of = {c["id"]: c["points"] for c in view["deck"]}
        for rel in range(n):
            seat = (me + rel) % n
            altar = view["altars"][seat]
            seats[rel] = 1
            out_clouds = out_pedestals = 0
            for x, y in altar["clouds"]:
                col, row = x - o, y - o
                if 0 <= col < w and 0 <= row < w:
                    clouds[rel, row, col] = 1
                else:
                    out_clouds += 1
            for column in altar["columns"]:
                x, y = column["cell"]
                col, row = x - o, y - o
                stack = column["stack"]
                if 0 <= col < w and 0 <= row < w:
                    heights[rel, row, col] = len(stack)
                    kinds[rel, row, col] = DESIGN_BY_NAME[stack[0]]
                else:
                    out_pedestals += len(stack)
            for x, y in altar["covered"]:
                col, row = x - o, y - o
                if 0 <= col < w and 0 <= row < w:
                    covered[rel, row, col] = 1
            for totem in altar["totems"]:
                kind = TOTEM_BY_NAME[totem["kind"]]
                for x, y in totem["cells"]:
                    col, row = x - o, y - o
                    if 0 <= col < w and 0 <= row < w:
                        totems[rel, row, col] = kind
            for d in altar["hoard"]:
                hoard[rel, DESIGN_BY_NAME[d]] += 1
            outside[rel] = (out_clouds, out_pedestals)
            entry = view["seats"][seat]
            scores[rel] = entry["score"]["total"]
            revealed_points[rel] = sum(points_of.get(c, 0) for c in entry["revealed"])
            goal_counts[rel] = entry["goal_count"]
            if entry["start_card"] is not None:
                start_cards[rel] = card_index.get(entry["start_card"], -1)
            if seat == view["start_player"]:
                start_player[rel] = 1
            if seat == view["first_player"]:
                first_player[rel] = 1
        slots = np.zeros((TOTAL_SLOTS, NUM_DESIGNS), np.int16)
        slots_used = np.zeros(TOTAL_SLOTS, np.int8)
        for i, slot in enumerate(view["slots"]):
            slots_used[i] = 1
            for d in slot:
                slots[i, DESIGN_BY_NAME[d]] += 1
        bag = np.array([view["bag"][name] for name in _DESIGN_ORDER], np.int16)
        pool = np.zeros(NUM_DESIGNS, np.int16)
        for d in view["pool"]:
            pool[DESIGN_BY_NAME[d]] += 1
        own = view["seats"][me]
        hand = np.full(HAND_SIZE, -1, np.int16)
        for i, c in enumerate(own.get("hand", ())[:HAND_SIZE]):
            hand[i] = card_index.get(c, -1)
        goals = np.full(MAX_GOALS, -1, np.int16)
        goal_points = np.zeros(MAX_GOALS, np.int16)
        goal_revealable = np.zeros(MAX_GOALS, np.int8)
        goal_progress = np.zeros(MAX_GOALS, np.float32)
        missions = {c["id"]: c["mission"] for c in view["deck"]}
        own_altar = view["altars"][me]
        for i, goal in enumerate(own.get("goals", ())[:MAX_GOALS]):
            goals[i] = card_index.get(goal["card"], -1)
            goal_points[i] = goal["points"]
            goal_revealable[i] = 1 if goal["revealable"] else 0
            if goal["revealable"]:
                goal_progress[i] = 1.0
            elif goal["card"] in missions:
                goal_progress[i] = min(mission_progress(missions[goal["card"]], own_altar), 0.99)
        kinds_in_play = np.zeros(len(TOTEM_KINDS), np.int8)
        for k in view["kinds"]:
            kinds_in_play[TOTEM_BY_NAME[k]] = 1
        phase = np.zeros(len(PHASES), np.int8)
        phase[PHASES.index(view["phase"])] = 1
        decision = np.zeros(len(DECISION_KINDS), np.int8)
        turn_mode = np.zeros(len(TURN_MODES), np.int8)
        clouds_to_place = np.zeros(1, np.int16)
        cat_first = np.full(1, -1, np.int8)
        pending = view["decision"]
        if pending is not None:
            decision[DECISION_KINDS.index(pending["kind"])] = 1
            for seat in pending["seats"]:
                acting[(seat - me) % n] = 1
            context = pending["context"]
            if context.get("mode") in TURN_MODES:
                turn_mode[TURN_MODES.index(context["mode"])] = 1
            if pending["kind"] == "place_cloud":
                clouds_to_place[0] = context.get("remaining", 0)
            if "first" in context:
                cat_first[0] = DESIGN_BY_NAME[context["first"]]
        return {
            "heights": heights,
            "kinds": kinds,
            "clouds": clouds,
            "covered": covered,
            "totems": totems,
            "outside": outside,
            "hoard": hoard,
            "seats": seats,
            "scores": scores,
            "revealed_points": revealed_points,
            "goal_counts": goal_counts,
            "start_cards": start_cards,
            "start_player": start_player,
            "first_player": first_player,
            "acting": acting,
            "slots": slots,
            "slots_used": slots_used,
            "bag": bag,
            "pool": pool,
            "hand": hand,
            "goals": goals,
            "goal_points": goal_points,
            "goal_revealable": goal_revealable,
            "goal_progress": goal_progress,
            "kinds_in_play": kinds_in_play,
            "round": np.array([view["round"]], np.int8),
            "phase": phase,
            "decision": decision,
            "turn_mode": turn_mode,
            "clouds_to_place": clouds_to_place,
            "cat_first_design": cat_first,
            "extra_turns": np.array([min(view["extra_turns"], 255)], np.int16),
        }


_DESIGN_ORDER: Final = tuple(sorted(DESIGN_BY_NAME, key=DESIGN_BY_NAME.__getitem__))


# --- goal progress -----------------------------------------------------------------------


def mission_progress(mission: Mapping[str, Any], altar: Mapping[str, Any]) -> float:
    """A rough progress fraction in [0, 1] of a mission on an altar, both in wire form.

    Counting missions give count / required (totems of a kind, distinct rare designs,
    column kinds covered, tall columns, clouds, totem kinds, rare pedestals, the tallest
    all-rare column). Every other type (the shapes: a totem over a rare column, the
    equal square, the staircase, the courtyard) measures itself with the engine's
    shortfall: the share of the pieces an empty starting altar would need that this
    altar no longer needs. The environment reports 1 only when the view marks the card
    revealable, so this is a feature, never a rules check.
    """
    kind = mission["type"]
    stacks = [col["stack"] for col in altar["columns"]]
    hoard = altar["hoard"]
    if kind == "totem_count":
        have = sum(1 for t in altar["totems"] if t["kind"] == mission["kind"])
        return _fraction(have, mission["min"])
    if kind == "rare_designs":
        seen = {d for stack in stacks for d in stack if _is_rare_name(d)}
        if mission["include_hoard"]:
            seen |= {d for d in hoard if _is_rare_name(d)}
        return _fraction(len(seen), mission["min"])
    if kind == "column_kinds":
        wanted = set(mission["designs"])
        have_kinds = {stack[0] for stack in stacks if stack}
        return _fraction(len(wanted & have_kinds), len(wanted))
    if kind == "tall_columns":
        tall = sum(1 for stack in stacks if len(stack) >= mission["height"])
        return _fraction(tall, mission["count"])
    if kind == "same_kind_tall_columns":
        per_kind: dict[str, int] = {}
        for stack in stacks:
            if len(stack) >= mission["height"]:
                per_kind[stack[0]] = per_kind.get(stack[0], 0) + 1
        return _fraction(max(per_kind.values(), default=0), mission["count"])
    if kind == "cloud_cells":
        return _fraction(len(altar["clouds"]), mission["min"])
    if kind == "totem_kinds":
        return _fraction(len({t["kind"] for t in altar["totems"]}), mission["min"])
    if kind == "rare_pedestals":
        rare = sum(1 for stack in stacks for d in stack if _is_rare_name(d))
        if mission["include_hoard"]:
            rare += sum(1 for d in hoard if _is_rare_name(d))
        return _fraction(rare, mission["min"])
    if kind == "all_rare_column":
        best = max(
            (len(stack) for stack in stacks if all(_is_rare_name(d) for d in stack)), default=0
        )
        return _fraction(best, mission["height"])
    return _shortfall_progress(Mission.from_json(mission), Altar.from_json(altar))


def _shortfall_progress(mission: Mission, altar: Altar) -> float:
    """The share of a fresh altar's shortfall that `altar` has already made up."""
    start = mission.shortfall(Altar())
    if start <= 0:
        return 1.0
    return max(0.0, 1.0 - mission.shortfall(altar) / start)


def _fraction(have: int, need: int) -> float:
    return 1.0 if need <= 0 else min(have / need, 1.0)


def _is_rare_name(design: str) -> bool:
    return is_rare(DESIGN_BY_NAME[design])
