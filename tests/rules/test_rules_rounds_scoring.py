"""Per-rule tests of RULES.md §8 (rounds, refills, final totem, last reveals, scoring,
tie-breaks) and the solo bands of §10, with the rulebook FAQ answers about an empty bag,
refills and the final totem.

Turns are moved along cheaply: with empty slots and an empty bag, *build pedestals* gains
nothing and play passes on (RULES.md §5 [I]). A bag of one design makes refills certain.
"""

from __future__ import annotations

import pytest
from helpers import actions, build, c, of_type, play, pos

from skytotems import (
    ChooseDesign,
    DrawFromBag,
    EndTurn,
    GameOptions,
    Pass,
    PlaceCloud,
    PlacePedestal,
    Reveal,
    TakeSlot,
    final_places,
    score_sheet,
    solo_band,
    view,
)
from skytotems.rules.events import (
    GameEnded,
    Passed,
    PedestalsDrawn,
    PhaseStarted,
    RoundEnded,
    SlotFilled,
    TurnStarted,
)
from skytotems.rules.pieces import BLUE, GREEN, PURPLE, RED, T_BIRD, T_HORSE

EMPTY = "0,0 _ _/_ _"
HIGH = "0,0 ppppp _/_ _"  # "high-place" is met
UNMET = ["plaza", "rainbow"]

# The rulebook's score example (RULES.md §8): a bird on three columns of height 2 (of
# wolf pedestals), two horses on columns of 1 and 3, a cat on a column of 6, and one more
# empty cloud. Pedestals: 3×2 = 6 rare + (1+3)×2 = 8 common + 6 common = 14 common, 6 rare.
RULEBOOK_EXAMPLE = (
    "0,0 WW WW b/WW gggggg bbb/p ppp _ | bird 0,0 1,0 0,1 | horse 2,0 2,1 | horse 0,2 1,2 | cat 1,1"
)


# --- rounds -------------------------------------------------------------------------------


def test_s8_turns_go_clockwise_from_the_start_player_then_the_marker_passes_left() -> None:
    """RULES.md §8 [R][B]: in a round each seat plays once, clockwise from the start
    player; at the end of round the marker advances and the start player passes left."""
    game = pos(EMPTY, EMPTY, EMPTY, slots=["", "", "", ""], bag={}, start_player=2, seat=2)
    acted = []
    events = []
    for _ in range(3):
        acted.append(game.decision.seats[0])
        events += play(game, DrawFromBag(game.decision.seats[0]))
    assert acted == [2, 0, 1]
    assert of_type(events, RoundEnded) == [RoundEnded(1, 0)]
    assert (game.round, game.start_player) == (2, 0)
    assert of_type(events, TurnStarted)[-1] == TurnStarted(0, 2, "normal")


def test_s8_refill_one_to_a_slot_that_holds_some_two_to_an_empty_slot() -> None:
    """RULES.md §8 [R][B]: the new start player refills every used slot, 1 pedestal where
    some remain and 2 where the slot is empty, in board order."""
    game = pos(EMPTY, EMPTY, slots=["b", "", "gg"], bag={"red": 5}, seat=1, start_player=0)
    events = play(game, TakeSlot(1, 2), PlacePedestal(1, GREEN, c(0, 0)))
    events += play(game, PlacePedestal(1, GREEN, c(0, 0)))
    assert of_type(events, RoundEnded) == [RoundEnded(1, 1)]
    assert of_type(events, SlotFilled) == [
        SlotFilled(0, (RED,)),
        SlotFilled(1, (RED, RED)),
        SlotFilled(2, (RED, RED)),
    ]
    assert game.slots == [[BLUE, RED], [RED, RED], [RED, RED]]
    assert game.bag_total == 0
    assert of_type(events, TurnStarted) == [TurnStarted(1, 2, "normal")]


def test_s8_refill_that_runs_dry_fills_in_board_order_and_stops() -> None:
    """RULES.md §8 [I] + FAQ General Q3: with too few pedestals the refill goes slot by slot
    in board order until the bag is empty; later slots get nothing."""
    game = pos(EMPTY, EMPTY, slots=["b", "", "g"], bag={"red": 3}, seat=1)
    events = play(game, TakeSlot(1, 0), PlacePedestal(1, BLUE, c(0, 0)))
    assert of_type(events, SlotFilled) == [SlotFilled(0, (RED, RED)), SlotFilled(1, (RED,))]
    assert game.slots == [[RED, RED], [RED], [GREEN]]


def test_s8_faq_no_refill_from_an_empty_bag() -> None:
    """RULES.md §8, FAQ General Q3: if pedestals cannot be replenished, none are added."""
    game = pos(EMPTY, EMPTY, slots=["b", "", "g"], bag={}, seat=1)
    events = play(game, TakeSlot(1, 0), PlacePedestal(1, BLUE, c(0, 0)))
    assert of_type(events, RoundEnded) == [RoundEnded(1, 1)]
    assert of_type(events, SlotFilled) == []
    assert game.slots == [[], [], [GREEN]]


def test_s8_no_refill_after_round_10_and_the_new_start_player_opens_the_final_totem() -> None:
    """RULES.md §8 [R][B][I]: after round 10's end of round the marker passes but no slot is
    refilled; the final totem starts with the new start player."""
    game = pos(EMPTY, EMPTY, slots=["b", "", ""], bag={"red": 5}, round=10, seat=1)
    events = play(game, TakeSlot(1, 0), PlacePedestal(1, BLUE, c(0, 0)))
    assert of_type(events, RoundEnded) == [RoundEnded(10, 1)]
    assert of_type(events, SlotFilled) == []
    assert game.slots == [[], [], []] and game.bag_total == 5
    assert of_type(events, PhaseStarted) == [PhaseStarted("final_totem")]
    assert game.phase == "final" and game.start_player == 1
    assert of_type(events, TurnStarted) == [TurnStarted(1, 10, "final")]


# --- the final totem and the last reveals -------------------------------------------------


def test_s8_final_totem_each_player_once_clockwise_from_the_start_player() -> None:
    """RULES.md §8 [R][B]: each player in turn, from the start player, may build one totem
    or pass; then the last reveals, then the end of the game."""
    game = pos(EMPTY, EMPTY, EMPTY, phase="final", round=10, start_player=1, seat=1)
    events = []
    for _ in range(3):
        seat = game.decision.seats[0]
        assert actions(game) == {Pass(seat)}
        events += play(game, Pass(seat))
    assert [e.seat for e in of_type(events, Passed)] == [1, 2, 0]
    assert of_type(events, PhaseStarted) == [PhaseStarted("last_reveals")]
    assert game.is_over and len(of_type(events, GameEnded)) == 1


def test_s8_final_totem_blessings_apply() -> None:
    """RULES.md §8 [R][B]: a totem built as the final totem gives its blessing (the bird's
    three clouds here)."""
    game = pos("0,0 pp pp/pp _", EMPTY, bag={}, phase="final", round=10)
    play(game, build(game, T_BIRD, (0, 0), (1, 0), (0, 1)))
    assert game.decision.kind == "place_cloud"
    assert game.decision.context == {"remaining": 3, "why": "bird"}


def test_s8_final_totem_is_the_players_turn_with_reveals_and_the_prompt() -> None:
    """RULES.md §8 [I]: the final totem is that player's turn — reveals at its top, and the
    end-of-turn prompt after the totem or the pass."""
    game = pos(
        HIGH, EMPTY, bag={}, goals=[["high-place", "skyline"], UNMET], phase="final", round=10
    )
    assert actions(game) == {Reveal(0, "high-place"), Pass(0)}
    events = play(game, Pass(0))
    assert of_type(events, Passed) == [Passed(0)]
    assert game.decision.kind == "end_turn"
    assert actions(game) == {Reveal(0, "high-place"), EndTurn(0)}
    events = play(game, EndTurn(0))
    assert of_type(events, TurnStarted) == [TurnStarted(1, 10, "final")]


def test_s8_faq_final_horse_extra_turn_draws_from_the_bag_when_slots_are_empty() -> None:
    """RULES.md §8, FAQ Horse Q2: a horse built as the final totem still gives its extra
    turn; with every slot empty, build pedestals draws 2 from the bag."""
    game = pos("0,0 p ppp/_ _", EMPTY, slots=["", "", ""], bag={"red": 2}, phase="final", round=10)
    events = play(game, build(game, T_HORSE, (0, 0), (1, 0)))
    assert of_type(events, TurnStarted) == [TurnStarted(0, 10, "extra")]
    assert actions(game) == {DrawFromBag(0)}
    events = play(game, DrawFromBag(0))
    assert of_type(events, PedestalsDrawn) == [PedestalsDrawn(0, "draw", (RED, RED))]


def test_s8_last_reveals_go_in_turn_order_from_the_start_player() -> None:
    """RULES.md §8 [R][I]: the last reveals go once around the table from the start player;
    a seat with nothing revealable is not asked."""
    game = pos(
        HIGH,
        EMPTY,
        "0,0 rrr rrr _/rrr rrr _",
        bag={},
        goals=[["high-place"], UNMET, ["skyline"]],
        phase="final",
        round=10,
        start_player=2,
        seat=0,  # the final round goes 2, 0, 1; seat 2 has played
    )
    play(game, Pass(0), EndTurn(0), Pass(1))
    assert game.phase == "last_reveals"
    assert game.decision.kind == "last_reveal" and game.decision.seats == (2,)
    play(game, Reveal(2, "skyline"))  # none left to reveal: seat 2 is done
    assert game.decision.kind == "last_reveal" and game.decision.seats == (0,)
    play(game, EndTurn(0))
    assert game.is_over  # seat 1 had nothing to reveal
    assert game.revealed == [[], [], ["skyline"]]


def test_s8_last_reveal_reward_may_enable_a_further_reveal() -> None:
    """RULES.md §8 [I]: each reward is resolved before the next reveal, so a reward may meet
    another mission that is then revealed."""
    game = pos(
        "0,0 ppppp ppp/_ _",
        EMPTY,
        bag={"purple": 1},
        goals=[["high-place", "twin-peaks"], UNMET],
        phase="final",
        round=10,
    )
    play(game, Pass(0), EndTurn(0), Pass(1))
    assert actions(game) == {Reveal(0, "high-place"), EndTurn(0)}
    play(game, Reveal(0, "high-place"), ChooseDesign(0, PURPLE), PlacePedestal(0, PURPLE, c(1, 0)))
    assert actions(game) == {Reveal(0, "twin-peaks"), EndTurn(0)}
    play(game, Reveal(0, "twin-peaks"))
    assert game.is_over
    assert score_sheet(game, 0).cards == 2 + 4


# --- empty bag ----------------------------------------------------------------------------


def test_s8_faq_a_draw_that_finds_nothing_gives_nothing() -> None:
    """RULES.md §8 [F], FAQ General Q3: a blessing's draw takes only what the bag holds (the
    bird's 3 from a bag of 1 gives 1)."""
    game = pos("0,0 pp pp/pp _", EMPTY, bag={"blue": 1})
    play(game, build(game, T_BIRD, (0, 0), (1, 0), (0, 1)))
    play(game, PlaceCloud(0, c(2, 0)), PlaceCloud(0, c(3, 0)))
    events = play(game, PlaceCloud(0, c(4, 0)))
    assert of_type(events, PedestalsDrawn) == [PedestalsDrawn(0, "bird", (BLUE,))]
    assert game.pool == [BLUE] and game.bag_total == 0


# --- scoring ------------------------------------------------------------------------------


def test_s8_rulebook_score_example_is_52() -> None:
    """RULES.md §8 [R]: bird 3×2 = 6, horses 2×3 + 2×3 = 12, cat 1×6 = 6, 14 common = 14,
    6 rare = 12, a revealed card of 2 → 52; the sheet reads like the scorepad."""
    game = pos(RULEBOOK_EXAMPLE, EMPTY, revealed=[["high-place"], []])
    sheet = score_sheet(game, 0)
    assert (sheet.common_pedestals, sheet.rare_pedestals, sheet.totem_count) == (14, 6, 4)
    lines = sheet.lines()
    assert [value for _, value in lines] == [6, 0, 12, 0, 6, 14, 12, 2, 52]
    assert [label for label, _ in lines[:5]] == ["bird", "wolf", "horse", "dragon", "cat"]
    assert lines[-1] == ("total", 52)
    assert sheet.total == 52


def test_s8_every_pedestal_scores_under_totems_and_in_the_hoard() -> None:
    """RULES.md §8 [R][B][F]: pedestals under totems count, and so do hoard pedestals."""
    game = pos("0,0 rr rrrr/_ _ | horse 0,0 1,0 | hoard B", EMPTY)
    sheet = score_sheet(game, 0)
    assert (sheet.common_pedestals, sheet.rare_pedestals) == (6, 1)
    assert sheet.totems["horse"] == 2 * 4
    assert sheet.total == 6 + 2 + 8


# --- tie-breaks ---------------------------------------------------------------------------


def test_s8_tie_break_bga_later_in_round_one_order_wins_every_tied_place() -> None:
    """RULES.md §8 [B][I]: tied players are ordered by round 1's turn order, the later one
    ranking higher — for every tied place, not just the first. Round 1 started at seat 2
    (order 2, 3, 0, 1), although seat 3 starts the current round."""
    game = pos(
        "0,0 rrrrr _/_ _",  # 5
        "0,0 oooo oooo/o _",  # 9
        "0,0 yyyyy _/_ _",  # 5
        "0,0 gggg gggg/g _",  # 9
        phase="final",
        round=10,
        first_player=2,
        start_player=3,
        seat=3,
    )
    assert [score_sheet(game, s).total for s in range(4)] == [5, 9, 5, 9]
    events = play(game, Pass(3), Pass(0), Pass(1), Pass(2))
    # 9s: seat 1 (4th in round 1) over seat 3 (2nd); 5s: seat 0 (3rd) over seat 2 (1st).
    expected = [3, 1, 4, 2]
    assert of_type(events, GameEnded)[0].places == tuple(expected)
    assert final_places(game) == expected


def test_s8_tie_break_rulebook_most_totems_then_shared_place() -> None:
    """RULES.md §8 [R][I]: option "rulebook": among tied totals, more totems ranks higher;
    players still tied share the place (the next place is then skipped)."""
    options = GameOptions(players=4, tie_break="rulebook")
    game = pos(
        "0,0 r rrr/_ _ | horse 0,0 1,0",  # 4 + 6 = 10, one totem
        "0,0 o ooo/_ _ | horse 0,0 1,0",  # 10, one totem
        "0,0 yyyyy yyyyy/_ _",  # 10, no totem
        "0,0 gggg _/_ _",  # 4
        options=options,
        first_player=0,
    )
    assert [score_sheet(game, s).total for s in range(4)] == [10, 10, 10, 4]
    assert final_places(game) == [1, 1, 3, 4]


def test_s8_tie_break_bga_ignores_totem_counts() -> None:
    """RULES.md §8 [B]: the default tie-break looks at turn order only, so the same tied
    altars as the rulebook case rank by round 1's order (seat 2 last, so first)."""
    game = pos(
        "0,0 r rrr/_ _ | horse 0,0 1,0",
        "0,0 o ooo/_ _ | horse 0,0 1,0",
        "0,0 yyyyy yyyyy/_ _",
        "0,0 gggg _/_ _",
        first_player=0,
    )
    assert final_places(game) == [3, 2, 1, 4]


# --- solo (§10) ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("total", "band"),
    [
        (0, "Unfinished"),
        (99, "Unfinished"),
        (100, "Decent"),
        (129, "Decent"),
        (130, "Wonderful"),
        (159, "Wonderful"),
        (160, "Go Down in History"),
        (179, "Go Down in History"),
        (180, "Chosen by the Gods"),
        (250, "Chosen by the Gods"),
    ],
)
def test_s10_solo_bands_at_their_boundaries(total: int, band: str) -> None:
    """RULES.md §10 [R]: ≤ 99 Unfinished, 100–129 Decent, 130–159 Wonderful, 160–179 Go
    Down in History, ≥ 180 Chosen by the Gods."""
    assert solo_band(total) == band


def test_s10_solo_result_is_the_sum_of_both_altars_without_tie_break() -> None:
    """RULES.md §10 [R][I]: solo scores both altars together and rates the sum; no
    tie-break ranks the two altars."""
    game = pos(
        "0,0 rrrrr _/_ _",
        "0,0 gg _/_ _",
        options=GameOptions(players=1),
        phase="final",
        round=10,
    )
    play(game, Pass(0), Pass(1))
    assert game.is_over
    result = view(game, 0)
    assert result["solo"] == {"total": 5 + 2, "band": "Unfinished"}
    assert result["places"] == [1, 1]


def test_s8_refill_draws_name_no_seat() -> None:
    """RULES.md §8, §11 (rules note E12): the refill is public through `slot_filled`; no
    `pedestals_drawn` (which names a seat) comes with it."""
    game = pos(EMPTY, EMPTY, slots=["b", "", "gg"], bag={"red": 5}, seat=1, start_player=0)
    events = play(game, TakeSlot(1, 2), PlacePedestal(1, GREEN, c(0, 0)))
    events += play(game, PlacePedestal(1, GREEN, c(0, 0)))
    refill = events[events.index(of_type(events, RoundEnded)[0]) :]
    assert sum(len(e.designs) for e in of_type(refill, SlotFilled)) == 5
    assert of_type(refill, PedestalsDrawn) == []
