"""`skytotems arena`: seat-rotated matches between bots, with the match statistics.

Every bot sits in every seat equally often (the game count is rounded up to whole
rotation cycles; the lineups of one cycle share their deal). Games run in parallel
worker processes. Progress goes to stderr, the table to stdout; with `--json` the
last stdout line is one JSON object (see `skytotems.bots.arena.summarize`).
"""

from __future__ import annotations

import json
import math
import os
import re
from pathlib import Path

import click

from ..bots.arena import (
    format_table,
    games_needed,
    match_tasks,
    plot_scores,
    run_arena,
    summarize,
)
from ..bots.registry import BOT_NAMES
from .analyse import bad
from .paths import unwritable
from .sim import TOTEMS_HELP, check_totem_set

ASCII_COUNT = re.compile(r"[0-9]+")


def check_plot(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    """A `--plot` file that can be written, in a format matplotlib writes, checked before
    a match of minutes or hours rather than after it (click callback)."""
    if value is None:
        return None
    problem = unwritable(Path(value))
    if problem:
        raise click.BadParameter(problem, ctx, param)
    try:
        from matplotlib.figure import Figure
    except ImportError:
        raise click.BadParameter(
            "plots need matplotlib: pip install 'skytotems[plot]'", ctx, param
        ) from None
    formats = Figure().canvas.get_supported_filetypes()
    suffix = Path(value).suffix.lower().lstrip(".")
    if suffix not in formats:
        raise click.BadParameter(
            f"cannot write a plot as {suffix or 'a file without a suffix'}; "
            f"name a file ending in one of {', '.join(sorted(formats))}",
            ctx,
            param,
        )
    return value


def parse_bots(ctx: click.Context, param: click.Parameter, value: str) -> list[str]:
    """`mcts,greedy` → ['mcts', 'greedy'], each a known bot named once (click callback)."""
    names = [n.strip() for n in value.split(",") if n.strip()]
    unknown = [n for n in names if n not in BOT_NAMES]
    if unknown:
        raise click.BadParameter(
            f"unknown bot(s) {', '.join(unknown)}; expected names from {', '.join(BOT_NAMES)}",
            ctx,
            param,
        )
    if len(set(names)) != len(names):
        raise click.BadParameter("name each bot once", ctx, param)
    if not names:
        raise click.BadParameter("name at least one bot", ctx, param)
    return names


def parse_caps(
    ctx: click.Context, param: click.Parameter, value: tuple[str, ...]
) -> dict[str, int]:
    """`mcts-hard=4` (repeatable) → {'mcts-hard': 4} (click callback)."""
    caps = {}
    for item in value:
        name, _, count = item.partition("=")
        # ASCII digits only: str.isdigit accepts "²", which int() refuses
        count = count.strip()
        if name.strip() not in BOT_NAMES or not ASCII_COUNT.fullmatch(count) or int(count) < 1:
            raise click.BadParameter(
                f"{item!r}: expected BOT=GAMES, a bot of {', '.join(BOT_NAMES)} and GAMES >= 1",
                ctx,
                param,
            )
        caps[name.strip()] = int(count)
    return caps


def parse_anchor(
    ctx: click.Context, param: click.Parameter, value: str | None
) -> tuple[str, float] | None:
    """`random=0` → ('random', 0.0) (click callback)."""
    if value is None:
        return None
    name, _, rating = value.partition("=")
    message = f"{value!r}: expected BOT=RATING, a finite number, e.g. random=0"
    try:
        number = float(rating)
    except ValueError:
        raise click.BadParameter(message, ctx, param) from None
    if not math.isfinite(number):
        raise click.BadParameter(message, ctx, param)
    return name.strip(), number


@click.command("arena")
@click.option(
    "--bots",
    "bots",
    required=True,
    callback=parse_bots,
    help=f"Comma-separated bot names ({', '.join(BOT_NAMES)}).",
)
@click.option(
    "--players", type=click.IntRange(2, 4), default=2, show_default=True, help="Seats per game."
)
@click.option(
    "--games",
    type=click.IntRange(1),
    default=100,
    show_default=True,
    help="Games to play (rounded up to whole seat-rotation cycles).",
)
@click.option("--seed", type=int, default=0, show_default=True, help="Match seed.")
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
@click.option(
    "--plot",
    "plot",
    type=click.Path(dir_okay=False),
    default=None,
    callback=check_plot,
    help="Write the score distributions to this PNG file (or another format matplotlib "
    "writes: .svg, .pdf...), checked before the games.",
)
@click.option(
    "--games-with",
    "caps",
    multiple=True,
    callback=parse_caps,
    metavar="BOT=GAMES",
    help="At most GAMES games (whole seat rotations) of every pairing with BOT: a ladder "
    "of many bots plays its expensive ones less (repeatable).",
)
@click.option(
    "--anchor",
    callback=parse_anchor,
    default=None,
    metavar="BOT=RATING",
    help="Shift the Elo ratings so that BOT has RATING (e.g. random=0); default: mean 1500.",
)
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON (last line).")
@click.option("--no-progress", is_flag=True, help="No progress bar on stderr.")
def arena(
    bots: list[str],
    players: int,
    games: int,
    seed: int,
    workers: int | None,
    totems: str,
    plot: str | None,
    caps: dict[str, int],
    anchor: tuple[str, float] | None,
    as_json: bool,
    no_progress: bool,
) -> None:
    """Play seat-rotated matches between bots and report win rates, scores and Elo
    (with a 95% interval; of every pairing when more bots than seats are named: a
    ladder)."""
    if anchor is not None and anchor[0] not in bots:
        raise bad("--anchor", f"{anchor[0]!r} does not play in this match")
    absent = [name for name in caps if name not in bots]
    if absent:
        raise bad("--games-with", f"{', '.join(map(repr, absent))} does not play in this match")
    total = games_needed(bots, players, games)
    if caps:
        total = len(match_tasks(bots, players, games, seed, totems, caps))
        click.echo(f"playing {total} games (pairings capped by --games-with)", err=True)
    elif total != games:
        click.echo(
            f"playing {total} games so that every bot holds every seat equally often", err=True
        )
    results = run_arena(
        bots,
        players,
        games,
        seed,
        workers or os.cpu_count() or 1,
        progress=not no_progress,
        totems=totems,
        caps=caps,
    )
    summary = summarize(results, bots, players, seed, anchor)
    summary["totems"] = totems
    click.echo(format_table(summary))
    plot_error = None
    if plot:
        # a file the check passed that still cannot be written (a full disk, a special
        # file system) must not lose the match's figures: the report comes first
        try:
            plot_scores(results, bots, plot)
            click.echo(f"score distributions written to {plot}", err=True)
        except OSError as exc:
            plot_error = f"cannot write {plot}: {exc.strerror or exc}"
    if as_json:
        click.echo(json.dumps(summary, sort_keys=True))
    if plot_error:
        raise bad("--plot", plot_error)


if __name__ == "__main__":  # python -m skytotems.cli.arena (before it is registered)
    arena()
