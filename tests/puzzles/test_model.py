"""Puzzle files (docs/puzzles.md): positions round-trip, bad files are refused with the
puzzle and the fault named, and a mined position rebuilds the very state it came from."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from skytotems import Game, GameOptions, game_from_position, view
from skytotems.bots import make_bot
from skytotems.puzzles.model import (
    PuzzleFileError,
    dumps,
    loads,
    position_from_json,
    position_of,
    position_to_json,
)

from .puzzle_helpers import horse_puzzle


def test_a_file_round_trips() -> None:
    puzzle = horse_puzzle()
    again = loads(dumps([puzzle]))
    assert again == [puzzle]
    assert dumps(again) == dumps([puzzle])


@settings(max_examples=5, deadline=None)
@given(st.integers(0, 10_000))
def test_a_mined_position_rebuilds_the_same_state(seed: int) -> None:
    """position_of -> JSON -> Position -> game: the same view for the seat to move."""
    game = Game(GameOptions(), seed)
    bots = [make_bot("random", seed), make_bot("random", seed + 1)]
    checked = 0
    while not game.is_over and checked < 6:
        position = position_of(game)
        seat = game.decision.seats[0]
        if position is not None:
            rebuilt = game_from_position(position_from_json(position_to_json(position)))
            mine, theirs = view(game, seat), view(rebuilt, seat)
            for key in ("altars", "slots", "bag", "pool", "machine", "legal_actions", "round"):
                assert mine[key] == theirs[key], key
            assert mine["seats"][seat] == theirs["seats"][seat]
            checked += 1
        game.apply(bots[seat].choose(view(game, seat), game.legal_actions(seat)))


@pytest.mark.parametrize(
    ("change", "words"),
    [
        (lambda d: d.update(version=2), "version 2 is not supported"),
        (lambda d: d.update(format="x"), "not a puzzle file"),
        (lambda d: d["puzzles"][0].update(question="chess"), "puzzle 1: question must be"),
        (lambda d: d["puzzles"][0]["position"].update(altars=["0,0 rx"]), "puzzle 1: "),
        (lambda d: d["puzzles"][0]["position"].update(seat=7), "puzzle 1: seat"),
        (lambda d: d["puzzles"][0]["solution"].update(line=[]), "solution.line"),
        (lambda d: d["puzzles"].append(d["puzzles"][0]), "puzzle 2: id 'horse' is used twice"),
    ],
)
def test_bad_files_are_refused_naming_the_fault(change: object, words: str) -> None:
    doc = json.loads(dumps([horse_puzzle()]))
    change(doc)  # type: ignore[operator]
    with pytest.raises(PuzzleFileError) as info:
        loads(json.dumps(doc))
    assert words in str(info.value)


def test_text_that_is_not_json_is_refused() -> None:
    with pytest.raises(PuzzleFileError, match="not JSON"):
        loads("{")
