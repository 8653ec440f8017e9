"""Stable-Baselines3 + sb3-contrib on the Gymnasium id with no glue (the sb3 extra)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

sb3_contrib = pytest.importorskip(
    "sb3_contrib", reason="sb3-contrib is not installed (the sb3 extra; .ci/run installs it)"
)
torch = pytest.importorskip("torch", reason="torch is not installed (the sb3 extra)")

import gymnasium  # noqa: E402

from skytotems.env import GYMNASIUM_ID  # noqa: E402


def run_example(*args: str) -> subprocess.CompletedProcess[str]:
    """examples/maskable_ppo.py run as a user runs it, on one thread; it must succeed."""
    script = Path(__file__).resolve().parents[2] / "examples" / "maskable_ppo.py"
    run = subprocess.run(
        [sys.executable, str(script), *args],
        capture_output=True,
        text=True,
        timeout=600,
        env={**os.environ, "OMP_NUM_THREADS": "1"},
        check=False,
    )
    assert run.returncode == 0, run.stderr[-2000:]
    return run


def test_maskable_ppo_learns_and_plays_on_the_flat_observation() -> None:
    """MaskablePPO("MlpPolicy", env) straight on gymnasium.make: the masks reach the
    policy through Gymnasium's wrappers, and its moves are legal."""
    torch.set_num_threads(1)  # the 2-core machine is shared with the other tests
    env = gymnasium.make(GYMNASIUM_ID, opponents="random", observation="flat")
    model = sb3_contrib.MaskablePPO("MlpPolicy", env, n_steps=64, batch_size=64, n_epochs=1, seed=0)
    model.learn(64)
    observation, _ = env.reset(seed=4)
    for _ in range(20):
        mask = env.unwrapped.action_masks()
        action, _ = model.predict(observation, action_masks=mask, deterministic=True)
        assert mask[int(action)] == 1
        observation, _, terminated, _, _ = env.step(action)
        if terminated:
            break
    assert isinstance(observation, np.ndarray) and observation.dtype == np.float32


def test_the_example_script_trains_saves_and_plays_both_bots(tmp_path: Path) -> None:
    """examples/maskable_ppo.py as a user runs it, at smoke size (one 64-step rollout
    over its 8 games), evaluated with the arg-max and the sampled policy against both
    bots."""
    saved = tmp_path / "model.zip"
    run = run_example("--steps", "64", "--games", "1", "--save", str(saved))
    assert "trained 64 steps" in run.stdout
    for opponent in ("random", "greedy"):
        for policy in ("arg-max", "sampled"):
            assert f"vs {opponent} ({policy}): won" in run.stdout
    assert saved.stat().st_size > 0


def test_the_example_script_stops_training_at_its_time_limit() -> None:
    """--minutes bounds the training's wall time: with 0 it stops at its first step
    (one step of each of its 8 games)."""
    run = run_example("--steps", "4096", "--minutes", "0", "--games", "0")
    assert "trained 8 steps" in run.stdout
