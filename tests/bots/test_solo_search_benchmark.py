"""The solo search benchmark plays the solo CLI's deals with a changed level (docs/bots.md)."""

from __future__ import annotations

import subprocess

from .bot_helpers import run_benchmark


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return run_benchmark("solo_search.py", *args)


def test_a_changed_level_plays_the_named_games_and_prints_their_mean() -> None:
    done = run(
        "--level", "easy", "--set", "iterations=3", "--first", "2", "--last", "3", "--workers", "1"
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("game 2: ")
    assert "iterations=3," in done.stdout and "determinizations=2," in done.stdout
    total = int(lines[0].split()[2])
    assert f"mean total {total:.1f} over 1 games" in done.stdout


def test_an_unknown_level_field_is_refused_by_name() -> None:
    done = run("--set", "depth=3", "--last", "1")
    assert done.returncode != 0
    assert "unknown level field 'depth'" in done.stderr
