"""`skytotems serve` refuses bad arguments with a one-line error naming the option and
exit code 2, before starting anything (the real command, in a subprocess)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest


@pytest.mark.parametrize(
    ("args", "option"),
    [
        (["--port", "99999"], "--port"),
        (["--port", "-1"], "--port"),
        (["--db", "notaurl"], "--db"),
        (["--db", "sqlite:////no/such/dir/x.db"], "--db"),
        (["--log-level", "nonsense"], "--log-level"),
    ],
)
def test_bad_serve_arguments_are_usage_errors(args: list[str], option: str, tmp_path: Path):
    command = [sys.executable, "-c", "from skytotems.cli import main; main()", "serve", *args]
    done = subprocess.run(command, capture_output=True, text=True, timeout=60, cwd=tmp_path)
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr
    errors = [line for line in done.stderr.splitlines() if line.startswith("Error:")]
    assert len(errors) == 1 and option in errors[0], done.stderr
    assert not (tmp_path / "skytotems.db").exists()  # nothing was started or created
