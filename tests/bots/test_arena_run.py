"""Short seeded arena and solo runs: reproducible, and the commands' JSON contract."""

from __future__ import annotations

import json

from click.testing import CliRunner

from skytotems import GameOptions
from skytotems.bots import make_bot
from skytotems.bots.arena import play_game, run_arena
from skytotems.bots.mcts import MctsBot
from skytotems.bots.solo import BANDS, run_solo, summarize_solo
from skytotems.cli.arena import arena
from skytotems.cli.solo import solo

from .bot_helpers import TINY


def outcome(results: list) -> list[tuple]:
    return [(r.lineup, r.scores, r.places, r.decisions) for r in results]


def test_a_seeded_arena_run_is_reproducible_in_one_or_several_processes() -> None:
    first = run_arena(["greedy", "random"], 2, 2, seed=5, workers=1, progress=False)
    again = run_arena(["greedy", "random"], 2, 2, seed=5, workers=1, progress=False)
    parallel = run_arena(["greedy", "random"], 2, 2, seed=5, workers=2, progress=False)
    assert outcome(first) == outcome(again) == outcome(parallel)
    other = run_arena(["greedy", "random"], 2, 2, seed=6, workers=1, progress=False)
    assert outcome(other) != outcome(first)
    assert [r.lineup for r in first] == [("greedy", "random"), ("random", "greedy")]


def test_an_mcts_game_is_reproducible_for_its_seeds() -> None:
    def one_game() -> tuple:
        bots = [MctsBot(4, TINY), make_bot("greedy", 5)]
        r = play_game(bots, GameOptions(players=2), seed=8)
        return r.scores, r.places, r.decisions

    assert one_game() == one_game()


def test_arena_command_json_is_the_last_line(tmp_path: object) -> None:
    runner = CliRunner()
    plot = f"{tmp_path}/scores.png"
    res = runner.invoke(
        arena,
        [
            "--bots",
            "greedy,random",
            "--players",
            "2",
            "--games",
            "2",
            "--seed",
            "3",
            "--workers",
            "1",
            "--json",
            "--no-progress",
            "--plot",
            plot,
        ],
    )
    assert res.exit_code == 0, res.output
    report = json.loads(res.output.strip().splitlines()[-1])
    assert report["games"] == 2
    for name in ("greedy", "random"):
        stats = report["bots"][name]
        for key in ("win_rate", "win_rate_ci95", "mean_score", "elo", "mean_decision_ms"):
            assert key in stats
        low, high = stats["win_rate_ci95"]
        assert 0.0 <= low <= stats["win_rate"] <= high <= 1.0
    assert report["bots"]["greedy"]["win_rate"] + report["bots"]["random"]["win_rate"] == 1.0
    with open(plot, "rb") as f:
        assert f.read(8) == b"\x89PNG\r\n\x1a\n"


def test_arena_ladder_command_anchors_the_elo_and_caps_a_pairing() -> None:
    """A ladder in one run: every pairing of three bots, one of them capped, the Elo
    ratings anchored at random = 0 with their intervals."""
    args = "--bots random,greedy,mcts-easy --games 12 --seed 2 --workers 1 --json --no-progress"
    res = CliRunner().invoke(
        arena, [*args.split(), "--anchor", "random=0", "--games-with", "mcts-easy=2"]
    )
    assert res.exit_code == 0, res.output
    report = json.loads(res.output.strip().splitlines()[-1])
    assert report["games"] == 4 + 2 + 2  # random-greedy 4 of 12 (two cycles), easy's 2 each
    assert report["bots"]["random"]["elo"] == 0.0
    assert report["bots"]["random"]["elo_ci95"] == [0.0, 0.0]
    for stats in report["bots"].values():
        low, high = stats["elo_ci95"]
        assert low <= stats["elo"] <= high
    assert "random = 0" in report["elo_method"]
    refused = CliRunner().invoke(arena, ["--bots", "random,greedy", "--anchor", "mcts-hard=0"])
    assert refused.exit_code == 2 and "mcts-hard" in refused.output
    refused = CliRunner().invoke(arena, ["--bots", "random,greedy", "--games-with", "greedy"])
    assert refused.exit_code == 2 and "BOT=GAMES" in refused.output


def test_arena_command_refuses_unknown_and_repeated_bots() -> None:
    runner = CliRunner()
    res = runner.invoke(arena, ["--bots", "greedy,nobody", "--games", "1"])
    assert res.exit_code != 0 and "nobody" in res.output
    res = runner.invoke(arena, ["--bots", "greedy,greedy", "--games", "1"])
    assert res.exit_code != 0


def test_solo_series_and_command() -> None:
    results = run_solo("random", 3, seed=2, workers=1, progress=False)
    assert [r.lineup for r in results] == [("random", "random")] * 3
    again = run_solo("random", 3, seed=2, workers=1, progress=False)
    assert outcome(results) == outcome(again)
    summary = summarize_solo(results, "random", 2)
    assert summary["mean_total"] == sum(r.total for r in results) / 3
    # each game's total in game order, whatever order the results came in (for pairing)
    by_index = sorted(results, key=lambda r: r.index)
    assert summarize_solo(results[::-1], "random", 2)["totals"] == [r.total for r in by_index]
    assert abs(sum(summary["bands"].values()) - 1.0) < 1e-9
    assert summary["reached"]["Unfinished"] == 1.0
    reached = [summary["reached"][b] for b in BANDS]
    assert reached == sorted(reached, reverse=True)

    res = CliRunner().invoke(
        solo,
        [
            "--bot",
            "random",
            "--games",
            "3",
            "--seed",
            "2",
            "--workers",
            "1",
            "--json",
            "--no-progress",
        ],
    )
    assert res.exit_code == 0, res.output
    report = json.loads(res.output.strip().splitlines()[-1])
    assert report["mean_total"] == summary["mean_total"]
    assert set(report["bands"]) == set(BANDS)
