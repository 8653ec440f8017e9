"""What a puzzle asks: a condition on the turn and the points it scores.

Every question is "score the most points this turn" under a condition that must hold
at the end of the turn (none, two totems built, a goal revealed). The objective of a
finished turn is a function of its final state and of the puzzle's start, so equal
states have equal values and the solver may share them (a transposition table).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..rules.engine import Game
from ..rules.scoring import score_sheet


@dataclass(frozen=True, slots=True)
class Question:
    """One kind of question: its id, its text, and how many totems / reveals it needs."""

    kind: str
    text: str
    totems: int = 0  # totems (cats included) the turn must build
    reveals: int = 0  # goals the turn must reveal


QUESTIONS: dict[str, Question] = {
    q.kind: q
    for q in (
        Question("points", "Score the most points this turn."),
        Question("two_totems", "Build two totems this turn, scoring the most points.", totems=2),
        Question("reveal", "Reveal a goal this turn and gain the most points.", reveals=1),
    )
}


def question(kind: str) -> Question:
    """The question called `kind`; ValueError names the known ones."""
    found = QUESTIONS.get(kind)
    if found is None:
        raise ValueError(f"unknown question {kind!r}; expected one of {', '.join(QUESTIONS)}")
    return found


@dataclass(frozen=True, slots=True)
class Origin:
    """The puzzle's start, which every end of turn is measured against."""

    seat: int
    score: int
    totems: int
    reveals: int
    turn: tuple[int, int, str]  # round, turns played in the round, phase

    @classmethod
    def of(cls, game: Game, seat: int) -> Origin:
        return cls(
            seat=seat,
            score=score_sheet(game, seat).total,
            totems=len(game.altars[seat].totems),
            reveals=len(game.revealed[seat]),
            turn=turn_marker(game),
        )


def turn_marker(game: Game) -> tuple[int, int, str]:
    """What changes exactly when play passes on (a horse's extra turn keeps it)."""
    return (game.round, game.turns_in_round, game.phase)


def turn_over(game: Game, origin: Origin) -> bool:
    """Whether the turn that started at `origin` has ended."""
    return game.is_over or turn_marker(game) != origin.turn


def objective(game: Game, origin: Origin, asked: Question) -> int | None:
    """Points scored since `origin`, or None when the turn failed the question's condition."""
    seat = origin.seat
    if len(game.altars[seat].totems) - origin.totems < asked.totems:
        return None
    if len(game.revealed[seat]) - origin.reveals < asked.reveals:
        return None
    return score_sheet(game, seat).total - origin.score
