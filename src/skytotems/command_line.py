"""Run a click command so that a usage error is one line naming the option, exit code 2.

click's own handling prints the usage and a "Try --help" line before the error; the
project's rule is one line, no traceback. Shared by `skytotems` and
`python -m skytotems.server`, which must not import the rest of the command line.
"""

from __future__ import annotations

import sys
from typing import NoReturn

import click
from click.exceptions import NoArgsIsHelpError


def run(command: click.Command) -> NoReturn:
    """Run `command` on sys.argv; a click error is printed as one `Error: ...` line."""
    try:
        result = command.main(standalone_mode=False)
    except NoArgsIsHelpError as exc:  # a bare group: its help, as click shows it
        click.echo(exc.format_message(), err=True)
        sys.exit(exc.exit_code)
    except click.ClickException as exc:
        click.echo(f"Error: {exc.format_message()}", err=True)
        sys.exit(exc.exit_code)
    except click.Abort:
        click.echo("Aborted.", err=True)
        sys.exit(1)
    sys.exit(result if isinstance(result, int) else 0)
