"""`skytotems puzzles generate|check` (issue 18): the JSON last line, re-proving a file,
a wrong file failing with exit 1, and one-line option errors (exit 2)."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner, Result

from cli_helpers import one_line_error
from skytotems.cli import cli
from skytotems.puzzles.model import dumps, loads, shipped

from .puzzle_helpers import horse_puzzle


def invoke(*args: str) -> Result:
    return CliRunner().invoke(cli, ["puzzles", *args])


def test_check_re_proves_a_file(tmp_path: Path) -> None:
    path = tmp_path / "p.json"
    path.write_text(dumps([horse_puzzle()]))
    result = invoke("check", str(path), "--json", "--no-progress")
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout.strip().splitlines()[-1])
    assert report["puzzles"] == report["proved"] == 1 and report["failed"] == []
    assert report["results"][0]["nodes"] > 0


def test_check_fails_a_puzzle_whose_value_is_wrong(tmp_path: Path) -> None:
    doc = json.loads(dumps([horse_puzzle()]))
    doc["puzzles"][0]["solution"]["value"] = 9
    path = tmp_path / "p.json"
    path.write_text(json.dumps(doc))
    result = invoke("check", str(path), "--json", "--no-progress")
    assert result.exit_code == 1, result.output
    report = json.loads(result.stdout.strip().splitlines()[-1])
    assert report["failed"] == ["horse"] and "file says 9" in report["results"][0]["message"]


def test_generate_writes_a_file_that_check_accepts(tmp_path: Path) -> None:
    out = tmp_path / "mined.json"
    result = invoke(
        "generate",
        "--games",
        "1",
        "--seed",
        "2",
        "--max-nodes",
        "3000",
        "--out",
        str(out),
        "--json",
        "--no-progress",
    )
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout.strip().splitlines()[-1])
    mined = loads(out.read_text())
    assert summary["puzzles"] == len(mined) > 0 and summary["games"] == 1
    assert invoke("check", str(out), "--no-progress").exit_code == 0


def test_option_errors_are_one_line(tmp_path: Path) -> None:
    one_line_error(invoke("generate", "--games", "0"), "--games")
    one_line_error(invoke("generate", "--games", "1", "--bots", "greedy"), "--bots")
    one_line_error(invoke("generate", "--games", "1", "--totems", "fish"), "--totems")
    one_line_error(invoke("check", str(tmp_path / "none.json")), "FILE")
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "skytotems-puzzles", "version": 9, "puzzles": []}')
    one_line_error(invoke("check", str(bad)), "FILE", "version 9")
    deep = tmp_path / "deep.json"  # (a trial: the JSON reader overflowed its recursion)
    deep.write_text("[" * 100_000 + "]" * 100_000)
    one_line_error(invoke("check", str(deep)), "FILE", "not JSON")


def test_a_puzzle_with_no_runner_up_is_reported_in_words(tmp_path: Path) -> None:
    alone = next(p for p in shipped() if p.solution.second is None)
    path = tmp_path / "p.json"
    path.write_text(dumps([alone]))
    result = invoke("check", str(path), "--no-progress")
    assert result.exit_code == 0, result.output
    line = result.stdout.splitlines()[0]
    assert "no other first move" in line and "None" not in line, line


def test_generate_refuses_an_unwritable_out_before_mining(tmp_path: Path) -> None:
    missing = tmp_path / "no" / "such" / "x.json"
    result = invoke("generate", "--games", "1", "--bots", "random,random", "--out", str(missing))
    one_line_error(result, "--out", "no folder")
    assert "mining" not in result.stderr  # refused before the first game's progress
