"""Judging a player's moves against the proof (issue 18): any move order that reaches the
optimum is right, a move after which the optimum is out of reach is wrong, a hint is the
next move of an optimal line, and moves that cannot be played are refused."""

from __future__ import annotations

from typing import Any

import pytest

from skytotems import BuildTotem, PlacePedestal, TakeSlot
from skytotems.puzzles.play import BadMoves, hint, judge
from skytotems.rules.grid import cell
from skytotems.rules.pieces import BLUE, T_HORSE

from .puzzle_helpers import horse_puzzle

HORSE_MOVE = BuildTotem(0, T_HORSE, (cell(0, 0), cell(1, 0)))


def wire(*actions: Any) -> list[dict[str, Any]]:
    return [a.to_json() for a in actions]


def test_the_proved_line_solves_the_puzzle() -> None:
    puzzle = horse_puzzle()
    verdict = judge(puzzle, wire(*puzzle.solution.line))
    assert verdict.correct and verdict.solved and verdict.finished and verdict.value == 8


def test_another_order_reaching_the_optimum_is_accepted() -> None:
    """After the horse, the slot of two blues scores as much as the cat's slot."""
    puzzle = horse_puzzle()
    moves = [HORSE_MOVE, TakeSlot(0, 0)]
    middle = judge(puzzle, wire(*moves))
    assert middle.correct and not middle.finished
    assert all(isinstance(a, PlacePedestal) for a in middle.legal_actions[:-1])
    place = [PlacePedestal(0, BLUE, cell(0, 1)), PlacePedestal(0, BLUE, cell(1, 1))]
    verdict = judge(puzzle, wire(*moves, *place))
    assert verdict.solved and verdict.value == 8
    assert TakeSlot(0, 0) not in puzzle.solution.line


def test_a_first_move_that_loses_the_optimum_is_wrong() -> None:
    puzzle = horse_puzzle()
    verdict = judge(puzzle, wire(TakeSlot(0, 0)))
    assert not verdict.correct and not verdict.solved
    assert hint(puzzle, wire(TakeSlot(0, 0))) is None


def test_a_hint_is_the_next_move_of_an_optimal_line() -> None:
    puzzle = horse_puzzle()
    assert hint(puzzle, []) == HORSE_MOVE
    after = hint(puzzle, wire(HORSE_MOVE))
    assert after is not None and judge(puzzle, wire(HORSE_MOVE, after)).correct


@pytest.mark.parametrize(
    ("moves", "words"),
    [
        ([{"type": "take_slot", "seat": 0, "slot": 1}], "move 1: take_slot(seat 0, slot=1) is not"),
        ([{"type": "take_slot", "seat": 1, "slot": 0}], "is not legal here"),
        ([{"type": "fly"}], "move 1: unknown action type"),
        ([42], "move 1: an action must be a JSON object"),
    ],
)
def test_moves_that_cannot_be_played_are_refused(moves: list[Any], words: str) -> None:
    with pytest.raises(BadMoves) as info:
        judge(horse_puzzle(), moves)
    assert words in str(info.value)


def test_moves_after_the_turn_ended_are_refused() -> None:
    puzzle = horse_puzzle()
    with pytest.raises(BadMoves, match="already over"):
        judge(puzzle, [*wire(*puzzle.solution.line), TakeSlot(0, 0).to_json()])
