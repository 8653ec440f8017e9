"""Judge a player's attempt at a puzzle against the proof.

The moves played so far are replayed from the puzzle's position; they are right while
the puzzle's proved value is still reachable from the state they reach (so any move
order that gets there is accepted), and the puzzle is solved when the turn is over with
that value. A hint is the next move of a shortest optimal line from that state.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..rules.actions import Action, action_from_json
from ..rules.engine import Game
from ..rules.errors import SkyTotemsError
from .model import Puzzle
from .questions import Origin, objective, question, turn_over
from .solver import FAILED, solve


class BadMoves(ValueError):
    """The moves sent cannot be played from the puzzle's position: the message says why."""


@dataclass(frozen=True, slots=True)
class Verdict:
    correct: bool  # the proved value is still reachable (or was reached)
    solved: bool  # the turn is over with the proved value
    finished: bool  # the turn is over
    value: int | None  # points scored so far (or by the finished turn, None if it failed)
    legal_actions: tuple[Action, ...]  # the next legal moves (none once the turn is over)


def replay(puzzle: Puzzle, moves: Sequence[object]) -> tuple[Game, Origin]:
    """The state after `moves` (actions in their wire form); BadMoves if one is not legal."""
    game = puzzle.start()
    origin = Origin.of(game, puzzle.position.seat)
    for i, data in enumerate(moves):
        try:
            action = action_from_json(data)
        except SkyTotemsError as exc:
            raise BadMoves(f"move {i + 1}: {exc}") from None
        if turn_over(game, origin):
            raise BadMoves(f"move {i + 1}: the puzzle's turn is already over")
        if action.seat != origin.seat or not game.is_legal(action):
            raise BadMoves(f"move {i + 1}: {action} is not legal here")
        game.apply(action)
    return game, origin


def judge(puzzle: Puzzle, moves: Sequence[object]) -> Verdict:
    """Whether `moves` still lead to the proved optimum, and whether they reached it."""
    return judge_state(puzzle, *replay(puzzle, moves))


def judge_state(puzzle: Puzzle, game: Game, origin: Origin) -> Verdict:
    """`judge` of the state the moves reached (`replay`); `game` is not changed."""
    asked = question(puzzle.question)
    if turn_over(game, origin):
        value = objective(game, origin, asked)
        right = value == puzzle.solution.value
        return Verdict(right, right, True, value, ())
    proof = solve(game, origin, asked)
    now = objective(game, origin, question("points"))
    return Verdict(
        proof.value == puzzle.solution.value and proof.value > FAILED,
        False,
        False,
        now,
        tuple(game.legal_actions(origin.seat)),
    )


def hint(puzzle: Puzzle, moves: Sequence[object]) -> Action | None:
    """The next move of a shortest optimal line after `moves` (None once the turn is over
    or when the optimum is no longer reachable: the player should restart)."""
    game, origin = replay(puzzle, moves)
    if turn_over(game, origin):
        return None
    proof = solve(game, origin, question(puzzle.question))
    if proof.value != puzzle.solution.value:
        return None
    return proof.line[0]
