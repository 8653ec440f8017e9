"""The hard MCTS level's playout policy for other seats' turns (bots/mcts.py)."""

from __future__ import annotations

from skytotems.bots.mcts import estimated_turn
from skytotems.rules.actions import BuildTotem, TakeSlot
from skytotems.rules.pieces import T_BIRD
from skytotems.rules.position import Position, game_from_position
from skytotems.rules.rng import Rng

EMPTY = "0,0 _ _/_ _"


def test_an_estimated_turn_builds_a_high_totem_over_taking_a_poor_slot() -> None:
    game = game_from_position(
        Position(altars=["0,0 rrr rrr/rrr _", EMPTY], round=4, slots=["r", "", "g"])
    )
    action = estimated_turn(game, 0, game.legal_actions(0), Rng(1), solo=False)
    assert isinstance(action, BuildTotem) and action.kind == T_BIRD  # 3 cells × height 3


def test_an_estimated_turn_takes_the_richest_slot_when_no_totem_is_ready() -> None:
    game = game_from_position(
        Position(altars=["0,0 r _/_ _", EMPTY], round=4, slots=["g", "CCWW", "b"])
    )
    action = estimated_turn(game, 0, game.legal_actions(0), Rng(1), solo=False)
    assert action == TakeSlot(0, 1)
