"""The decision-time benchmark measures registry levels and their variants (docs/bots.md)."""

from __future__ import annotations

import json
import subprocess

from .bot_helpers import run_benchmark


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return run_benchmark("decision_time.py", *args, timeout=300)


def test_a_level_and_its_variant_are_timed_on_the_same_positions() -> None:
    levels = "mcts-easy,mcts-easy:iterations=3:costs=leaf"
    done = run("--levels", levels, "--games", "1", "--seed", "2")
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout.splitlines()[-1])
    assert set(summary["mean_cpu_s"]) == set(levels.split(","))
    assert summary["positions"] == len(done.stdout.splitlines()) - 1 > 0


def test_larger_games_are_timed_on_their_own_positions() -> None:
    """`--players 4` takes its positions from four-player games (a playout there runs
    through three other seats' turns), and says so."""
    done = run("--levels", "mcts-easy", "--games", "1", "--seed", "2", "--players", "4")
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout.splitlines()[-1])
    assert summary["players"] == 4 and summary["positions"] > 0
    refused = run("--levels", "mcts-easy", "--players", "5")
    assert refused.returncode != 0 and "--players" in refused.stderr


def test_solo_is_timed_on_positions_of_solo_games() -> None:
    """`--players 1`: positions of solo games (two altars, one mind), searched for both
    altars' sum."""
    done = run("--levels", "mcts-easy", "--games", "1", "--seed", "2", "--players", "1")
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout.splitlines()[-1])
    assert summary["players"] == 1 and summary["positions"] > 0


def test_an_unknown_field_of_a_variant_is_refused_by_name() -> None:
    done = run("--levels", "mcts-easy:depth=3", "--games", "1")
    assert done.returncode != 0
    assert "unknown level field 'depth'" in done.stderr and "Traceback" not in done.stderr


def test_a_misspelt_choice_or_level_of_a_variant_is_refused_not_measured_as_another() -> None:
    """`costs=rot` used to be taken as it was, and the search, finding no "root",
    measured the leaf costs under the variant's name; an unknown level was a traceback."""
    for spec, words in (
        ("mcts-hard:costs=rot", "costs must be one of leaf, root, not 'rot'"),
        ("mcts-hard:iterations=many", "iterations must be an integer, not 'many'"),
        ("greedy:iterations=3", "unknown level 'greedy'"),
    ):
        done = run("--levels", spec, "--games", "1")
        assert done.returncode != 0, spec
        assert words in done.stderr and "Traceback" not in done.stderr, done.stderr
