"""Per-rule tests of RULES.md §2 (geometry) and §3 (placement).

Positions are written in the altar notation; expected sets of legal cells are worked
out by hand from the rule, never copied from the engine's output.
"""

from __future__ import annotations

from helpers import altar, assert_illegal, c, cells, find, legal, of_type, play, pos

from skytotems import (
    BuildTotem,
    ChooseDesign,
    DrawFromBag,
    GameOptions,
    NotYourDecision,
    PlaceCloud,
    PlacePedestal,
    ReturnPedestal,
    Reveal,
    TakeSlot,
    xy,
)
from skytotems.rules.events import (
    CloudPlaced,
    PedestalPlaced,
    PedestalReturned,
    RoundEnded,
    TurnStarted,
)
from skytotems.rules.pieces import BLUE, GREEN, ORANGE, RED, T_WOLF, WOLF, YELLOW

EMPTY = "0,0 _ _/_ _"  # a bare starting tile, for the seat that does not act


def cloud_cells(actions: list[PlaceCloud]) -> set[tuple[int, int]]:
    """Legal cloud cells as (x, y) pairs, for readable expected sets."""
    return {xy(a.cell) for a in actions}


def pedestal_cells(actions: list[PlacePedestal], design: int) -> set[tuple[int, int]]:
    """The (x, y) cells where a pedestal of `design` may go, from legal actions."""
    return {xy(a.cell) for a in actions if a.design == design}


# --- §2 Geometry ---------------------------------------------------------------------


def test_s2_axes_x_right_y_down() -> None:
    """RULES.md §2 [I]: x grows to the right and y downward; the start tile is (0,0)-(1,1)."""
    game = pos("0,0 r y/g b", EMPTY)
    stacks = game.altars[0].stacks
    assert stacks[c(0, 0)] == (RED,)
    assert stacks[c(1, 0)] == (YELLOW,)  # one step right
    assert stacks[c(0, 1)] == (GREEN,)  # one step down
    assert stacks[c(1, 1)] == (BLUE,)
    assert game.altars[1].clouds == {c(0, 0), c(1, 0), c(0, 1), c(1, 1)}


def test_s2_altar_grid_is_unbounded() -> None:
    """RULES.md §2 [I]: the altar has no edge; clouds grow in any direction, negative too."""
    game = pos("-30,-30 r", EMPTY, slots=["r", "", ""], bag={"blue": 5})
    play(game, TakeSlot(0, 0), ReturnPedestal(0, RED))
    assert cloud_cells(legal(game, PlaceCloud)) == {(-31, -30), (-29, -30), (-30, -31), (-30, -29)}
    play(game, PlaceCloud(0, c(-31, -30)))
    assert altar(game) == "-31,-30 _ r"


def test_s2_adjacent_means_an_edge_never_a_corner() -> None:
    """RULES.md §2 [R]: a new cloud may touch by an edge only; the 4 diagonals are refused."""
    game = pos("0,0 r _/_ _", EMPTY, slots=["r", "", ""], bag={"blue": 5})
    play(game, TakeSlot(0, 0), ReturnPedestal(0, RED))
    expected = {(-1, 0), (-1, 1), (2, 0), (2, 1), (0, -1), (1, -1), (0, 2), (1, 2)}
    assert cloud_cells(legal(game, PlaceCloud)) == expected
    for corner in ((-1, -1), (2, -1), (-1, 2), (2, 2)):
        assert_illegal(game, PlaceCloud(0, c(*corner)), "illegal_cloud")


def test_s2_straight_line_is_never_diagonal() -> None:
    """RULES.md §2 [I]: a wolf (or dragon) line runs along a row or a column, not a diagonal."""
    wolf_diagonal = pos("0,0 rr . ./. _ ./. . rr", EMPTY)
    assert legal(wolf_diagonal, BuildTotem) == []
    assert_illegal(
        wolf_diagonal, BuildTotem(0, T_WOLF, cells((0, 0), (1, 1), (2, 2))), "condition_not_met"
    )
    dragon_diagonal = pos(
        "0,0 r . ./. rr ./. . rrr", EMPTY, options=GameOptions(players=2, totems="dragon")
    )
    assert legal(dragon_diagonal, BuildTotem) == []


def test_s2_column_kind_is_its_bottom_design() -> None:
    """RULES.md §2 [B]: a column's kind is its bottom pedestal; its height is its count.

    A red column topped with yellow (allowed by a yellow hoard) still takes red, not blue.
    """
    game = pos("0,0 ry _/_ _ | hoard y", EMPTY, slots=["rb", "", ""], bag={"green": 5})
    play(game, TakeSlot(0, 0))
    actions = legal(game, PlacePedestal)
    assert (0, 0) in pedestal_cells(actions, RED)
    assert (0, 0) not in pedestal_cells(actions, BLUE)
    assert game.altars[0].height(c(0, 0)) == 2


def test_s2_empty_cloud_is_not_a_column() -> None:
    """RULES.md §2 [B]: an empty cloud has height 0 and is no column (no horse on it)."""
    game = pos("0,0 _ rr/_ _", EMPTY)
    assert game.altars[0].height(c(0, 0)) == 0
    assert c(0, 0) not in game.altars[0].stacks
    assert legal(game, BuildTotem) == []


def test_s2_seats_clockwise_player_on_the_left_is_the_next_seat() -> None:
    """RULES.md §2 [I]: seats go 0, 1, 2 clockwise; the start player passes to the next seat."""
    game = pos(
        "0,0 _ _/_ _",
        "0,0 _ _/_ _",
        "0,0 _ _/_ _",
        slots=["r", "o", "y", "g"],
        bag={"blue": 15},
        seat=0,
        start_player=0,
    )
    events = play(game, TakeSlot(0, 0), PlacePedestal(0, RED, c(0, 0)))
    assert [e.seat for e in of_type(events, TurnStarted)] == [1]
    events = play(game, TakeSlot(1, 1), PlacePedestal(1, ORANGE, c(0, 0)))
    assert [e.seat for e in of_type(events, TurnStarted)] == [2]
    events = play(game, TakeSlot(2, 2), PlacePedestal(2, YELLOW, c(0, 0)))
    ended = of_type(events, RoundEnded)
    assert len(ended) == 1 and ended[0].next_start_player == 1
    assert [e.seat for e in of_type(events, TurnStarted)] == [1]


def test_s2_covered_cells_include_the_wolf_gap() -> None:
    """RULES.md §2 [F]: a cell is covered when a totem stands on it, the wolf's gap included."""
    game = pos("0,0 rr _ rr/_ _ _", EMPTY, bag={"blue": 5})
    play(game, BuildTotem(0, T_WOLF, cells((0, 0), (1, 0), (2, 0))))
    assert game.altars[0].covered == {c(0, 0), c(1, 0), c(2, 0)}


# --- §3 Placement --------------------------------------------------------------------


def test_s3_everything_gained_goes_on_the_own_altar() -> None:
    """RULES.md §3 [B]: pedestals and clouds a seat gains change only that seat's altar."""
    game = pos("0,0 _ _/_ _", "0,0 r _/_ _", slots=["rb", "", ""], bag={"green": 5})
    other_before = altar(game, 1)
    play(game, TakeSlot(0, 0), PlacePedestal(0, RED, c(0, 0)), ReturnPedestal(0, BLUE))
    assert_illegal(game, PlaceCloud(1, c(2, 0)), NotYourDecision.reason)
    play(game, PlaceCloud(0, c(2, 0)))
    assert altar(game, 0) == "0,0 r _ _/_ _ ."
    assert altar(game, 1) == other_before


def test_s3_cloud_only_next_to_an_existing_cloud_never_detached() -> None:
    """RULES.md §3 [R]: a cloud touches a cloud of that altar; a detached cell is refused."""
    game = pos("0,0 _ _ _", EMPTY, slots=["r", "", ""], bag={"blue": 5})
    play(game, TakeSlot(0, 0), ReturnPedestal(0, RED))
    expected = {(-1, 0), (3, 0), (0, -1), (1, -1), (2, -1), (0, 1), (1, 1), (2, 1)}
    assert cloud_cells(legal(game, PlaceCloud)) == expected
    assert_illegal(game, PlaceCloud(0, c(4, 0)), "illegal_cloud")
    assert_illegal(game, PlaceCloud(0, c(0, 2)), "illegal_cloud")


def test_s3_cloud_never_where_a_cloud_already_is() -> None:
    """RULES.md §3 [R]: a cell that has a cloud (empty or holding a column) cannot get another."""
    game = pos("0,0 _ r", EMPTY, slots=["b", "", ""], bag={"green": 5})
    play(game, TakeSlot(0, 0), ReturnPedestal(0, BLUE))
    assert_illegal(game, PlaceCloud(0, c(0, 0)), "illegal_cloud")
    assert_illegal(game, PlaceCloud(0, c(1, 0)), "illegal_cloud")


def test_s3_cloud_never_on_a_covered_cell() -> None:
    """RULES.md §3 [R][I]: the cloud-less gap of a wolf is covered, so no cloud goes there."""
    game = pos("0,0 rr . rr/_ _ _ | wolf 0,0 1,0 2,0", EMPTY, slots=["b", "", ""], bag={"green": 5})
    play(game, TakeSlot(0, 0), ReturnPedestal(0, BLUE))
    # (1,-1) would touch only the gap, which has no cloud: it is no neighbour of a cloud.
    expected = {(-1, 0), (0, -1), (2, -1), (3, 0), (-1, 1), (3, 1), (0, 2), (1, 2), (2, 2)}
    assert cloud_cells(legal(game, PlaceCloud)) == expected
    assert_illegal(game, PlaceCloud(0, c(1, 0)), "illegal_cloud")


def test_s3_every_gained_cloud_is_placed_at_once() -> None:
    """RULES.md §3 [R]: a return is followed at once by its cloud; nothing else may come between,
    and the returned pedestal is back in the bag at once."""
    game = pos(EMPTY, EMPTY, slots=["rb", "", ""], bag={"green": 5})
    play(game, TakeSlot(0, 0))
    events = play(game, ReturnPedestal(0, RED))
    assert [e.design for e in of_type(events, PedestalReturned)] == [RED]
    assert game.bag[RED] == 1
    assert game.decision.kind == "place_cloud"
    assert all(isinstance(a, PlaceCloud) for a in game.legal_actions(0))
    assert_illegal(game, PlacePedestal(0, BLUE, c(0, 0)))
    assert_illegal(game, ReturnPedestal(0, BLUE))


def test_s3_pedestal_only_on_an_uncovered_cloud() -> None:
    """RULES.md §3 [R][F]: never on a cell without cloud, never under a totem (gap included)."""
    game = pos(
        "0,0 rr _ rr/_ b _ | wolf 0,0 1,0 2,0", EMPTY, slots=["rbg", "", ""], bag={"green": 5}
    )
    play(game, TakeSlot(0, 0))
    actions = legal(game, PlacePedestal)
    assert pedestal_cells(actions, RED) == {(0, 1), (2, 1)}
    assert pedestal_cells(actions, BLUE) == {(0, 1), (1, 1), (2, 1)}
    assert pedestal_cells(actions, GREEN) == {(0, 1), (2, 1)}
    assert_illegal(game, PlacePedestal(0, RED, c(0, 0)), "illegal_placement")  # its kind, covered
    assert_illegal(game, PlacePedestal(0, RED, c(1, 0)), "illegal_placement")  # the wolf's gap
    assert_illegal(game, PlacePedestal(0, RED, c(3, 0)), "illegal_placement")  # no cloud
    assert_illegal(game, PlacePedestal(0, RED, c(0, 2)), "illegal_placement")  # no cloud


def test_s3_any_design_may_go_on_an_empty_cloud() -> None:
    """RULES.md §3 [R]: every design, common or rare, may start a column on an empty cloud."""
    game = pos(EMPTY, EMPTY, slots=["roygbp", "CWBH", ""], bag={"green": 5})
    start_tile = {(0, 0), (1, 0), (0, 1), (1, 1)}
    play(game, TakeSlot(0, 0))
    for design in range(6):
        assert pedestal_cells(legal(game, PlacePedestal), design) == start_tile
    game = pos(EMPTY, EMPTY, slots=["roygbp", "CWBH", ""], bag={"green": 5})
    play(game, TakeSlot(0, 1))
    for design in range(6, 10):
        assert pedestal_cells(legal(game, PlacePedestal), design) == start_tile


def test_s3_stacking_only_on_the_columns_kind() -> None:
    """RULES.md §3 [R]: a pedestal may be stacked only on a column of its own design;
    one that fits nowhere can still be returned."""
    game = pos("0,0 rr gg", EMPTY, slots=["rgy", "", ""], bag={"blue": 5})
    play(game, TakeSlot(0, 0))
    actions = legal(game, PlacePedestal)
    assert pedestal_cells(actions, RED) == {(0, 0)}
    assert pedestal_cells(actions, GREEN) == {(1, 0)}
    assert pedestal_cells(actions, YELLOW) == set()
    assert_illegal(game, PlacePedestal(0, YELLOW, c(0, 0)), "illegal_placement")
    assert ReturnPedestal(0, YELLOW) in game.legal_actions(0)


def test_s3_hoard_design_may_go_on_any_column() -> None:
    """RULES.md §3 [R][B]: a design in the own dragon's hoard may go on a column of any kind
    (rare hoard designs too); other designs still follow the kind rule."""
    game = pos("0,0 rr gg/_ C | hoard yW", EMPTY, slots=["ybW", "", ""], bag={"blue": 5})
    play(game, TakeSlot(0, 0))
    actions = legal(game, PlacePedestal)
    every_cloud = {(0, 0), (1, 0), (0, 1), (1, 1)}
    assert pedestal_cells(actions, YELLOW) == every_cloud
    assert pedestal_cells(actions, WOLF) == every_cloud
    assert pedestal_cells(actions, BLUE) == {(0, 1)}


def test_s3_column_topped_by_a_hoard_design_keeps_its_kind() -> None:
    """RULES.md §3 [R]: after a hoard pedestal on a red column, red and the hoard design still
    fit there, any other design does not (the rulebook's 'lowest pedestal' rule)."""
    game = pos("0,0 ry _ | hoard y", EMPTY, slots=["ryb", "", ""], bag={"green": 5})
    play(game, TakeSlot(0, 0))
    actions = legal(game, PlacePedestal)
    assert (0, 0) in pedestal_cells(actions, RED)
    assert (0, 0) in pedestal_cells(actions, YELLOW)
    assert pedestal_cells(actions, BLUE) == {(1, 0)}


def test_s3_only_the_own_hoard_counts() -> None:
    """RULES.md §3 [R][B]: another player's hoard gives no exception on this altar."""
    game = pos("0,0 rr _", "0,0 _ _/_ _ | hoard y", slots=["y", "", ""], bag={"green": 5})
    play(game, TakeSlot(0, 0))
    assert pedestal_cells(legal(game, PlacePedestal), YELLOW) == {(1, 0)}
    assert_illegal(game, PlacePedestal(0, YELLOW, c(0, 0)), "illegal_placement")


def test_s3_one_design_may_start_several_columns() -> None:
    """RULES.md §3 [F] (FAQ placement Q2): pedestals of one design may go on separate clouds."""
    game = pos(EMPTY, EMPTY, slots=["rr", "", ""], bag={"green": 5})
    play(game, TakeSlot(0, 0), PlacePedestal(0, RED, c(0, 0)))
    assert pedestal_cells(legal(game, PlacePedestal), RED) == {(0, 0), (1, 0), (0, 1), (1, 1)}
    play(game, PlacePedestal(0, RED, c(1, 1)))
    assert altar(game) == "0,0 r _/_ r"


def test_s3_pool_resolved_one_at_a_time_in_the_chosen_order() -> None:
    """RULES.md §3 [R][B]: the player picks which pedestal of the pool comes next."""
    game = pos(EMPTY, EMPTY, slots=["rb", "", ""], bag={"green": 5})
    play(game, TakeSlot(0, 0))
    assert game.decision.kind == "place_pedestal"
    assert {a.design for a in legal(game, PlacePedestal)} == {RED, BLUE}
    first = play(game, PlacePedestal(0, BLUE, c(1, 0)))
    assert [(e.design, e.cell) for e in of_type(first, PedestalPlaced)] == [(BLUE, c(1, 0))]
    assert game.decision.context["pool"] == ["red"]
    assert {a.design for a in legal(game, PlacePedestal)} == {RED}
    play(game, PlacePedestal(0, RED, c(0, 0)))
    assert altar(game) == "0,0 r b/_ _"


def test_s3_returning_is_allowed_even_when_placing_is_possible() -> None:
    """RULES.md §3 [F] (FAQ placement Q3): a pedestal may be returned while empty clouds exist."""
    game = pos(EMPTY, EMPTY, slots=["rb", "", ""], bag={"green": 5})
    play(game, TakeSlot(0, 0))
    assert pedestal_cells(legal(game, PlacePedestal), RED)  # placing is possible...
    assert set(legal(game, ReturnPedestal)) == {ReturnPedestal(0, RED), ReturnPedestal(0, BLUE)}
    play(game, ReturnPedestal(0, RED))  # ...and returning is allowed all the same
    assert game.decision.kind == "place_cloud"


def test_s3_each_return_gains_exactly_one_cloud() -> None:
    """RULES.md §3 [R][B]: one cloud per returned pedestal, placed before the next pedestal."""
    game = pos(EMPTY, EMPTY, slots=["rb", "", ""], bag={"green": 5})
    play(game, TakeSlot(0, 0), ReturnPedestal(0, RED))
    assert game.decision.context["remaining"] == 1
    play(game, PlaceCloud(0, c(2, 0)))
    assert game.decision.kind == "place_pedestal"
    assert game.decision.context["pool"] == ["blue"]
    events = play(game, ReturnPedestal(0, BLUE), PlaceCloud(0, c(2, 1)))
    assert [e.cell for e in of_type(events, CloudPlaced)] == [c(2, 1)]
    assert game.decision.seats == (1,)  # the pool is done and so is the turn
    assert len(game.altars[0].clouds) == 6
    assert altar(game) == "0,0 _ _ _/_ _ _"


def test_s3_pedestal_may_go_on_a_cloud_gained_in_the_same_pool() -> None:
    """RULES.md §3 [F] (FAQ placement Q1): return one, then place another on its new cloud."""
    game = pos("0,0 r r/r r", EMPTY, slots=["bb", "", ""], bag={"green": 5})
    play(game, TakeSlot(0, 0))
    assert pedestal_cells(legal(game, PlacePedestal), BLUE) == set()
    play(game, ReturnPedestal(0, BLUE), PlaceCloud(0, c(2, 0)))
    assert pedestal_cells(legal(game, PlacePedestal), BLUE) == {(2, 0)}
    play(game, PlacePedestal(0, BLUE, c(2, 0)))
    assert altar(game) == "0,0 r r b/r r ."


def test_s3_bag_draw_pedestals_can_be_returned() -> None:
    """RULES.md §3 [F]: the 2 pedestals drawn when every slot is empty are gained: returnable."""
    game = pos(EMPTY, EMPTY, slots=["", "", ""], bag={"blue": 2})
    play(game, find(game, DrawFromBag))
    assert game.decision.context["pool"] == ["blue", "blue"]
    assert legal(game, ReturnPedestal) == [ReturnPedestal(0, BLUE)]
    play(game, ReturnPedestal(0, BLUE))
    assert game.bag[BLUE] == 1
    assert game.decision.kind == "place_cloud"


def test_s3_reveal_reward_can_be_returned() -> None:
    """RULES.md §3 [F] (FAQ cards Q1): the pedestal a reveal gives may be returned for a cloud."""
    game = pos(
        "0,0 ppppp _/_ _",
        EMPTY,
        slots=["r", "", ""],
        bag={"blue": 1},
        goals=[["high-place"], []],
    )
    play(game, Reveal(0, "high-place"))
    play(game, ChooseDesign(0, BLUE))
    assert game.decision.kind == "place_pedestal"
    assert legal(game, ReturnPedestal) == [ReturnPedestal(0, BLUE)]
    play(game, ReturnPedestal(0, BLUE))
    assert game.decision.kind == "place_cloud"
    assert game.bag[BLUE] == 1
