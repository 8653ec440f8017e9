"""`skytotems analyse RECORD.json` (issue 18): the JSON contract and one-line option errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from cli_helpers import one_line_error
from skytotems import Game, GameOptions, dumps_record, make_record, view
from skytotems.bots import make_bot
from skytotems.cli import cli


def invoke(*args: str) -> Result:
    return CliRunner().invoke(cli, list(args))


@pytest.fixture(scope="module")
def finished(tmp_path_factory: pytest.TempPathFactory) -> Path:
    game = Game(GameOptions(players=2), seed=21)
    bots = [make_bot("random", 1), make_bot("greedy", 2)]
    while not game.is_over:
        seat = game.decision.seats[0]
        game.apply(bots[seat].choose(view(game, seat), game.legal_actions(seat)))
    path = tmp_path_factory.mktemp("records") / "game.json"
    path.write_text(dumps_record(game))
    return path


def test_analyse_prints_one_json_object_last(finished: Path) -> None:
    result = invoke(
        "analyse",
        str(finished),
        "--seat",
        "0",
        "--level",
        "fast",
        "--determinizations",
        "2",
        "--json",
    )
    assert result.exit_code == 0, result.output
    lines = [line for line in result.stdout.splitlines() if line.strip()]
    report = json.loads(lines[-1])
    assert set(report) >= {"decisions", "total_loss", "level", "seconds"}
    assert report["level"] == "fast" and list(report["total_loss"]) == ["0"]
    assert report["decisions"] and all(d["seat"] == 0 for d in report["decisions"])
    for decision in report["decisions"]:
        assert {"move", "seat", "played", "best", "loss", "loss_ci95"} <= set(decision)
        low, high = decision["loss_ci95"]
        assert 0 <= low <= decision["loss"] <= high
    assert len(lines) == len(report["decisions"]) + 2  # a line each, the total, the JSON


def test_a_seat_outside_the_game_is_one_line(finished: Path) -> None:
    one_line_error(invoke("analyse", str(finished), "--seat", "2"), "--seat", "0 to 1")


def test_an_unknown_level_is_one_line(finished: Path) -> None:
    one_line_error(invoke("analyse", str(finished), "--level", "godlike"), "--level")


def test_a_seat_that_is_not_a_number_is_one_line(finished: Path) -> None:
    one_line_error(invoke("analyse", str(finished), "--seat", "one"), "--seat")


def test_too_few_determinizations_is_one_line(finished: Path) -> None:
    one_line_error(
        invoke("analyse", str(finished), "--determinizations", "1"), "--determinizations"
    )


def test_a_missing_record_is_one_line(tmp_path: Path) -> None:
    one_line_error(invoke("analyse", str(tmp_path / "nowhere.json")), "RECORD")


def test_text_that_is_not_a_record_is_one_line(tmp_path: Path) -> None:
    path = tmp_path / "notes.json"
    path.write_text("{not json")
    one_line_error(invoke("analyse", str(path)), "RECORD", "not valid JSON")


def test_an_unreadable_record_is_named_with_its_folder(tmp_path: Path) -> None:
    """A trial: 'cannot read binary.json' for bad/binary.json named the file only."""
    path = tmp_path / "bad" / "binary.json"
    path.parent.mkdir()
    path.write_bytes(b"\xff\xfe\x00binary")
    one_line_error(invoke("analyse", str(path)), "RECORD", str(path))


def test_json_nested_too_deeply_is_one_line(tmp_path: Path) -> None:
    """A trial: 100,000 brackets deep made the JSON reader overflow its recursion."""
    path = tmp_path / "deep.json"
    path.write_text("[" * 100_000 + "]" * 100_000)
    one_line_error(invoke("analyse", str(path)), "RECORD", "not valid JSON")


def test_an_unfinished_game_is_one_line(tmp_path: Path) -> None:
    game = Game(GameOptions(players=2), seed=3)
    game.apply(game.legal_actions(0)[0])
    path = tmp_path / "running.json"
    path.write_text(json.dumps(make_record(game)))
    one_line_error(invoke("analyse", str(path)), "RECORD", "not finished")


def test_an_unknown_option_is_one_line(finished: Path) -> None:
    one_line_error(invoke("analyse", str(finished), "--depth", "3"), "--depth")
