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
parser.add_argument("--minutes", type=float, help="stop training after this many wall minutes")
parser.add_argument("--games", type=int, default=100, help="games against each bot (default 100)")
parser.add_argument("--verbose", action="store_true", help="print SB3's table after each rollout")
parser.add_argument("--save", help="save the trained model to this zip file")
args = parser.parse_args()


def make(opponent: str) -> gymnasium.Env:  # the learner's seat drawn at each reset
    kwargs = {"opponents": opponent, "observation": "flat", "learner_seat": "random"}
    return Monitor(gymnasium.make("skytotems/SkyTotems-v0", **kwargs))


# PPO trains by whole rollouts of n_steps (SB3's default 2,048): a short run gets a short one;
# a small entropy bonus keeps the policy exploring (SB3's default is none)
rollout = max(64, min(2048, args.steps))
model = MaskablePPO(
    "MlpPolicy", make("random"), n_steps=rollout, ent_coef=0.01, seed=0, verbose=int(args.verbose)
)
start = time.perf_counter()
deadline = start + 60 * args.minutes if args.minutes is not None else float("inf")
model.learn(args.steps, callback=lambda _locals, _globals: time.perf_counter() < deadline)
print(f"trained {model.num_timesteps} steps in {time.perf_counter() - start:.0f} s", flush=True)
if args.save:
    model.save(args.save)
for opponent in ("random", "greedy"):
    for deterministic in (True, False):  # arg-max moves, or moves sampled as in training
        rival = make(opponent)
        rival.reset(seed=1)  # evaluation games of their own, the same for both policies
        rewards, _ = evaluate_policy(
            model, rival, args.games, deterministic=deterministic, return_episode_rewards=True
        )
        policy = "arg-max" if deterministic else "sampled"
        won = sum(r > 0 for r in rewards)
        print(f"vs {opponent} ({policy}): won {won} of {args.games}", flush=True)
