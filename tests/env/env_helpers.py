"""Shared helpers of the research-API tests: random play through the AEC environment."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

from skytotems.env import sky_totems_v0

TOTEM_SETS = ("beginner", "dragon", "cat-plus-three", "random-four", "bird,horse,dragon,cat")


def random_index(observation: dict[str, Any], rng: np.random.Generator) -> int:
    """A uniformly random allowed index of an observation's mask."""
    return int(rng.choice(np.flatnonzero(observation["action_mask"])))


def play_random(
    env: sky_totems_v0.raw_env,
    rng: np.random.Generator,
    on_step: Callable[[str, dict[str, Any]], None] | None = None,
    max_steps: int = 100_000,
    eager: bool = False,
) -> Iterator[str]:
    """Play masked random actions (`eager_index` if `eager`) until the game ends;
    yields each acting agent."""
    steps = 0
    while env.agents and steps < max_steps:
        agent = env.agent_selection
        observation, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        if on_step is not None:
            on_step(agent, observation)
        yield agent
        env.step(
            eager_index(observation, rng, env.codec) if eager else random_index(observation, rng)
        )
        steps += 1


def same_observation(a: dict[str, Any], b: dict[str, Any]) -> bool:
    """Whether two observations hold equal arrays: the AEC's nested
    ``{"observation", "action_mask"}`` or the Gymnasium wrapper's one level of keys."""
    if "observation" in a:
        a = {**a["observation"], "action_mask": a["action_mask"]}
    if "observation" in b:
        b = {**b["observation"], "action_mask": b["action_mask"]}
    return a.keys() == b.keys() and all(np.array_equal(a[k], b[k]) for k in a)


def eager_index(observation: dict[str, Any], rng: np.random.Generator, codec: Any) -> int:
    """A random allowed index that prefers reveals, totems and tall columns, so that
    random games reach wolves, dragons, cats, rewards and the last reveals."""
    allowed = np.flatnonzero(observation["action_mask"]).tolist()
    heights = observation["observation"]["heights"][0]
    best: list[int] = []
    best_rank = -1
    for index in allowed:
        block, k = codec.block_of(index)
        if block in ("reveal", "build_totem", "wolf_take"):
            rank = 1000
        elif block == "place_pedestal":
            row, col = divmod(k % codec.cells, codec.window)
            rank = int(heights[row, col])
        else:
            rank = 0
        if rank > best_rank:
            best, best_rank = [index], rank
        elif rank == best_rank:
            best.append(index)
    pool = best if rng.random() < 0.8 else allowed
    return int(pool[rng.integers(len(pool))])
