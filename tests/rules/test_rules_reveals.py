"""Per-rule tests of RULES.md §7 (altar cards: reveals and rewards) and the rulebook FAQ
answers about revealing (Altar Card Q1, Q2; General Q3 for an empty bag).

Cards used (RULES.md §9): "high-place" = a column of height ≥ 5 (2 points),
"twin-peaks" = 2 columns of height ≥ 4 of one kind (4), "courtyard" = an empty uncovered
cloud whose 4 neighbours are columns (2), "bird-god"/"horse-god" = that totem over a rare
column (6/4); "plaza" and "rainbow" are never met by these small altars.
"""

from __future__ import annotations

import pytest
from helpers import actions, assert_illegal, c, of_type, play, pos

from skytotems import (
    ChooseDesign,
    Deck,
    DrawFromBag,
    EndTurn,
    Game,
    GameOptions,
    NotYourDecision,
    PlaceCloud,
    PlacePedestal,
    ReturnPedestal,
    Reveal,
    TakeSlot,
    default_deck,
    score_sheet,
    view,
)
from skytotems.rules.events import (
    CardRevealed,
    DesignChosen,
    Event,
    NothingGained,
    PedestalReturned,
    PedestalsDrawn,
    TotemBuilt,
)
from skytotems.rules.pieces import BLUE, CAT, HORSE, PURPLE, RED

EMPTY = "0,0 _ _/_ _"
HIGH = "0,0 ppppp _/_ _"  # "high-place" is met
MET = ["high-place", "skyline"]
UNMET = ["plaza", "rainbow"]


def test_s7_only_cards_whose_mission_is_met_now_can_be_revealed() -> None:
    """RULES.md §7 [R]: a face-down card may be revealed when its mission is met at that
    moment: not before, and as soon as it is (here in the middle of a pool)."""
    game = pos("0,0 pppp _/_ _", EMPTY, slots=["pp", "", ""], bag={}, goals=[MET, UNMET])
    assert Reveal(0, "high-place") not in actions(game)
    assert_illegal(game, Reveal(0, "high-place"), "mission_not_met")
    play(game, TakeSlot(0, 0), PlacePedestal(0, PURPLE, c(0, 0)))  # the column reaches 5
    assert game.decision.kind == "place_pedestal"
    assert {a for a in actions(game) if isinstance(a, Reveal)} == {Reveal(0, "high-place")}


def test_s7_reveals_only_during_ones_own_turn() -> None:
    """RULES.md §7 [R]: a met card waits for its owner's turn; during another seat's turn
    the owner has no legal action and a reveal is refused."""
    game = pos(EMPTY, HIGH, slots=["r", "", ""], bag={}, goals=[UNMET, MET])
    assert game.legal_actions(1) == []
    with pytest.raises(NotYourDecision):
        game.apply(Reveal(1, "high-place"))
    play(game, TakeSlot(0, 0))
    assert game.legal_actions(1) == []
    play(game, PlacePedestal(0, RED, c(0, 0)))
    assert game.decision.seats == (1,)
    assert Reveal(1, "high-place") in actions(game, 1)


@pytest.mark.parametrize(
    ("altar", "card", "met"),
    [
        ("0,0 WW pp/pp _ | bird 0,0 1,0 0,1", "bird-god", True),  # bird of height 2
        ("0,0 WWWW pppp/pppp _ | bird 0,0 1,0 0,1", "bird-god", True),  # height 4
        ("0,0 rr pp/pp _ | bird 0,0 1,0 0,1", "bird-god", False),  # no rare column under it
        ("0,0 H ppp/_ _ | horse 0,0 1,0", "horse-god", True),  # rare lower column, 1 and 3
        ("0,0 HHH ppppp/_ _ | horse 0,0 1,0", "horse-god", True),  # 3 and 5
        ("0,0 b ppp/_ _ | horse 0,0 1,0", "horse-god", False),
    ],
)
def test_s7_faq_god_cards_need_a_rare_column_at_any_height(
    altar: str, card: str, met: bool
) -> None:
    """RULES.md §7, FAQ Altar Card Q2: the heights drawn on god cards are not part of the
    condition; only the totem over a rare column counts."""
    game = pos(altar, EMPTY, goals=[[card], UNMET])
    assert (Reveal(0, card) in actions(game)) is met


def test_s7_reward_is_mandatory_and_any_design_present_in_the_bag() -> None:
    """RULES.md §7 [R][B]: every reveal is followed by the reward: choose one design present
    in the bag (no skipping, no design the bag lacks)."""
    game = pos(HIGH, EMPTY, slots=["r", "", ""], bag={"red": 2, "cat": 1}, goals=[MET, UNMET])
    play(game, Reveal(0, "high-place"))
    assert game.decision.kind == "choose_design"
    assert game.decision.context == {"purpose": "reward"}
    assert actions(game) == {ChooseDesign(0, RED), ChooseDesign(0, CAT)}
    assert_illegal(game, ChooseDesign(0, HORSE), "not_in_bag")
    assert_illegal(game, EndTurn(0), "wrong_decision")
    assert_illegal(game, TakeSlot(0, 0), "wrong_decision")
    events = play(game, ChooseDesign(0, CAT))
    assert of_type(events, DesignChosen) == [DesignChosen(0, CAT, "reward")]
    assert game.bag[CAT] == 0 and game.bag[RED] == 2
    assert game.pool == [CAT]


def test_s7_faq_reward_may_be_returned_for_a_cloud() -> None:
    """RULES.md §7, FAQ Altar Card Q1: the reward pedestal may be returned to the bag for a
    cloud, even though it could be placed."""
    game = pos(HIGH, EMPTY, bag={"cat": 1}, goals=[MET, UNMET])
    play(game, Reveal(0, "high-place"), ChooseDesign(0, CAT))
    assert PlacePedestal(0, CAT, c(1, 0)) in actions(game)
    events = play(game, ReturnPedestal(0, CAT))
    assert of_type(events, PedestalReturned) == [PedestalReturned(0, CAT)]
    assert game.bag[CAT] == 1
    assert game.decision.kind == "place_cloud"
    play(game, PlaceCloud(0, c(2, 0)))
    assert c(2, 0) in game.altars[0].clouds


def test_s7_faq_empty_bag_no_reward_and_the_card_still_scores() -> None:
    """RULES.md §7 [F], FAQ General Q3: with an empty bag a reveal gives no reward (no
    design decision) and the card still scores."""
    game = pos(HIGH, EMPTY, slots=["r", "", ""], bag={}, goals=[MET, UNMET])
    before = score_sheet(game, 0).total
    events = play(game, Reveal(0, "high-place"))
    assert of_type(events, CardRevealed) == [CardRevealed(0, "high-place", 2)]
    assert of_type(events, NothingGained) == [NothingGained(0, "empty_bag")]
    assert game.decision.kind == "turn" and game.decision.context["acted"] is False
    assert game.revealed[0] == ["high-place"]
    assert score_sheet(game, 0).cards == 2
    assert score_sheet(game, 0).total == before + 2


def test_s7_points_stay_locked_in_when_the_altar_stops_meeting_the_mission() -> None:
    """RULES.md §7 [R][B]: a revealed card's points are kept even after the altar no longer
    meets it (here the reward fills the courtyard's empty cell)."""
    game = pos("0,0 . r ./r _ r/. r .", EMPTY, bag={"red": 1}, goals=[["courtyard"], UNMET])
    play(game, Reveal(0, "courtyard"), ChooseDesign(0, RED), PlacePedestal(0, RED, c(1, 1)))
    assert not game.cards["courtyard"].mission.met(game.altars[0])
    assert game.revealed[0] == ["courtyard"]
    assert score_sheet(game, 0).cards == 2
    assert score_sheet(game, 0).revealed == ("courtyard",)


def test_s7_any_number_of_reveals_in_one_turn() -> None:
    """RULES.md §7 / §5: reveals may be made any number of times in a turn, each with its
    reward, and the action is still to come."""
    game = pos(
        "0,0 ppppp pppp _/pppp _ _",
        EMPTY,
        slots=["r", "", ""],
        bag={"blue": 2},
        goals=[["high-place", "twin-peaks"], UNMET],
    )
    play(game, Reveal(0, "high-place"), ChooseDesign(0, BLUE), PlacePedestal(0, BLUE, c(2, 0)))
    play(game, Reveal(0, "twin-peaks"), ChooseDesign(0, BLUE), PlacePedestal(0, BLUE, c(2, 1)))
    assert game.revealed[0] == ["high-place", "twin-peaks"]
    assert game.goals[0] == []
    assert game.decision.kind == "turn"
    assert actions(game) == {TakeSlot(0, 0)}
    assert score_sheet(game, 0).cards == 2 + 4


def test_s7_a_reward_may_make_another_card_revealable() -> None:
    """RULES.md §7: the reward is resolved on the altar, so it may meet a second mission,
    which can then be revealed in the same turn."""
    game = pos(
        "0,0 ppppp ppp/_ _", EMPTY, bag={"purple": 1}, goals=[["high-place", "twin-peaks"], UNMET]
    )
    assert Reveal(0, "twin-peaks") not in actions(game)
    play(game, Reveal(0, "high-place"), ChooseDesign(0, PURPLE), PlacePedestal(0, PURPLE, c(1, 0)))
    assert Reveal(0, "twin-peaks") in actions(game)


def test_s7_a_revealed_card_is_public_and_cannot_be_revealed_again() -> None:
    """RULES.md §7: the revealed card leaves the hand, is shown to every seat, and is no
    longer a face-down goal."""
    game = pos(HIGH, EMPTY, slots=["r", "", ""], bag={}, goals=[MET, UNMET])
    play(game, Reveal(0, "high-place"))
    assert game.goals[0] == ["skyline"]
    for viewer in (0, 1, None):
        entry = view(game, viewer)["seats"][0]
        assert entry["revealed"] == ["high-place"]
        assert entry["goal_count"] == 1
    assert_illegal(game, Reveal(0, "high-place"), "not_your_card")


def test_s7_faq_reward_from_a_nearly_empty_bag_offers_only_what_is_left() -> None:
    """RULES.md §7, FAQ General Q3: the reward choice lists exactly the designs left in the
    bag; once another draw empties it, the next reveal gives nothing."""
    game = pos(
        "0,0 ppppp pppp _/pppp _ _",
        EMPTY,
        slots=["", "", ""],
        bag={"blue": 1},
        goals=[["high-place", "twin-peaks"], UNMET],
    )
    play(game, Reveal(0, "high-place"))
    assert actions(game) == {ChooseDesign(0, BLUE)}
    play(game, ChooseDesign(0, BLUE), PlacePedestal(0, BLUE, c(2, 0)))
    events = play(game, Reveal(0, "twin-peaks"))
    assert of_type(events, NothingGained) == [NothingGained(0, "empty_bag")]
    events = play(game, DrawFromBag(0))
    assert of_type(events, PedestalsDrawn) == [PedestalsDrawn(0, "draw", ())]


def deck_where_every_mission_is(mission: dict[str, object], **start: object) -> Deck:
    """The packaged deck with one mission (and optionally one start layout) on every card."""
    data = default_deck().to_json()
    for card in data["cards"]:  # type: ignore[union-attr]
        card["mission"] = dict(mission)
        if start:
            card["start"] = dict(start)
    return Deck.from_json(data)


def test_s7_no_reveal_and_no_cat_check_during_setup() -> None:
    """RULES.md §7, §12 (rules note E9): setup has no turn, so a goal met by the starting
    altar is not offered until its owner's first turn, and no cat check runs there even
    on a column of 6 (only a custom deck can start one)."""
    every_goal_met = deck_where_every_mission_is({"type": "cloud_cells", "min": 4})
    six_high = {"columns": [{"cell": [0, 0], "stack": ["red"] * 6}], "cloud": False}
    tall_start = deck_where_every_mission_is({"type": "cloud_cells", "min": 4}, **six_high)
    for deck in (every_goal_met, tall_start):
        game = Game(GameOptions(players=3), seed=5, deck=deck)
        events: list[Event] = []
        while game.phase == "setup":
            for seat in game.decision.seats:
                assert not any(isinstance(a, Reveal) for a in game.legal_actions(seat))
            assert game.decision.kind != "choose_cat"
            seat = game.decision.seats[0]
            events += game.apply(game.legal_actions(seat)[0])
        assert not of_type(events, TotemBuilt)
        assert all(len(game.revealable(s)) == 2 for s in range(game.n))
        first = game.decision.seats[0]
        assert {a for a in game.legal_actions(first) if isinstance(a, Reveal)} == {
            Reveal(first, card) for card in game.goals[first]
        }
