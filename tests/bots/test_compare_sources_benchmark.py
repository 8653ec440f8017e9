"""The source-comparison benchmark alternates trees and pairs their figures (docs/bots.md)."""

from __future__ import annotations

import json
from pathlib import Path

from .bot_helpers import run_benchmark

REPO = Path(__file__).resolve().parents[2]


def test_two_trees_are_measured_in_alternate_rounds_and_paired() -> None:
    """The same tree twice: every round has a figure of each, and the paired ratio's
    interval holds the ratio (a tree against itself is near 1, machine drift aside)."""
    done = run_benchmark(
        "compare_sources.py", "--figure", "games_4p", "--rounds", "2", str(REPO), str(REPO),
        timeout=200,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    lines = [json.loads(line) for line in done.stdout.splitlines()]
    rounds, summary = lines[:-1], lines[-1]
    assert [r["round"] for r in rounds] == [0, 1]
    assert all(r[str(REPO)] > 0 for r in rounds)
    assert summary["figure"] == "games_4p" and summary["rounds"] == 2
    pair = summary["against_first"][str(REPO)]
    assert pair["low"] <= pair["ratio"] <= pair["high"]
    assert 0.5 < pair["ratio"] < 2.0


def test_a_tree_without_sources_or_no_rounds_is_refused_in_one_line(tmp_path: Path) -> None:
    for args, words in (
        ((str(tmp_path),), f"trees: {tmp_path} holds no src/skytotems"),
        (("--rounds", "0", str(REPO)), "--rounds: at least 1"),
        (("--figure", "speed", str(REPO)), "invalid choice: 'speed'"),
    ):
        done = run_benchmark("compare_sources.py", *args)
        assert done.returncode != 0, args
        assert words in done.stderr and "Traceback" not in done.stderr, done.stderr
