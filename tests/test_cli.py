"""The `skytotems` command line: sim and bench JSON contracts, a piped `play`, bad options,
and the terminal texts of `skytotems.render` checked against positions worked out by hand."""

from __future__ import annotations

import importlib
import json
import random
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import click
import pytest
from click.testing import CliRunner, Result

from skytotems import (
    ChooseCat,
    DrawFromBag,
    Game,
    GameOptions,
    PlacePedestal,
    Position,
    TakeSlot,
    cell,
    game_from_position,
    native,
    score_sheet,
    solo_band,
    view,
)
from skytotems.cli import cli
from skytotems.cli.bench import SEARCH_POSITIONS, search_position
from skytotems.cli.play import TerminalGame
from skytotems.observed import Observed
from skytotems.render import action_text, altar_grid, menu_lines
from skytotems.rules.notation import parse_altar

# the module, not the command of the same name that `skytotems.cli` exports
arena_cli = importlib.import_module("skytotems.cli.arena")


def invoke(*args: str, input: str | None = None) -> Result:
    return CliRunner().invoke(cli, list(args), input=input)


def last_json(result: Result) -> dict[str, Any]:
    """The contract: the last non-empty stdout line is one JSON object."""
    lines = [line for line in result.stdout.splitlines() if line.strip()]
    data = json.loads(lines[-1])
    assert isinstance(data, dict)
    return data


# --------------------------------------------------------------------------- sim


@pytest.mark.parametrize(
    ("players", "games", "totems", "seats"),
    [
        (2, 4, "beginner", 2),
        (1, 3, "beginner", 2),  # solo: one person, two altars
        (4, 2, "dragon", 4),
        (3, 2, "bird,wolf,horse,dragon", 3),
        (2, 2, "random-four", 2),
    ],
)
def test_sim_json_contract(players: int, games: int, totems: str, seats: int) -> None:
    result = invoke(
        "sim",
        "--players",
        str(players),
        "--games",
        str(games),
        "--seed",
        "7",
        "--totems",
        totems,
        "--json",
    )
    assert result.exit_code == 0, result.output
    data = last_json(result)
    assert data["games"] == games
    assert data["errors"] == 0
    assert data["games_per_second"] > 0
    assert len(data["mean_score"]) == len(data["max_score"]) == seats
    for mean, best in zip(data["mean_score"], data["max_score"], strict=True):
        # every altar scores at least its starting pedestals, and no mean exceeds its max
        assert 0 < mean <= best
    assert ("solo_mean_total" in data) == (players == 1)


def test_sim_is_reproducible_and_json_goes_last_on_stdout_only() -> None:
    first = invoke("sim", "--games", "3", "--seed", "11", "--json")
    second = invoke("sim", "--games", "3", "--seed", "11", "--json")
    other = invoke("sim", "--games", "3", "--seed", "12", "--json")
    assert last_json(first)["mean_score"] == last_json(second)["mean_score"]
    assert last_json(first)["mean_score"] != last_json(other)["mean_score"]
    assert "{" not in first.stderr  # progress and warnings never look like the result


def test_sim_scores_are_those_of_the_games_it_says_it_played() -> None:
    """Game i uses seed S+i; replaying game 0 alone gives the same scores."""
    alone = last_json(invoke("sim", "--games", "1", "--seed", "21", "--json"))
    pair = last_json(invoke("sim", "--games", "2", "--seed", "20", "--json"))
    second_alone = last_json(invoke("sim", "--games", "1", "--seed", "20", "--json"))
    for s in range(2):
        expected = (second_alone["max_score"][s] + alone["max_score"][s]) / 2
        assert pair["mean_score"][s] == pytest.approx(expected, abs=0.01)


def test_sim_text_report() -> None:
    result = invoke("sim", "--players", "3", "--games", "2", "--seed", "1")
    assert result.exit_code == 0, result.output
    assert "errors: 0" in result.stdout
    assert result.stdout.count("mean score") == 3


# --------------------------------------------------------------------------- bench


def test_bench_json_with_a_tiny_budget() -> None:
    result = invoke("bench", "--json", "--seconds", "0.3", "--search-positions", "1")
    assert result.exit_code == 0, result.output
    data = last_json(result)
    for key in (
        "games_per_second_2p",
        "games_per_second_4p",
        "steps_per_second",
        "validated_steps_per_second",
        "mcts_iterations_per_second",
    ):
        assert data[key] > 0, key
    assert data["python"].split()[-1] == ".".join(map(str, sys.version_info[:3]))
    assert data["games_2p"] >= 1 and data["games_4p"] >= 1
    # 4 seats take more actions per game than 2 (every seat plays every round)
    assert data["mean_steps_4p"] > data["mean_steps_2p"]
    assert data["mcts_positions"] == 1
    # which path was measured: this process's (the same install, the same decision)
    assert data["compiled"] is native.is_compiled()


def test_bench_search_positions_are_turns_with_a_choice() -> None:
    """The search figure's positions exist (random play reaches them) and offer a real
    choice at the top of a turn, in 2-player and solo games."""
    players_seen = set()
    for players, seed, moves in SEARCH_POSITIONS:
        game = search_position(players, seed, moves)
        seat = game.decision.seats[0]
        assert game.decision.kind == "turn"
        assert len(game.legal_actions(seat)) > 1
        assert len(game.history) >= moves
        players_seen.add(players)
    assert players_seen == {1, 2}


# --------------------------------------------------------------------------- play


def first_choice_game(options: GameOptions, seed: int, people: tuple[int, ...]) -> Game:
    """What `play` should do when the person always answers 1: the person takes the first
    legal action, the others draw from random.Random(seed) among theirs."""
    game = Game(options, seed)
    chooser = random.Random(seed)
    while not game.is_over:
        pending = game.decision.seats
        mine = [s for s in pending if s in people]
        if mine:
            game.apply(game.legal_actions(mine[0])[0])
        else:
            game.apply(chooser.choice(game.legal_actions(pending[0])))
    return game


def total_row(output: str) -> list[int]:
    match = re.search(r"^total\s+([\d ]+)$", output, re.MULTILINE)
    assert match, "no total line on the score sheet"
    return [int(v) for v in match.group(1).split()]


def test_play_a_whole_game_with_piped_answers() -> None:
    result = invoke("play", "--players", "2", "--seed", "3", "--seat", "1", input="1\n" * 400)
    assert result.exit_code == 0, result.output[-2000:]
    out = result.stdout
    assert "Score sheets:" in out
    expected = first_choice_game(GameOptions(players=2), 3, (1,))
    assert total_row(out) == [score_sheet(expected, s).total for s in range(2)]
    assert re.search(r"^1st: ", out, re.MULTILINE) and re.search(r"^2nd: ", out, re.MULTILINE)
    assert "Seat 0 took slot" in out  # the opponent's moves appear as log lines
    assert "Your choice (1-" in out


def test_play_solo_ends_with_total_and_band() -> None:
    result = invoke("play", "--players", "1", "--seed", "8", input="1\n" * 400)
    assert result.exit_code == 0, result.output[-2000:]
    expected = first_choice_game(GameOptions(players=1), 8, (0, 1))
    total = sum(score_sheet(expected, s).total for s in range(2))
    assert f"Solo total: {total} points: {solo_band(total)}" in result.stdout
    assert "1st:" not in result.stdout  # solo has no places


def test_play_reasks_on_bad_input_and_quits_on_q() -> None:
    result = invoke("play", "--seed", "1", input="hello\n0\n99\nq\n")
    assert result.exit_code == 0
    assert result.stdout.count("Please answer a number from 1 to 3") == 3
    assert "You left the game at move 0" in result.stdout


def test_play_stops_with_an_error_when_input_ends() -> None:
    result = invoke("play", "--seed", "1", input="1\n")
    assert result.exit_code == 1
    assert "left unfinished" in result.stderr


def test_play_confirm_turns_asks_the_person_to_end_every_turn() -> None:
    """RULES.md §11: with --confirm-turns the end of each of the person's turns is their
    own answer, even with nothing to reveal (a one-item menu, never played for them)."""
    game = Game(GameOptions(players=2, confirm_turns=True), 4)
    answers = random.Random(4)
    asked: list[tuple[str, int]] = []

    def ask(count: int) -> int:
        asked.append((game.decision.kind, count))
        return answers.randrange(count)

    session = TerminalGame(game, (0,), random.Random(4), ask=ask)
    session.run()
    ends = [count for kind, count in asked if kind == "end_turn"]
    assert game.is_over and len(ends) >= 10  # every one of the person's turns, at least
    assert 1 in ends  # the prompt with nothing to reveal is asked too
    assert any(kind == "last_reveal" for kind, _ in asked)
    result = invoke("play", "--confirm-turns", "--seed", "4", input="1\n" * 600)
    assert result.exit_code == 0, result.output[-2000:]
    assert "every turn ends with a confirmation" in result.stdout
    assert "Only one choice: End the turn" not in result.stdout


@pytest.mark.parametrize(
    ("players", "totems", "seed"), [(3, "dragon", 2), (4, "random-four", 5), (1, "dragon", 9)]
)
def test_play_menus_list_exactly_the_legal_actions(players: int, totems: str, seed: int) -> None:
    """Random answers through every kind of decision: each menu is the engine's list."""
    game = Game(GameOptions(players=players, totems=totems), seed)
    people = (0, 1) if players == 1 else (players - 1,)
    answers = random.Random(seed)
    menus: list[int] = []

    def ask(count: int) -> int:
        seat = next(s for s in game.decision.seats if s in people)
        assert count == len(game.legal_actions(seat))
        menus.append(count)
        return answers.randrange(count)

    session = TerminalGame(game, people, random.Random(seed), ask=ask)
    session.run()
    assert game.is_over and menus
    assert total_row("\n".join(session.final_lines())) == [
        score_sheet(game, s).total for s in range(game.n)
    ]


# --------------------------------------------------------------------------- bad options


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["sim", "--players", "0"], "--players"),
        (["sim", "--players", "5"], "--players"),
        (["sim", "--games", "0"], "--games"),
        (["sim", "--totems", "unicorns"], "unicorns"),
        (["sim", "--totems", "bird,wolf,horse"], "four"),
        (["sim", "--totems", "bird,wolf,horse,horse"], "four"),
        (["play", "--tie-break", "coin"], "--tie-break"),
        (["play", "--seat", "2"], "seats 0 to 1"),
        (["play", "--players", "1", "--seat", "1"], "solo"),
        (["bench", "--seconds", "0"], "--seconds"),
        # a trial: "²" passed str.isdigit, then int() raised a traceback
        (["arena", "--bots", "greedy,random", "--games-with", "greedy=²"], "--games-with"),
        # a trial: a cap for a bot not in the match was ignored, said to cap the pairings
        (
            ["arena", "--bots", "greedy,random", "--games", "2", "--games-with", "mcts-hard=4"],
            "does not play",
        ),
        (
            ["arena", "--bots", "mcts,random", "--games", "2", "--games-with", "mcts-medium=4"],
            "does not play",
        ),
        # a trial: an infinite or undefined anchor printed Elo ratings of inf or nan
        (
            ["arena", "--bots", "greedy,random", "--games", "2", "--anchor", "random=inf"],
            "--anchor",
        ),
        (
            ["arena", "--bots", "greedy,random", "--games", "2", "--anchor", "random=nan"],
            "--anchor",
        ),
        (["sim", "--seed", "abc"], "--seed"),
    ],
)
def test_bad_option_values_are_rejected(args: list[str], message: str) -> None:
    result = invoke(*args)
    assert result.exit_code == 2
    assert "Invalid value" in result.stderr
    assert message in result.stderr


# --------------------------------------------------------------------------- installed script


def test_installed_console_script() -> None:
    exe = shutil.which("skytotems", path=str(Path(sys.executable).parent)) or shutil.which(
        "skytotems"
    )
    assert exe, "the skytotems console script is not installed"
    run = subprocess.run(
        [exe, "sim", "--players", "2", "--games", "2", "--seed", "1", "--json"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert run.returncode == 0, run.stderr
    data = json.loads(run.stdout.strip().splitlines()[-1])
    assert data["games"] == 2 and data["errors"] == 0


# --------------------------------------------------------------------------- render


def seen(game: Game) -> Observed:
    """Seat 0's view of `game`: what the terminal draws from."""
    return Observed(view(game, 0))


def test_altar_grid_shows_columns_clouds_and_totems() -> None:
    # A horse over 0,0 (red, height 1) and 1,0 (blue ×3): 2 cells × height 3 = 6 points.
    altar = parse_altar("0,0 r bbb/_ . | horse 0,0 1,0")
    lines = altar_grid(altar)
    row0 = next(line for line in lines if line.split()[0] == "0")
    assert row0.split() == ["0", ".", "r", "1", "[T1]", "bbb", "3", "[T1]", "."]
    row1 = next(line for line in lines if line.split()[0] == "1")
    assert row1.split()[1:] == [".", "_", ".", "."]  # an empty cloud, then no cloud
    assert "  T1 horse on 0,0 1,0: height 3, 6 points" in lines


def test_action_texts_on_a_known_position() -> None:
    game = game_from_position(
        Position(altars=["0,0 rrrrr bbb/r _", "0,0 _ _/_ _"], slots=["rb", "", ""])
    )
    texts = [action_text(seen(game), a) for a in game.legal_actions(0)]
    # A horse needs adjacent columns of heights l and l+2 (RULES.md §6): only 0,0 (5) and
    # 1,0 (3) qualify; it covers 2 cells at the higher height, 2 × 5 = 10 points.
    assert texts == ["Take slot 0 (red, blue)", "Build a horse on 0,0 1,0 (10 points)"]
    game.apply(TakeSlot(0, 0))
    texts = [action_text(seen(game), a) for a in game.legal_actions(0)]
    assert "Place red on 0,0 (height 5→6)" in texts
    assert "Place blue on 1,1 (height 0→1)" in texts
    assert "Return blue to the bag for a cloud" in texts
    assert len(menu_lines(seen(game), game.legal_actions(0))) == len(texts)
    game.apply(PlacePedestal(0, 0, cell(0, 0)))  # height 6: a cat is owed
    game.apply(PlacePedestal(0, 4, cell(1, 0)))
    assert game.legal_actions(0) == [ChooseCat(0, cell(0, 0))]
    # the cat covers one cell at height 6: 1 × 6 points
    assert action_text(seen(game), ChooseCat(0, cell(0, 0))) == "Put the cat on 0,0 (6 points)"


def test_draw_from_bag_text_when_every_slot_is_empty() -> None:
    game = game_from_position(Position(altars=["0,0 r _/_ _", "0,0 _ _/_ _"]))
    assert game.legal_actions(0) == [DrawFromBag(0)]
    assert action_text(seen(game), DrawFromBag(0)) == "Draw 2 pedestals from the bag"


@pytest.mark.parametrize(
    ("args", "option"),
    [
        (["sim", "--players", "9"], "--players"),
        (["sim", "--bogus"], "--bogus"),
        (["arena", "--games", "-1"], "--games"),
        (["nosuch"], "nosuch"),
    ],
)
def test_installed_script_option_errors_are_one_line(args: list[str], option: str) -> None:
    """A wrong option is one line naming it, exit code 2: no usage block, no traceback."""
    line = script_error(*args)
    assert option in line, line


def script_error(*args: str) -> str:
    """The one stderr line of the installed script failing on a usage error (exit 2,
    nothing on stdout)."""
    exe = shutil.which("skytotems", path=str(Path(sys.executable).parent)) or "skytotems"
    run = subprocess.run([exe, *args], capture_output=True, text=True, timeout=60, check=False)
    assert run.returncode == 2, run.stderr
    lines = run.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error:"), run.stderr
    assert run.stdout == ""
    return lines[0]


@pytest.mark.parametrize(
    ("plot", "words"),
    [
        ("no-such-folder/scores.png", ["'--plot'", "no folder"]),
        ("scores.txt", ["'--plot'", "txt", "png"]),
        ("scores", ["'--plot'", "without a suffix"]),
    ],
)
def test_a_plot_that_cannot_be_written_is_refused_before_the_games(
    plot: str, words: list[str], tmp_path: Path
) -> None:
    """A trial: the match ran, then a traceback lost its results to a missing folder or
    a format matplotlib cannot write. 400 games would take minutes: refused at once."""
    pytest.importorskip("matplotlib")
    line = script_error(
        "arena", "--bots", "random,greedy", "--games", "400", "--plot", str(tmp_path / plot)
    )
    assert all(word in line for word in words), line


def test_a_plot_in_another_format_matplotlib_writes_is_written(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    out = tmp_path / "scores.svg"
    args = ["--games", "2", "--plot", str(out), "--workers", "1", "--no-progress"]
    result = invoke("arena", "--bots", "random,greedy", *args)
    assert result.exit_code == 0, result.output
    assert "<svg" in out.read_text()


@pytest.mark.parametrize("text", ["nan", "inf", "1e9"])
def test_bench_refuses_a_budget_that_would_never_end_or_mean_nothing(text: str) -> None:
    """A trial: `--seconds nan` passed every range check and measured one game, and
    `--seconds inf` never ended. Checked on the option itself, so that a regression
    fails here instead of hanging the suite."""
    command = cli.commands["bench"]
    option = next(p for p in command.params if p.name == "seconds")
    with click.Context(command) as ctx, pytest.raises(click.BadParameter):
        option.process_value(ctx, text)


def test_a_plot_that_fails_after_the_games_keeps_the_report(tmp_path: Path) -> None:
    """A trial: a plot path the check let through (a folder removed during the match)
    failed after the games with a traceback, and the `--json` line was never printed."""
    pytest.importorskip("matplotlib")
    folder = tmp_path / "plots"
    folder.mkdir()
    out = folder / "scores.png"
    args = ["--games", "2", "--json", "--plot", str(out), "--workers", "1", "--no-progress"]
    real_plot = arena_cli.plot_scores

    def folder_gone(*a: object, **k: object) -> None:
        folder.rmdir()  # the real writer, with the folder gone: a real OSError
        real_plot(*a, **k)

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(arena_cli, "plot_scores", folder_gone)
        result = invoke("arena", "--bots", "random,greedy", *args)
    assert result.exit_code == 2
    assert json.loads(result.stdout.strip().splitlines()[-1])["games"] == 2
    assert "Invalid value for '--plot'" in result.stderr and "Traceback" not in result.output


@pytest.mark.parametrize(
    "args",
    [
        ["arena", "--bots", "random,greedy", "--anchor", "foo=0"],
        ["play", "--seat", "3"],
    ],
)
def test_checked_option_errors_quote_the_option_like_the_others(args: list[str]) -> None:
    """A trial: these two said `--anchor` / `--seat` where every other error says
    `'--plot'`."""
    assert f"Invalid value for '{args[-2]}'" in script_error(*args)
