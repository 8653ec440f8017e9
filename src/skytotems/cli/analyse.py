"""`skytotems analyse RECORD.json`: what each decision of a finished game cost its player.

Reads a game record (the engine's format, which is also what the server's download
gives: docs/record-format.md), analyses every decision with more than one legal choice
from its player's view at the time (`skytotems.bots.analysis`, docs/analysis.md) and
prints one line per decision; with `--json` the last stdout line is the whole report.
Option errors are one line naming the option (exit 2).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import IO, Any

import click

from ..bots.analysis import DEFAULT_LEVEL, LEVELS, analyse_game
from ..rules.actions import action_from_json
from ..rules.engine import Game
from ..rules.errors import RecordError
from ..rules.record import replay
from .progress import progress_bar


class OneLineUsageError(click.UsageError):
    """A usage error shown as one line (no usage block): `Error: Invalid value ...`."""

    def show(self, file: IO[Any] | None = None) -> None:
        click.echo(f"Error: {self.format_message()}", err=True)


class OneLineErrorsCommand(click.Command):
    """A command whose option and argument errors are one line, exit 2."""

    def make_context(self, *args: Any, **kwargs: Any) -> click.Context:
        try:
            return super().make_context(*args, **kwargs)
        except click.UsageError as exc:
            if isinstance(exc, OneLineUsageError):
                raise
            raise OneLineUsageError(exc.format_message(), exc.ctx) from None


def bad(param: str, message: str) -> OneLineUsageError:
    return OneLineUsageError(f"Invalid value for '{param}': {message}")


def load_game(path: Path) -> Game:
    """The finished game of a record file; a one-line usage error if it is not one."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise bad("RECORD", f"cannot read {path}: {exc}") from None
    try:
        game = replay(text)
    except RecordError as exc:
        raise bad("RECORD", str(exc)) from None
    if not game.is_over:
        raise bad("RECORD", "the game is not finished: only finished games are analysed")
    return game


def describe(decision: dict[str, Any]) -> str:
    """One line for a decision: move, seat, played, best, loss and its interval, mark."""
    played = action_from_json(decision["played"])
    best = action_from_json(decision["best"])
    low, high = decision["loss_ci95"]
    mark = f"  {decision['mark'].upper()}" if decision["mark"] else ""
    better = "" if best == played else f"  best {best}"
    return (
        f"move {decision['move']:>3} seat {decision['seat']} {decision['kind']:<15} "
        f"played {played}{better}  loss {decision['loss']:.1f} [{low:.2f}, {high:.2f}]{mark}"
    )


@click.command("analyse", cls=OneLineErrorsCommand)
@click.argument("record", type=click.Path(path_type=Path, dir_okay=False))
@click.option("--seat", type=int, default=None, help="Analyse this seat only (default: all).")
@click.option(
    "--level",
    type=click.Choice(list(LEVELS)),
    default=DEFAULT_LEVEL,
    show_default=True,
    help="Playout policy and sample size (docs/analysis.md).",
)
@click.option(
    "--determinizations",
    type=click.IntRange(2, 256),
    default=None,
    help="Games sampled per decision (default: the level's); more gives tighter intervals.",
)
@click.option("--seed", type=int, default=0, show_default=True, help="Analysis seed.")
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON (last line).")
@click.option("--no-progress", is_flag=True, help="No progress bar on stderr.")
def analyse(
    record: Path,
    seat: int | None,
    level: str,
    determinizations: int | None,
    seed: int,
    as_json: bool,
    no_progress: bool,
) -> None:
    """Analyse a finished game: each decision's loss in the player's own final score."""
    game = load_game(record)
    if seat is not None and not 0 <= seat < game.n:
        raise bad("--seat", f"{seat}: this game has seats 0 to {game.n - 1}")
    seats = None if seat is None else [seat]
    with progress_bar("decision", "analysing", no_progress) as progress:
        report = analyse_game(game, seats, level, seed, progress, determinizations or 0)
    for decision in report["decisions"]:
        click.echo(describe(decision))
    totals = ", ".join(f"seat {s}: {x:.1f}" for s, x in report["total_loss"].items())
    click.echo(f"clear losses, summed ({level}, {report['seconds']:.0f} s): {totals}")
    if as_json:
        click.echo(json.dumps(report))
