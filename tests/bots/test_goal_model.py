"""The face-down goals' fitted chance (bots/goal_model.py) and the estimate's weight that
takes it (`Weights.goal_fit`; docs/bots.md "Goal chances fitted to the games"). RULES.md
§7: a goal scores only once revealed, and only when its mission is met."""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from skytotems.bots.evaluation import (
    WEIGHTS,
    Estimator,
    Weights,
    actions_left,
    chance,
    mission_distance,
)
from skytotems.bots.goal_model import GOAL_TYPE_OFFSETS, fitted_goal_chance, goal_type
from skytotems.bots.mcts import LEVELS, Level, MctsBot, Search, custom_level
from skytotems.rules.cards import default_deck
from skytotems.rules.engine import Game
from skytotems.rules.options import GameOptions
from skytotems.rules.position import Position, game_from_position
from skytotems.rules.view import view

from .bot_helpers import SCRIPTS, assert_script_refuses

MISSIONS = {card.id: card.mission for card in default_deck().cards}
FITTED = replace(WEIGHTS, goal_fit=1.0)
BASE = Level(iterations=12, determinizations=2, time_cap=30.0)


def test_every_mission_type_of_the_deck_has_its_fitted_offset() -> None:
    assert {goal_type(m) for m in MISSIONS.values()} == set(GOAL_TYPE_OFFSETS)


def test_a_cats_missions_are_told_apart_from_the_other_kinds() -> None:
    assert goal_type(MISSIONS["cat-god"]) == "totem_over_rare_column:cat"
    assert goal_type(MISSIONS["wolf-god"]) == "totem_over_rare_column"
    assert goal_type(MISSIONS["cat-pair"]) == "totem_count:cat"
    assert goal_type(MISSIONS["skyline"]) == "tall_columns"


@given(
    card=st.sampled_from(sorted(MISSIONS)),
    need=st.floats(min_value=0.01, max_value=80.0),
    more=st.floats(min_value=0.0, max_value=20.0),
    actions=st.integers(min_value=1, max_value=11),
)
def test_the_chance_is_a_probability_falling_with_the_distance(
    card: str, need: float, more: float, actions: int
) -> None:
    mission = MISSIONS[card]
    near = fitted_goal_chance(mission, need, actions)
    far = fitted_goal_chance(mission, need + more, actions)
    assert 0.0 <= far <= near <= 1.0


@given(
    card=st.sampled_from(sorted(MISSIONS)),
    need=st.floats(min_value=0.01, max_value=80.0),
    actions=st.integers(min_value=1, max_value=10),
)
def test_the_chance_grows_with_the_actions_left(card: str, need: float, actions: int) -> None:
    mission = MISSIONS[card]
    assert fitted_goal_chance(mission, need, actions) <= fitted_goal_chance(
        mission, need, actions + 1
    )


def test_a_met_mission_is_certain_and_none_is_met_with_no_action_left() -> None:
    mission = MISSIONS["skyline"]
    assert fitted_goal_chance(mission, 0.0, 5) == 1.0
    assert fitted_goal_chance(mission, 3.0, 0) == 0.0


def opening(goals: list[str]) -> Game:
    """Seat 0 at round 1 with two columns of 1: most goals are far."""
    return game_from_position(
        Position(
            altars=["0,0 r _/_ b", "0,0 g _/_ _"], options=GameOptions(players=1), goals=[goals, []]
        )
    )


def goal_value(game: Game, weights: Weights, seat: int = 0) -> float:
    est = Estimator(game, weights)
    altar = game.altars[seat]
    return est.goals(seat, altar, actions_left(game, seat)[0])


def test_the_games_rate_a_far_skyline_likelier_than_the_distance_did() -> None:
    """At the first round, 4 columns 3 high are 9 pedestals away: the distance's chance
    says about one in three; the hard level's games met such goals far more often."""
    game = opening(["skyline"])
    altar = game.altars[0]
    need = mission_distance(MISSIONS["skyline"], altar, Estimator(game))
    actions = actions_left(game, 0)[0]
    assert need >= 8
    fitted = fitted_goal_chance(MISSIONS["skyline"], need, actions)
    assert fitted > WEIGHTS.goals * chance(need, actions, WEIGHTS.rate) + 0.2
    assert goal_value(game, FITTED) > goal_value(game, WEIGHTS) + 1.0


def test_two_columns_of_one_kind_four_high_are_rated_below_a_far_skyline() -> None:
    """Twin Peaks (two red columns 4 high) 7 pedestals away, Skyline 10: the distance's
    chance rates Twin Peaks likelier, the games met it far less often."""
    game = opening(["twin-peaks", "skyline"])
    est = Estimator(game)
    altar = game.altars[0]
    actions = actions_left(game, 0)[0]
    needs = {c: mission_distance(MISSIONS[c], altar, est) for c in ("twin-peaks", "skyline")}
    assert needs["twin-peaks"] < needs["skyline"]
    old = {c: chance(n, actions, WEIGHTS.rate) for c, n in needs.items()}
    fitted = {c: fitted_goal_chance(MISSIONS[c], n, actions) for c, n in needs.items()}
    assert old["twin-peaks"] > old["skyline"]
    assert fitted["twin-peaks"] < fitted["skyline"]


def test_without_the_fit_the_estimate_is_the_greedy_bots_to_the_bit() -> None:
    game = Game(GameOptions(players=1), 11)
    while game.phase != "play":
        seat = game.decision.seats[0]
        game.apply(game.legal_actions(seat)[0])
    zero = replace(WEIGHTS, goal_fit=0.0)
    for seat in range(game.n):
        assert Estimator(game, zero).value(seat) == Estimator(game, WEIGHTS).value(seat)


def test_the_share_blends_the_two_chances() -> None:
    game = opening(["skyline", "twin-peaks"])
    half = goal_value(game, replace(WEIGHTS, goal_fit=0.5))
    assert half == pytest.approx((goal_value(game, WEIGHTS) + goal_value(game, FITTED)) / 2)


def test_a_variant_takes_the_fitted_chance_by_name() -> None:
    assert custom_level("hard", ["weights.goal_fit=1"]).weights.goal_fit == 1.0
    assert custom_level("hard", ["solo_start_goal_fit=1"]).solo_start_goal_fit == 1.0


def test_only_the_starting_card_searches_take_the_start_share() -> None:
    """`Level.solo_start_goal_fit`: in solo, which goals to keep by the fitted chance, the
    game itself by the distance's (whose every pedestal closer counts)."""
    level = replace(BASE, solo_start_goal_fit=1.0)
    setup = Game(GameOptions(players=1), 5)
    assert setup.decision.kind == "choose_start"
    search = Search(MctsBot(1, level), setup, 0, solo=True)
    assert search.weights.goal_fit == 1.0
    assert search.greedy.weights is search.weights
    assert Search(MctsBot(1, level), setup, 0, solo=True).weights is search.weights  # one object
    turn = opening(["skyline"])
    assert Search(MctsBot(1, level), turn, 0, solo=True).weights is WEIGHTS
    assert Search(MctsBot(1, BASE), setup, 0, solo=True).weights is WEIGHTS
    duel = Game(GameOptions(players=2), 5)
    assert duel.decision.kind == "choose_start"
    assert Search(MctsBot(1, level), duel, 0, solo=False).weights is WEIGHTS  # solo only


def test_a_solo_game_takes_its_own_share_and_the_start_keeps_its() -> None:
    """`Level.solo_goal_fit`: in solo, the game's searches take the fitted chance in part,
    the starting cards' searches their own share, duels none."""
    level = replace(BASE, solo_start_goal_fit=1.0, solo_goal_fit=0.5)
    turn = opening(["skyline"])
    search = Search(MctsBot(1, level), turn, 0, solo=True)
    assert search.weights.goal_fit == 0.5
    assert search.greedy.weights is search.weights
    assert Search(MctsBot(1, level), turn, 0, solo=True).weights is search.weights  # one object
    setup = Game(GameOptions(players=1), 5)
    assert Search(MctsBot(1, level), setup, 0, solo=True).weights.goal_fit == 1.0
    only_game = replace(BASE, solo_goal_fit=0.5)
    assert Search(MctsBot(1, only_game), setup, 0, solo=True).weights is WEIGHTS
    duel = Game(GameOptions(players=2), 5)
    assert Search(MctsBot(1, level), duel, 0, solo=False).weights is WEIGHTS  # solo only
    assert custom_level("hard", ["solo_goal_fit=0.25"]).solo_goal_fit == 0.25


def test_the_hard_levels_choose_their_solo_start_by_the_fitted_chance() -> None:
    assert LEVELS["hard"].solo_start_goal_fit == 1.0
    assert LEVELS["expert"].solo_start_goal_fit == 1.0
    assert LEVELS["hard"].weights is WEIGHTS  # the game itself by the distance's chance
    assert LEVELS["hard"].solo_goal_fit == 0.0
    assert LEVELS["medium"].solo_start_goal_fit == 0.0


def test_a_level_with_the_start_share_plays_a_legal_solo_game() -> None:
    level = replace(BASE, solo_start_goal_fit=1.0)
    game = Game(GameOptions(players=1), 21)
    bot = MctsBot(3, level)
    while not game.is_over:
        seat = game.decision.seats[0]
        legal = game.legal_actions(seat)
        action = bot.choose(view(game, seat), legal)
        assert action in legal
        game.apply(action)


def test_the_fitting_script_records_games_and_prints_the_constants(tmp_path: Path) -> None:
    records = tmp_path / "goals.jsonl"
    result = subprocess.run(
        [
            sys.executable,
            str(SCRIPTS / "fit_goal_model.py"),
            "--record",
            str(records),
            "--level",
            "easy",
            "--games",
            "2",
            "--workers",
            "1",
            "--fit",
            str(records),
            "--test",
            str(records),
            "--for-level",
            "easy",
        ],
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    games = [json.loads(line) for line in records.read_text().splitlines()]
    assert len(games) == 2 and all(g["samples"] for g in games)
    out = result.stdout
    assert "log-likelihood: fitted" in out and "on --test" in out
    names = [line.split(":")[0] for line in out.splitlines() if line.startswith("GOAL_")]
    assert names == [
        "GOAL_CONSTANT",
        "GOAL_NEED",
        "GOAL_ACTIONS",
        "GOAL_NEED_PER_ACTION",
        "GOAL_TYPE_OFFSETS",
    ]
    offsets = [line for line in out.splitlines() if line.startswith('    "')]
    assert {line.split('"')[1] for line in offsets} == set(GOAL_TYPE_OFFSETS)


@pytest.mark.parametrize(
    ("option", "message"),
    [
        ([], "nothing to do"),
        (["--record", "x.jsonl", "--games", "0"], "--games must be at least 1, not 0"),
        (["--test", "x.jsonl"], "--test needs --fit"),
    ],
)
def test_the_fitting_script_refuses_a_bad_option_in_one_line(
    option: list[str], message: str
) -> None:
    assert_script_refuses("fit_goal_model.py", option, message)


def test_the_fitting_script_refuses_a_level_its_records_lack(tmp_path: Path) -> None:
    records = tmp_path / "goals.jsonl"
    game = {
        "level": "easy",
        "index": 0,
        "revealed": [[], []],
        "samples": [[0, "skyline", 1, 5.0, 10]],
    }
    records.write_text(json.dumps(game) + "\n")
    result = subprocess.run(
        [sys.executable, str(SCRIPTS / "fit_goal_model.py"), "--fit", str(records)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 2
    assert "--for-level: no 'hard' games in the --fit records" in result.stderr
    assert "Traceback" not in result.stderr
