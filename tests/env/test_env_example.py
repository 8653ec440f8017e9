"""The training example (examples/train_policy.py): a smoke run with a tiny budget."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

from skytotems import Game, GameOptions, PlacePedestal, Position, view
from skytotems.env import random_opponent, sky_totems_v0
from skytotems.rules.grid import cell
from skytotems.rules.pieces import RED

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "train_policy.py"


@pytest.fixture(scope="module")
def example() -> ModuleType:
    spec = importlib.util.spec_from_file_location("train_policy_example", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def test_smoke_run_trains_saves_and_evaluates(
    example: ModuleType, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    saved = tmp_path / "policy.json"
    args = ["--train-games", "6", "--eval-games", "4", "--log-every", "0", "--json"]
    assert example.main([*args, "--save", str(saved)]) == 0
    result = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert result["games"] == 4 and result["train_games"] == 6
    low, high = result["wilson95"]
    assert 0.0 <= low <= result["win_rate"] <= high <= 1.0
    weights = json.loads(saved.read_text())["weights"]
    assert len(weights) == example.FEATURES and any(w != 0 for w in weights)
    assert example.main(["--load", str(saved), "--eval-games", "2", "--json"]) == 0
    assert json.loads(capsys.readouterr().out.strip())["train_games"] == 0


def test_smoke_run_through_the_bots_arena(
    example: ModuleType, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("skytotems.bots.arena")
    saved = tmp_path / "policy.json"
    example.LinearPolicy(sky_totems_v0.raw_env().codec, np.ones(example.FEATURES)).save(saved)
    assert example.main(["--load", str(saved), "--arena", "--eval-games", "3", "--json"]) == 0
    result = json.loads(capsys.readouterr().out.strip())
    assert result["arena"] is True and result["games"] == 3 and 0 <= result["wins"] <= 3


def test_wilson_interval(example: ModuleType) -> None:
    low, high = example.wilson(8, 10)  # the textbook value for 8 of 10
    assert (round(low, 3), round(high, 3)) == (0.49, 0.943)
    assert example.wilson(0, 20)[0] == 0.0 and example.wilson(20, 20)[1] == 1.0
    low, high = example.wilson(50, 100)
    assert low + high == pytest.approx(1.0)


def test_features_read_the_learner_altar(example: ModuleType) -> None:
    """Placing red on a red column of 2 reaches height 3 next to another column of 3."""
    position = Position(altars=["0,0 rr rrr/_ _", "0,0 _ _/_ _"], slots=["r", "", ""])
    env = sky_totems_v0.raw_env(players=2)
    env.reset(seed=0, options={"position": position})
    env.step(env.codec.blocks["take_slot"][0])
    observation = env.observe("player_0")
    index = env.codec.encode(PlacePedestal(0, RED, cell(0, 0)))
    assert observation["action_mask"][index] == 1
    phi = example.action_features(observation["observation"], [index], env.codec)[0]
    names = list(example.BLOCKS) + list(example.EXTRA_FEATURES)
    value = dict(zip(names, phi, strict=True))
    assert value["place_pedestal"] == 1.0
    assert value["place: new height / 6"] == pytest.approx(3 / 6)
    assert value["place: neighbours of the same new height / 4"] == pytest.approx(1 / 4)
    assert value["place: on an empty cloud"] == 0.0


def test_policy_bot_plays_legal_actions_through_the_bot_interface(example: ModuleType) -> None:
    codec = sky_totems_v0.raw_env().codec
    rng = np.random.default_rng(0)
    policy = example.LinearPolicy(codec, rng.normal(size=example.FEATURES))
    game = Game(GameOptions(players=2), seed=5)
    bots = [example.PolicyBot(policy, [c.id for c in game.deck.cards], seed=1), random_opponent(2)]
    while not game.is_over:
        seat = min(game.decision.seats)
        game.apply(bots[seat].choose(view(game, seat), game.legal_actions(seat)))  # legal or raises
    assert len(game.history) > 50
