"""The Gymnasium single-agent wrapper: one seat learns, the others are bots."""

from __future__ import annotations

import copy
import doctest
import pickle
import warnings
from collections.abc import Mapping
from types import ModuleType
from typing import Any

import numpy as np
import pytest
from env_helpers import random_index, same_observation
from gymnasium.utils.env_checker import check_env

from skytotems import Action
from skytotems.env import (
    GYMNASIUM_ID,
    SkyTotemsGymEnv,
    gym_wrapper,
    random_opponent,
    resolve_opponent,
    sky_totems_v0,
)


def play_episode(env: SkyTotemsGymEnv, seed: int) -> tuple[float, dict[str, Any], int]:
    """Random legal play for the learner: (final reward, final info, learner steps)."""
    rng = np.random.default_rng(seed)
    observation, info = env.reset(seed=seed)
    steps = 0
    while True:
        assert np.array_equal(info["action_mask"], observation["action_mask"])
        assert np.array_equal(env.action_masks(), observation["action_mask"])
        assert observation["action_mask"].sum() >= 1  # the learner always has a decision
        observation, reward, terminated, truncated, info = env.step(random_index(observation, rng))
        steps += 1
        assert not truncated
        if terminated:
            return reward, info, steps
        assert reward == 0.0


def test_gymnasium_env_checker() -> None:
    check_env(SkyTotemsGymEnv(players=2), skip_render_check=True)


@pytest.mark.parametrize(("players", "seat"), [(2, 0), (2, 1), (3, 2), (4, 1)])
def test_episode_against_random(players: int, seat: int) -> None:
    env = SkyTotemsGymEnv(players=players, learner_seat=seat)
    reward, info, steps = play_episode(env, seed=players * 10 + seat)
    assert reward in (-1.0, 1.0)
    assert (reward == 1.0) == (info["place"] == 1)
    assert info["seat"] == seat and steps > 10
    assert env.aec.game is not None and env.aec.game.is_over


def test_same_seed_same_episode() -> None:
    a = SkyTotemsGymEnv(players=3, learner_seat="random", reward="score_diff")
    b = SkyTotemsGymEnv(players=3, learner_seat="random", reward="score_diff")
    (reward_a, info_a, _), (reward_b, info_b, _) = play_episode(a, seed=7), play_episode(b, seed=7)
    assert reward_a == reward_b
    assert [info_a[k] for k in ("seat", "score", "place")] == [
        info_b[k] for k in ("seat", "score", "place")
    ]
    assert a.aec.game is not None and b.aec.game is not None
    assert a.aec.game.history == b.aec.game.history


def test_random_learner_seat_varies() -> None:
    env = SkyTotemsGymEnv(players=4, learner_seat="random")
    seats = {env.reset(seed=s)[1]["seat"] for s in range(16)}
    assert len(seats) > 1


def test_opponents_see_only_their_own_view() -> None:
    calls: list[int] = []

    def careful(view: Mapping[str, Any], legal_actions: list[Action]) -> Action:
        seat = view["viewer"]
        assert all(action.seat == seat for action in legal_actions)
        for entry in view["seats"]:
            if entry["seat"] != seat and view["phase"] != "over":
                assert "goals" not in entry and "hand" not in entry
        calls.append(seat)
        return legal_actions[-1]

    env = SkyTotemsGymEnv(players=3, learner_seat=1, opponents=[careful, random_opponent(3)])
    play_episode(env, seed=2)
    assert set(calls) == {2}  # the first opponent sits on the learner's left


def test_opponents_by_name() -> None:
    bot = resolve_opponent("random", seed=1)
    assert hasattr(bot, "choose")
    env = SkyTotemsGymEnv(players=2, opponents="greedy")
    try:
        reward, _, _ = play_episode(env, seed=3)
    except ValueError as exc:  # only when skytotems.bots is not installed
        assert "skytotems.bots" in str(exc)
    else:
        assert reward in (-1.0, 1.0)
    with pytest.raises(ValueError):
        SkyTotemsGymEnv(players=3, opponents=["random"])  # one, or one per other seat
    with pytest.raises(TypeError):
        SkyTotemsGymEnv(players=2, opponents=[42])  # type: ignore[list-item]


def test_illegal_action_loses_or_raises() -> None:
    env = SkyTotemsGymEnv(players=2)
    observation, _ = env.reset(seed=0)
    masked = int(np.flatnonzero(observation["action_mask"] == 0)[0])
    _, reward, terminated, _, info = env.step(masked)
    assert (reward, terminated, info["illegal_action"]) == (-1.0, True, True)
    with pytest.raises(RuntimeError):
        env.step(int(np.flatnonzero(observation["action_mask"])[0]))
    strict = SkyTotemsGymEnv(players=2, illegal_action="raise")
    strict.reset(seed=0)
    with pytest.raises(ValueError):
        strict.step(masked)


def test_copies_mid_episode() -> None:
    env = SkyTotemsGymEnv(players=2, reward="score_diff")
    observation, _ = env.reset(seed=9)
    rng = np.random.default_rng(9)
    for _ in range(15):
        observation, *_ = env.step(random_index(observation, rng))
    twins = [copy.deepcopy(env), pickle.loads(pickle.dumps(env))]
    while True:  # the same learner choices: the copies' opponents must answer the same
        index = random_index(observation, rng)
        observation, reward, terminated, _, _ = env.step(index)
        for twin in twins:
            twin_observation, twin_reward, twin_terminated, _, _ = twin.step(index)
            assert same_observation(twin_observation, observation)
            assert (twin_reward, twin_terminated) == (reward, terminated)
        if terminated:
            break


@pytest.mark.parametrize("module", [sky_totems_v0, gym_wrapper])
def test_docstring_examples_run(module: ModuleType) -> None:
    result = doctest.testmod(module)
    assert result.attempted > 0 and result.failed == 0


# --- the flat observation and the Gymnasium id (issue 19) -------------------------------


def test_default_observation_has_one_level_of_keys() -> None:
    env = SkyTotemsGymEnv(players=2)
    observation, _ = env.reset(seed=3)
    assert not any(isinstance(v, dict) for v in observation.values())
    assert env.observation_space.contains(observation)
    assert set(observation) == set(env.aec.encoder.space.spaces) | {"action_mask"}


def test_flat_observation_is_the_flattened_encoder_arrays() -> None:
    """The flat vector holds exactly the dict observation's arrays, as float32."""
    flat = SkyTotemsGymEnv(players=3, learner_seat=1, observation="flat")
    nested = SkyTotemsGymEnv(players=3, learner_seat=1)
    vector, info = flat.reset(seed=5)
    arrays, _ = nested.reset(seed=5)
    assert vector.dtype == np.float32 and flat.observation_space.contains(vector)
    expected = np.concatenate(
        [arrays[k].ravel() for k in sorted(arrays) if k != "action_mask"]
    ).astype(np.float32)
    assert np.array_equal(vector, expected)
    assert np.array_equal(info["action_mask"], arrays["action_mask"])
    index = int(np.flatnonzero(flat.action_masks())[0])
    vector, *_ = flat.step(index)
    arrays, *_ = nested.step(index)
    assert not np.array_equal(vector, expected)  # the learner's choice shows
    assert flat.observation_space.contains(vector)


def test_bad_observation_mode_is_refused() -> None:
    with pytest.raises(ValueError, match="observation must be"):
        SkyTotemsGymEnv(observation="nested")


@pytest.mark.parametrize("observation", ["dict", "flat"])
def test_gymnasium_id_passes_check_env_with_render_modes(observation: str) -> None:
    """gymnasium.make builds the wrapper, and check_env also tries each render mode
    through the registered spec."""
    import gymnasium

    env = gymnasium.make(GYMNASIUM_ID, opponents="random", observation=observation)
    assert isinstance(env.unwrapped, SkyTotemsGymEnv)
    assert env.unwrapped.observation_mode == observation
    check_env(env.unwrapped)


def test_stable_baselines3_check_env_accepts_the_flat_observation() -> None:
    sb3_checker = pytest.importorskip(
        "stable_baselines3.common.env_checker",
        reason="Stable-Baselines3 is not installed (the sb3 extra; .ci/run installs it)",
    )
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # SB3 warns about what it cannot use
        sb3_checker.check_env(SkyTotemsGymEnv(observation="flat"))


def test_reset_ignores_other_options_without_warning() -> None:
    """PettingZoo's api_test passes options={"options": 1}: no warning, and the game
    starts as without it."""
    env = SkyTotemsGymEnv(players=2)
    plain, _ = env.reset(seed=9)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with_dummy, _ = env.reset(seed=9, options={"options": 1})
    assert same_observation(plain, with_dummy)
    with pytest.raises(TypeError, match="Position"):
        env.reset(seed=9, options={"position": "0,0 _ _/_ _"})


def test_an_unknown_opponent_is_refused_when_the_env_is_built() -> None:
    """Not at the first reset, deep inside the bot registry (a trial tripped on it)."""
    with pytest.raises(ValueError, match="opponents: unknown bot 'mcts-ultra'"):
        SkyTotemsGymEnv(players=2, opponents="mcts-ultra")
    with pytest.raises(ValueError, match="opponents: unknown bot"):
        SkyTotemsGymEnv(players=3, opponents=["greedy", "nobody"])
    assert SkyTotemsGymEnv(players=2, opponents="mcts").opponent_specs == ["mcts"]  # an alias
