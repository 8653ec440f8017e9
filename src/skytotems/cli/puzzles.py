"""`skytotems puzzles generate|check`: mine puzzles from bot games, re-prove a puzzle file.

The puzzles themselves are `skytotems.puzzles` (docs/puzzles.md). Progress goes to
stderr; with `--json` the last stdout line is one object. Option errors are one line
naming the option (exit 2); a file whose puzzles do not all re-prove exits 1.
"""

from __future__ import annotations

import json
import time
from collections import Counter
from pathlib import Path

import click

from ..bots.registry import BOT_NAMES
from ..puzzles.generate import check, generate
from ..puzzles.model import PuzzleFileError, dumps, loads
from ..rules.errors import OptionsError
from ..rules.options import GameOptions
from .analyse import OneLineErrorsCommand, bad
from .paths import unwritable
from .progress import progress_bar


@click.group("puzzles")
def puzzles() -> None:
    """Puzzles: positions whose best turn is proved by search (docs/puzzles.md)."""


@puzzles.command("generate", cls=OneLineErrorsCommand)
@click.option("--games", type=click.IntRange(1, 10_000), required=True, help="Bot games to mine.")
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of the first game.")
@click.option(
    "--out",
    type=click.Path(path_type=Path, dir_okay=False),
    default=Path("puzzles.json"),
    show_default=True,
    help="The puzzle file to write.",
)
@click.option(
    "--bots",
    default="greedy,greedy",
    show_default=True,
    help="The two bots that play the games, comma-separated.",
)
@click.option("--totems", default="beginner", show_default=True, help="The totem set.")
@click.option(
    "--max-nodes",
    type=click.IntRange(1, 1_000_000),
    default=100_000,
    show_default=True,
    help="Positions needing more nodes to prove are skipped.",
)
@click.option("--json", "as_json", is_flag=True, help="Print a summary as JSON (last line).")
@click.option("--no-progress", is_flag=True, help="No progress bar on stderr.")
def generate_command(
    games: int,
    seed: int,
    out: Path,
    bots: str,
    totems: str,
    max_nodes: int,
    as_json: bool,
    no_progress: bool,
) -> None:
    """Mine puzzles from bot games and write them to a puzzle file."""
    names = [b.strip() for b in bots.split(",")]
    if len(names) != 2 or any(n not in BOT_NAMES for n in names):
        raise bad("--bots", f"{bots!r}: name two of {', '.join(BOT_NAMES)}")
    try:
        options = GameOptions(players=2, totems=totems)
    except OptionsError as exc:
        raise bad("--totems", str(exc)) from None
    problem = unwritable(out)  # before minutes of mining, not after
    if problem:
        raise bad("--out", problem)
    started = time.perf_counter()
    with progress_bar("game", "mining", no_progress) as progress:
        found = generate(games, seed, options, names, max_nodes, progress)
    try:
        out.write_text(dumps(found), encoding="utf-8")
    except OSError as exc:
        raise bad("--out", f"cannot write {out.name}: {exc}") from None
    kinds = Counter(p.question for p in found)
    levels = Counter(p.grade.level for p in found)
    seconds = time.perf_counter() - started
    click.echo(
        f"{len(found)} puzzles from {games} games in {seconds:.0f} s, written to {out}: "
        + ", ".join(f"{k} {n}" for k, n in sorted(kinds.items()))
    )
    if as_json:
        summary = {
            "puzzles": len(found),
            "games": games,
            "questions": dict(kinds),
            "levels": dict(levels),
            "out": str(out),
            "seconds": round(seconds, 3),
        }
        click.echo(json.dumps(summary))


@puzzles.command("check", cls=OneLineErrorsCommand)
@click.argument("file", type=click.Path(path_type=Path, dir_okay=False))
@click.option("--json", "as_json", is_flag=True, help="Print the results as JSON (last line).")
@click.option("--no-progress", is_flag=True, help="No progress bar on stderr.")
def check_command(file: Path, as_json: bool, no_progress: bool) -> None:
    """Re-prove every puzzle of FILE; exit 1 if any fails."""
    try:
        found = loads(file.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        raise bad("FILE", f"cannot read {file}: {exc}") from None
    except PuzzleFileError as exc:
        raise bad("FILE", str(exc)) from None
    started = time.perf_counter()
    with progress_bar("puzzle", "proving", no_progress) as progress:
        results = check(found, progress)
    seconds = time.perf_counter() - started
    for r in results:
        click.echo(f"{r.id}: {'ok' if r.ok else 'FAILED'}: {r.message} ({r.nodes} nodes)")
    failed = [r.id for r in results if not r.ok]
    click.echo(f"{len(results) - len(failed)} of {len(results)} proved in {seconds:.1f} s")
    if as_json:
        report = {
            "puzzles": len(results),
            "proved": len(results) - len(failed),
            "failed": failed,
            "nodes": sum(r.nodes for r in results),
            "seconds": round(seconds, 3),
            "results": [
                {"id": r.id, "ok": r.ok, "message": r.message, "nodes": r.nodes} for r in results
            ],
        }
        click.echo(json.dumps(report))
    if failed:
        click.get_current_context().exit(1)
