"""Per-rule tests of RULES.md §5 (a turn) and §12 (the state machine, step by step).

Positions are written in the altar notation and every expected set of legal actions is
worked out by hand from the rule. A small explicit bag makes each random draw certain.
The goal cards used: "high-place" (a column of height ≥ 5, 2 points) and "twin-peaks"
(2 columns of height ≥ 4 of one kind, 4 points) are met or not by the altar as drawn;
"plaza" and "rainbow" are never met by these small altars.
"""

from __future__ import annotations

from helpers import actions, assert_illegal, build, c, cells, legal, of_type, play, pos

from skytotems import (
    BuildTotem,
    ChooseCat,
    ChooseDesign,
    ChooseStart,
    DrawFromBag,
    EndTurn,
    Game,
    GameOptions,
    Pass,
    PlaceCloud,
    PlacePedestal,
    ReturnPedestal,
    Reveal,
    TakeSlot,
    WolfStop,
    WolfTake,
)
from skytotems.rules.events import (
    CardRevealed,
    DesignChosen,
    GameEnded,
    HoardAdded,
    NothingGained,
    PedestalPlaced,
    PedestalsDrawn,
    PhaseStarted,
    SlotFilled,
    SlotTaken,
    StartCardsRevealed,
    TotemBuilt,
    TurnEnded,
    TurnStarted,
)
from skytotems.rules.pieces import (
    BLUE,
    CAT,
    GREEN,
    PURPLE,
    RED,
    T_BIRD,
    T_CAT,
    T_DRAGON,
    T_HORSE,
    T_WOLF,
    TOTEM_SIZE,
)
from skytotems.rules.steps import CloudsOwed, OpenPool

EMPTY = "0,0 _ _/_ _"  # a bare starting tile
HIGH = "0,0 ppppp _/_ _"  # a purple column of 5: "high-place" is met
MET = ["high-place", "skyline"]  # high-place met on HIGH, skyline not
UNMET = ["plaza", "rainbow"]
# The 8 cells edge-adjacent to the 2×2 starting tile: where a first cloud may go.
AROUND_TILE = [(0, -1), (1, -1), (-1, 0), (-1, 1), (2, 0), (2, 1), (0, 2), (1, 2)]


def clouds_around_tile(seat: int = 0) -> set[PlaceCloud]:
    return {PlaceCloud(seat, c(x, y)) for x, y in AROUND_TILE}


def has_reveal(game: Game) -> bool:
    return any(isinstance(a, Reveal) for a in game.legal_actions(game.decision.seats[0]))


# --- §5 A turn ----------------------------------------------------------------------------


def test_s5_top_of_turn_offers_exactly_slots_totems_and_met_reveals() -> None:
    """RULES.md §5: one action — take a non-empty slot or build a totem — plus reveals of
    met cards; empty slots and unmet cards are not offered."""
    game = pos("0,0 ppppp ppp/_ _", EMPTY, slots=["rb", "", "C"], goals=[MET, UNMET])
    assert game.decision.kind == "turn"
    assert actions(game) == {
        Reveal(0, "high-place"),
        TakeSlot(0, 0),
        TakeSlot(0, 2),
        BuildTotem(0, T_HORSE, cells((0, 0), (1, 0))),  # heights 5 and 3: l + 2 with l = 3
    }


def test_s5_take_slot_takes_every_pedestal_of_that_slot() -> None:
    """RULES.md §5: build pedestals takes *all* pedestals from one slot into a pool."""
    game = pos(EMPTY, EMPTY, slots=["rb", "g", ""])
    events = play(game, TakeSlot(0, 0))
    assert of_type(events, SlotTaken) == [SlotTaken(0, 0, (RED, BLUE))]
    assert game.slots == [[], [GREEN], []]
    assert sorted(game.pool) == [RED, BLUE]
    assert game.decision.kind == "place_pedestal"


def test_s5_draw_from_bag_only_when_every_slot_is_empty() -> None:
    """RULES.md §5 [B][F]: drawing 2 from the bag replaces taking a slot only when every
    slot is empty."""
    game = pos(EMPTY, EMPTY, slots=["", "r", ""], bag={"blue": 4})
    assert actions(game) == {TakeSlot(0, 1)}
    assert_illegal(game, DrawFromBag(0), "slots_not_empty")

    game = pos(EMPTY, EMPTY, slots=["", "", ""], bag={"blue": 4})
    assert actions(game) == {DrawFromBag(0)}
    events = play(game, DrawFromBag(0))
    assert of_type(events, PedestalsDrawn) == [PedestalsDrawn(0, "draw", (BLUE, BLUE))]
    assert game.pool == [BLUE, BLUE]
    assert game.bag[BLUE] == 2


def test_s5_nothing_in_slots_or_bag_still_build_pedestals_and_gain_nothing() -> None:
    """RULES.md §5 [I]: with no legal totem, empty slots and an empty bag, the player still
    takes *build pedestals*, gains nothing, and play passes on."""
    game = pos(EMPTY, EMPTY, slots=["", "", ""], bag={})
    assert actions(game) == {DrawFromBag(0)}
    events = play(game, DrawFromBag(0))
    assert of_type(events, PedestalsDrawn) == [PedestalsDrawn(0, "draw", ())]
    assert of_type(events, PedestalPlaced) == []
    assert game.altars[0].stacks == {}
    assert of_type(events, TurnEnded) == [TurnEnded(0)]
    assert game.decision.kind == "turn" and game.decision.seats == (1,)


def test_s5_only_totems_in_play_and_never_the_cat_are_actions() -> None:
    """RULES.md §5: build a totem in play, not the cat: the cat only arrives by itself; a
    dragon site gives no action unless the dragon is in the totem set."""
    dragon_site = "0,0 r rr rrr/_ _ _"  # heights 1, 2, 3 in a row
    beginner = pos(dragon_site, EMPTY)
    assert not any(a.kind == T_DRAGON for a in legal(beginner, BuildTotem))
    assert_illegal(
        beginner, BuildTotem(0, T_DRAGON, cells((0, 0), (1, 0), (2, 0))), "totem_not_buildable"
    )
    with_dragon = pos(dragon_site, EMPTY, options=GameOptions(players=2, totems="dragon"))
    assert build(with_dragon, T_DRAGON, (0, 0), (1, 0), (2, 0)) in actions(with_dragon)

    tall = pos("0,0 gggggg _/_ _", EMPTY)
    assert not any(a.kind == T_CAT for a in legal(tall, BuildTotem))
    assert_illegal(tall, BuildTotem(0, T_CAT, cells((0, 0))), "totem_not_buildable")


def test_s5_a_reveal_does_not_use_the_action() -> None:
    """RULES.md §5: reveals are made without using the action; after one (and its reward)
    the player is still at the top of the turn with the same action choices."""
    game = pos(HIGH, EMPTY, slots=["r", "", ""], bag={"blue": 1}, goals=[MET, UNMET])
    play(game, Reveal(0, "high-place"), ChooseDesign(0, BLUE), PlacePedestal(0, BLUE, c(1, 1)))
    assert game.decision.kind == "turn"
    assert game.decision.context["acted"] is False
    assert actions(game) == {TakeSlot(0, 0)}


def test_s5_end_of_turn_prompt_when_a_reveal_is_possible() -> None:
    """RULES.md §5 [B]: when play would pass on and the player could reveal, they are asked
    once more: reveal or end the turn."""
    game = pos(HIGH, EMPTY, slots=["r", "", ""], bag={}, goals=[MET, UNMET])
    events = play(game, TakeSlot(0, 0), PlacePedestal(0, RED, c(1, 0)))
    assert of_type(events, TurnEnded) == []
    assert game.decision.kind == "end_turn" and game.decision.seats == (0,)
    assert actions(game) == {Reveal(0, "high-place"), EndTurn(0)}


def test_s5_no_end_of_turn_prompt_when_no_reveal_is_possible() -> None:
    """RULES.md §5: without a possible reveal, play passes on at once (no prompt)."""
    game = pos(HIGH, EMPTY, slots=["r", "", ""], bag={}, goals=[UNMET, ["skyline"]])
    events = play(game, TakeSlot(0, 0), PlacePedestal(0, RED, c(1, 0)))
    assert of_type(events, TurnEnded) == [TurnEnded(0)]
    assert of_type(events, TurnStarted) == [TurnStarted(1, 1, "normal")]
    assert game.decision.kind == "turn" and game.decision.seats == (1,)


# --- §12 The state machine ----------------------------------------------------------------


def test_s12_single_option_decisions_are_still_asked() -> None:
    """RULES.md §12: the engine never plays a decision for the player, even one with a
    single option: the only slot action, the only bag design, the only cat column."""
    only_draw = pos(EMPTY, EMPTY, slots=["", "", ""], bag={})
    assert only_draw.decision.kind == "turn"
    assert actions(only_draw) == {DrawFromBag(0)}

    one_design = pos(HIGH, EMPTY, bag={"cat": 3}, goals=[MET, UNMET])
    play(one_design, Reveal(0, "high-place"))
    assert one_design.decision.kind == "choose_design"
    assert actions(one_design) == {ChooseDesign(0, CAT)}

    one_cat = pos("0,0 ggggg _/_ _", EMPTY, slots=["g", "", ""], bag={})
    play(one_cat, TakeSlot(0, 0), PlacePedestal(0, GREEN, c(0, 0)))
    assert one_cat.decision.kind == "choose_cat"
    assert actions(one_cat) == {ChooseCat(0, c(0, 0))}
    assert one_cat.altars[0].totems == []  # not placed until the player chooses

    final_no_totem = pos(EMPTY, EMPTY, phase="final", round=10)
    assert actions(final_no_totem) == {Pass(0)}


def test_s12_pool_resolves_one_pedestal_per_action() -> None:
    """RULES.md §12 Pools: each step picks one pedestal of the pool and places it on a legal
    cell or returns it; the exact choices are every (design, legal cell) and a return per
    design."""
    game = pos("0,0 r _/_ b", EMPTY, slots=["rrb", "", ""], bag={})
    play(game, TakeSlot(0, 0))
    assert game.decision.kind == "place_pedestal"
    assert game.decision.context["pool"] == ["red", "red", "blue"]
    assert actions(game) == {
        PlacePedestal(0, RED, c(0, 0)),  # onto its own kind
        PlacePedestal(0, RED, c(1, 0)),
        PlacePedestal(0, RED, c(0, 1)),
        PlacePedestal(0, BLUE, c(1, 0)),
        PlacePedestal(0, BLUE, c(0, 1)),
        PlacePedestal(0, BLUE, c(1, 1)),  # onto its own kind
        ReturnPedestal(0, RED),
        ReturnPedestal(0, BLUE),
    }
    events = play(game, PlacePedestal(0, RED, c(0, 0)))
    assert of_type(events, PedestalPlaced) == [PedestalPlaced(0, RED, c(0, 0), "pool")]
    assert game.decision.kind == "place_pedestal"
    assert game.decision.context["pool"] == ["red", "blue"]
    play(game, PlacePedestal(0, BLUE, c(1, 1)))
    assert game.decision.context["pool"] == ["red"]
    events = play(game, PlacePedestal(0, RED, c(1, 0)))
    assert of_type(events, TurnEnded) == [TurnEnded(0)]


def test_s12_return_goes_to_the_bag_at_once_then_its_cloud_is_decided() -> None:
    """RULES.md §12 Pools: a return is followed at once by the decision where its cloud
    goes, and the pedestal is back in the bag before that decision."""
    game = pos(EMPTY, EMPTY, slots=["rb", "", ""], bag={})
    play(game, TakeSlot(0, 0), ReturnPedestal(0, RED))
    assert game.bag[RED] == 1 and game.bag_total == 1
    assert game.decision.kind == "place_cloud"
    assert game.decision.context == {"remaining": 1, "why": "return"}
    assert actions(game) == clouds_around_tile()
    play(game, PlaceCloud(0, c(2, 0)))
    assert game.decision.kind == "place_pedestal"
    assert game.decision.context["pool"] == ["blue"]


def test_s12_pending_steps_show_the_cloud_of_a_return_above_the_rest_of_the_pool() -> None:
    """RULES.md §12 Pools: after a return, its cloud is the next step and the pool's other
    pedestals wait under it; `pending_steps` reads that stack without exposing it."""
    game = pos(EMPTY, EMPTY, slots=["rb", "", ""], bag={})
    play(game, TakeSlot(0, 0), ReturnPedestal(0, RED))
    steps = game.pending_steps
    assert steps[-1] == CloudsOwed(0, 1, "return")
    assert [type(step) for step in steps].index(OpenPool) < len(steps) - 1
    assert isinstance(steps, tuple)  # a copy: the game's own stack cannot be changed
    play(game, PlaceCloud(0, c(2, 0)))
    assert game.pending_steps[-1] == OpenPool(0)


def test_s12_reveals_offered_at_top_of_turn_next_pedestal_and_prompt() -> None:
    """RULES.md §12 Reveals: the open decision points are the top of the turn, the choice of
    the next pedestal of a pool, and the end-of-turn prompt."""
    game = pos(HIGH, EMPTY, slots=["rb", "", ""], bag={}, goals=[MET, UNMET])
    assert game.decision.kind == "turn" and Reveal(0, "high-place") in actions(game)
    play(game, TakeSlot(0, 0))
    assert game.decision.kind == "place_pedestal" and Reveal(0, "high-place") in actions(game)
    play(game, PlacePedestal(0, RED, c(1, 0)))
    assert game.decision.kind == "place_pedestal" and Reveal(0, "high-place") in actions(game)
    play(game, PlacePedestal(0, BLUE, c(0, 1)))
    assert game.decision.kind == "end_turn" and Reveal(0, "high-place") in actions(game)


def test_s12_reveal_not_offered_during_cloud_placement_after_a_return() -> None:
    """RULES.md §12 [I]: no reveal while a cloud placement is being decided."""
    game = pos(HIGH, EMPTY, slots=["rb", "", ""], bag={}, goals=[MET, UNMET])
    play(game, TakeSlot(0, 0), ReturnPedestal(0, RED))
    assert game.decision.kind == "place_cloud"
    assert actions(game) == clouds_around_tile()
    assert_illegal(game, Reveal(0, "high-place"), "wrong_decision")


def test_s12_reveal_not_offered_during_bird_cloud_placement() -> None:
    """RULES.md §12 [I]: the bird's three cloud placements are not open decision points."""
    game = pos("0,0 pp pp ppppp/pp _ _", EMPTY, bag={}, goals=[MET, UNMET])
    play(game, build(game, T_BIRD, (0, 0), (1, 0), (0, 1)))
    for remaining in (3, 2, 1):
        assert game.decision.kind == "place_cloud"
        assert game.decision.context == {"remaining": remaining, "why": "bird"}
        assert not has_reveal(game)
        play(game, legal(game, PlaceCloud)[0])
    assert game.decision.kind == "end_turn"  # the bag was empty: no bird pool


def test_s12_totem_kind_and_cells_are_one_action() -> None:
    """RULES.md §12 [I]: "no reveal while a totem's cells are decided" — the kind and the
    cells are chosen together in one action, so no decision exists in between."""
    game = pos("0,0 ppppp ppp/_ _", EMPTY, slots=["r", "", ""], goals=[MET, UNMET])
    totems = legal(game, BuildTotem)
    assert totems
    assert all(len(a.cells) == TOTEM_SIZE[a.kind] for a in totems)
    events = play(game, build(game, T_HORSE, (0, 0), (1, 0)))
    assert of_type(events, TotemBuilt) == [TotemBuilt(0, T_HORSE, cells((0, 0), (1, 0)), 5, 10)]


def test_s12_reveal_not_offered_while_a_wolf_column_is_decided() -> None:
    """RULES.md §12 [I]: the wolf blessing's take-or-stop choices offer no reveal."""
    game = pos("0,0 pp _ pp/ppppp _ _", EMPTY, bag={"purple": 1}, goals=[MET, UNMET])
    play(game, build(game, T_WOLF, (0, 0), (1, 0), (2, 0)))
    assert game.decision.kind == "wolf_blessing"
    assert actions(game) == {WolfTake(0, c(0, 1)), WolfStop(0)}
    assert_illegal(game, Reveal(0, "high-place"), "wrong_decision")


def test_s12_reveal_not_offered_while_a_bag_design_is_decided() -> None:
    """RULES.md §12 [I]: choosing a reward's design offers no further reveal, even with a
    second met card."""
    game = pos(
        "0,0 ppppp pppp/pppp _",
        EMPTY,
        bag={"red": 1, "blue": 1},
        goals=[["high-place", "twin-peaks"], UNMET],
    )
    play(game, Reveal(0, "high-place"))
    assert game.decision.kind == "choose_design"
    assert actions(game) == {ChooseDesign(0, RED), ChooseDesign(0, BLUE)}
    assert_illegal(game, Reveal(0, "twin-peaks"), "wrong_decision")


def test_s12_reveal_not_offered_while_a_cat_is_owed_or_its_design_chosen() -> None:
    """RULES.md §12 [I]: while a cat is owed (cat order) and while its blessing's designs are
    chosen, no reveal is offered."""
    game = pos(
        "0,0 ppppp _/_ _", EMPTY, slots=["p", "", ""], bag={"red": 1, "blue": 1}, goals=[MET, UNMET]
    )
    play(game, TakeSlot(0, 0), PlacePedestal(0, PURPLE, c(0, 0)))
    assert game.decision.kind == "choose_cat"
    assert actions(game) == {ChooseCat(0, c(0, 0))}
    play(game, ChooseCat(0, c(0, 0)))
    assert game.decision.kind == "choose_design"
    assert actions(game) == {ChooseDesign(0, RED), ChooseDesign(0, BLUE)}
    play(game, ChooseDesign(0, RED))
    assert actions(game) == {ChooseDesign(0, BLUE)}
    play(game, ChooseDesign(0, BLUE))
    assert game.decision.kind == "place_pedestal" and has_reveal(game)  # an open pool again


def test_s12_reveal_not_offered_at_the_dragons_build_pedestals_choice() -> None:
    """RULES.md §12: the dragon's build-pedestals step is not one of the open decision
    points (top of turn, next pool pedestal, prompt); its pool is."""
    game = pos(
        "0,0 r rr rrr ppppp/_ _ _ _",
        EMPTY,
        slots=["b", "", ""],
        bag={"green": 1},
        goals=[MET, UNMET],
        options=GameOptions(players=2, totems="dragon"),
    )
    events = play(game, build(game, T_DRAGON, (0, 0), (1, 0), (2, 0)))
    assert of_type(events, HoardAdded) == [HoardAdded(0, GREEN)]
    assert game.decision.kind == "dragon_build"
    assert actions(game) == {TakeSlot(0, 0)}
    play(game, TakeSlot(0, 0))
    assert game.decision.kind == "place_pedestal" and has_reveal(game)


def test_s12_reward_joins_the_open_pool() -> None:
    """RULES.md §12: a reveal made while choosing the next pedestal of a pool adds its
    reward pedestal to that pool."""
    game = pos(HIGH, EMPTY, slots=["rb", "", ""], bag={"green": 1}, goals=[MET, UNMET])
    play(game, TakeSlot(0, 0), PlacePedestal(0, RED, c(1, 0)), Reveal(0, "high-place"))
    events = play(game, ChooseDesign(0, GREEN))
    assert of_type(events, DesignChosen) == [DesignChosen(0, GREEN, "reward")]
    assert game.decision.kind == "place_pedestal"
    assert sorted(game.pool) == [GREEN, BLUE]


def test_s12_reward_at_top_of_turn_is_a_one_pedestal_pool_then_cats() -> None:
    """RULES.md §12: a reward with no open pool forms a one-pedestal pool resolved at once;
    cats are checked after it; then the player is back at the top of the turn."""
    game = pos(HIGH, EMPTY, slots=["r", "", ""], bag={"purple": 1}, goals=[MET, UNMET])
    play(game, Reveal(0, "high-place"), ChooseDesign(0, PURPLE))
    assert game.decision.kind == "place_pedestal"
    assert game.pool == [PURPLE]
    play(game, PlacePedestal(0, PURPLE, c(0, 0)))  # the column reaches 6
    assert game.decision.kind == "choose_cat"
    events = play(game, ChooseCat(0, c(0, 0)))
    assert of_type(events, NothingGained) == [NothingGained(0, "empty_bag")]  # cat blessing
    assert game.decision.kind == "turn" and game.decision.context["acted"] is False
    assert actions(game) == {TakeSlot(0, 0)}


def test_s12_cats_wait_until_the_pool_is_fully_resolved() -> None:
    """RULES.md §12 Cats, FAQ Cat Q1: the cat check comes after the whole pool, so a column
    of 5 + 2 reaches 7 before its cat arrives."""
    game = pos("0,0 ggggg _/_ _", EMPTY, slots=["gg", "", ""], bag={})
    play(game, TakeSlot(0, 0), PlacePedestal(0, GREEN, c(0, 0)))
    assert game.altars[0].height(c(0, 0)) == 6
    assert game.decision.kind == "place_pedestal"  # one pedestal still in the pool
    play(game, PlacePedestal(0, GREEN, c(0, 0)))
    assert game.decision.kind == "choose_cat"
    events = play(game, ChooseCat(0, c(0, 0)))
    assert of_type(events, TotemBuilt) == [TotemBuilt(0, T_CAT, (c(0, 0),), 7, 7)]


def test_s12_cats_are_checked_after_a_blessing() -> None:
    """RULES.md §12 Cats: after a wolf blessing lifts a column to 6, its cat is owed."""
    game = pos("0,0 pp _ pp/ppppp _ _", EMPTY, bag={"purple": 1})
    play(game, build(game, T_WOLF, (0, 0), (1, 0), (2, 0)), WolfTake(0, c(0, 1)))
    assert game.altars[0].height(c(0, 1)) == 6
    assert game.decision.kind == "choose_cat"
    assert actions(game) == {ChooseCat(0, c(0, 1))}


def test_s12_several_cats_at_once_are_ordered_by_the_player() -> None:
    """RULES.md §12 Cats: when several columns qualify the player picks which gets the next
    cat; each cat's blessing runs before the next is chosen."""
    game = pos("0,0 ggggg rrrrr/_ _", EMPTY, slots=["gr", "", ""], bag={})
    play(game, TakeSlot(0, 0), PlacePedestal(0, GREEN, c(0, 0)), PlacePedestal(0, RED, c(1, 0)))
    assert game.decision.kind == "choose_cat"
    assert actions(game) == {ChooseCat(0, c(0, 0)), ChooseCat(0, c(1, 0))}
    first = play(game, ChooseCat(0, c(1, 0)))
    assert [t.cells for t in of_type(first, TotemBuilt)] == [(c(1, 0),)]
    assert of_type(first, NothingGained) == [NothingGained(0, "empty_bag")]
    assert actions(game) == {ChooseCat(0, c(0, 0))}
    second = play(game, ChooseCat(0, c(0, 0)))
    assert [t.cells for t in of_type(second, TotemBuilt)] == [(c(0, 0),)]
    assert of_type(second, TurnEnded) == [TurnEnded(0)]


def test_s12_cat_cascade_is_resolved_fully() -> None:
    """RULES.md §12 Cats: a cat's blessing pool may lift another column to 6; that cat is
    owed before the turn goes on ("then check again")."""
    game = pos("0,0 ggggg rrrrr/_ _", EMPTY, slots=["g", "", ""], bag={"red": 1, "blue": 1})
    play(game, TakeSlot(0, 0), PlacePedestal(0, GREEN, c(0, 0)), ChooseCat(0, c(0, 0)))
    play(game, ChooseDesign(0, RED), ChooseDesign(0, BLUE))
    assert sorted(game.pool) == [RED, BLUE]
    play(game, PlacePedestal(0, RED, c(1, 0)))
    assert game.decision.kind == "place_pedestal"  # the cat waits for the blue one
    events = play(game, PlacePedestal(0, BLUE, c(0, 1)))
    assert of_type(events, TurnEnded) == []
    assert actions(game) == {ChooseCat(0, c(1, 0))}
    events = play(game, ChooseCat(0, c(1, 0)))
    assert [t.kind for t in game.altars[0].totems] == [T_CAT, T_CAT]
    assert of_type(events, TurnEnded) == [TurnEnded(0)]


def test_s12_bird_blessing_three_clouds_then_a_pool_of_three() -> None:
    """RULES.md §12 step 2: the bird's blessing in printed order — three cloud placements,
    then a pool of three random pedestals."""
    game = pos("0,0 pp pp/pp _", EMPTY, bag={"red": 3})
    events = play(game, build(game, T_BIRD, (0, 0), (1, 0), (0, 1)))
    assert of_type(events, PedestalsDrawn) == []
    play(game, PlaceCloud(0, c(2, 0)), PlaceCloud(0, c(3, 0)))
    assert game.decision.kind == "place_cloud"
    events = play(game, PlaceCloud(0, c(4, 0)))
    assert of_type(events, PedestalsDrawn) == [PedestalsDrawn(0, "bird", (RED, RED, RED))]
    assert game.decision.kind == "place_pedestal" and game.pool == [RED, RED, RED]


def test_s12_horse_extra_turn_starts_without_a_prompt() -> None:
    """RULES.md §12 step 4: a horse's extra turn starts at step 1 with no end-of-turn prompt
    before it (play has not passed on); the prompt comes after the extra turn."""
    game = pos("0,0 ppppp ppp/_ _", EMPTY, slots=["r", "", ""], goals=[MET, UNMET])
    events = play(game, build(game, T_HORSE, (0, 0), (1, 0)))
    assert of_type(events, TurnEnded) == []
    assert of_type(events, TurnStarted) == [TurnStarted(0, 1, "extra")]
    assert game.decision.kind == "turn"
    assert game.decision.context == {"mode": "extra", "acted": False}
    assert actions(game) == {Reveal(0, "high-place"), TakeSlot(0, 0)}
    play(game, TakeSlot(0, 0), PlacePedestal(0, RED, c(0, 1)))
    assert game.decision.kind == "end_turn"


def test_s12_prompt_offered_again_while_a_reveal_remains_possible() -> None:
    """RULES.md §12 step 5: after a reveal at the prompt (reward resolved) the prompt comes
    back while another reveal is possible; once none is, play passes on."""
    game = pos(
        "0,0 ppppp pppp _/pppp _ _",
        EMPTY,
        slots=["r", "", ""],
        bag={"blue": 2},
        goals=[["high-place", "twin-peaks"], UNMET],
    )
    play(game, TakeSlot(0, 0), PlacePedestal(0, RED, c(1, 1)))
    assert game.decision.kind == "end_turn"
    assert actions(game) == {Reveal(0, "high-place"), Reveal(0, "twin-peaks"), EndTurn(0)}
    play(game, Reveal(0, "high-place"), ChooseDesign(0, BLUE), PlacePedestal(0, BLUE, c(2, 0)))
    assert game.decision.kind == "end_turn"
    assert actions(game) == {Reveal(0, "twin-peaks"), EndTurn(0)}
    play(game, Reveal(0, "twin-peaks"), ChooseDesign(0, BLUE))
    events = play(game, PlacePedestal(0, BLUE, c(2, 1)))
    assert of_type(events, TurnEnded) == [TurnEnded(0)]
    assert game.decision.seats == (1,)


def test_s12_end_turn_at_the_prompt_passes_play_on() -> None:
    """RULES.md §12 steps 5-6: ending the turn at the prompt (a reveal still possible)
    passes play to the next seat."""
    game = pos(HIGH, EMPTY, slots=["r", "", ""], bag={}, goals=[MET, UNMET])
    play(game, TakeSlot(0, 0), PlacePedestal(0, RED, c(1, 0)))
    events = play(game, EndTurn(0))
    assert of_type(events, TurnEnded) == [TurnEnded(0)]
    assert of_type(events, TurnStarted) == [TurnStarted(1, 1, "normal")]
    assert game.goals[0] == MET  # nothing was revealed
    assert actions(game, 1) == {DrawFromBag(1)}


def test_s12_final_phase_turn_is_build_a_totem_or_pass() -> None:
    """RULES.md §12 Final-totem phase: step 2 is build a totem or pass (no build pedestals,
    even with pedestals in a slot); reveals stay open at step 1."""
    game = pos(
        "0,0 ppppp ppp/_ _", EMPTY, slots=["r", "", ""], phase="final", round=10, goals=[MET, UNMET]
    )
    assert game.decision.context["mode"] == "final"
    assert actions(game) == {
        Reveal(0, "high-place"),
        BuildTotem(0, T_HORSE, cells((0, 0), (1, 0))),
        Pass(0),
    }


def test_s12_final_phase_horse_extra_turn_is_a_full_turn() -> None:
    """RULES.md §12 Final-totem phase: a horse's extra turn is a full turn — build pedestals
    or a totem, no pass — and only then does play pass on in the final phase."""
    game = pos("0,0 ppppp ppp/_ _", EMPTY, slots=["r", "", ""], phase="final", round=10)
    events = play(game, build(game, T_HORSE, (0, 0), (1, 0)))
    assert of_type(events, TurnStarted) == [TurnStarted(0, 10, "extra")]
    assert actions(game) == {TakeSlot(0, 0)}
    events = play(game, TakeSlot(0, 0), PlacePedestal(0, RED, c(0, 1)))
    assert of_type(events, TurnStarted) == [TurnStarted(1, 10, "final")]
    assert actions(game, 1) == {Pass(1)}


def test_s12_last_reveals_one_card_at_a_time_reward_resolved_in_between() -> None:
    """RULES.md §12 Last reveals: from the start player, one card at a time; the reward's
    pool offers no second reveal; the next reveal comes after it is resolved."""
    game = pos(
        "0,0 ppppp pppp _/pppp _ _",
        "0,0 rrr rrr _/rrr rrr _",
        bag={"blue": 2},
        goals=[["high-place", "twin-peaks"], ["skyline"]],
        phase="final",
        round=10,
        start_player=1,
        seat=0,
    )
    play(game, Pass(0), EndTurn(0))  # seat 0 is the last of the final round
    assert game.phase == "last_reveals"
    assert game.decision.kind == "last_reveal" and game.decision.seats == (1,)
    assert actions(game) == {Reveal(1, "skyline"), EndTurn(1)}
    play(game, Reveal(1, "skyline"), ChooseDesign(1, BLUE), PlacePedestal(1, BLUE, c(2, 0)))
    assert game.decision.kind == "last_reveal" and game.decision.seats == (0,)
    assert actions(game) == {Reveal(0, "high-place"), Reveal(0, "twin-peaks"), EndTurn(0)}
    play(game, Reveal(0, "high-place"), ChooseDesign(0, BLUE))
    assert game.decision.kind == "place_pedestal"
    assert not has_reveal(game)  # twin-peaks waits until this reward is resolved
    play(game, PlacePedestal(0, BLUE, c(2, 0)))
    assert actions(game) == {Reveal(0, "twin-peaks"), EndTurn(0)}
    events = play(game, EndTurn(0))
    assert game.is_over and len(of_type(events, GameEnded)) == 1
    assert game.revealed == [["high-place"], ["skyline"]]


def test_s12_last_reveal_reward_cats_are_resolved_before_going_on() -> None:
    """RULES.md §12 Last reveals: a reward that lifts a column to 6 brings its cat (and
    blessing) before the last reveals go on."""
    game = pos(
        HIGH, EMPTY, bag={"purple": 1}, goals=[["high-place"], UNMET], phase="final", round=10
    )
    play(game, Pass(0), EndTurn(0), Pass(1))
    assert game.decision.kind == "last_reveal" and game.decision.seats == (0,)
    play(game, Reveal(0, "high-place"), ChooseDesign(0, PURPLE), PlacePedestal(0, PURPLE, c(0, 0)))
    assert game.decision.kind == "choose_cat"
    events = play(game, ChooseCat(0, c(0, 0)))
    assert of_type(events, TotemBuilt) == [TotemBuilt(0, T_CAT, (c(0, 0),), 6, 6)]
    assert game.is_over  # seat 1 had nothing to reveal


def first_cloud_card(game: Game, seat: int) -> str:
    return next(card for card in game.hands[seat] if game.cards[card].start.cloud)


def setup_game() -> Game:
    """A fresh 2-player game whose start player is seat 1 and where both hands hold a card
    with the cloud icon (found by trying seeds, which is deterministic)."""
    for seed in range(1000):
        game = Game(GameOptions(players=2), seed)
        if game.first_player == 1 and all(
            any(game.cards[card].start.cloud for card in game.hands[s]) for s in (0, 1)
        ):
            return game
    raise AssertionError("no suitable seed")  # pragma: no cover


def test_s12_setup_start_choice_is_one_simultaneous_decision() -> None:
    """RULES.md §12 Setup order: the starting-card choice is one decision naming every seat;
    any seat may choose first, and the decision then waits on the others."""
    game = setup_game()
    assert game.decision.kind == "choose_start" and game.decision.seats == (0, 1)
    assert legal(game, ChooseStart, 0) and legal(game, ChooseStart, 1)
    play(game, ChooseStart(0, game.hands[0][0]))  # seat 0 is not the start player
    still_waiting = game.decision
    assert still_waiting.kind == "choose_start" and still_waiting.seats == (1,)


def test_s12_setup_order_altars_from_start_player_then_slots() -> None:
    """RULES.md §12 Setup order: once all have chosen, each builds the starting altar from
    the start player on in seat order (a cloud icon is that player's own placement
    decision); the slots are filled only after that."""
    game = setup_game()
    play(game, ChooseStart(1, first_cloud_card(game, 1)))
    events = play(game, ChooseStart(0, first_cloud_card(game, 0)))
    assert isinstance(events[1], StartCardsRevealed)
    # Only the start player's altar is built while it places its cloud (rules note 12.9).
    assert {e.seat for e in of_type(events, PedestalPlaced)} == {1}
    assert game.altars[0].pedestal_count() == 0
    assert of_type(events, SlotFilled) == []
    assert game.decision.kind == "place_cloud" and game.decision.seats == (1,)
    assert game.decision.context == {"remaining": 1, "why": "start_card"}
    events = play(game, PlaceCloud(1, c(2, 0)))
    assert {e.seat for e in of_type(events, PedestalPlaced)} == {0}
    assert game.decision.kind == "place_cloud" and game.decision.seats == (0,)
    assert all(slot == [] for slot in game.slots)
    events = play(game, PlaceCloud(0, c(2, 0)))
    assert [e.slot for e in of_type(events, SlotFilled)] == [0, 1, 2]
    assert all(len(slot) == 2 for slot in game.slots)
    assert of_type(events, PhaseStarted) == [PhaseStarted("play")]
    assert of_type(events, TurnStarted) == [TurnStarted(1, 1, "normal")]


def test_s12_reveal_event_is_emitted_and_play_continues_from_the_same_point() -> None:
    """RULES.md §12 step 1: a reveal at the top of the turn names the card and its points,
    then returns to the same open decision after the reward."""
    game = pos(HIGH, EMPTY, slots=["r", "", ""], bag={"red": 1}, goals=[MET, UNMET])
    events = play(game, Reveal(0, "high-place"))
    assert of_type(events, CardRevealed) == [CardRevealed(0, "high-place", 2)]
    play(game, ChooseDesign(0, RED), PlacePedestal(0, RED, c(1, 0)))
    assert game.decision.kind == "turn" and game.decision.context["acted"] is False
    assert game.current == 0
