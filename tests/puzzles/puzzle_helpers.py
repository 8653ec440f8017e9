"""A puzzle built by hand for the tests: a horse on heights 1 and 3, then its extra turn."""

from __future__ import annotations

from skytotems import Position, game_from_position
from skytotems.puzzles.model import Grade, Puzzle, Solution, position_of
from skytotems.puzzles.questions import QUESTIONS, Origin
from skytotems.puzzles.solver import solve

HORSE = Position(altars=["0,0 r rrr/_ _", "0,0 _ _/_ _"], slots=["bb", "", "C"])


def horse_puzzle() -> Puzzle:
    game = game_from_position(HORSE)
    proof = solve(game, Origin.of(game, 0), QUESTIONS["points"])
    return Puzzle(
        id="horse",
        question="points",
        position=position_of(game) or HORSE,
        solution=Solution(proof.value, proof.second, proof.line),
        grade=Grade("easy", proof.length, True),
        source="by hand",
    )
