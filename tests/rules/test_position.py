"""Positions (docs/notation.md, rules note E18): every field is checked, and a position
may start at the decision points a puzzle or a test needs. Also the typed steps' JSON
form (docs/wire-format.md, the view's `machine` section)."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from skytotems import (
    ChooseCat,
    ChooseDesign,
    EndTurn,
    GameOptions,
    PlacePedestal,
    Position,
    Reveal,
    game_from_position,
    view,
)
from skytotems.rules.engine import Game
from skytotems.rules.grid import cell
from skytotems.rules.pieces import PURPLE, RED
from skytotems.rules.steps import STEP_NAMES, CatCheck, LastReveals, OpenPool, step_from_json

EMPTY = "0,0 _ _/_ _"
HIGH = "0,0 ppppp _/_ _"  # meets high-place (a column of height 5 or more)


def refused(field: str, **kw: Any) -> str:
    """The ValueError message of an impossible position; it must name `field`."""
    kw.setdefault("altars", [EMPTY, EMPTY])
    with pytest.raises(ValueError) as info:
        game_from_position(Position(**kw))
    message = str(info.value)
    assert message.startswith(f"{field}:"), message
    return message


def test_e18_each_impossible_field_is_a_value_error_naming_it() -> None:
    refused("altars", altars=[EMPTY])
    refused("seat", seat=5)
    refused("seat", seat=-1)
    refused("start_player", start_player=2)
    refused("first_player", first_player=3)
    refused("round", round=14)
    refused("round", round=0)
    refused("round", phase="final", round=3)
    refused("phase", phase="over")
    # a phase with the wrong decision says which decision that phase takes
    assert "'last_reveal'" in refused("phase", phase="last_reveals", round=10)
    refused("slots", slots=["r", ""])
    refused("slots", slots=["x", "", ""])
    refused("goals", goals=[["high-place"]])
    refused("goals", goals=[["high-place", "skyline", "plaza"], []])
    refused("goals", goals=[["high-place", "high-place"], []])
    refused("cards", goals=[["high-place"], ["high-place"]])
    refused("goals", goals=[["no-such-card"], []])  # named by the field it came in
    refused("revealed", revealed=[["no-such-card"], []])
    refused("extra_turns", extra_turns=-1)
    refused("decision", decision="choose_start")
    refused("pool", decision="place_pedestal")
    refused("pool", pool="r")
    refused("bag", bag={"sky": 1})


def test_e18_the_bag_must_make_up_the_box_unless_a_short_bag_is_allowed() -> None:
    """RULES.md §1 (118 pedestals): a given bag, with the pieces in play, is the box."""
    assert "short_bag=True" in refused("bag", bag={"red": 2})  # the message names the way out
    refused("bag", bag={"red": 16})  # more than exist, even with a short bag allowed
    refused("bag", bag={"red": 16}, short_bag=True)
    refused("altars", altars=["0,0 " + " ".join(["rrrrrrrr"] * 2), EMPTY])  # 16 red
    short = game_from_position(Position(altars=[EMPTY, EMPTY], bag={"red": 2}, short_bag=True))
    assert short.bag_total == 2
    full = {"red": 14, "orange": 15, "yellow": 15, "green": 15, "blue": 15, "purple": 15}
    full |= {"cat": 7, "wolf": 7, "bird": 7, "horse": 7}
    exact = game_from_position(Position(altars=["0,0 r _/_ _", EMPTY], bag=full))
    assert exact.bag_total == 117


@given(
    players=st.integers(1, 4),
    seat=st.integers(-3, 6),
    round_=st.integers(-2, 13),
    phase=st.sampled_from(["play", "final", "last_reveals", "setup", "over", "x"]),
)
def test_e18_seat_round_and_phase_are_accepted_exactly_when_possible(
    players: int, seat: int, round_: int, phase: str
) -> None:
    """Hostile seat, round and phase values: a game, or a ValueError, never a later crash."""
    options = GameOptions(players=players)
    n = options.seats
    decision = "last_reveal" if phase == "last_reveals" else "turn"
    position = Position(
        altars=[HIGH] + [EMPTY] * (n - 1),
        options=options,
        seat=seat,
        round=round_,
        phase=phase,
        decision=decision,
        goals=[["high-place"]] + [[]] * (n - 1),
    )
    possible = (
        0 <= seat < n
        and phase in ("play", "final", "last_reveals")
        and (1 <= round_ <= 10 if phase == "play" else round_ == 10)
        and (phase != "last_reveals" or seat == 0)  # only seat 0 has a goal to reveal
    )
    if not possible:
        with pytest.raises(ValueError):
            game_from_position(position)
        return
    game = game_from_position(position)
    assert game.decision.seats == (seat,)
    assert game.decision.kind == ("last_reveal" if phase == "last_reveals" else "turn")
    assert game.legal_actions(seat)


def test_s12_a_position_may_start_with_an_open_pool() -> None:
    """RULES.md §12 Pools: the pool is resolved one pedestal at a time, then play goes on."""
    game = game_from_position(
        Position(altars=["0,0 r _/_ _", EMPTY], decision="place_pedestal", pool="rp")
    )
    assert game.decision.kind == "place_pedestal"
    assert game.decision.context == {"pool": ["red", "purple"]}
    assert game.bag[RED] == 13  # the pool's pedestals are out of the bag
    game.apply(PlacePedestal(0, RED, cell(0, 0)))
    game.apply(PlacePedestal(0, PURPLE, cell(1, 0)))
    assert game.decision.kind == "turn" and game.decision.seats == (1,)


def test_s12_a_position_may_start_with_a_cat_owed() -> None:
    """RULES.md §6, §12 Cats: a column of height 6 waits for its cat."""
    game = game_from_position(Position(altars=["0,0 rrrrrr _/_ _", EMPTY], decision="choose_cat"))
    assert game.cat_in_play  # the beginner set holds the cat
    assert game.decision.kind == "choose_cat"
    game.apply(ChooseCat(0, cell(0, 0)))
    assert game.decision.kind == "choose_design"
    refused("decision", decision="choose_cat")  # no column of height 6: no cat owed


def test_s8_a_position_may_start_at_the_last_reveals() -> None:
    """RULES.md §8 last reveals: from the start player, one card at a time; then scoring."""
    game = game_from_position(
        Position(
            altars=[EMPTY, HIGH],
            phase="last_reveals",
            round=10,
            seat=1,
            start_player=1,
            decision="last_reveal",
            goals=[[], ["high-place"]],
        )
    )
    assert game.pending_steps == (LastReveals(1, 0),)
    game.apply(Reveal(1, "high-place"))
    game.apply(ChooseDesign(1, PURPLE))
    game.apply(PlacePedestal(1, PURPLE, cell(1, 0)))
    assert game.is_over  # seat 1 has no goal left, and seat 0 has nothing to reveal
    refused("decision", phase="last_reveals", round=10, decision="last_reveal")
    refused("phase", phase="play", decision="last_reveal")


def test_s12_a_position_may_start_at_the_end_of_turn_prompt() -> None:
    """RULES.md §12 step 5: the prompt is asked only while a reveal is possible."""
    game = game_from_position(
        Position(altars=[HIGH, EMPTY], decision="end_turn", goals=[["high-place"], []])
    )
    assert game.decision.kind == "end_turn"
    game.apply(EndTurn(0))
    assert game.decision.seats == (1,)
    refused("decision", decision="end_turn")


def test_steps_round_trip_through_json_in_random_games() -> None:
    """docs/wire-format.md: every step reads back from its JSON form, equal and typed."""
    chooser = random.Random(3)
    seen: set[str] = set()
    for seed in range(6):
        game = Game(GameOptions(players=2 + seed % 3, totems="dragon"), seed)
        while not game.is_over:
            machine = view(game, None)["machine"]
            steps = [step_from_json(data) for data in machine]
            assert steps == list(game.pending_steps)
            assert [type(s) for s in steps] == [type(s) for s in game.pending_steps]
            seen.update(data[0] for data in machine)
            actions = game.legal_actions(game.decision.seats[0])
            game.apply_fast(actions[chooser.randrange(len(actions))])
    assert {"turn", "pool", "cats", "clouds", "after_action", "start_altar"} <= seen
    assert "prompt" not in seen  # the prompt reads as the neutral turn_end (§11)


def test_steps_of_different_types_never_compare_equal() -> None:
    assert OpenPool(0) != CatCheck(0)
    assert OpenPool(0) != (0,)
    assert step_from_json(["pool", 0]) == OpenPool(0)
    assert step_from_json(["cats", 0]) != OpenPool(0)
    assert len(STEP_NAMES) == len(set(STEP_NAMES.values()))


@pytest.mark.parametrize(
    "data",
    [
        [],
        "pool",
        ["nope", 0],
        ["pool"],
        ["pool", "0"],
        ["pool", True],
        ["turn", 0, "lazy"],
        ["clouds", 0, 1, "why"],
        ["wolf", 0, [[0]]],
        ["pool", 0, 1],
    ],
)
def test_malformed_steps_are_value_errors(data: Any) -> None:
    with pytest.raises(ValueError):
        step_from_json(data)
