"""Regression tests for engine bugs found while writing the documentation (docs/*.md)."""

from __future__ import annotations

import pytest

from skytotems import (
    Action,
    ChooseCat,
    ChooseDesign,
    DrawFromBag,
    EndTurn,
    GameOptions,
    IllegalAction,
    PlacePedestal,
    Position,
    Reveal,
    TakeSlot,
    cell,
    game_from_position,
    view,
)
from skytotems.rules.pieces import PURPLE, RED


@pytest.mark.parametrize(
    ("slots", "action"),
    [(["rb", "", ""], TakeSlot(0, 0)), (["", "", ""], DrawFromBag(0))],
)
def test_final_turn_refusal_of_build_pedestals_says_why(slots: list[str], action: Action) -> None:
    """RULES.md §8, §12: a final-totem turn is build a totem or pass; refusing a
    build-pedestals action must not claim a slot state that is false."""
    game = game_from_position(
        Position(altars=["0,0 _ _/_ _", "0,0 _ _/_ _"], slots=slots, phase="final", round=10)
    )
    with pytest.raises(IllegalAction) as refused:
        game.apply(action)
    message = str(refused.value)
    assert refused.value.reason not in ("empty_slot", "slots_not_empty"), message
    assert "empty" not in message, message


def test_position_with_an_unknown_slot_letter_is_a_value_error() -> None:
    """docs/notation.md: a position that cannot be read is refused with a ValueError."""
    with pytest.raises(ValueError):
        game_from_position(Position(altars=["0,0 _ _/_ _", "0,0 _ _/_ _"], slots=["x", "", ""]))


def test_solo_view_decision_matches_its_legal_actions() -> None:
    """RULES.md §10, §11: in solo either seat's view shows the pending decision as its
    owner sees it, consistent with the legal actions listed beside it."""
    game = game_from_position(
        Position(
            altars=["0,0 pppp _/_ _", "0,0 _ _/_ _"],
            options=GameOptions(players=1),
            slots=["p", "", ""],
            goals=[["high-place"], []],
        )
    )
    game.apply(TakeSlot(0, 0))
    game.apply(PlacePedestal(0, PURPLE, cell(0, 0)))
    assert game.decision.kind == "end_turn"
    other = view(game, 1)
    assert other["legal_actions"] == [Reveal(0, "high-place").to_json(), EndTurn(0).to_json()]
    assert other["decision"]["kind"] == "end_turn"


def test_s12_no_reveal_at_a_pool_step_while_a_cat_is_owed() -> None:
    """RULES.md §12 (ruling in docs/rules-notes.md): once a column reaches 6 mid-pool a cat
    is owed, so the rest of that pool offers no reveal; the reveal comes back afterwards."""
    game = game_from_position(
        Position(
            altars=["0,0 ppppp _/_ _", "0,0 _ _/_ _"],
            slots=["pp", "", ""],
            bag={"red": 2},
            short_bag=True,
            goals=[["high-place", "skyline"], ["plaza", "rainbow"]],
        )
    )
    game.apply(TakeSlot(0, 0))
    assert Reveal(0, "high-place") in game.legal_actions(0)  # height 5: met, no cat owed
    game.apply(PlacePedestal(0, PURPLE, cell(0, 0)))  # height 6: a cat is now owed
    assert game.decision.kind == "place_pedestal"
    assert not [a for a in game.legal_actions(0) if isinstance(a, Reveal)]
    game.apply(PlacePedestal(0, PURPLE, cell(1, 0)))
    assert game.decision.kind == "choose_cat"
    assert not [a for a in game.legal_actions(0) if isinstance(a, Reveal)]
    game.apply(ChooseCat(0, cell(0, 0)))
    game.apply(ChooseDesign(0, RED))  # the bag holds one design: one pedestal
    assert game.decision.kind == "place_pedestal"
    assert Reveal(0, "high-place") in game.legal_actions(0)  # no cat owed any more
