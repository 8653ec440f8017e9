"""Shared helpers of the bot tests: positions reached by quick, varied play."""

from __future__ import annotations

import random
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

from skytotems import Game, GameOptions, PlacePedestal
from skytotems.bots.mcts import LEVELS, Level, MctsBot

# A search budget small enough for tests that check legality and determinism.
# (the time cap is only a safety limit: ample, so a loaded machine never cuts a search)
TINY = Level(iterations=3, determinizations=1, time_cap=120.0)
# The same, with the other seats' turns chosen by the estimate in playouts (as hard).
TINY_ESTIMATE = Level(iterations=3, determinizations=1, time_cap=120.0, opponent_turn="estimate")

# The expert level (mcts-expert) with the tiny budget: its other settings as they are.
TINY_EXPERT = replace(LEVELS["expert"], iterations=3, time_cap=120.0)
TINY_LEVELS = {
    "mcts-tiny": TINY,
    "mcts-tiny-estimate": TINY_ESTIMATE,
    "mcts-tiny-expert": TINY_EXPERT,
}


def tiny_mcts(name: str, seed: int) -> MctsBot:
    """`mcts-tiny`, `mcts-tiny-estimate` or `mcts-tiny-expert`: a search bot small
    enough for tests."""
    return MctsBot(seed, TINY_LEVELS[name])


SETUPS = (
    (2, "beginner"),
    (3, "dragon"),
    (4, "random-four"),
    (1, "dragon"),
    (1, "beginner"),
    (2, "cat-plus-three"),
)


def tower_biased_action(game: Game, seat: int, chooser: random.Random) -> object:
    """Mostly random play that likes stacking on tall columns, so cats and late-game
    decisions (cat order, wolf blessings, last reveals) come up often."""
    legal = game.legal_actions(seat)
    stacks = game.altars[seat].stacks
    stacking = [a for a in legal if isinstance(a, PlacePedestal) and a.cell in stacks]
    if stacking and chooser.random() < 0.8:
        return max(stacking, key=lambda a: (len(stacks[a.cell]), chooser.random()))
    return chooser.choice(legal)


def positions(games: int, seed: int = 0) -> Iterator[tuple[Game, int]]:
    """(game, seat to act) at every decision of `games` games of varied play."""
    chooser = random.Random(seed)
    for i in range(games):
        players, totems = SETUPS[i % len(SETUPS)]
        game = Game(GameOptions(players=players, totems=totems), seed=seed * 1000 + i)
        while not game.is_over:
            seat = game.decision.seats[0]
            yield game, seat
            game.apply(tower_biased_action(game, seat, chooser))  # type: ignore[arg-type]


def first_real_turn() -> tuple[Game, int]:
    """A 2-player game (seed 21) at its first turn decision, and the seat to play."""
    game = Game(GameOptions(players=2), seed=21)
    while game.decision.kind != "turn":
        seat = game.decision.seats[0]
        game.apply(game.legal_actions(seat)[0])
    return game, game.decision.seats[0]


BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"


def run_benchmark(
    script: str, *args: str, timeout: float = 120
) -> subprocess.CompletedProcess[str]:
    """`python benchmarks/SCRIPT ARGS...` as a user runs it, its output captured."""
    return subprocess.run(
        [sys.executable, str(BENCHMARKS / script), *args],
        capture_output=True,
        text=True,
        timeout=timeout,
    )


SCRIPTS = Path(__file__).resolve().parents[2] / "scripts"


def assert_script_refuses(script: str, args: list[str], message: str) -> None:
    """`python scripts/SCRIPT ARGS...` stops with usage's status 2 and one line naming
    what is wrong, no traceback."""
    result = subprocess.run(
        [sys.executable, str(SCRIPTS / script), *args],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 2
    assert message in result.stderr
    assert "Traceback" not in result.stderr
