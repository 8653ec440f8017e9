"""Mine puzzles from bot games, and re-prove puzzle files.

`generate` plays seeded bot games; at the top of each turn and at each open pool right
after a slot was taken it asks every question (`questions.QUESTIONS`) of the position.
A position becomes a puzzle when the search proves it (no draw within the turn, at most
`max_nodes` nodes) and its best first move beats every other first move by at least
`MARGIN` points (or every other first move fails the question). Each puzzle is graded by
the length of its shortest solution and whether mcts-easy, playing the turn, reaches
the optimum. `check` re-proves a list of puzzles.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ..bots.registry import make_bot
from ..rules.engine import Game
from ..rules.options import GameOptions
from ..rules.position import game_from_position
from ..rules.view import view
from .model import Grade, Puzzle, Solution, position_of
from .questions import QUESTIONS, Origin, Question, objective, question, turn_over
from .solver import FAILED, Proof, Unproved, solve, solve_all

MARGIN = 2  # points by which the best first move must beat the second best
MIN_LENGTH = 2  # a one-move turn (a single pedestal to place) is no puzzle
MIN_CHOICES = 3  # nor is a choice between two moves
GRADING_BOT = "mcts-easy"
# The rarer questions first: a position is asked them before "points".
ORDER = ("two_totems", "reveal", "points")

Progress = Callable[[int, int], None]


def qualifies(proof: Proof) -> bool:
    """A proof makes a puzzle: the question can be met, and the best first moves beat
    every other by MARGIN points (or every other fails the question)."""
    if proof.value <= FAILED or proof.length < MIN_LENGTH or proof.choices < MIN_CHOICES:
        return False
    if len(proof.best_moves) == proof.choices:
        return False
    if proof.margin is None:
        return True
    return proof.margin >= MARGIN


def level(length: int, found: bool) -> str:
    """easy, medium or hard from the solution's length and whether mcts-easy found it."""
    d = (0 if found else 2) + (0 if length <= 3 else 1 if length <= 6 else 2)
    return "easy" if d <= 1 else "medium" if d == 2 else "hard"


def bot_result(game: Game, origin: Origin, asked: Question, bot: str, seed: int) -> int | None:
    """The question's value of the turn as `bot` plays it from `game` (a copy is played)."""
    player = make_bot(bot, seed)
    game = game.copy()
    while not turn_over(game, origin):
        seat = origin.seat
        game.apply(player.choose(view(game, seat), game.legal_actions(seat)))
    return objective(game, origin, asked)


def prove(game: Game, asked: Sequence[Question], max_nodes: int) -> list[Proof | None]:
    """For each question of `asked`, its proof at `game` if it makes a puzzle, else None."""
    origin = Origin.of(game, game.decision.seats[0])
    try:
        proofs = solve_all(game, origin, asked, cap=max_nodes)
    except Unproved:
        return [None] * len(asked)
    return [p if qualifies(p) else None for p in proofs]


def puzzles_of_game(
    seed: int, options: GameOptions, bots: Sequence[str], max_nodes: int
) -> list[Puzzle]:
    """The puzzles found in one seeded bot game (at most one per position)."""
    game = Game(options, seed)
    players = [make_bot(name, seed * 31 + s) for s, name in enumerate(bots)]
    found: list[Puzzle] = []
    while not game.is_over:
        seat = game.decision.seats[0]
        position = position_of(game)
        if position is not None:
            start = game_from_position(position)
            asked = [QUESTIONS[kind] for kind in ORDER]
            for kind, proof in zip(ORDER, prove(start, asked, max_nodes), strict=True):
                if proof is None:
                    continue
                origin = Origin.of(start, seat)
                easy = bot_result(start, origin, QUESTIONS[kind], GRADING_BOT, seed) == proof.value
                found.append(
                    Puzzle(
                        id=f"s{seed}m{len(game.history)}",
                        question=kind,
                        position=position,
                        solution=Solution(proof.value, proof.second, proof.line),
                        grade=Grade(level(proof.length, easy), proof.length, easy),
                        source=f"{' vs '.join(bots)}, seed {seed}, move {len(game.history)}",
                    )
                )
                break
        game.apply(players[seat].choose(view(game, seat), game.legal_actions(seat)))
    return found


def generate(
    games: int,
    seed: int = 0,
    options: GameOptions | None = None,
    bots: Sequence[str] = ("greedy", "greedy"),
    max_nodes: int = 100_000,
    progress: Progress | None = None,
) -> list[Puzzle]:
    """Puzzles from `games` bot games seeded seed, seed+1, ..."""
    options = options or GameOptions()
    out: list[Puzzle] = []
    for i in range(games):
        out.extend(puzzles_of_game(seed + i, options, bots, max_nodes))
        if progress is not None:
            progress(i + 1, games)
    return out


@dataclass(frozen=True, slots=True)
class CheckResult:
    id: str
    ok: bool
    message: str
    nodes: int
    seconds: float


def check_puzzle(puzzle: Puzzle, max_nodes: int = 1_000_000) -> CheckResult:
    """Re-prove `puzzle`: the search finds its value and second value, its line is legal,
    ends the turn and reaches the value, and it still qualifies as a puzzle."""
    started = time.perf_counter()

    def result(ok: bool, message: str, nodes: int = 0) -> CheckResult:
        return CheckResult(puzzle.id, ok, message, nodes, time.perf_counter() - started)

    game = puzzle.start()
    asked = question(puzzle.question)
    origin = Origin.of(game, puzzle.position.seat)
    try:
        proof = solve(game, origin, asked, cap=max_nodes)
    except Unproved as exc:
        return result(False, f"not proved: {exc}")
    expected = puzzle.solution
    if (proof.value, proof.second) != (expected.value, expected.second):
        return result(
            False,
            f"proved value {proof.value} (second {proof.second}), the file says "
            f"{expected.value} (second {expected.second})",
            proof.nodes,
        )
    if not qualifies(proof):
        return result(False, "no longer a puzzle: the best first move is not clear", proof.nodes)
    replayed = game.copy()
    for i, action in enumerate(expected.line):
        if turn_over(replayed, origin) or not replayed.is_legal(action):
            return result(False, f"solution move {i + 1} ({action}) is not legal", proof.nodes)
        replayed.apply(action)
    if not turn_over(replayed, origin):
        return result(False, "the solution does not finish the turn", proof.nodes)
    if objective(replayed, origin, asked) != expected.value:
        return result(False, "the solution does not reach the proved value", proof.nodes)
    return result(True, f"proved: {proof.value} points, {_next_best(proof.second)}", proof.nodes)


def _next_best(second: int | None) -> str:
    """The runner-up in words: None when every first move can reach the best value."""
    return "no other first move" if second is None else f"next best {second}"


def check(puzzles: Sequence[Puzzle], progress: Progress | None = None) -> list[CheckResult]:
    """Re-prove every puzzle."""
    out = []
    for i, puzzle in enumerate(puzzles):
        out.append(check_puzzle(puzzle))
        if progress is not None:
            progress(i + 1, len(puzzles))
    return out
