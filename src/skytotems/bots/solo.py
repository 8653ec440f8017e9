"""The solo challenge (RULES.md §10): one bot plays both altars of a 2-player game.

The result is the sum of both altars' scores, rated by the rulebook's bands. The bot
sees both hands (in solo the one person holds both seats) and plays for the total.
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..rules.options import GameOptions
from ..rules.scoring import SOLO_BANDS, solo_band
from .arena import GameResult, mix_seed, play_game, run_parallel
from .registry import make_bot

# Bands from the lowest up, as the rulebook lists them.
BANDS = tuple(name for _, name in reversed(SOLO_BANDS))
BAND_FLOORS = {name: floor for floor, name in SOLO_BANDS}


@dataclass(frozen=True)
class SoloTask:
    """One solo game of a series."""

    index: int
    bot: str
    game_seed: int
    bot_seed: int
    totems: str


def solo_tasks(bot: str, games: int, seed: int, totems: str = "beginner") -> list[SoloTask]:
    """The games of a solo series (game i's deal and bot seed derive from `seed` and i)."""
    return [
        SoloTask(i, bot, mix_seed(seed, i, 2), mix_seed(seed, i, 3), totems) for i in range(games)
    ]


def play_solo_task(task: SoloTask) -> GameResult:
    """Play one solo game: the same bot object decides for both seats."""
    bot = make_bot(task.bot, task.bot_seed)
    options = GameOptions(players=1, totems=task.totems)
    return play_game([bot, bot], options, task.game_seed, task.index, (task.bot, task.bot))


def run_solo(
    bot: str,
    games: int,
    seed: int,
    workers: int | None = None,
    progress: bool = True,
    totems: str = "beginner",
) -> list[GameResult]:
    """Play `games` solo games with `bot` (in worker processes)."""
    make_bot(bot, 0)  # validates the name before any process starts
    return run_parallel(play_solo_task, solo_tasks(bot, games, seed, totems), workers, progress)


def summarize_solo(results: Sequence[GameResult], bot: str, seed: int) -> dict[str, Any]:
    """The series report (the `--json` object of `skytotems solo`).

    `bands` is the share of games that ended in each band; `reached` the share that
    reached at least that band; `totals` each game's total in game order (game i of a
    seed is the same deal for every bot: series pair by it).
    """
    totals = [r.total for r in sorted(results, key=lambda r: r.index)]
    n = len(totals)
    counts = {name: 0 for name in BANDS}
    for t in totals:
        counts[solo_band(t)] += 1
    decisions = sum(sum(r.decisions) for r in results)
    seconds = sum(sum(r.seconds) for r in results)
    return {
        "bot": bot,
        "games": n,
        "seed": seed,
        "mean_total": statistics.fmean(totals) if totals else 0.0,
        "total_sd": statistics.stdev(totals) if n > 1 else 0.0,
        "min_total": min(totals, default=0),
        "max_total": max(totals, default=0),
        "bands": {name: counts[name] / n if n else 0.0 for name in BANDS},
        "reached": {
            name: sum(1 for t in totals if t >= BAND_FLOORS[name]) / n if n else 0.0
            for name in BANDS
        },
        "mean_decision_ms": 1000.0 * seconds / decisions if decisions else 0.0,
        "totals": totals,
    }


def format_solo(summary: dict[str, Any]) -> str:
    """The human-readable report of a solo series."""
    lines = [
        f"solo: {summary['bot']}, {summary['games']} games, seed {summary['seed']}",
        f"mean total {summary['mean_total']:.1f} (sd {summary['total_sd']:.1f}, "
        f"min {summary['min_total']}, max {summary['max_total']}), "
        f"{summary['mean_decision_ms']:.1f} ms per decision",
        f"{'band':<20} {'floor':>5} {'ended in':>9} {'reached':>8}",
    ]
    for name in BANDS:
        lines.append(
            f"{name:<20} {BAND_FLOORS[name]:>5} {summary['bands'][name]:>9.1%} "
            f"{summary['reached'][name]:>8.1%}"
        )
    return "\n".join(lines)
