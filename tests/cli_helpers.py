"""Shared checks of the command-line tests."""

from __future__ import annotations

from click.testing import Result


def one_line_error(result: Result, *words: str) -> None:
    """The command failed as a usage error: exit 2, one stderr line holding `words`."""
    assert result.exit_code == 2, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    for word in words:
        assert word in lines[0]
