"""The solo search benchmark plays the solo CLI's deals with a changed level (docs/bots.md)."""

from __future__ import annotations

import subprocess

import pytest

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


def totals_of(stdout: str, series: str) -> dict[int, int]:
    """Each game's total of one series ("game" or "baseline") by its index."""
    found: dict[int, int] = {}
    for line in stdout.splitlines():
        name, _, rest = line.partition(" ")
        if name == series and rest[:1].isdigit():
            index, _, text = rest.partition(": ")
            found[int(index)] = int(text.split()[0])
    return found


def test_compare_plays_each_deal_twice_and_prints_the_paired_difference() -> None:
    done = run(
        "--level", "easy", "--set", "iterations=2", "--base-set", "iterations=4",
        "--compare", "--first", "1", "--last", "3", "--workers", "1",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    games, baseline = totals_of(done.stdout, "game"), totals_of(done.stdout, "baseline")
    assert sorted(games) == sorted(baseline) == [1, 2]
    assert "baseline Level(iterations=4," in done.stdout
    diffs = [games[i] - baseline[i] for i in games]
    mean = sum(diffs) / 2
    better, worse = sum(d > 0 for d in diffs), sum(d < 0 for d in diffs)
    assert f"difference {mean:+.1f} +- " in done.stdout
    assert f"over 2 deals; {better} better, {worse} worse)" in done.stdout


def test_a_variant_equal_to_its_baseline_plays_the_same_games() -> None:
    done = run(
        "--level", "easy", "--set", "iterations=3", "--base-set", "iterations=3",
        "--compare", "--last", "2", "--workers", "2",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert totals_of(done.stdout, "game") == totals_of(done.stdout, "baseline")
    assert "difference +0.0 +- 0.0 points a game" in done.stdout
    assert "0 better, 0 worse" in done.stdout


def test_baseline_settings_without_compare_are_refused_by_name() -> None:
    done = run("--base-set", "iterations=3", "--last", "1")
    assert done.returncode != 0
    assert "--base-set needs --compare" in done.stderr
    assert "Traceback" not in done.stderr


@pytest.mark.parametrize(
    ("args", "words"),
    [
        # a trial: these raised tracebacks (an empty series' mean, a pool of no workers,
        # an unknown totem set inside a worker)
        (["--first", "5", "--last", "2"], ["--first", "below --last"]),
        (["--last", "0"], ["--last", "at least 1"]),
        (["--workers", "0"], ["--workers", "at least 1"]),
        (["--totems", "nosuch"], ["--totems", "nosuch"]),
        # a trial: these were played as a slice or as a search of nothing
        (["--first", "-2"], ["--first", "at least 0"]),
        (["--set", "iterations=0"], ["iterations", ">= 1"]),
        (["--set", "iterations=-5"], ["iterations", ">= 1"]),
        (["--set", "determinizations=0"], ["determinizations", ">= 1"]),
        (["--set", "widen_rate=inf"], ["widen_rate", "finite"]),
        # a trial: fields solo does not read measured the unchanged level, silently
        (["--set", "exploration=99"], ["solo_exploration"]),
        (["--set", "playout_turns=3"], ["solo_playout_turns"]),
        (["--compare", "--base-set", "duel_playout_turns=2"], ["--base-set", "solo_playout_turns"]),
    ],
)
def test_bad_arguments_are_refused_in_one_line_before_any_game(
    args: list[str], words: list[str]
) -> None:
    done = run(*args)
    assert done.returncode == 2 and done.stdout == ""
    last = done.stderr.strip().splitlines()[-1]
    assert "Traceback" not in done.stderr
    assert all(word in last for word in words), last
