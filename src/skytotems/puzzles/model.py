"""The puzzle file: a versioned JSON document of positions, questions and solutions.

A position is the engine's `Position` (altars in altar notation, docs/notation.md), a
question names one of `questions.QUESTIONS`, and the solution is what the solver
proved: the best value, the best value of any other first move, and one optimal line
(any other line reaching the value is as good). docs/puzzles.md describes every field.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from importlib import resources
from typing import Any

from ..rules.actions import Action, action_from_json
from ..rules.engine import Game
from ..rules.errors import SkyTotemsError
from ..rules.notation import format_altar
from ..rules.options import GameOptions
from ..rules.pieces import DESIGN_LETTERS, DESIGN_NAMES
from ..rules.position import Position, game_from_position
from ..rules.steps import AfterAction, CatCheck, OpenPool, TopOfTurn
from .questions import QUESTIONS

FORMAT = "skytotems-puzzles"
VERSION = 1
LEVELS = ("easy", "medium", "hard")
SHIPPED = "puzzles.json"


class PuzzleFileError(ValueError):
    """A puzzle file that cannot be read: the message says where and what."""


@dataclass(frozen=True, slots=True)
class Solution:
    value: int  # the most points the turn can score while meeting the question
    second: int | None  # the best value of a first move that cannot reach `value`
    line: tuple[Action, ...]  # one shortest optimal line


@dataclass(frozen=True, slots=True)
class Grade:
    level: str  # one of LEVELS
    length: int  # actions in the shortest optimal line
    mcts_easy: bool  # whether mcts-easy, playing the turn, reaches the optimum


@dataclass(frozen=True, slots=True)
class Puzzle:
    id: str
    question: str
    position: Position
    solution: Solution
    grade: Grade
    source: str = ""

    def start(self) -> Game:
        """A fresh game at the puzzle's position."""
        return game_from_position(self.position)


# ---------------------------------------------------------------- positions


def position_of(game: Game) -> Position | None:
    """The `Position` of `game` at the top of a normal turn or at the open pool right after
    taking a slot; None for any other state (which a Position cannot express exactly)."""
    if game.is_over or game.phase not in ("play", "final"):
        return None
    seat = game.decision.seats[0]
    mode = "final" if game.phase == "final" else "normal"
    steps = game.pending_steps
    if steps == (TopOfTurn(seat, mode),):
        decision = "turn"
    elif steps == (AfterAction(seat, mode), CatCheck(seat), OpenPool(seat)):
        decision = "place_pedestal"
    else:
        return None
    bag = {DESIGN_NAMES[d]: n for d, n in enumerate(game.bag) if n}
    n = game.n
    return Position(
        altars=[format_altar(a) for a in game.altars],
        options=game.options,
        seat=seat,
        round=game.round,
        start_player=game.start_player,
        first_player=game.first_player,
        phase=game.phase,
        decision=decision,
        slots=["".join(DESIGN_LETTERS[d] for d in s) for s in game.slots],
        pool="".join(DESIGN_LETTERS[d] for d in sorted(game.pool)),
        bag=bag,
        # Only the puzzle seat's cards: the others' goals are hidden and play no part.
        goals=[list(game.goals[s]) if s == seat else [] for s in range(n)],
        revealed=[list(r) for r in game.revealed],
        start_cards=list(game.start_cards),
        extra_turns=game.extra_turns,
    )


def position_to_json(p: Position) -> dict[str, Any]:
    return {
        "altars": list(p.altars),
        "options": p.options.to_json(),
        "seat": p.seat,
        "round": p.round,
        "start_player": p.start_player,
        "first_player": p.first_player if p.first_player is not None else p.start_player,
        "phase": p.phase,
        "decision": p.decision,
        "slots": list(p.slots),
        "pool": p.pool,
        "bag": dict(p.bag or {}),
        "goals": [list(g) for g in p.goals],
        "revealed": [list(r) for r in p.revealed],
        "start_cards": list(p.start_cards),
        "extra_turns": p.extra_turns,
    }


_POSITION_FIELDS = {
    "altars": list,
    "options": dict,
    "seat": int,
    "round": int,
    "start_player": int,
    "first_player": int,
    "phase": str,
    "decision": str,
    "slots": list,
    "pool": str,
    "bag": dict,
    "goals": list,
    "revealed": list,
    "start_cards": list,
    "extra_turns": int,
}


def position_from_json(data: object) -> Position:
    if not isinstance(data, dict):
        raise ValueError("position must be an object")
    missing = sorted(set(_POSITION_FIELDS) - set(data))
    extra = sorted(set(data) - set(_POSITION_FIELDS))
    if missing or extra:
        raise ValueError(f"position: missing {missing or 'nothing'}, unknown {extra or 'none'}")
    for name, kind in _POSITION_FIELDS.items():
        if not isinstance(data[name], kind) or isinstance(data[name], bool):
            raise ValueError(f"position.{name} must be a {kind.__name__}")
    fields = dict(data)
    fields["options"] = GameOptions.from_json(data["options"])
    position = Position(**fields)
    game_from_position(position)  # every field checked by the engine
    return position


# ------------------------------------------------------------------ puzzles


def puzzle_to_json(p: Puzzle) -> dict[str, Any]:
    return {
        "id": p.id,
        "question": p.question,
        "position": position_to_json(p.position),
        "solution": {
            "value": p.solution.value,
            "second": p.solution.second,
            "line": [a.to_json() for a in p.solution.line],
        },
        "grade": {"level": p.grade.level, "length": p.grade.length, "mcts_easy": p.grade.mcts_easy},
        "source": p.source,
    }


def puzzle_from_json(data: object) -> Puzzle:
    """One puzzle from its JSON form; ValueError (or an engine error) says what is wrong."""
    if not isinstance(data, dict):
        raise ValueError("a puzzle must be an object")
    pid, kind = data.get("id"), data.get("question")
    if not isinstance(pid, str) or not pid:
        raise ValueError("id must be a non-empty string")
    if kind not in QUESTIONS:
        raise ValueError(f"question must be one of {', '.join(QUESTIONS)}")
    sol, grade = data.get("solution"), data.get("grade")
    if not isinstance(sol, dict) or not isinstance(grade, dict):
        raise ValueError("solution and grade must be objects")
    value, second, line = sol.get("value"), sol.get("second"), sol.get("line")
    if not isinstance(value, int) or not (second is None or isinstance(second, int)):
        raise ValueError("solution.value must be an integer, solution.second one or null")
    if not isinstance(line, list) or not line:
        raise ValueError("solution.line must be a non-empty list of actions")
    level, length, easy = grade.get("level"), grade.get("length"), grade.get("mcts_easy")
    if level not in LEVELS or not isinstance(length, int) or not isinstance(easy, bool):
        raise ValueError(f"grade needs level ({', '.join(LEVELS)}), length and mcts_easy")
    source = data.get("source", "")
    return Puzzle(
        id=pid,
        question=kind,
        position=position_from_json(data.get("position")),
        solution=Solution(value, second, tuple(action_from_json(a) for a in line)),
        grade=Grade(level, length, easy),
        source=source if isinstance(source, str) else "",
    )


def dumps(puzzles: list[Puzzle]) -> str:
    """The file text: one puzzle a line inside the document, so diffs stay readable."""
    items = ",\n".join("  " + json.dumps(puzzle_to_json(p), sort_keys=True) for p in puzzles)
    head = json.dumps({"format": FORMAT, "version": VERSION})[:-1]
    return f'{head}, "puzzles": [\n{items}\n]}}\n'


def loads(text: str) -> list[Puzzle]:
    """Every puzzle of a file's text; PuzzleFileError names the puzzle and the fault."""
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as exc:
        raise PuzzleFileError(f"not JSON: {exc}") from None
    except RecursionError:
        raise PuzzleFileError("not JSON: nested too deeply") from None
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise PuzzleFileError(f"not a puzzle file (format must be {FORMAT!r})")
    if doc.get("version") != VERSION:
        raise PuzzleFileError(f"version {doc.get('version')!r} is not supported (only {VERSION})")
    items = doc.get("puzzles")
    if not isinstance(items, list):
        raise PuzzleFileError("puzzles must be a list")
    out: list[Puzzle] = []
    seen: set[str] = set()
    for i, item in enumerate(items):
        try:
            puzzle = puzzle_from_json(item)
        except (ValueError, TypeError, SkyTotemsError) as exc:
            raise PuzzleFileError(f"puzzle {i + 1}: {exc}") from None
        if puzzle.id in seen:
            raise PuzzleFileError(f"puzzle {i + 1}: id {puzzle.id!r} is used twice")
        seen.add(puzzle.id)
        out.append(puzzle)
    return out


def shipped() -> list[Puzzle]:
    """The puzzles that come with the package."""
    text = resources.files("skytotems.puzzles").joinpath("data", SHIPPED).read_text("utf-8")
    return loads(text)
