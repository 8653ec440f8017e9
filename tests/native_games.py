"""Seeded games for tests/test_native.py, run in a process of their own on one path
(compiled or pure, as `skytotems.native` chose): one line per game, its actions'
digest and final scores, then the path. The same seeds must print the same lines on
both paths.

    python tests/native_games.py [--quick]
"""

from __future__ import annotations

import hashlib
import sys

from skytotems import Game, GameOptions, native, view
from skytotems.bots.base import Bot
from skytotems.bots.mcts import MctsBot, custom_level
from skytotems.bots.registry import make_bot
from skytotems.rules.scoring import score_sheet

# (players, totem set, seed, the bots by seat): every bot the search path runs, from the
# random bot to a small hard search with its estimated replies and the root's costs.
GAMES = (
    (4, "beginner", 1, ("random",)),
    (3, "dragon", 2, ("greedy", "random", "greedy")),
    (1, "beginner", 3, ("greedy",)),
    (2, "random-four", 4, ("mcts-easy", "greedy")),
    (1, "dragon", 5, ("mcts-easy",)),
    (2, "beginner", 6, ("mcts-hard:iterations=24", "greedy")),
    (1, "bird,wolf,dragon,cat", 7, ("mcts-hard:iterations=16",)),
    (3, "cat-plus-three", 8, ("mcts-medium:iterations=10", "greedy", "mcts-easy")),
)


def bot_of(name: str, seed: int) -> Bot:
    """A bot by name; `mcts-hard:FIELD=VALUE` names a variant of a level."""
    if ":" in name:
        level, *settings = name.split(":")
        return MctsBot(seed, custom_level(level.removeprefix("mcts-"), settings))
    return make_bot(name, seed=seed)


def play(players: int, totems: str, seed: int, names: tuple[str, ...]) -> str:
    """One game to its end: the digest of its actions and the final scores."""
    game = Game(GameOptions(players=players, totems=totems), seed=seed)
    bots = [bot_of(names[s % len(names)], seed * 10 + s) for s in range(game.n)]
    while not game.is_over:
        seat = game.decision.seats[0]
        action = bots[seat].choose(view(game, seat), game.legal_actions(seat))
        game.apply(action)
    digest = hashlib.sha256("\n".join(map(repr, game.history)).encode()).hexdigest()[:16]
    scores = [score_sheet(game, s).total for s in range(game.n)]
    played = f"{len(game.history)} actions {digest} {scores}"
    return f"{players} {totems} {seed} {','.join(names)}: {played}"


def main() -> None:
    games = GAMES[:3] if "--quick" in sys.argv else GAMES
    for players, totems, seed, names in games:
        print(play(players, totems, seed, names), flush=True)
    print(f"path: {native.describe()}")


if __name__ == "__main__":
    main()
