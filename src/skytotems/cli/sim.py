"""`skytotems sim`: many games of uniformly random legal play, to shake out engine errors.

Game i (from 0) uses seed S+i both for the engine and for the random chooser, so any
game can be replayed alone with ``--seed S+i --games 1``. Every action goes through
the validated `Game.apply` (with events), so an engine inconsistency surfaces as an
exception; each game that raises counts as one error and the exit status is 1.
"""

from __future__ import annotations

import json
import random
import sys
import time
import traceback
from dataclasses import dataclass, field
from typing import Any

import click

from ..rules.engine import Game
from ..rules.errors import OptionsError
from ..rules.options import TOTEM_SETS, GameOptions
from ..rules.scoring import score_sheet

# Far above any real game (about 100 actions for 2 seats, 200 for 4): a guard against a
# machine that never ends, which would otherwise hang the simulation.
MAX_STEPS = 20_000
PROGRESS_EVERY = 2.0  # seconds between progress lines on stderr
SHOWN_TRACEBACKS = 3


def check_totem_set(ctx: click.Context, param: click.Parameter, value: str) -> str:
    """Validate a `--totems` value the way the engine will read it (click callback)."""
    text = value.strip()
    try:
        GameOptions(players=2, totems=text)
    except OptionsError as exc:
        hint = "" if "," in text else f" (or a set: {', '.join(TOTEM_SETS)})"
        raise click.BadParameter(f"{exc}{hint}", ctx, param) from None
    return text


TOTEMS_HELP = (
    "Totem set: beginner (default), dragon, cat-plus-three, random-four, "
    "or four names such as bird,wolf,horse,dragon."
)


def play_random_game(options: GameOptions, seed: int) -> tuple[Game, int]:
    """One game of uniform random legal play through the validated `apply`; (game, steps)."""
    game = Game(options, seed)
    chooser = random.Random(seed)
    steps = 0
    while not game.is_over:
        if steps >= MAX_STEPS:
            raise RuntimeError(f"no end after {MAX_STEPS} actions")
        seat = game.decision.seats[0]
        game.apply(chooser.choice(game.legal_actions(seat)))
        steps += 1
    return game, steps


@dataclass
class SimResult:
    """Totals of a simulation run."""

    options: GameOptions
    seed: int
    games: int = 0
    errors: int = 0
    steps: int = 0
    seconds: float = 0.0
    scores: list[list[int]] = field(default_factory=list)  # per seat, finished games only

    def to_json(self) -> dict[str, Any]:
        finished = [s for s in self.scores if s]
        out: dict[str, Any] = {
            "games": self.games,
            "players": self.options.players,
            "seats": self.options.seats,
            "totems": self.options.totems,
            "seed": self.seed,
            "seconds": round(self.seconds, 3),
            "games_per_second": round(self.games / self.seconds, 2) if self.seconds else 0.0,
            "steps": self.steps,
            "errors": self.errors,
            "mean_score": [round(sum(s) / len(s), 2) if s else None for s in self.scores],
            "max_score": [max(s) if s else None for s in self.scores],
        }
        if self.options.solo and finished:
            totals = [sum(pair) for pair in zip(*self.scores, strict=True)]
            out["solo_mean_total"] = round(sum(totals) / len(totals), 2)
            out["solo_max_total"] = max(totals)
        return out


def run_sim(options: GameOptions, games: int, seed: int, progress: bool = True) -> SimResult:
    """Play `games` random games; exceptions are counted per game, never raised."""
    result = SimResult(options, seed, scores=[[] for _ in range(options.seats)])
    start = last_report = time.perf_counter()
    for i in range(games):
        try:
            game, steps = play_random_game(options, seed + i)
        except Exception as exc:  # every failure is a finding: count it and go on
            result.errors += 1
            click.echo(f"sim: game {i} (seed {seed + i}) failed: {exc!r}", err=True)
            if result.errors <= SHOWN_TRACEBACKS:
                click.echo(traceback.format_exc(), err=True)
        else:
            result.steps += steps
            for s in range(game.n):
                result.scores[s].append(score_sheet(game, s).total)
        result.games += 1
        now = time.perf_counter()
        if progress and now - last_report >= PROGRESS_EVERY:
            click.echo(f"sim: {i + 1}/{games} games, {result.errors} errors", err=True)
            last_report = now
    result.seconds = time.perf_counter() - start
    return result


def report_lines(result: SimResult) -> list[str]:
    """The human-readable summary."""
    data = result.to_json()
    lines = [
        f"games: {data['games']} ({data['players']} players"
        f"{', solo' if result.options.solo else ''}, totems {data['totems']}, seed {data['seed']})",
        f"time: {data['seconds']} s, {data['games_per_second']} games/s, {data['steps']} actions",
    ]
    for s, (mean, best) in enumerate(zip(data["mean_score"], data["max_score"], strict=True)):
        lines.append(f"seat {s}: mean score {mean}, max {best}")
    if "solo_mean_total" in data:
        lines.append(f"solo total: mean {data['solo_mean_total']}, max {data['solo_max_total']}")
    lines.append(f"errors: {data['errors']}")
    return lines


@click.command()
@click.option(
    "--players",
    type=click.IntRange(1, 4),
    default=2,
    show_default=True,
    help="Players, 1 = solo (two altars).",
)
@click.option(
    "--games", type=click.IntRange(min=1), default=100, show_default=True, help="Games to play."
)
@click.option("--seed", type=int, default=0, show_default=True, help="Game i uses seed+i.")
@click.option(
    "--totems", default="beginner", metavar="SET", callback=check_totem_set, help=TOTEMS_HELP
)
@click.option("--json", "as_json", is_flag=True, help="Last stdout line: one JSON object.")
def sim(players: int, games: int, seed: int, totems: str, as_json: bool) -> None:
    """Play games of uniformly random legal moves; report speed, scores and errors."""
    options = GameOptions(players=players, totems=totems)
    result = run_sim(options, games, seed)
    if as_json:
        click.echo(json.dumps(result.to_json()))
    else:
        for line in report_lines(result):
            click.echo(line)
    if result.errors:
        sys.exit(1)
