"""The puzzle routes: the shipped puzzles, and judging a player's moves against the proof.

The position and the question are public; the solution never leaves the server. A
player's moves are judged by re-solving from the state they reach (any move order that
can still reach the proved optimum is right), in a worker thread so the event loop never
searches. Nothing is stored: the browser keeps its own progress.
"""

from __future__ import annotations

import asyncio
from functools import cache
from typing import Any

from fastapi import APIRouter
from pydantic import Field

from skytotems import Game, view
from skytotems.puzzles.model import Puzzle, shipped
from skytotems.puzzles.play import BadMoves, hint, judge_state, replay
from skytotems.puzzles.questions import Origin, question

from .errors import ServiceError
from .schemas import Refusal, Strict

MAX_MOVES = 200  # far more than any turn takes

router = APIRouter(prefix="/api/puzzles", tags=["puzzles"])

NO_SUCH_PUZZLE: dict[int | str, dict[str, Any]] = {
    404: {"model": Refusal, "description": "No shipped puzzle has this id (`no_such_puzzle`)"}
}
MOVES_REFUSED: dict[int | str, dict[str, Any]] = {
    **NO_SUCH_PUZZLE,
    400: {
        "model": Refusal,
        "description": "A move is unknown or not legal where it is played (`bad_moves`, "
        "naming the move)",
    },
}


class Moves(Strict):
    """The moves played so far from the puzzle's position, in the actions' wire form
    (none: the position itself); any other key is refused, as everywhere in the API."""

    moves: list[dict[str, Any]] = Field(default_factory=list, max_length=MAX_MOVES)


@cache
def _puzzles() -> dict[str, Puzzle]:
    return {p.id: p for p in shipped()}


def _find(puzzle_id: str) -> Puzzle:
    found = _puzzles().get(puzzle_id)
    if found is None:
        raise ServiceError("no_such_puzzle", f"there is no puzzle {puzzle_id!r}", 404)
    return found


def _summary(p: Puzzle) -> dict[str, Any]:
    return {
        "id": p.id,
        "question": p.question,
        "text": question(p.question).text,
        "level": p.grade.level,
        "length": p.grade.length,
    }


def _replay(p: Puzzle, moves: list[dict[str, Any]]) -> tuple[Game, Origin]:
    """The state after `moves`; a 400 naming the move that cannot be played."""
    try:
        return replay(p, moves)
    except BadMoves as exc:
        raise ServiceError("bad_moves", str(exc), 400) from None


def _state(p: Puzzle, moves: list[dict[str, Any]]) -> dict[str, Any]:
    """The seat's view after `moves` (its legal actions are the next moves)."""
    game, origin = _replay(p, moves)
    return view(game, origin.seat)


@router.get("")
async def list_puzzles() -> dict[str, Any]:
    """Every shipped puzzle: id, question, level, solution length (never the solution)."""
    return {"puzzles": [_summary(p) for p in _puzzles().values()]}


@router.get("/{puzzle_id}", responses=NO_SUCH_PUZZLE)
async def get_puzzle(puzzle_id: str) -> dict[str, Any]:
    """A puzzle's position (altar notation and the seat's view) and its question."""
    p = _find(puzzle_id)
    state = await asyncio.to_thread(_state, p, [])
    return dict(_summary(p), seat=p.position.seat, altars=list(p.position.altars), view=state)


@router.post("/{puzzle_id}/check", responses=MOVES_REFUSED)
async def check_moves(puzzle_id: str, body: Moves) -> dict[str, Any]:
    """Whether the moves so far can still reach the proved optimum, whether they reached
    it, and the view after them (its `legal_actions` are the next moves)."""
    p = _find(puzzle_id)

    def work() -> dict[str, Any]:
        game, origin = _replay(p, body.moves)
        verdict = judge_state(p, game, origin)
        out: dict[str, Any] = {
            "correct": verdict.correct,
            "solved": verdict.solved,
            "finished": verdict.finished,
            "points": verdict.value,
            "legal_actions": [a.to_json() for a in verdict.legal_actions],
            "view": view(game, origin.seat),
        }
        if verdict.finished:
            out["best"] = p.solution.value  # told once the turn is over
        return out

    return await asyncio.to_thread(work)


@router.post("/{puzzle_id}/hint", responses=MOVES_REFUSED)
async def get_hint(puzzle_id: str, body: Moves) -> dict[str, Any]:
    """The next move of a shortest optimal line after the moves so far (null when the
    turn is over or the optimum is out of reach: start again)."""
    p = _find(puzzle_id)

    def work() -> dict[str, Any]:
        try:
            action = hint(p, body.moves)
        except BadMoves as exc:
            raise ServiceError("bad_moves", str(exc), 400) from None
        return {"action": None if action is None else action.to_json()}

    return await asyncio.to_thread(work)
