"""The `skytotems` command line: a click group and its commands.

Each command lives in its own module; adding one is one import and one entry in
`COMMANDS`.
Machine-readable output (`--json`) is the last line of stdout; progress and
warnings go to stderr, so `... --json | tail -n 1` is always the result.
"""

from __future__ import annotations

import click

from .. import __version__, native
from ..command_line import run
from .analyse import analyse
from .arena import arena
from .bench import bench
from .play import play
from .puzzles import puzzles
from .serve import serve
from .sim import sim
from .solo import solo

COMMANDS: tuple[click.Command, ...] = (serve, play, sim, bench, arena, solo, analyse, puzzles)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(
    __version__, prog_name="skytotems", message=f"%(prog)s %(version)s ({native.describe()})"
)
def cli() -> None:
    """Sky Totems: serve the browser game, play in the terminal, simulate, measure."""


for _command in COMMANDS:
    cli.add_command(_command)


def main() -> None:
    """Console-script entry point (`skytotems = "skytotems.cli:main"`)."""
    run(cli)
