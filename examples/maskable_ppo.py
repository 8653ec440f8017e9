"""MaskablePPO (sb3-contrib) on Sky Totems with no glue: `pip install -e '.[sb3]'`.

python examples/maskable_ppo.py [training steps, default 50000] [evaluation games, default 100]
"""

import sys
import time

import gymnasium
from sb3_contrib import MaskablePPO
from sb3_contrib.common.maskable.evaluation import evaluate_policy
from stable_baselines3.common.monitor import Monitor

import skytotems.env  # noqa: F401  (registers skytotems/SkyTotems-v0)

steps, games = (int(a) for a in [*sys.argv[1:], "50000", "100"][:2])
env = gymnasium.make("skytotems/SkyTotems-v0", opponents="random", observation="flat")
start = time.perf_counter()
model = MaskablePPO("MlpPolicy", env, seed=0).learn(steps)
print(f"trained {steps} steps in {time.perf_counter() - start:.0f} s")
for opponent in ("random", "greedy"):
    rival = Monitor(gymnasium.make(
        "skytotems/SkyTotems-v0", opponents=opponent, observation="flat", learner_seat="random"
    ))
    rival.reset(seed=1)  # evaluation games of their own, the learner in either seat
    rewards, _ = evaluate_policy(model, rival, n_eval_episodes=games, return_episode_rewards=True)
    print(f"vs {opponent}: won {sum(r > 0 for r in rewards)} of {games}")
