"""`skytotems solo`: the solo challenge played by a bot (two altars, one mind).

Prints the mean total and how often each of the rulebook's bands was reached; with
`--json` the last stdout line is one JSON object (see `skytotems.bots.solo`).
"""

from __future__ import annotations

import json
import os

import click

from ..bots.registry import BOT_NAMES
from ..bots.solo import format_solo, run_solo, summarize_solo
from .sim import TOTEMS_HELP, check_totem_set


@click.command("solo")
@click.option(
    "--bot",
    "bot",
    type=click.Choice(BOT_NAMES),
    default="mcts",
    show_default=True,
    help="The bot that plays both altars.",
)
@click.option(
    "--games", type=click.IntRange(1), default=20, show_default=True, help="Solo games to play."
)
@click.option("--seed", type=int, default=0, show_default=True, help="Series seed.")
@click.option(
    "--workers",
    type=click.IntRange(1),
    default=None,
    help="Parallel processes (default: the CPU count).",
)
@click.option(
    "--totems",
    default="beginner",
    show_default=True,
    callback=check_totem_set,
    help=TOTEMS_HELP,
)
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON (last line).")
@click.option("--no-progress", is_flag=True, help="No progress bar on stderr.")
def solo(
    bot: str,
    games: int,
    seed: int,
    workers: int | None,
    totems: str,
    as_json: bool,
    no_progress: bool,
) -> None:
    """Play the solo game with a bot and report the mean total and the bands reached."""
    results = run_solo(
        bot, games, seed, workers or os.cpu_count() or 1, progress=not no_progress, totems=totems
    )
    summary = summarize_solo(results, bot, seed)
    summary["totems"] = totems
    click.echo(format_solo(summary))
    if as_json:
        click.echo(json.dumps(summary, sort_keys=True))


if __name__ == "__main__":  # python -m skytotems.cli.solo (before it is registered)
    solo()
