"""MaskablePPO (sb3-contrib) on Sky Totems with no glue: `pip install -e '.[sb3]'`.

python examples/maskable_ppo.py [--steps 50000] [--games 100]  (--help lists the options)
"""

import argparse
import time

import gymnasium
from sb3_contrib import MaskablePPO
from sb3_contrib.common.maskable.evaluation import evaluate_policy
from stable_baselines3.common.monitor import Monitor

import skytotems.env  # noqa: F401  (registers skytotems/SkyTotems-v0)

parser = argparse.ArgumentParser(description="Train MaskablePPO, then play random and greedy.")
parser.add_argument("--steps", type=int, default=50_000, help="training steps (default 50000)")
parser.add_argument("--games", type=int, default=100, help="games against each bot (default 100)")
parser.add_argument("--verbose", action="store_true", help="print SB3's table after each rollout")
parser.add_argument("--save", help="save the trained model to this zip file")
args = parser.parse_args()
env = gymnasium.make("skytotems/SkyTotems-v0", opponents="random", observation="flat")
# PPO trains by whole rollouts of n_steps (SB3's default 2,048): a short run gets a short one
rollout = max(64, min(2048, args.steps))
start = time.perf_counter()
model = MaskablePPO("MlpPolicy", env, n_steps=rollout, seed=0, verbose=int(args.verbose))
model.learn(args.steps)
print(f"trained {model.num_timesteps} steps in {time.perf_counter() - start:.0f} s", flush=True)
if args.save:
    model.save(args.save)
for opponent in ("random", "greedy"):
    rival = Monitor(
        gymnasium.make(
            "skytotems/SkyTotems-v0", opponents=opponent, observation="flat", learner_seat="random"
        )
    )
    rival.reset(seed=1)  # evaluation games of their own, the learner in either seat
    rewards, _ = evaluate_policy(
        model, rival, n_eval_episodes=args.games, return_episode_rewards=True
    )
    print(f"vs {opponent}: won {sum(r > 0 for r in rewards)} of {args.games}", flush=True)
