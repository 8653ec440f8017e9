"""Per-rule tests of RULES.md §6 (totems) and the rulebook FAQ about them.

Every totem's footprint, condition, score and blessing, built from hand-written altars.
Expected sets of sites are reasoned from the rule; `pos` positions start at the top of
seat 0's turn in a 2-player game (beginner totems unless the test says otherwise).
"""

from __future__ import annotations

import pytest
from helpers import altar, assert_illegal, c, cells, legal, of_type, play, pos

from skytotems import (
    BuildTotem,
    ChooseCat,
    ChooseDesign,
    DrawFromBag,
    Game,
    GameOptions,
    Pass,
    PlaceCloud,
    PlacePedestal,
    ReturnPedestal,
    TakeSlot,
    WolfStop,
    WolfTake,
    score_sheet,
    xy,
)
from skytotems.rules.events import (
    Event,
    HoardAdded,
    NothingGained,
    PedestalPlaced,
    PedestalsDrawn,
    TotemBuilt,
    TurnStarted,
)
from skytotems.rules.pieces import (
    BLUE,
    GREEN,
    PURPLE,
    RED,
    T_BIRD,
    T_CAT,
    T_DRAGON,
    T_HORSE,
    T_WOLF,
    YELLOW,
)

EMPTY = "0,0 _ _/_ _"
DRAGON_SET = GameOptions(players=2, totems="dragon")

Site = frozenset[tuple[int, int]]


def site(*coords: tuple[int, int]) -> Site:
    """A totem site as a set of (x, y) cells, order-free for readable expectations."""
    return frozenset(coords)


def sites(game: Game, kind: int | None = None) -> set[Site]:
    """The legal BuildTotem sites of the pending seat (of one kind, or of all kinds)."""
    return {
        frozenset(xy(cell) for cell in a.cells)
        for a in legal(game, BuildTotem)
        if kind is None or a.kind == kind
    }


def built(events: list[Event]) -> TotemBuilt:
    """The one TotemBuilt event among `events`."""
    found = of_type(events, TotemBuilt)
    assert len(found) == 1, found
    return found[0]


# --- every totem -----------------------------------------------------------------------


def test_s6_totems_never_on_covered_cells() -> None:
    """RULES.md §6: only uncovered cells; of a 2×3 block of 2s half under a bird, the one
    L left free is the only site (no wolf: both rows of three reach a covered cell)."""
    game = pos("0,0 rr rr rr/rr rr rr | bird 0,0 1,0 0,1", EMPTY)
    assert sites(game) == {site((2, 0), (1, 1), (2, 1))}
    assert_illegal(game, BuildTotem(0, T_BIRD, cells((0, 0), (1, 0), (0, 1))))
    assert_illegal(game, BuildTotem(0, T_WOLF, cells((0, 1), (1, 1), (2, 1))))


def test_s6_conditions_read_heights_only() -> None:
    """RULES.md §6 [R][B]: columns of different kinds, hoard designs on top included, qualify."""
    game = pos("0,0 ry bb/WW _ | hoard y", EMPTY)
    assert sites(game) == {site((0, 0), (1, 0), (0, 1))}


# --- Bird ------------------------------------------------------------------------------


def test_s6_bird_is_an_l_in_all_four_orientations() -> None:
    """RULES.md §6 Bird [B]: a 2×2 block of equal columns holds exactly the 4 Ls, one per
    missing corner; nothing else can be built there (no straight line of three)."""
    game = pos("0,0 rr rr/rr rr", EMPTY)
    corners = {(0, 0), (1, 0), (0, 1), (1, 1)}
    assert sites(game) == {frozenset(corners - {missing}) for missing in corners}
    assert {a.kind for a in legal(game, BuildTotem)} == {T_BIRD}


def test_s6_bird_needs_an_l_not_a_line() -> None:
    """RULES.md §6 Bird [B]: three equal columns in a row are a wolf, not a bird."""
    game = pos("0,0 rr rr rr", EMPTY)
    assert sites(game, T_BIRD) == set()
    assert_illegal(game, BuildTotem(0, T_BIRD, cells((0, 0), (1, 0), (2, 0))), "condition_not_met")


@pytest.mark.parametrize(
    ("notation", "expected"),
    [
        ("0,0 rr rr/rrr _", set()),  # one column higher
        ("0,0 rr rr/r _", set()),  # one column lower
        ("0,0 r r/r _", set()),  # equal but height 1
        ("0,0 rr rr/rr .", {site((0, 0), (1, 0), (0, 1))}),
        ("0,0 rrr bbb/ggg .", {site((0, 0), (1, 0), (0, 1))}),
    ],
)
def test_s6_bird_three_equal_columns_of_height_at_least_2(
    notation: str, expected: set[Site]
) -> None:
    """RULES.md §6 Bird [R]: all three columns the same height h ≥ 2."""
    assert sites(pos(notation, EMPTY), T_BIRD) == expected


def test_s6_bird_scores_three_times_its_height() -> None:
    """RULES.md §6 Bird [R]: score 3 × h (h = 3 here: 9)."""
    game = pos("0,0 rrr rrr/rrr _", EMPTY, bag={"blue": 5})
    totem = built(play(game, BuildTotem(0, T_BIRD, cells((0, 0), (1, 0), (0, 1)))))
    assert (totem.height, totem.points) == (3, 9)
    assert score_sheet(game, 0).totems["bird"] == 9


def test_s6_bird_blessing_three_clouds_then_three_random_returnable_pedestals() -> None:
    """RULES.md §6 Bird [R][B][F]: place 3 clouds first, then 3 pedestals are drawn at
    random; they form a pool whose pedestals may be returned (FAQ bird Q1)."""
    game = pos("0,0 rr rr/rr _", EMPTY, bag={"blue": 5})
    events = play(game, BuildTotem(0, T_BIRD, cells((0, 0), (1, 0), (0, 1))))
    assert of_type(events, PedestalsDrawn) == []  # clouds come first
    for remaining, where in ((3, (2, 0)), (2, (2, 1)), (1, (1, 2))):
        assert game.decision.kind == "place_cloud"
        assert game.decision.context["remaining"] == remaining
        events = play(game, PlaceCloud(0, c(*where)))
    drawn = of_type(events, PedestalsDrawn)
    assert [(e.source, e.designs) for e in drawn] == [("bird", (BLUE, BLUE, BLUE))]
    assert game.bag[BLUE] == 2
    assert game.decision.kind == "place_pedestal"
    assert game.decision.context["pool"] == ["blue"] * 3
    assert ReturnPedestal(0, BLUE) in game.legal_actions(0)
    play(game, ReturnPedestal(0, BLUE))
    assert game.decision.kind == "place_cloud"


def test_s6_bird_blessing_draws_what_the_bag_still_holds() -> None:
    """RULES.md §6 Bird, §8 [F]: with 2 pedestals left in the bag the bird gives those 2."""
    game = pos("0,0 rr rr/rr _", EMPTY, bag={"green": 2})
    play(game, BuildTotem(0, T_BIRD, cells((0, 0), (1, 0), (0, 1))))
    play(game, PlaceCloud(0, c(2, 0)), PlaceCloud(0, c(3, 0)), PlaceCloud(0, c(4, 0)))
    assert game.decision.context["pool"] == ["green", "green"]


# --- Wolf ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("notation", "expected"),
    [
        ("0,0 rr _ rr", {site((0, 0), (1, 0), (2, 0))}),
        ("0,0 rr _ bb", {site((0, 0), (1, 0), (2, 0))}),  # legs of different kinds
        ("0,0 rr/_/rr", {site((0, 0), (0, 1), (0, 2))}),  # vertical
        ("0,0 r _ r", set()),  # equal but height 1
        ("0,0 rr _ rrr", set()),  # legs differ
        ("0,0 rr rr _", set()),  # adjacent columns are no wolf
    ],
)
def test_s6_wolf_two_equal_legs_of_height_at_least_2(notation: str, expected: set[Site]) -> None:
    """RULES.md §6 Wolf [R][B]: 3 cells in a straight line, legs of equal height h ≥ 2."""
    assert sites(pos(notation, EMPTY), T_WOLF) == expected


@pytest.mark.parametrize(
    ("gap", "allowed"), [("_", True), ("b", True), ("bb", True), ("bbb", False)]
)
def test_s6_wolf_gap_no_higher_than_the_legs(gap: str, allowed: bool) -> None:
    """RULES.md §6 Wolf [B][F] (FAQ wolf Q1): gap height ≤ h; a higher middle forbids the wolf."""
    game = pos(f"0,0 rr {gap} rr", EMPTY)
    wolf = BuildTotem(0, T_WOLF, cells((0, 0), (1, 0), (2, 0)))
    assert sites(game, T_WOLF) == ({site((0, 0), (1, 0), (2, 0))} if allowed else set())
    if not allowed:
        assert_illegal(game, wolf, "condition_not_met")


def test_s6_wolf_gap_may_be_a_cell_without_cloud() -> None:
    """RULES.md §6 Wolf [I]: the gap may be a cell with no cloud at all (height 0)."""
    game = pos("0,0 rr . rr", EMPTY, bag={"blue": 3})
    assert sites(game, T_WOLF) == {site((0, 0), (1, 0), (2, 0))}
    totem = built(play(game, BuildTotem(0, T_WOLF, cells((0, 0), (1, 0), (2, 0)))))
    assert totem.cells == cells((0, 0), (1, 0), (2, 0))
    assert game.altars[0].covered == {c(0, 0), c(1, 0), c(2, 0)}


def test_s6_wolf_gap_may_be_an_empty_cloud() -> None:
    """RULES.md §6 Wolf [I]: the gap may be an empty cloud (height 0)."""
    assert sites(pos("0,0 WW _ WW", EMPTY), T_WOLF) == {site((0, 0), (1, 0), (2, 0))}


def test_s6_wolf_cannot_straddle_another_totem() -> None:
    """RULES.md §6 Wolf [F] (FAQ wolf Q2): a horse on the would-be gap forbids the wolf."""
    game = pos("0,0 rr r rr/_ rrr _ | horse 1,0 1,1", EMPTY)
    assert sites(game) == set()
    assert_illegal(game, BuildTotem(0, T_WOLF, cells((0, 0), (1, 0), (2, 0))), "condition_not_met")


def test_s6_wolf_legs_cannot_be_covered() -> None:
    """RULES.md §6 Wolf [F]: none of the 3 cells may be covered, legs included."""
    game = pos("0,0 rr rr rr/rr _ _ | bird 0,0 1,0 0,1", EMPTY)
    assert sites(game, T_WOLF) == set()


def test_s6_wolf_scores_three_times_the_legs_height() -> None:
    """RULES.md §6 Wolf [R]: score 3 × h, h = the legs' height (3 here, gap 1: 9)."""
    game = pos("0,0 rrr b rrr", EMPTY, bag={})
    totem = built(play(game, BuildTotem(0, T_WOLF, cells((0, 0), (1, 0), (2, 0)))))
    assert (totem.height, totem.points) == (3, 9)
    assert score_sheet(game, 0).totems["wolf"] == 9


def wolf_then_next_turn(notation: str) -> Game:
    """Seat 0, last of round 1, builds the wolf on (0,0)-(2,0) and, as start player of round 2,
    is at the top of its next turn with slots refilled from a bag of blues."""
    game = pos(notation, EMPTY, slots=["", "", ""], bag={"blue": 10}, seat=0, start_player=1)
    play(game, BuildTotem(0, T_WOLF, cells((0, 0), (1, 0), (2, 0))))
    assert (game.round, game.decision.kind, game.decision.seats) == (2, "turn", (0,))
    return game


def test_s6_wolf_gap_empty_cloud_takes_no_pedestal_later() -> None:
    """RULES.md §6 [F][I] (FAQ wolf Q3): after the wolf, no pedestal may go on its gap."""
    game = wolf_then_next_turn("0,0 rr _ rr/_ _ _")
    play(game, TakeSlot(0, 0))
    blue_cells = {xy(a.cell) for a in legal(game, PlacePedestal) if a.design == BLUE}
    assert blue_cells == {(0, 1), (1, 1), (2, 1)}
    assert_illegal(game, PlacePedestal(0, BLUE, c(1, 0)), "illegal_placement")


def test_s6_wolf_gap_without_cloud_takes_no_cloud_later() -> None:
    """RULES.md §6 [I]: a cloud-less wolf gap is covered: no cloud may be placed there."""
    game = wolf_then_next_turn("0,0 rr . rr/_ _ _")
    play(game, TakeSlot(0, 0), ReturnPedestal(0, BLUE))
    clouds = {xy(a.cell) for a in legal(game, PlaceCloud)}
    assert clouds == {(-1, 0), (0, -1), (2, -1), (3, 0), (-1, 1), (3, 1), (0, 2), (1, 2), (2, 2)}
    assert_illegal(game, PlaceCloud(0, c(1, 0)), "illegal_cloud")


def test_s6_wolf_blessing_own_kind_chosen_order_once_each_never_returnable() -> None:
    """RULES.md §6 Wolf [B][F][I]: each uncovered column may take one pedestal of its own kind
    (a green column topped by a hoard yellow takes green), in the order chosen; a column whose
    kind the bag lacks gets none; the pedestals go straight on (no pool, never returnable)."""
    game = pos(
        "0,0 rr _ rr/b gy p | hoard y",
        EMPTY,
        bag={"green": 2, "yellow": 5, "purple": 1},
    )
    play(game, BuildTotem(0, T_WOLF, cells((0, 0), (1, 0), (2, 0))))
    assert game.decision.kind == "wolf_blessing"
    assert set(game.legal_actions(0)) == {
        WolfTake(0, c(1, 1)),
        WolfTake(0, c(2, 1)),
        WolfStop(0),
    }
    assert_illegal(game, WolfTake(0, c(0, 1)), "wolf_no_pedestal")  # no blue in the bag
    assert_illegal(game, WolfTake(0, c(0, 0)), "wolf_no_pedestal")  # a covered leg
    assert_illegal(game, ReturnPedestal(0, PURPLE))
    events = play(game, WolfTake(0, c(2, 1)))  # the later column first: order is free
    assert [(e.design, e.cell, e.source) for e in of_type(events, PedestalPlaced)] == [
        (PURPLE, c(2, 1), "wolf")
    ]
    assert set(game.legal_actions(0)) == {WolfTake(0, c(1, 1)), WolfStop(0)}
    assert_illegal(game, WolfTake(0, c(2, 1)), "wolf_no_pedestal")  # once per column
    events = play(game, WolfTake(0, c(1, 1)))
    assert [e.design for e in of_type(events, PedestalPlaced)] == [GREEN]
    assert altar(game) == "0,0 rr _ rr/b gyg pp | wolf 0,0 1,0 2,0 | hoard y"
    assert game.bag[YELLOW] == 5 and game.bag[GREEN] == 1
    assert game.decision.seats == (1,)  # nothing left to take: the turn is over


def test_s6_wolf_blessing_never_reaches_the_gap_column() -> None:
    """RULES.md §6 Wolf [F] (FAQ wolf Q3): a column in the gap is covered, so it takes nothing."""
    game = pos("0,0 rr b rr/g _ _", EMPTY, bag={"blue": 3, "green": 3, "red": 3})
    play(game, BuildTotem(0, T_WOLF, cells((0, 0), (1, 0), (2, 0))))
    assert set(game.legal_actions(0)) == {WolfTake(0, c(0, 1)), WolfStop(0)}


def test_s6_wolf_blessing_stop_ends_it() -> None:
    """RULES.md §6 Wolf [B][I]: taking is optional; stopping gives nothing to the rest."""
    game = pos("0,0 rr _ rr/b g _", EMPTY, bag={"blue": 3, "green": 3})
    play(game, BuildTotem(0, T_WOLF, cells((0, 0), (1, 0), (2, 0))), WolfTake(0, c(0, 1)))
    play(game, WolfStop(0))
    assert altar(game) == "0,0 rr _ rr/bb g _ | wolf 0,0 1,0 2,0"
    assert game.decision.seats == (1,)


def test_s6_wolf_blessing_gives_none_when_the_bag_lacks_the_kind() -> None:
    """RULES.md §6 Wolf [I]: two red columns, one red pedestal in the bag: the second column
    is not offered once the first has taken it."""
    game = pos("0,0 bb _ bb/r r _", EMPTY, bag={"red": 1, "green": 4})
    play(game, BuildTotem(0, T_WOLF, cells((0, 0), (1, 0), (2, 0))))
    assert set(game.legal_actions(0)) == {WolfTake(0, c(0, 1)), WolfTake(0, c(1, 1)), WolfStop(0)}
    play(game, WolfTake(0, c(1, 1)))
    assert game.decision.seats == (1,)
    assert altar(game) == "0,0 bb _ bb/r rr _ | wolf 0,0 1,0 2,0"


def test_s6_wolf_blessing_skips_empty_clouds() -> None:
    """RULES.md §6 Wolf [B]: only columns (height ≥ 1) take a pedestal, not empty clouds."""
    game = pos("0,0 rr _ rr/_ _ _", EMPTY, bag={"red": 5})
    play(game, BuildTotem(0, T_WOLF, cells((0, 0), (1, 0), (2, 0))))
    assert game.decision.seats == (1,)  # no column to bless: straight on to the next turn
    assert game.bag[RED] == 5


# --- Horse -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("notation", "expected"),
    [
        ("0,0 r rrr", {site((0, 0), (1, 0))}),
        ("0,0 rrr r", {site((0, 0), (1, 0))}),  # higher one first
        ("0,0 r/bbb", {site((0, 0), (0, 1))}),  # vertical, mixed kinds
        ("0,0 rr rrrr", {site((0, 0), (1, 0))}),  # l = 2
        ("0,0 _ rr", set()),  # l = 0: not directly on a cloud (FAQ horse Q1)
        ("0,0 . rr", set()),
        ("0,0 r rr", set()),  # difference 1
        ("0,0 r rrrr", set()),  # difference 3
        ("0,0 r ./. rrr", set()),  # diagonal
    ],
)
def test_s6_horse_adjacent_heights_l_and_l_plus_2(notation: str, expected: set[Site]) -> None:
    """RULES.md §6 Horse [R][F]: 2 edge-adjacent columns of heights l and l+2, l ≥ 1."""
    assert sites(pos(notation, EMPTY), T_HORSE) == expected


def test_s6_horse_lower_column_must_not_be_a_bare_cloud() -> None:
    """RULES.md §6 Horse [F] (FAQ horse Q1): the lower part needs at least one pedestal."""
    game = pos("0,0 _ rr", EMPTY)
    assert_illegal(game, BuildTotem(0, T_HORSE, cells((0, 0), (1, 0))), "condition_not_met")


def test_s6_horse_scores_two_times_l_plus_2() -> None:
    """RULES.md §6 Horse [R]: score 2 × (l+2) (l = 2 here: 8)."""
    game = pos("0,0 rr rrrr", EMPTY, slots=["b", "", ""], bag={})
    totem = built(play(game, BuildTotem(0, T_HORSE, cells((0, 0), (1, 0)))))
    assert (totem.height, totem.points) == (4, 8)
    assert score_sheet(game, 0).totems["horse"] == 8


def test_s6_horse_gives_an_extra_full_turn() -> None:
    """RULES.md §6 Horse [R][B]: right after the horse the same seat takes a normal turn
    (build pedestals or a totem, no pass); then play passes on."""
    game = pos("0,0 r rrr/rr _", EMPTY, slots=["b", "", ""], bag={"green": 5})
    events = play(game, BuildTotem(0, T_HORSE, cells((0, 0), (1, 0))))
    assert [(e.seat, e.mode) for e in of_type(events, TurnStarted)] == [(0, "extra")]
    assert game.decision.kind == "turn" and game.decision.seats == (0,)
    assert set(game.legal_actions(0)) == {TakeSlot(0, 0)}  # the other site is now covered
    assert_illegal(game, Pass(0))
    events = play(game, TakeSlot(0, 0), PlacePedestal(0, BLUE, c(1, 1)))
    assert [(e.seat, e.mode) for e in of_type(events, TurnStarted)] == [(1, "normal")]


def test_s6_horse_built_in_an_extra_turn_gives_another() -> None:
    """RULES.md §6 Horse [I]: a horse built during an extra turn earns one more extra turn."""
    game = pos("0,0 r rrr/b bbb", EMPTY, slots=["g", "", ""], bag={"green": 5})
    assert sites(game, T_HORSE) == {site((0, 0), (1, 0)), site((0, 1), (1, 1))}
    play(game, BuildTotem(0, T_HORSE, cells((0, 0), (1, 0))))
    events = play(game, BuildTotem(0, T_HORSE, cells((0, 1), (1, 1))))
    assert [(e.seat, e.mode) for e in of_type(events, TurnStarted)] == [(0, "extra")]
    assert set(game.legal_actions(0)) == {TakeSlot(0, 0)}
    events = play(game, TakeSlot(0, 0), ReturnPedestal(0, GREEN), PlaceCloud(0, c(2, 0)))
    assert [(e.seat, e.mode) for e in of_type(events, TurnStarted)] == [(1, "normal")]


def test_s6_horse_in_the_final_totem_phase_gives_an_extra_turn_drawing_from_the_bag() -> None:
    """RULES.md §6 Horse [B][F] (FAQ horse Q2): a final horse still gives its extra turn, a full
    turn; with every slot empty its build-pedestals action draws 2 from the bag."""
    game = pos("0,0 r rrr/_ _", EMPTY, slots=["", "", ""], bag={"blue": 5}, phase="final", round=10)
    assert Pass(0) in game.legal_actions(0)
    events = play(game, BuildTotem(0, T_HORSE, cells((0, 0), (1, 0))))
    assert [(e.seat, e.mode) for e in of_type(events, TurnStarted)] == [(0, "extra")]
    assert set(game.legal_actions(0)) == {DrawFromBag(0)}
    play(game, DrawFromBag(0))
    assert game.decision.context["pool"] == ["blue", "blue"]


# --- Dragon ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("notation", "expected"),
    [
        ("0,0 r rr rrr", {site((0, 0), (1, 0), (2, 0))}),
        ("0,0 rrr rr r", {site((0, 0), (1, 0), (2, 0))}),  # read the other way
        ("0,0 r/bb/ggg", {site((0, 0), (0, 1), (0, 2))}),  # vertical, mixed kinds
        ("0,0 rr rrr rrrr", {site((0, 0), (1, 0), (2, 0))}),  # h = 2
        ("0,0 _ r rr", set()),  # h = 0: not directly on a cloud (FAQ dragon Q2)
        ("0,0 r rr rr", set()),
        ("0,0 r rrr rrrrr", set()),  # steps of 2
        ("0,0 rr r rr", set()),
        ("0,0 r rr/. rrr", set()),  # an L is no straight line
        ("0,0 r . ./. rr ./. . rrr", set()),  # nor a diagonal
    ],
)
def test_s6_dragon_three_in_a_line_h_h1_h2(notation: str, expected: set[Site]) -> None:
    """RULES.md §6 Dragon [B][F][I]: a straight line of heights h, h+1, h+2 in order, read
    either way, h ≥ 1."""
    game = pos(notation, EMPTY, options=DRAGON_SET)
    assert sites(game, T_DRAGON) == expected


def test_s6_dragon_scores_three_times_its_top() -> None:
    """RULES.md §6 Dragon [R]: score 3 × (h+2) (h = 2 here: 12)."""
    game = pos("0,0 rr rrr rrrr", EMPTY, options=DRAGON_SET, slots=["b", "", ""], bag={})
    totem = built(play(game, BuildTotem(0, T_DRAGON, cells((0, 0), (1, 0), (2, 0)))))
    assert (totem.height, totem.points) == (4, 12)
    assert score_sheet(game, 0).totems["dragon"] == 12


def test_s6_dragon_blessing_hoard_pedestal_then_build_pedestals() -> None:
    """RULES.md §6 Dragon [R][B]: one random pedestal goes into the hoard (never a pool), then
    a build-pedestals action follows; the new hoard design already fits on any column."""
    game = pos(
        "0,0 r rr rrr/g _ _", EMPTY, options=DRAGON_SET, slots=["b", "y", ""], bag={"blue": 1}
    )
    events = play(game, BuildTotem(0, T_DRAGON, cells((0, 0), (1, 0), (2, 0))))
    assert [(e.seat, e.design) for e in of_type(events, HoardAdded)] == [(0, BLUE)]
    assert [(e.source, e.designs) for e in of_type(events, PedestalsDrawn)] == [("hoard", (BLUE,))]
    assert game.altars[0].hoard == [BLUE]
    assert game.bag[BLUE] == 0
    assert game.decision.kind == "dragon_build"
    assert set(game.legal_actions(0)) == {TakeSlot(0, 0), TakeSlot(0, 1)}
    assert_illegal(game, DrawFromBag(0), "slots_not_empty")
    play(game, TakeSlot(0, 0))
    blue_cells = {xy(a.cell) for a in legal(game, PlacePedestal) if a.design == BLUE}
    assert blue_cells == {(0, 1), (1, 1), (2, 1)}  # on the green column too, not under the dragon


def test_s6_dragon_blessing_draws_two_when_every_slot_is_empty() -> None:
    """RULES.md §6 Dragon [F] (FAQ dragon Q4): the blessing's build-pedestals action draws 2
    from the bag when every slot is empty."""
    game = pos("0,0 r rr rrr", EMPTY, options=DRAGON_SET, slots=["", "", ""], bag={"blue": 3})
    play(game, BuildTotem(0, T_DRAGON, cells((0, 0), (1, 0), (2, 0))))
    assert game.decision.kind == "dragon_build"
    assert game.legal_actions(0) == [DrawFromBag(0)]
    events = play(game, DrawFromBag(0))
    assert [(e.source, e.designs) for e in of_type(events, PedestalsDrawn)] == [
        ("draw", (BLUE, BLUE))
    ]
    assert game.decision.context["pool"] == ["blue", "blue"]


def test_s6_second_dragon_adds_a_second_hoard_pedestal() -> None:
    """RULES.md §6 Dragon [F] (FAQ dragon Q3): each dragon adds one pedestal to the hoard."""
    game = pos(
        "0,0 r rr rrr/g gg ggg | dragon 0,0 1,0 2,0 | hoard y",
        EMPTY,
        options=DRAGON_SET,
        slots=["o", "", ""],
        bag={"blue": 3},
    )
    play(game, BuildTotem(0, T_DRAGON, cells((0, 1), (1, 1), (2, 1))))
    assert game.altars[0].hoard == [YELLOW, BLUE]


def test_s6_hoard_pedestals_score() -> None:
    """RULES.md §6 Dragon [F] (FAQ dragon Q1): hoard pedestals count like any other:
    red and yellow 1 each, a wolf 2."""
    sheet = score_sheet(pos("0,0 r _/_ _ | hoard yW", EMPTY, options=DRAGON_SET), 0)
    assert (sheet.common_pedestals, sheet.rare_pedestals) == (2, 1)
    assert sheet.total == 4


def test_s6_dragon_blessing_with_an_empty_bag_still_builds_pedestals() -> None:
    """RULES.md §6 Dragon, §8 [F]: no hoard pedestal from an empty bag; the slot action stays."""
    game = pos("0,0 r rr rrr", EMPTY, options=DRAGON_SET, slots=["b", "", ""], bag={})
    events = play(game, BuildTotem(0, T_DRAGON, cells((0, 0), (1, 0), (2, 0))))
    assert of_type(events, HoardAdded) == []
    assert [e.reason for e in of_type(events, NothingGained)] == ["empty_bag"]
    assert game.altars[0].hoard == []
    assert game.legal_actions(0) == [TakeSlot(0, 0)]


# --- Cat -------------------------------------------------------------------------------


def test_s6_cat_is_never_a_build_totem_action() -> None:
    """RULES.md §6 Cat [R]: even with a column of 6 in play, no BuildTotem offers a cat."""
    game = pos("0,0 rrrrrr _/_ _", EMPTY, slots=["b", "", ""])
    assert all(a.kind != T_CAT for a in legal(game, BuildTotem))
    assert_illegal(game, BuildTotem(0, T_CAT, (c(0, 0),)), "totem_not_buildable")


def test_s6_cat_arrives_after_the_whole_pool_five_plus_two_is_seven() -> None:
    """RULES.md §6 Cat [F] (FAQ cat Q1): a column may pass 6 within one pool; the cat comes
    when the pool is done, on the column of 7, scoring 1 × 7."""
    game = pos("0,0 rrrrr _/_ _", EMPTY, slots=["rr", "", ""], bag={"blue": 5})
    play(game, TakeSlot(0, 0), PlacePedestal(0, RED, c(0, 0)))
    assert game.decision.kind == "place_pedestal"  # height 6, but the pool is still open
    assert PlacePedestal(0, RED, c(0, 0)) in game.legal_actions(0)
    play(game, PlacePedestal(0, RED, c(0, 0)))
    assert game.decision.kind == "choose_cat"
    assert game.legal_actions(0) == [ChooseCat(0, c(0, 0))]
    totem = built(play(game, ChooseCat(0, c(0, 0))))
    assert (totem.kind, totem.cells, totem.height, totem.points) == (T_CAT, (c(0, 0),), 7, 7)
    assert score_sheet(game, 0).totems["cat"] == 7


def test_s6_cat_only_on_uncovered_columns_of_height_6() -> None:
    """RULES.md §6 Cat [R][B]: a column of 6 under a horse gets no cat, nor one of 5."""
    game = pos(
        "0,0 rrrr rrrrrr/bbbb _ | horse 0,0 1,0", EMPTY, slots=["b", "", ""], bag={"green": 5}
    )
    play(game, TakeSlot(0, 0), PlacePedestal(0, BLUE, c(0, 1)))
    assert game.decision.seats == (1,)
    assert [t.kind for t in game.altars[0].totems] == [T_HORSE]


def test_s6_cat_blessing_two_different_designs_returnable() -> None:
    """RULES.md §6 Cat [R][F]: choose 2 pedestals of two different designs from the bag; they
    form a pool and may be returned for clouds (FAQ cat Q2)."""
    game = pos("0,0 rrrrr _/_ _", EMPTY, slots=["r", "", ""], bag={"blue": 2, "green": 1})
    play(game, TakeSlot(0, 0), PlacePedestal(0, RED, c(0, 0)), ChooseCat(0, c(0, 0)))
    assert game.decision.kind == "choose_design"
    assert set(game.legal_actions(0)) == {ChooseDesign(0, BLUE), ChooseDesign(0, GREEN)}
    play(game, ChooseDesign(0, BLUE))
    assert game.legal_actions(0) == [ChooseDesign(0, GREEN)]
    assert_illegal(game, ChooseDesign(0, BLUE), "same_design")
    play(game, ChooseDesign(0, GREEN))
    assert sorted(game.decision.context["pool"]) == ["blue", "green"]
    assert set(legal(game, ReturnPedestal)) == {
        ReturnPedestal(0, BLUE),
        ReturnPedestal(0, GREEN),
    }
    assert game.bag[BLUE] == 1 and game.bag[GREEN] == 0


def test_s6_cat_blessing_one_pedestal_when_the_bag_holds_one_design() -> None:
    """RULES.md §6 Cat [I]: with a single design in the bag the cat gives one pedestal."""
    game = pos("0,0 rrrrr _/_ _", EMPTY, slots=["r", "", ""], bag={"blue": 3})
    play(game, TakeSlot(0, 0), PlacePedestal(0, RED, c(0, 0)), ChooseCat(0, c(0, 0)))
    assert game.legal_actions(0) == [ChooseDesign(0, BLUE)]
    play(game, ChooseDesign(0, BLUE))
    assert game.decision.kind == "place_pedestal"
    assert game.decision.context["pool"] == ["blue"]
    assert game.bag[BLUE] == 2


def test_s6_cat_blessing_none_from_an_empty_bag() -> None:
    """RULES.md §6 Cat [I]: an empty bag gives nothing; the cat still stands and scores."""
    game = pos("0,0 rrrrr _/_ _", EMPTY, slots=["r", "", ""], bag={})
    play(game, TakeSlot(0, 0), PlacePedestal(0, RED, c(0, 0)))
    events = play(game, ChooseCat(0, c(0, 0)))
    assert [(e.seat, e.reason) for e in of_type(events, NothingGained)] == [(0, "empty_bag")]
    assert game.decision.seats == (1,)
    assert score_sheet(game, 0).totems["cat"] == 6


def test_s6_no_cat_when_the_cat_is_not_in_play() -> None:
    """RULES.md §6 Cat [R][B]: without the cat in the totem set, a column of 6 stays bare."""
    options = GameOptions(players=2, totems="bird,wolf,horse,dragon")
    game = pos("0,0 rrrrr _/_ _", EMPTY, slots=["r", "", ""], bag={"blue": 3}, options=options)
    play(game, TakeSlot(0, 0), PlacePedestal(0, RED, c(0, 0)))
    assert game.decision.seats == (1,)
    assert game.altars[0].totems == []


def test_s6_cat_after_a_wolf_blessing() -> None:
    """RULES.md §6 Cat [B], §12: a wolf pedestal that lifts a column to 6 brings a cat."""
    game = pos("0,0 rr _ rr/ggggg _ _", EMPTY, bag={"green": 1, "blue": 2})
    play(game, BuildTotem(0, T_WOLF, cells((0, 0), (1, 0), (2, 0))), WolfTake(0, c(0, 1)))
    assert game.decision.kind == "choose_cat"
    assert game.legal_actions(0) == [ChooseCat(0, c(0, 1))]


def test_s6_cat_check_after_the_dragons_build_pedestals_and_once_more_after_the_blessing() -> None:
    """RULES.md §6 Dragon and Cat, §12 (rules note E13): the dragon's build-pedestals pool
    is checked for a cat like any pool; the check after the whole blessing finds the same
    column already crowned and brings no second cat."""
    game = pos("0,0 r rr rrr/ggggg _ _", EMPTY, options=DRAGON_SET, slots=["g", "", ""], bag={})
    play(game, BuildTotem(0, T_DRAGON, cells((0, 0), (1, 0), (2, 0))))
    assert game.decision.kind == "dragon_build"
    play(game, TakeSlot(0, 0), PlacePedestal(0, GREEN, c(0, 1)))
    assert game.decision.kind == "choose_cat"
    assert game.legal_actions(0) == [ChooseCat(0, c(0, 1))]
    events = play(game, ChooseCat(0, c(0, 1)))
    assert [(t.kind, t.cells) for t in of_type(events, TotemBuilt)] == [(T_CAT, (c(0, 1),))]
    assert game.decision.kind != "choose_cat" and game.decision.seats == (1,)
    assert [t.kind for t in game.altars[0].totems] == [T_DRAGON, T_CAT]
