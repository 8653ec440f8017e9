"""Golden transcripts: whole seeded games compared line by line with tests/golden/*.txt.

Any change in the rules, the random draws or the text of actions and events changes a
transcript. When the change is intended, regenerate the files and review the diff:

    .venv/bin/python -m skytotems.transcript --regen
"""

from __future__ import annotations

import difflib
import re
from pathlib import Path

import pytest

from skytotems import GameOptions, final_places, score_sheet
from skytotems.rules.engine import Game
from skytotems.transcript import GOLDEN_GAMES, GoldenGame, golden_text, play_out, transcript

GOLDEN_DIR = Path(__file__).resolve().parents[1] / "golden"
REGEN_HINT = "if the change is intended: .venv/bin/python -m skytotems.transcript --regen"


def _diff(expected: str, actual: str, name: str) -> str:
    lines = difflib.unified_diff(
        expected.splitlines(keepends=True),
        actual.splitlines(keepends=True),
        fromfile=f"tests/golden/{name}.txt (stored)",
        tofile=f"{name} (regenerated)",
        n=3,
    )
    text = "".join(lines)
    if len(text) > 8000:
        text = text[:8000] + "\n... (diff truncated)\n"
    return text


@pytest.mark.parametrize("golden", GOLDEN_GAMES, ids=lambda g: g.name)
def test_transcript_matches_golden_file(golden: GoldenGame) -> None:
    """The regenerated transcript equals the stored one, byte for byte."""
    path = GOLDEN_DIR / f"{golden.name}.txt"
    assert path.exists(), f"missing golden file tests/golden/{golden.name}.txt; {REGEN_HINT}"
    expected = path.read_text(encoding="utf-8")
    actual = golden_text(golden)
    if actual != expected:
        pytest.fail(
            f"transcript {golden.name} differs from its golden file:\n"
            f"{_diff(expected, actual, golden.name)}\n{REGEN_HINT}",
            pytrace=False,
        )


def test_no_stale_golden_files() -> None:
    """Every file in tests/golden belongs to a golden game (none left behind by a rename)."""
    names = {g.name for g in GOLDEN_GAMES}
    stored = {p.stem for p in GOLDEN_DIR.glob("*.txt")}
    assert stored == names


def test_golden_games_cover_the_options_asked_for() -> None:
    """2, 3, 4 players, solo and the dragon set with 4 players are all pinned."""
    shapes = {(g.options.players, g.options.totems) for g in GOLDEN_GAMES}
    assert {(2, "beginner"), (3, "beginner"), (4, "beginner"), (1, "beginner")} <= shapes
    assert (4, "dragon") in shapes


def test_golden_games_are_eventful() -> None:
    """Together the stored games show every decision kind worth pinning (not just slots)."""
    text = "".join((GOLDEN_DIR / f"{g.name}.txt").read_text(encoding="utf-8") for g in GOLDEN_GAMES)
    for needle in (
        "kind=bird",
        "kind=wolf",
        "kind=horse",
        "kind=dragon",
        "kind=cat",
        "card_revealed(",
        "hoard_added(",
        "pedestal_returned(",
        "mode=extra",
        "] end_turn (",
        "] wolf_blessing (",
        "] dragon_build (",
        "phase=last_reveals",
    ):
        assert needle in text, f"no golden game shows {needle!r}"


def test_transcript_is_deterministic_and_depends_on_the_chooser_seed() -> None:
    """Same inputs give the same text; another chooser seed plays another game."""
    options = GameOptions(players=2)
    first = transcript(options, 5, 6)
    assert transcript(options, 5, 6) == first
    assert transcript(options, 5, 7) != first


@pytest.mark.parametrize("golden", GOLDEN_GAMES, ids=lambda g: g.name)
def test_transcript_final_scores_agree_with_the_engine(golden: GoldenGame) -> None:
    """The score lines printed at the end are the engine's own totals and places, and
    each sheet's total is the sum of its lines (so the file is self-consistent)."""
    text = golden_text(golden)
    game = play_out(Game(golden.options, golden.seed), golden.chooser_seed)
    places = final_places(game)
    for seat in range(game.n):
        sheet = score_sheet(game, seat)
        block = text.split(f"\nseat {seat}: place {places[seat]}, ", 1)
        assert len(block) == 2, f"no score block for seat {seat}"
        lines = block[1].split("\nseat ", 1)[0].splitlines()[1:]
        values = {
            m.group(1): int(m.group(2))
            for m in (re.match(r"\s+(.+): (-?\d+)$", line) for line in lines)
            if m
        }
        assert values["total"] == sheet.total
        assert sum(v for k, v in values.items() if k != "total") == sheet.total
    assert text.rstrip().endswith("places: " + " ".join(map(str, places)))


def test_regenerate_writes_every_golden_file(tmp_path: Path) -> None:
    """`regenerate` writes exactly the texts the comparison test expects."""
    from skytotems.transcript import regenerate

    written = regenerate(tmp_path)
    assert sorted(p.name for p in written) == sorted(f"{g.name}.txt" for g in GOLDEN_GAMES)
    for golden in GOLDEN_GAMES:
        assert (tmp_path / f"{golden.name}.txt").read_text(encoding="utf-8") == golden_text(golden)
