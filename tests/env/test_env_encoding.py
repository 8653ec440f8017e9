"""The action enumeration and the observation arrays (skytotems.env.encoding)."""

from __future__ import annotations

import numpy as np
import pytest

from skytotems import (
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
from skytotems.env import TOTEM_SHAPES, ActionCodec
from skytotems.env.encoding import mission_progress
from skytotems.rules.altar import Altar
from skytotems.rules.grid import cell
from skytotems.rules.pieces import RED, T_BIRD, T_DRAGON, T_HORSE, T_WOLF
from skytotems.rules.totems import sites

HAND = ("alpha", "beta", "gamma")
GOALS = ("delta", "epsilon")


def test_default_window_layout() -> None:
    """16×16 = 256 cells: 35 cell-free indices, then 10+1+1+1+10 blocks of 256 cells."""
    codec = ActionCodec()
    assert codec.window == 16
    assert codec.origin == -7  # x, y in [-7, 8]: symmetric around the 2×2 tile
    assert codec.cells == 256
    cell_free = 3 + 2 + 5 + 1 + 1 + 1 + 1 + 10 + 10 + 1
    assert codec.size == cell_free + (10 + 1 + 1 + 1 + 10) * 256 == 5923
    starts = [start for start, _ in codec.blocks.values()]
    sizes = [size for _, size in codec.blocks.values()]
    assert starts == [sum(sizes[:i]) for i in range(len(sizes))]  # contiguous, in order


@pytest.mark.parametrize("window", [4, 16])
def test_every_index_decodes_and_encodes_back(window: int) -> None:
    """Every index but the fallback and the totem shapes that would leave the window
    names one action, which encodes back to it."""
    codec = ActionCodec(window)
    seen = set()
    unused = 0
    for index in range(codec.size):
        try:
            action = codec.decode(index, 1, HAND, GOALS)
        except ValueError:
            unused += 1
            continue
        assert action.seat == 1
        assert codec.encode(action, HAND, GOALS) == index
        seen.add(action)
    assert len(seen) == codec.size - unused  # distinct actions: the map is a bijection
    # Anchors that fit: a bird L needs one spare row and column, a 3-line two cells of
    # its direction, a horse one; the fallback is the other unused index.
    w = window
    fitting = 4 * (w - 1) ** 2 + 4 * w * (w - 2) + 2 * w * (w - 1)
    assert unused == 1 + len(TOTEM_SHAPES) * w * w - fitting
    if window == 16:
        assert unused == 1 + 284


def test_window_edges() -> None:
    codec = ActionCodec(16)
    assert codec.cell_index(cell(-7, -7)) == 0
    assert codec.cell_index(cell(8, -7)) == 15
    assert codec.cell_index(cell(-7, 8)) == 15 * 16
    assert codec.cell_index(cell(0, 0)) == 7 * 16 + 7
    for outside in (cell(-8, 0), cell(9, 0), cell(0, -8), cell(0, 9)):
        assert codec.cell_index(outside) is None
        assert codec.distance_outside(outside) == 1
    assert codec.distance_outside(cell(12, -10)) == 4
    assert codec.encode(PlacePedestal(0, RED, cell(9, 0))) is None
    # a wolf whose last cell leaves the window is not representable either
    assert codec.encode(BuildTotem(0, T_WOLF, (cell(7, 0), cell(8, 0), cell(9, 0)))) is None
    assert codec.encode(BuildTotem(0, T_WOLF, (cell(6, 0), cell(7, 0), cell(8, 0)))) is not None


def test_cell_free_actions_have_fixed_indices() -> None:
    codec = ActionCodec()
    b = codec.blocks
    assert codec.encode(ChooseStart(0, "gamma"), HAND) == b["choose_start"][0] + 2
    assert codec.encode(Reveal(0, "epsilon"), goals=GOALS) == b["reveal"][0] + 1
    assert codec.encode(Reveal(0, "zeta"), goals=GOALS) is None  # not one of the goals
    assert codec.encode(TakeSlot(0, 4)) == b["take_slot"][0] + 4
    assert codec.encode(ChooseDesign(0, 9)) == b["choose_design"][0] + 9
    assert codec.encode(ReturnPedestal(0, 6)) == b["return_pedestal"][0] + 6
    for action in (DrawFromBag(0), Pass(0), EndTurn(0), WolfStop(0)):
        assert codec.encode(action) == b[action.type][0]
    for cell_action in (
        PlaceCloud(0, cell(1, 2)),
        ChooseCat(0, cell(1, 2)),
        WolfTake(0, cell(1, 2)),
    ):
        assert codec.encode(cell_action) == b[cell_action.type][0] + (2 + 7) * 16 + (1 + 7)


def _altar_with(heights: dict[tuple[int, int], int]) -> Altar:
    """An altar with clouds on a 7×7 block and red columns of the given heights."""
    altar = Altar.empty()
    altar.clouds = {cell(x, y) for x in range(-3, 4) for y in range(-3, 4)}
    altar.stacks = {cell(x, y): (RED,) * h for (x, y), h in heights.items() if h}
    altar.touch()
    return altar


# Heights that make each kind's condition true along a shape's cells, in offset order.
CONDITION_HEIGHTS = {T_BIRD: (2, 2, 2), T_WOLF: (3, 0, 3), T_HORSE: (1, 3), T_DRAGON: (1, 2, 3)}


@pytest.mark.parametrize("shape", range(len(TOTEM_SHAPES)))
def test_each_totem_shape_is_an_engine_site(shape: int) -> None:
    """Decoding a shape at an anchor gives exactly a site the engine finds (canonical
    cells), and the engine's site encodes back to the same index."""
    codec = ActionCodec()
    kind, _, offsets = TOTEM_SHAPES[shape]
    anchor = codec.cell_index(cell(0, 0))
    assert anchor is not None
    index = codec.blocks["build_totem"][0] + shape * codec.cells + anchor
    action = codec.decode(index, 0)
    assert isinstance(action, BuildTotem) and action.kind == kind
    heights = dict(zip(offsets, CONDITION_HEIGHTS[kind], strict=True))
    found = sites(_altar_with(heights), kind)
    assert found == [action.cells]
    assert codec.encode(BuildTotem(0, kind, found[0])) == index


def test_sites_of_one_kind_never_share_an_index() -> None:
    """Four birds around one corner and both line directions: all distinct indices."""
    codec = ActionCodec()
    plus = {(0, 0): 2, (1, 0): 2, (-1, 0): 2, (0, 1): 2, (0, -1): 2}
    birds = sites(_altar_with(plus), T_BIRD)
    assert len(birds) == 4
    assert len({codec.encode(BuildTotem(0, T_BIRD, s)) for s in birds}) == 4
    cross = {(0, 0): 1, (1, 0): 2, (2, 0): 3, (0, 1): 2, (0, 2): 3}
    dragons = sites(_altar_with(cross), T_DRAGON)
    assert len(dragons) == 2
    assert len({codec.encode(BuildTotem(0, T_DRAGON, s)) for s in dragons}) == 2


def test_fallback_picks_the_legal_action_nearest_the_window() -> None:
    codec = ActionCodec(4)  # x, y in [-1, 2]
    legal = [PlaceCloud(0, cell(6, 0)), PlaceCloud(0, cell(-3, 1)), PlaceCloud(0, cell(3, 3))]
    index_map = codec.legal_index_map(legal)
    assert list(index_map) == [codec.fallback]
    assert index_map[codec.fallback] == PlaceCloud(0, cell(3, 3))  # distance 1 beats 2 and 4
    mask = codec.mask(index_map)
    assert mask.dtype == np.int8 and int(mask.sum()) == 1 and mask[codec.fallback] == 1
    # ties go to the engine's order
    tied = [PlaceCloud(0, cell(3, 0)), PlaceCloud(0, cell(-2, 0))]
    assert codec.legal_index_map(tied)[codec.fallback] == tied[0]
    # as soon as one legal action is representable, no fallback
    mixed = [*legal, PlaceCloud(0, cell(2, 2))]
    assert list(codec.legal_index_map(mixed)) == [codec.encode(mixed[-1])]


def test_describe_reads_an_index() -> None:
    codec = ActionCodec()
    index = codec.encode(PlacePedestal(0, RED, cell(3, -1)))
    assert index is not None
    assert "red" in codec.describe(index) and "3,-1" in codec.describe(index)
    assert "fallback" in codec.describe(codec.fallback)
    with pytest.raises(ValueError):
        codec.block_of(codec.size)


def test_window_must_be_even_and_at_least_four() -> None:
    for bad in (3, 2, 15):
        with pytest.raises(ValueError):
            ActionCodec(bad)


def test_mission_progress_counts_towards_the_requirement() -> None:
    altar = {
        "clouds": [[0, 0], [1, 0], [0, 1], [1, 1]],
        "columns": [
            {"cell": [0, 0], "stack": ["red", "red", "red"]},
            {"cell": [1, 0], "stack": ["cat", "wolf"]},
            {"cell": [0, 1], "stack": ["blue", "blue", "blue"]},
        ],
        "totems": [{"kind": "horse", "cells": [[0, 0], [1, 0]], "height": 3, "points": 6}],
        "hoard": ["bird"],
        "covered": [[0, 0], [1, 0]],
    }
    assert mission_progress({"type": "tall_columns", "count": 4, "height": 3}, altar) == 0.5
    assert (
        mission_progress({"type": "rare_designs", "min": 4, "include_hoard": True}, altar) == 0.75
    )  # cat, wolf + bird from the hoard
    assert mission_progress({"type": "cloud_cells", "min": 12}, altar) == pytest.approx(4 / 12)
    assert mission_progress({"type": "totem_count", "kind": "horse", "min": 2}, altar) == 0.5
    assert mission_progress({"type": "all_rare_column", "height": 4}, altar) == 0.5
    # shapes measure themselves with the engine's shortfall: the empty cloud (1,1) has
    # columns on 2 of its 4 sides, where a fresh altar would need all 4
    assert mission_progress({"type": "courtyard"}, altar) == 0.5
    # a 2×2 square of height 2: 8 pedestals on a fresh altar; here the best square is
    # the start tile, levelled at 3: 1 on (1,0) and 3 on the empty (1,1), 4 missing
    assert mission_progress({"type": "equal_square", "size": 2, "min_height": 2}, altar) == 0.5
