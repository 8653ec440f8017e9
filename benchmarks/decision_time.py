"""CPU seconds per searched decision of bot levels, on positions of seeded games.

A level's budget is sized by this figure (mcts-expert: at most 2.5 s of one core per
decision). The positions are turn decisions (more than one legal action) of seeded
games of the greedy bot (two players, or `--players`: a playout runs through every
other seat's turn, so larger games cost more; 1 is solo, searched for both altars' sum),
at fixed moves; each level decides every
position, the levels alternating in order from one position to the next so that a
change of the machine's load weighs on all alike. CPU time of this process is robust
to other jobs on the machine, where wall-clock time is not (a loaded machine still
slows it some, by sharing the caches).

    python benchmarks/decision_time.py --levels mcts-hard,mcts-expert --games 3 --seed 1
    python benchmarks/decision_time.py --levels mcts-hard,mcts-hard:costs=leaf:iterations=250
    python benchmarks/decision_time.py --levels mcts-expert --players 4 --games 1
    python benchmarks/decision_time.py --levels mcts-hard --players 1 --games 3

A level may be a variant: the bot name, then `:FIELD=VALUE` settings of its search level
(`skytotems.bots.mcts.custom_level`).
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from typing import Any

from skytotems import Game, GameOptions, view
from skytotems.bots.arena import mix_seed
from skytotems.bots.base import Bot
from skytotems.bots.mcts import MctsBot, custom_level
from skytotems.bots.registry import make_bot

MOVES = (20, 60, 100)  # where positions are taken (the next turn decision from there)


def positions(games: int, seed: int, players: int = 2) -> list[Game]:
    """Turn decisions of greedy self-play, at or after each of MOVES in each game."""
    found = []
    for i in range(games):
        game = Game(GameOptions(players=players), mix_seed(seed, i))
        bots = [make_bot("greedy", mix_seed(seed, i, s)) for s in range(game.n)]
        wanted = list(MOVES)
        while not game.is_over and wanted:
            seat = game.decision.seats[0]
            legal = game.legal_actions(seat)
            if len(game.history) >= wanted[0] and game.decision.kind == "turn" and len(legal) > 1:
                found.append(game.copy())
                wanted.pop(0)
            game.apply(bots[seat].choose(view(game, seat), legal))
    return found


def bot_of(spec: str, seed: int) -> Bot:
    """A registry bot, or `mcts-LEVEL:FIELD=VALUE...`: that level with its settings."""
    name, *settings = spec.split(":")
    if not settings:
        return make_bot(name, seed)
    return MctsBot(seed, custom_level(name.removeprefix("mcts-"), settings))


def measure(levels: list[str], games: int, seed: int, players: int = 2) -> dict[str, Any]:
    """Each level's CPU seconds on every position (levels rotated between positions)."""
    cpu: dict[str, list[float]] = {level: [] for level in levels}
    for p, game in enumerate(positions(games, seed, players)):
        seat = game.decision.seats[0]
        seen, legal = view(game, seat), game.legal_actions(seat)
        order = levels[p % len(levels) :] + levels[: p % len(levels)]
        for level in order:
            bot = bot_of(level, mix_seed(seed, p))
            start = time.process_time()
            bot.choose(seen, legal)
            cpu[level].append(time.process_time() - start)
        print(json.dumps({"position": p, **{k: round(v[-1], 3) for k, v in cpu.items()}}))
    return {
        "players": players,
        "positions": len(cpu[levels[0]]),
        "mean_cpu_s": {k: round(statistics.fmean(v), 3) for k, v in cpu.items()},
        "max_cpu_s": {k: round(max(v), 3) for k, v in cpu.items()},
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--levels", default="mcts-hard,mcts-expert")
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--players", type=int, choices=(1, 2, 3, 4), default=2)
    args = parser.parse_args()
    levels = args.levels.split(",")
    try:
        for spec in levels:
            bot_of(spec, 0)  # a bad name or setting: one line, before any game is played
    except ValueError as exc:
        raise SystemExit(f"--levels: {exc}") from None
    print(json.dumps(measure(levels, args.games, args.seed, args.players)))


if __name__ == "__main__":
    main()
