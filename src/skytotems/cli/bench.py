"""`skytotems bench`: engine throughput on one core, through the public API only.

Three figures share the time budget, a third each (whole games always finish,
and at least one game runs, so a tiny budget still measures something):

- full random games per second, 2 and 4 players, beginner set. Each step asks
  `legal_actions()` and applies a uniformly chosen one with `apply_fast()`, which skips
  validation and events. Because the chooser only ever picks from `legal_actions()`,
  only legal actions are applied, and every legal action is reachable. The steps of
  the 2-player games give `steps_per_second` (legal_actions + apply_fast).
- `validated_steps_per_second`: the same 2-player random play through the full
  `apply()`, which checks legality and returns events, as a server or the terminal
  uses it; compare it with `steps_per_second`.
- `mcts_iterations_per_second`: mcts-hard's search on a fixed set of positions (top of
  a turn, reached by seeded random play in 2-player and solo games), each decided by a
  fresh bot; the search's iterations over its time. The budget stays the 250
  iterations hard had when the figure was introduced (`SEARCH_ITERATIONS`), so that a
  level given more iterations is not measured on deeper trees and warmer memos. It is
  not part of the time budget: the positions are fixed, so runs compare like with like
  (a few seconds).

Game construction (dealing, shuffling) and the random choice are part of the timing.
`compiled` says which path ran: the mypyc-compiled modules or the pure-Python sources
(`SKYTOTEMS_PURE=1` measures the latter on a compiled install; docs/bots.md).
"""

from __future__ import annotations

import json
import math
import platform
import random
import time
from dataclasses import replace
from typing import Any

import click

from .. import native
from ..bots.mcts import LEVELS, MctsBot
from ..rules.engine import Game
from ..rules.options import GameOptions
from ..rules.view import view

DEFAULT_SECONDS = 24.0  # about 8 s per figure: the whole run stays under 30 s
FIGURES = 3
BENCH_SEED = 20_240_101  # fixed, so runs on one machine compare like with like
# (players, seed, random actions before the position): early, middle and late turns.
SEARCH_POSITIONS = (
    (2, 1, 15),
    (2, 2, 45),
    (2, 3, 75),
    (1, 4, 15),
    (1, 5, 45),
    (1, 6, 75),
)
SEARCH_ITERATIONS = 250  # per position: mcts-hard's budget when the figure was introduced


def _random_game(options: GameOptions, seed: int, chooser: random.Random, validated: bool) -> int:
    """One random game through legal_actions + apply (validated, with events) or
    apply_fast; the number of steps."""
    game = Game(options, seed)
    apply = game.apply if validated else game.apply_fast
    steps = 0
    while not game.is_over:
        actions = game.legal_actions(game.decision.seats[0])
        apply(actions[chooser.randrange(len(actions))])
        steps += 1
    return steps


def measure(players: int, budget: float, validated: bool = False) -> tuple[int, int, float]:
    """Random games for about `budget` seconds (at least one): (games, steps, seconds)."""
    options = GameOptions(players=players, totems="beginner")
    chooser = random.Random(BENCH_SEED)
    games = steps = 0
    start = time.perf_counter()
    elapsed = 0.0
    while games == 0 or elapsed < budget:
        steps += _random_game(options, BENCH_SEED + games, chooser, validated)
        games += 1
        elapsed = time.perf_counter() - start
    return games, steps, elapsed


def search_position(players: int, seed: int, moves: int) -> Game:
    """A fixed position: `moves` seeded random actions, then on to the next turn decision
    with more than one legal action."""
    game = Game(GameOptions(players=players, totems="beginner"), BENCH_SEED + seed)
    chooser = random.Random(seed)
    played = 0
    while not game.is_over:
        seat = game.decision.seats[0]
        actions = game.legal_actions(seat)
        if played >= moves and game.decision.kind == "turn" and len(actions) > 1:
            return game
        game.apply_fast(actions[chooser.randrange(len(actions))])
        played += 1
    raise ValueError(f"game {seed} ended before move {moves}")


def measure_search(positions: int = len(SEARCH_POSITIONS)) -> tuple[int, float]:
    """mcts-hard on the first `positions` search positions: (iterations, CPU seconds of
    search). CPU time of this process, so that other work on the machine (the search
    runs for seconds) weighs less on the figure."""
    iterations = 0
    elapsed = 0.0
    for players, seed, moves in SEARCH_POSITIONS[:positions]:
        game = search_position(players, seed, moves)
        seat = game.decision.seats[0]
        seen, legal = view(game, seat), game.legal_actions(seat)
        bot = MctsBot(seed, level=replace(LEVELS["hard"], iterations=SEARCH_ITERATIONS))
        start = time.process_time()
        bot.choose(seen, legal)
        elapsed += time.process_time() - start
        iterations += bot.last_iterations
    return iterations, elapsed


def run_bench(seconds: float, search_positions: int = len(SEARCH_POSITIONS)) -> dict[str, Any]:
    """The engine figures within about `seconds` in total, then the search figure."""
    share = seconds / FIGURES
    start = time.perf_counter()
    games_2p, steps_2p, time_2p = measure(2, share)
    games_4p, steps_4p, time_4p = measure(4, share)
    _, checked_steps, checked_time = measure(2, share, validated=True)
    search_iterations, search_time = measure_search(search_positions)
    return {
        "games_per_second_2p": round(games_2p / time_2p, 1),
        "games_per_second_4p": round(games_4p / time_4p, 1),
        "steps_per_second": round(steps_2p / time_2p),
        "validated_steps_per_second": round(checked_steps / checked_time),
        "mcts_iterations_per_second": round(search_iterations / search_time, 1),
        "mcts_positions": search_positions,
        "games_2p": games_2p,
        "games_4p": games_4p,
        "mean_steps_2p": round(steps_2p / games_2p, 1),
        "mean_steps_4p": round(steps_4p / games_4p, 1),
        "totems": "beginner",
        "python": f"{platform.python_implementation()} {platform.python_version()}",
        # the engine and the bots compiled with mypyc, or their pure-Python sources
        "compiled": native.is_compiled(),
        "machine": platform.machine(),
        "seconds": round(time.perf_counter() - start, 2),
    }


MAX_SECONDS = 3600.0  # an hour: more measures nothing better, and inf would never end


def check_finite(ctx: click.Context, param: click.Parameter, value: float) -> float:
    """Refuse nan, which passes every range check (click callback)."""
    if math.isnan(value):
        raise click.BadParameter("must be a number of seconds, not nan", ctx, param)
    return value


@click.command()
@click.option(
    "--seconds",
    type=click.FloatRange(min=0, max=MAX_SECONDS, min_open=True),
    default=DEFAULT_SECONDS,
    show_default=True,
    callback=check_finite,
    help="Time budget of the random-game figures, a third each (2 players, 4 players, "
    "validated steps); the search figure runs apart, on fixed positions (a few seconds).",
)
@click.option(
    "--search-positions",
    type=click.IntRange(1, len(SEARCH_POSITIONS)),
    default=len(SEARCH_POSITIONS),
    show_default=True,
    help="How many of the fixed positions mcts-hard searches (compare like with like).",
)
@click.option("--json", "as_json", is_flag=True, help="Last stdout line: one JSON object.")
def bench(seconds: float, search_positions: int, as_json: bool) -> None:
    """Measure random games per second (2 and 4 players), engine steps per second and
    mcts-hard search iterations per second."""
    click.echo(f"bench: about {seconds:g} s on one core...", err=True)
    data = run_bench(seconds, search_positions)
    if as_json:
        click.echo(json.dumps(data))
        return
    click.echo(
        f"{data['python']} on {data['machine']} ({native.describe()}),"
        f" beginner set, {data['seconds']} s"
    )
    click.echo(
        f"random games/s, 2 players: {data['games_per_second_2p']} "
        f"({data['games_2p']} games, {data['mean_steps_2p']} actions each)"
    )
    click.echo(
        f"random games/s, 4 players: {data['games_per_second_4p']} "
        f"({data['games_4p']} games, {data['mean_steps_4p']} actions each)"
    )
    click.echo(f"steps/s, legal_actions + apply_fast: {data['steps_per_second']}")
    click.echo(
        f"steps/s, legal_actions + apply (validated, events): {data['validated_steps_per_second']}"
    )
    click.echo(
        f"mcts-hard search iterations/s: {data['mcts_iterations_per_second']} "
        f"({data['mcts_positions']} fixed position{'' if data['mcts_positions'] == 1 else 's'}, "
        f"{SEARCH_ITERATIONS} iterations each)"
    )
