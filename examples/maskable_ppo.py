"""MaskablePPO (sb3-contrib) on Sky Totems with no glue: `pip install -e '.[sb3]'`.

python examples/maskable_ppo.py [--steps 16384] [--games 100]  (--help lists the options)
"""

import argparse
import time

import gymnasium
from sb3_contrib import MaskablePPO
from sb3_contrib.common.maskable.evaluation import evaluate_policy
from stable_baselines3.common.env_util import make_vec_env
from stable_baselines3.common.vec_env import VecEnv

import skytotems.env  # noqa: F401  (registers skytotems/SkyTotems-v0)

parser = argparse.ArgumentParser(description="Train MaskablePPO, then play random and greedy.")
parser.add_argument("--steps", type=int, default=16_384, help="training steps (default 16384)")
parser.add_argument("--minutes", type=float, help="stop training after this many wall minutes")
parser.add_argument("--games", type=int, default=100, help="games against each bot (default 100)")
parser.add_argument("--verbose", action="store_true", help="print SB3's table after each rollout")
parser.add_argument("--save", help="save the trained model to this zip file")
args = parser.parse_args()
ENVS = 8  # games played side by side: the policy's forward pass is batched over them


def make(opponent: str, seed: int, games: int) -> VecEnv:
    """`games` games against `opponent`, the learner's seat drawn at each reset."""
    kwargs = {"opponents": opponent, "observation": "flat", "learner_seat": "random"}
    game = lambda: gymnasium.make("skytotems/SkyTotems-v0", **kwargs)  # noqa: E731
    return make_vec_env(game, games, seed=seed)


train = make("random", seed=0, games=ENVS)
rollout = max(1, min(256, args.steps // ENVS))  # steps per game per rollout: 2,048 in all
batch = min(256, rollout * ENVS)
model = MaskablePPO(
    "MlpPolicy",
    train,
    n_steps=rollout,
    batch_size=batch,
    n_epochs=4,
    seed=0,
    verbose=int(args.verbose),
)
start, cpu = time.perf_counter(), time.process_time()
deadline = start + 60 * args.minutes if args.minutes is not None else float("inf")
model.learn(args.steps, callback=lambda _locals, _globals: time.perf_counter() < deadline)
used = time.process_time() - cpu
print(f"trained {model.num_timesteps} steps in {used:.0f} s of CPU", flush=True)
if args.save:
    model.save(args.save)
for opponent in ("random", "greedy"):
    for deterministic in (True, False):  # arg-max moves, or moves sampled as in training
        rival = make(opponent, seed=1, games=1)  # the same games for both policies
        rewards, _ = evaluate_policy(
            model, rival, args.games, deterministic=deterministic, return_episode_rewards=True
        )
        policy = "arg-max" if deterministic else "sampled"
        won = sum(r > 0 for r in rewards)
        print(f"vs {opponent} ({policy}): won {won} of {args.games}", flush=True)
