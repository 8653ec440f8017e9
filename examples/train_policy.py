"""Train a small policy for Sky Totems on the CPU in minutes, then measure it against `random`.

The policy is a linear softmax over hand-made features of each legal action (a
"conditional logit": ``π(a|s) ∝ exp(w · φ(s, a))``), computed only from the
environment's observation arrays and the action index, and trained with REINFORCE
(a running-mean baseline) in the Gymnasium wrapper, one seat learning against the
`random` bot. NumPy only: no deep-learning framework is needed.

    python examples/train_policy.py                      # ~3 minutes: train, then 200 games
    python examples/train_policy.py --train-games 20 --eval-games 10   # a quick smoke run
    python examples/train_policy.py --load policy.json --eval-games 400
    python examples/train_policy.py --load policy.json --arena   # through skytotems.bots.arena

The evaluation alternates the learner's seat, plays fresh seeds, and reports the win
rate with its Wilson 95% interval. `PolicyBot` wraps the trained weights in the bots'
interface (``choose(view, legal_actions)``), so the policy can also sit at any table
that takes bots.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from skytotems.env import ActionCodec, ObservationEncoder, SkyTotemsGymEnv
from skytotems.env.encoding import TOTEM_SHAPES
from skytotems.rules.actions import Action
from skytotems.rules.pieces import TOTEM_SIZE

BLOCKS = (
    "choose_start",
    "reveal",
    "take_slot",
    "draw_from_bag",
    "pass",
    "end_turn",
    "wolf_stop",
    "choose_design",
    "return_pedestal",
    "fallback",
    "place_pedestal",
    "place_cloud",
    "choose_cat",
    "wolf_take",
    "build_totem",
)
EXTRA_FEATURES = (
    "place: new height / 6",
    "place: on an empty cloud",
    "place: rare design",
    "place: neighbours of the same new height / 4",
    "place: neighbours two apart / 4",
    "place: reaches a cat (height 6)",
    "totem: points / 20",
    "totem: bird",
    "totem: wolf",
    "totem: horse",
    "totem: dragon",
    "slot: pedestals / 4",
    "slot: rare pedestals / 4",
    "return: rare design",
    "design: rare",
    "design: own columns of that kind / 4",
    "cloud: cloud neighbours / 4",
    "cloud: column neighbours / 4",
    "cat or wolf: column height / 6",
)
FEATURES = len(BLOCKS) + len(EXTRA_FEATURES)
RARE = 6
NEIGHBOURS = ((0, 1), (0, -1), (1, 0), (-1, 0))


def action_features(
    observation: Mapping[str, np.ndarray], indices: Sequence[int], codec: ActionCodec
) -> np.ndarray:
    """φ(s, a) for each index, from the learner's observation arrays (its own altar is
    relative seat 0)."""
    heights = observation["heights"][0]
    kinds = observation["kinds"][0]
    clouds = observation["clouds"][0]
    w = codec.window
    out = np.zeros((len(indices), FEATURES), np.float64)
    base = len(BLOCKS)

    def height(row: int, col: int) -> int:
        return int(heights[row, col]) if 0 <= row < w and 0 <= col < w else 0

    for n, index in enumerate(indices):
        block, k = codec.block_of(index)
        out[n, BLOCKS.index(block)] = 1.0
        f = out[n, base:]
        if block == "place_pedestal":
            design, cell = divmod(k, codec.cells)
            row, col = divmod(cell, w)
            new = height(row, col) + 1
            around = [height(row + dy, col + dx) for dx, dy in NEIGHBOURS]
            f[0] = new / 6
            f[1] = 1.0 if new == 1 else 0.0
            f[2] = 1.0 if design >= RARE else 0.0
            f[3] = sum(1 for h in around if h == new) / 4
            f[4] = sum(1 for h in around if h >= 1 and abs(h - new) == 2) / 4
            f[5] = 1.0 if new >= 6 else 0.0
        elif block == "build_totem":
            shape, cell = divmod(k, codec.cells)
            kind, _, offsets = TOTEM_SHAPES[shape]
            row, col = divmod(cell, w)
            top = max(height(row + dy, col + dx) for dx, dy in offsets)
            f[6] = TOTEM_SIZE[kind] * top / 20
            f[7 + kind] = 1.0
        elif block == "take_slot":
            slot = observation["slots"][k]
            f[11] = slot.sum() / 4
            f[12] = slot[RARE:].sum() / 4
        elif block == "return_pedestal":
            f[13] = 1.0 if k >= RARE else 0.0
        elif block == "choose_design":
            f[14] = 1.0 if k >= RARE else 0.0
            f[15] = float((kinds == k).sum()) / 4
        elif block == "place_cloud":
            row, col = divmod(k, w)
            near = [
                (row + dy, col + dx)
                for dx, dy in NEIGHBOURS
                if 0 <= row + dy < w and 0 <= col + dx < w
            ]
            f[16] = sum(int(clouds[r, c]) for r, c in near) / 4
            f[17] = sum(1 for r, c in near if heights[r, c] > 0) / 4
        elif block in ("choose_cat", "wolf_take"):
            row, col = divmod(k, w)
            f[18] = height(row, col) / 6
    return out


class LinearPolicy:
    """π(a|s) ∝ exp(w · φ(s, a)) over the legal actions."""

    def __init__(self, codec: ActionCodec, weights: np.ndarray | None = None) -> None:
        self.codec = codec
        self.weights = np.zeros(FEATURES) if weights is None else np.asarray(weights, float)

    def distribution(
        self, observation: Mapping[str, Any], mask: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(legal indices, their probabilities, their features)."""
        indices = np.flatnonzero(mask)
        phi = action_features(observation, indices.tolist(), self.codec)
        logits = phi @ self.weights
        logits -= logits.max()
        p = np.exp(logits)
        p /= p.sum()
        return indices, p, phi

    def act(
        self,
        observation: Mapping[str, Any],
        mask: np.ndarray,
        rng: np.random.Generator,
        greedy: bool = False,
    ) -> tuple[int, np.ndarray]:
        """An index and the gradient of its log-probability."""
        indices, p, phi = self.distribution(observation, mask)
        choice = int(np.argmax(p)) if greedy else int(rng.choice(len(p), p=p))
        return int(indices[choice]), phi[choice] - p @ phi

    def save(self, path: Path) -> None:
        data = {"features": list(BLOCKS) + list(EXTRA_FEATURES), "weights": self.weights.tolist()}
        path.write_text(json.dumps(data, indent=1))

    @classmethod
    def load(cls, path: Path, codec: ActionCodec) -> LinearPolicy:
        return cls(codec, np.array(json.loads(path.read_text())["weights"]))


class PolicyBot:
    """The trained policy behind the bots' interface: sees one seat's view only."""

    name = "linear-policy"

    def __init__(self, policy: LinearPolicy, card_ids: Sequence[str], seed: int = 0) -> None:
        self.policy = policy
        self.encoder = ObservationEncoder(card_ids, policy.codec.window)
        self.rng = np.random.default_rng(seed)

    def choose(self, view: Mapping[str, Any], legal_actions: list[Action]) -> Action:
        own = view["seats"][view["viewer"]]
        goals = [g["card"] for g in own.get("goals", ())]
        index_map = self.policy.codec.legal_index_map(legal_actions, own.get("hand", ()), goals)
        observation = self.encoder.encode(view)
        index, _ = self.policy.act(observation, self.policy.codec.mask(index_map), self.rng)
        return index_map[index]


def play_episode(
    env: SkyTotemsGymEnv,
    policy: LinearPolicy,
    rng: np.random.Generator,
    seed: int,
    greedy: bool = False,
) -> tuple[float, list[np.ndarray], dict[str, Any]]:
    """One game: (final reward, log-probability gradients, final info)."""
    observation, info = env.reset(seed=seed)
    grads: list[np.ndarray] = []
    while True:
        # one level of keys: the encoder's arrays and the action mask
        index, grad = policy.act(observation, observation["action_mask"], rng, greedy)
        grads.append(grad)
        observation, reward, terminated, truncated, info = env.step(index)
        if terminated or truncated:
            return reward, grads, info


def train(
    games: int, players: int, seed: int, learning_rate: float, log_every: int
) -> LinearPolicy:
    """REINFORCE against `random`: w += lr · (R − baseline) · Σ ∇log π."""
    env = SkyTotemsGymEnv(
        players=players, opponents="random", learner_seat="random", reward="score_diff"
    )
    policy = LinearPolicy(env.aec.codec)
    rng = np.random.default_rng(seed)
    baseline = 0.0
    recent: list[float] = []
    start = time.time()
    for game in range(games):
        reward, grads, _ = play_episode(env, policy, rng, seed=seed * 1_000_003 + game)
        scaled = reward / 30.0
        advantage = scaled - baseline
        baseline += 0.05 * (scaled - baseline)
        step = learning_rate * advantage * np.sum(grads, axis=0) / math.sqrt(len(grads))
        policy.weights += np.clip(step, -0.5, 0.5)
        recent.append(reward)
        if log_every and (game + 1) % log_every == 0:
            won = sum(1 for r in recent if r > 0) / len(recent)
            print(
                f"game {game + 1:5d}  mean score diff {np.mean(recent):+6.1f}  "
                f"won {won:5.1%}  {time.time() - start:5.0f}s",
                flush=True,
            )
            recent = []
    return policy


def wilson(wins: float, n: int, z: float = 1.959963984540054) -> tuple[float, float]:
    """Wilson's score interval for a win rate."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def evaluate(
    policy: LinearPolicy, games: int, players: int, seed: int, opponent: str = "random"
) -> dict[str, Any]:
    """Win rate of the policy (sampling, as trained) against `opponent`, seats rotated."""
    rng = np.random.default_rng(seed)
    envs = [
        SkyTotemsGymEnv(players=players, opponents=opponent, learner_seat=s, reward="score_diff")
        for s in range(players)
    ]
    wins = 0
    diffs = []
    scores = []
    for game in range(games):
        env = envs[game % players]
        reward, _, info = play_episode(env, policy, rng, seed=10_000_000 + seed * 100_003 + game)
        wins += 1 if info["place"] == 1 else 0
        diffs.append(reward)
        scores.append(info["score"])
    low, high = wilson(wins, games)
    return {
        "opponent": opponent,
        "players": players,
        "games": games,
        "wins": wins,
        "win_rate": wins / games if games else 0.0,
        "wilson95": [low, high],
        "mean_score": float(np.mean(scores)) if scores else 0.0,
        "mean_score_diff": float(np.mean(diffs)) if diffs else 0.0,
    }


def evaluate_in_arena(
    policy: LinearPolicy, games: int, players: int, seed: int, opponent: str = "random"
) -> dict[str, Any]:
    """The same match through the bots' arena (``skytotems.bots.arena.play_game``): the
    policy as a `PolicyBot` that sees only its view, every seat in turn."""
    from skytotems.bots import make_bot
    from skytotems.bots.arena import play_game
    from skytotems.rules.cards import default_deck
    from skytotems.rules.options import GameOptions

    card_ids = [c.id for c in default_deck().cards]
    options = GameOptions(players=players)
    wins = 0
    scores = []
    diffs = []
    for game in range(games):
        seat = game % players
        bots: list[Any] = [make_bot(opponent, seed * 7919 + game * 31 + s) for s in range(players)]
        bots[seat] = PolicyBot(policy, card_ids, seed=seed * 7919 + game)
        result = play_game(bots, options, seed=20_000_000 + seed * 100_003 + game)
        wins += 1 if result.places[seat] == 1 else 0
        scores.append(result.scores[seat])
        diffs.append(result.scores[seat] - max(s for o, s in enumerate(result.scores) if o != seat))
    low, high = wilson(wins, games)
    return {
        "opponent": opponent,
        "players": players,
        "games": games,
        "wins": wins,
        "win_rate": wins / games if games else 0.0,
        "wilson95": [low, high],
        "mean_score": float(np.mean(scores)) if scores else 0.0,
        "mean_score_diff": float(np.mean(diffs)) if diffs else 0.0,
        "arena": True,
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--train-games", type=int, default=2000)
    parser.add_argument("--eval-games", type=int, default=200)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--opponent", default="random", help="bot to evaluate against (training is vs random)"
    )
    parser.add_argument("--learning-rate", type=float, default=0.1)
    parser.add_argument("--log-every", type=int, default=100)
    parser.add_argument("--save", type=Path, help="write the trained weights (JSON)")
    parser.add_argument("--load", type=Path, help="evaluate saved weights, no training")
    parser.add_argument("--json", action="store_true", help="print the result as JSON")
    parser.add_argument(
        "--arena", action="store_true", help="evaluate through skytotems.bots.arena instead"
    )
    args = parser.parse_args(argv)
    start = time.time()
    if args.load:
        policy = LinearPolicy.load(args.load, ActionCodec())
    else:
        policy = train(
            args.train_games, args.players, args.seed, args.learning_rate, args.log_every
        )
    trained = time.time() - start
    if args.save:
        policy.save(args.save)
    measure = evaluate_in_arena if args.arena else evaluate
    result = measure(policy, args.eval_games, args.players, args.seed, args.opponent)
    result["train_games"] = 0 if args.load else args.train_games
    result["train_seconds"] = round(trained, 1)
    result["eval_seconds"] = round(time.time() - start - trained, 1)
    if args.json:
        print(json.dumps(result))
    else:
        low, high = result["wilson95"]
        print(
            f"trained on {result['train_games']} games in {result['train_seconds']}s; "
            f"vs {result['opponent']} over {result['games']} games: won {result['wins']} "
            f"= {result['win_rate']:.1%} (Wilson 95% {low:.1%}–{high:.1%}), "
            f"mean score {result['mean_score']:.1f}, "
            f"mean score difference {result['mean_score_diff']:+.1f}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
