"""Matches between bots: playing games, seat rotation, and the statistics of a match.

`play_game` drives one game: it hands each pending seat its own view and legal actions,
checks the bot's answer against the legal actions (a bot that answers anything else
is a bug, reported as `BotError`) and times every decision.

`run_arena` plays seat-rotated matches (every bot in every seat equally often), in
parallel processes (a ladder of many bots: every pairing, the expensive ones capped to
fewer games with `caps`), and `summarize` turns the results into the figures the CLI prints:

- win rate: a shared first place counts as 1/k of a win for each of the k seats sharing
  it; its 95% confidence interval is Wilson's score interval (it stays inside [0, 1]
  and behaves well near 0 and 1, unlike the normal approximation);
- mean score and its standard deviation;
- Elo: every game is broken into pairwise results by finishing order (a better place
  wins, an equal place is a draw), so 3–4 player games count too; ratings are the
  maximum-likelihood Bradley–Terry strengths (Hunter's MM iteration), with one virtual
  draw between every pair of bots so that a bot that always wins still gets a finite
  rating, converted to the Elo scale (400·log10) and shifted so that their mean is 1500
  (or so that an anchor bot has a given rating: `random=0`), each with a 95% interval
  from the fit's Fisher information (`elo_intervals`);
- mean decision time in milliseconds (every call to `choose`, single-option ones too).
"""

from __future__ import annotations

import itertools
import math
import os
import statistics
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from typing import Any, TypeVar

from ..rules.engine import Game
from ..rules.options import GameOptions
from ..rules.scoring import final_places, score_sheet
from ..rules.view import view
from .base import Bot
from .registry import make_bot

MAX_ACTIONS = 20_000  # far beyond any real game: a bot that never ends the game is a bug
ELO_MEAN = 1500.0
ELO_PRIOR_DRAWS = 1.0


class BotError(RuntimeError):
    """A bot answered with an action that is not legal (or never let the game end)."""


@dataclass
class GameResult:
    """One finished game, as the statistics need it."""

    index: int
    seed: int
    lineup: tuple[str, ...]
    scores: tuple[int, ...]
    places: tuple[int, ...]
    decisions: tuple[int, ...]
    seconds: tuple[float, ...]
    actions: int = 0

    @property
    def total(self) -> int:
        """Sum of all seats' scores (the solo result)."""
        return sum(self.scores)


def mix_seed(*parts: int) -> int:
    """A 63-bit seed derived from integers (stable across processes and Python runs)."""
    h = 0x243F6A8885A308D3
    for p in parts:
        h = (h ^ (p & 0xFFFFFFFFFFFFFFFF)) * 0x100000001B3 & 0xFFFFFFFFFFFFFFFF
        h ^= h >> 29
    return h & 0x7FFFFFFFFFFFFFFF


def play_game(
    bots: Sequence[Bot],
    options: GameOptions,
    seed: int,
    index: int = 0,
    lineup: Sequence[str] | None = None,
) -> GameResult:
    """Play one game to the end; `bots[s]` decides for seat s (in solo: pass one bot twice)."""
    game = Game(options, seed)
    n = game.n
    if len(bots) != n:
        raise ValueError(f"{n} seats need {n} bots, got {len(bots)}")
    decisions = [0] * n
    seconds = [0.0] * n
    actions = 0
    while not game.is_over:
        seat = game.decision.seats[0]
        legal = game.legal_actions(seat)
        seen = view(game, seat)
        start = time.perf_counter()
        action = bots[seat].choose(seen, legal)
        seconds[seat] += time.perf_counter() - start
        decisions[seat] += 1
        if action not in legal:
            raise BotError(
                f"bot {bots[seat].name!r} (seat {seat}) chose {action}, which is not legal "
                f"at move {len(game.history)} ({game.decision.kind})"
            )
        game.apply(action)
        actions += 1
        if actions > MAX_ACTIONS:
            raise BotError(f"the game did not end after {MAX_ACTIONS} actions")
    scores = tuple(score_sheet(game, s).total for s in range(n))
    return GameResult(
        index=index,
        seed=seed,
        lineup=tuple(lineup) if lineup is not None else tuple(b.name for b in bots),
        scores=scores,
        places=tuple(final_places(game)),
        decisions=tuple(decisions),
        seconds=tuple(seconds),
        actions=actions,
    )


# ------------------------------------------------------------------ the schedule


def schedule(bots: Sequence[str], players: int) -> list[tuple[str, ...]]:
    """One cycle of lineups in which every bot sits in every seat equally often.

    With as many bots as players: the cyclic rotations of the list. With more bots:
    the rotations of every combination of `players` bots. With fewer: seats are filled
    by cycling through the list, then rotated (a bot then holds several seats).
    """
    if not bots:
        raise ValueError("name at least one bot")
    if len(bots) >= players:
        groups = [tuple(c) for c in itertools.combinations(bots, players)]
    else:
        groups = [tuple(bots[s % len(bots)] for s in range(players))]
    return [g[r:] + g[:r] for g in groups for r in range(players)]


def games_needed(bots: Sequence[str], players: int, games: int) -> int:
    """`games` rounded up to whole cycles of the schedule (so seats stay balanced)."""
    cycle = len(schedule(bots, players))
    return -(-games // cycle) * cycle


@dataclass(frozen=True)
class MatchTask:
    """Everything a worker process needs to play game `index` of a match."""

    index: int
    lineup: tuple[str, ...]
    game_seed: int
    bot_seeds: tuple[int, ...]
    options: GameOptions


def match_tasks(
    bots: Sequence[str],
    players: int,
    games: int,
    seed: int,
    totems: str = "beginner",
    caps: Mapping[str, int] | None = None,
) -> list[MatchTask]:
    """The games of a match. The lineups of one cycle share their deal (game seed), so
    seat rotation compares the bots on the same cards and draws.

    `caps[name]`: at most that many games (rounded up to whole seat rotations) of each
    group of bots that includes `name`, the first ones of the schedule: a ladder plays
    its cheap pairings often and its expensive ones a few times. A game keeps its index,
    deal and seeds whatever the caps.
    """
    lineups = schedule(bots, players)
    options = GameOptions(players=players, totems=totems)
    played: Counter[frozenset[str]] = Counter()
    tasks = []
    for i in range(games_needed(bots, players, games)):
        lineup = lineups[i % len(lineups)]
        group = frozenset(lineup)
        cap = min((caps[name] for name in group if name in caps), default=None) if caps else None
        if cap is not None and played[group] >= -(-cap // players) * players:
            continue
        played[group] += 1
        deal = i // players
        tasks.append(
            MatchTask(
                index=i,
                lineup=lineup,
                game_seed=mix_seed(seed, deal),
                bot_seeds=tuple(mix_seed(seed, i, s, 1) for s in range(players)),
                options=options,
            )
        )
    return tasks


def play_task(task: MatchTask) -> GameResult:
    """Play one scheduled game (top-level so worker processes can run it)."""
    bots = [make_bot(name, s) for name, s in zip(task.lineup, task.bot_seeds, strict=True)]
    return play_game(bots, task.options, task.game_seed, task.index, task.lineup)


T = TypeVar("T")
R = TypeVar("R")


def run_parallel(
    func: Callable[[T], R],
    tasks: Sequence[T],
    workers: int | None = None,
    progress: bool = True,
    label: str = "games",
) -> list[R]:
    """`func` over `tasks` in worker processes (in this process when workers is 1),
    with a progress bar on stderr; results in task order."""
    workers = workers or os.cpu_count() or 1
    bar = _progress(len(tasks), label) if progress else None
    results: list[R | None] = [None] * len(tasks)
    try:
        if workers <= 1 or len(tasks) <= 1:
            for i, task in enumerate(tasks):
                results[i] = func(task)
                if bar is not None:
                    bar.update(1)
        else:
            with ProcessPoolExecutor(max_workers=min(workers, len(tasks))) as pool:
                futures = {pool.submit(func, task): i for i, task in enumerate(tasks)}
                for future in as_completed(futures):
                    results[futures[future]] = future.result()
                    if bar is not None:
                        bar.update(1)
    finally:
        if bar is not None:
            bar.close()
    return [r for r in results if r is not None]


def _progress(total: int, label: str) -> Any:
    from tqdm import tqdm  # type: ignore[import-untyped, unused-ignore]

    return tqdm(
        total=total,
        unit=label[:-1] if label.endswith("s") else label,
        file=sys.stderr,
        desc=label,
        leave=False,
    )


def run_arena(
    bots: Sequence[str],
    players: int,
    games: int,
    seed: int,
    workers: int | None = None,
    progress: bool = True,
    totems: str = "beginner",
    caps: Mapping[str, int] | None = None,
) -> list[GameResult]:
    """Play a seat-rotated match and return every game's result (in schedule order)."""
    if len(set(bots)) != len(bots):
        raise ValueError("name each bot once")
    for name in bots:
        make_bot(name, 0)  # validates the name before any process starts
    return run_parallel(
        play_task, match_tasks(bots, players, games, seed, totems, caps), workers, progress
    )


# ---------------------------------------------------------------- statistics


def win_shares(places: Sequence[int]) -> list[float]:
    """Each seat's share of the win: 1/k for each of the k seats in first place."""
    winners = sum(1 for p in places if p == 1)
    return [1.0 / winners if p == 1 else 0.0 for p in places]


def wilson_interval(wins: float, n: int, z: float = 1.959963984540054) -> tuple[float, float]:
    """Wilson score interval of a proportion (fractional wins allowed); (0, 1) if n = 0."""
    if n <= 0:
        return 0.0, 1.0
    p = min(1.0, max(0.0, wins / n))
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    # At p = 0 or 1 the bound is exactly 0 or 1; keep rounding noise out of the report.
    low = 0.0 if p == 0.0 else max(0.0, centre - half)
    high = 1.0 if p == 1.0 else min(1.0, centre + half)
    return low, high


def pairwise_results(results: Iterable[GameResult]) -> dict[tuple[str, str], float]:
    """Points scored by bot a against bot b over all pairs of seats, keyed (a, b).

    A better finishing place is 1 point, an equal place ½ to each. Seats held by the
    same bot are not compared.
    """
    table: dict[tuple[str, str], float] = {}
    for r in results:
        n = len(r.lineup)
        for i in range(n):
            for j in range(n):
                a, b = r.lineup[i], r.lineup[j]
                if i == j or a == b:
                    continue
                if r.places[i] < r.places[j]:
                    score = 1.0
                elif r.places[i] == r.places[j]:
                    score = 0.5
                else:
                    score = 0.0
                table[(a, b)] = table.get((a, b), 0.0) + score
    return table


def fit_elo(
    names: Sequence[str],
    pairwise: dict[tuple[str, str], float],
    prior_draws: float = ELO_PRIOR_DRAWS,
    iterations: int = 10_000,
) -> dict[str, float]:
    """Elo ratings (mean 1500) of the Bradley–Terry model fitted to pairwise results.

    `pairwise[(a, b)]` is the points a scored against b (see `pairwise_results`).
    Each pair of bots also gets `prior_draws` virtual draws.
    """
    names = list(names)
    if len(names) < 2:
        return {name: ELO_MEAN for name in names}
    wins = {a: 0.0 for a in names}
    games: dict[tuple[str, str], float] = {}
    for a, b in itertools.combinations(names, 2):
        a_pts = pairwise.get((a, b), 0.0) + prior_draws / 2
        b_pts = pairwise.get((b, a), 0.0) + prior_draws / 2
        wins[a] += a_pts
        wins[b] += b_pts
        games[(a, b)] = games[(b, a)] = a_pts + b_pts
    strength = {a: 1.0 for a in names}
    for _ in range(iterations):
        new = {}
        for a in names:
            denom = sum(games[(a, b)] / (strength[a] + strength[b]) for b in names if b != a)
            new[a] = wins[a] / denom if denom > 0 else strength[a]
        mean_log = statistics.fmean(math.log(v) for v in new.values())
        new = {a: v / math.exp(mean_log) for a, v in new.items()}
        change = max(abs(math.log(new[a] / strength[a])) for a in names)
        strength = new
        if change < 1e-12:
            break
    return {a: ELO_MEAN + 400.0 * math.log10(strength[a]) for a in names}


def anchored(elo: dict[str, float], anchor: tuple[str, float] | None) -> dict[str, float]:
    """The ratings shifted so that `anchor` = (name, rating) holds (None: as they are)."""
    if anchor is None:
        return elo
    shift = anchor[1] - elo[anchor[0]]
    return {name: rating + shift for name, rating in elo.items()}


def elo_intervals(
    names: Sequence[str],
    pairwise: dict[tuple[str, str], float],
    elo: dict[str, float],
    anchor: str | None = None,
    prior_draws: float = ELO_PRIOR_DRAWS,
) -> dict[str, tuple[float, float]]:
    """95% intervals of the fitted Elo ratings, from the Bradley–Terry fit's Fisher
    information (its curvature at the fit; the virtual draws included, so a pairing
    one bot always won still gives a finite, wide interval).

    Without an anchor the ratings are known up to their mean: the intervals are those of
    each rating about the mean (the information's pseudo-inverse). With an anchor, of
    each rating's difference from the anchor's (the anchor's own is a point). Pairs of
    seats of one 3–4 player game count as separate games, which the fit treats as
    independent: there the intervals are somewhat too narrow.
    """
    names = list(names)
    k = len(names)
    if k < 2:
        return {name: (elo[name], elo[name]) for name in names}
    info = [[0.0] * k for _ in range(k)]
    for i, j in itertools.combinations(range(k), 2):
        a, b = names[i], names[j]
        n = pairwise.get((a, b), 0.0) + pairwise.get((b, a), 0.0) + prior_draws
        p = 1.0 / (1.0 + 10 ** ((elo[b] - elo[a]) / 400.0))
        w = n * p * (1.0 - p)
        info[i][i] += w
        info[j][j] += w
        info[i][j] -= w
        info[j][i] -= w
    # pseudo-inverse of a matrix whose null space is the constant vector:
    # (I + J/k)⁻¹ − J/k, with J the matrix of ones
    cov = _inverse([[info[i][j] + 1.0 / k for j in range(k)] for i in range(k)])
    cov = [[cov[i][j] - 1.0 / k for j in range(k)] for i in range(k)]
    scale = 400.0 / math.log(10.0)  # natural-log strengths to Elo points
    z = 1.959963984540054
    bounds = {}
    for i, name in enumerate(names):
        if anchor is None:
            variance = cov[i][i]
        else:
            r = names.index(anchor)
            variance = cov[i][i] + cov[r][r] - 2.0 * cov[i][r]
        half = z * scale * math.sqrt(max(0.0, variance))
        bounds[name] = (elo[name] - half, elo[name] + half)
    return bounds


def _inverse(matrix: list[list[float]]) -> list[list[float]]:
    """The inverse of a small invertible matrix (Gauss–Jordan with partial pivoting)."""
    k = len(matrix)
    rows = [row[:] + [1.0 if i == j else 0.0 for j in range(k)] for i, row in enumerate(matrix)]
    for col in range(k):
        pivot = max(range(col, k), key=lambda r: abs(rows[r][col]))
        rows[col], rows[pivot] = rows[pivot], rows[col]
        lead = rows[col][col]
        rows[col] = [v / lead for v in rows[col]]
        for r in range(k):
            if r != col and rows[r][col] != 0.0:
                factor = rows[r][col]
                rows[r] = [v - factor * u for v, u in zip(rows[r], rows[col], strict=True)]
    return [row[k:] for row in rows]


@dataclass
class BotStats:
    """The figures of one bot over a match."""

    games: int = 0
    wins: float = 0.0
    scores: list[int] = field(default_factory=list)
    decisions: int = 0
    seconds: float = 0.0

    def to_json(self, elo: float, elo_ci: tuple[float, float]) -> dict[str, Any]:
        low, high = wilson_interval(self.wins, self.games)
        return {
            "games": self.games,
            "wins": self.wins,
            "win_rate": self.wins / self.games if self.games else 0.0,
            "win_rate_ci95": [low, high],
            "mean_score": statistics.fmean(self.scores) if self.scores else 0.0,
            "score_sd": statistics.stdev(self.scores) if len(self.scores) > 1 else 0.0,
            "elo": elo,
            "elo_ci95": list(elo_ci),
            "mean_decision_ms": 1000.0 * self.seconds / self.decisions if self.decisions else 0.0,
            "decisions": self.decisions,
        }


def bot_stats(results: Iterable[GameResult]) -> dict[str, BotStats]:
    """Per-bot games (seats held), wins, scores and decision times."""
    stats: dict[str, BotStats] = {}
    for r in results:
        shares = win_shares(r.places)
        for s, name in enumerate(r.lineup):
            st = stats.setdefault(name, BotStats())
            st.games += 1
            st.wins += shares[s]
            st.scores.append(r.scores[s])
            st.decisions += r.decisions[s]
            st.seconds += r.seconds[s]
    return stats


def summarize(
    results: Sequence[GameResult],
    bots: Sequence[str],
    players: int,
    seed: int,
    anchor: tuple[str, float] | None = None,
) -> dict[str, Any]:
    """The match report (the `--json` object of `skytotems arena`)."""
    stats = bot_stats(results)
    pairwise = pairwise_results(results)
    elo = anchored(fit_elo(list(bots), pairwise), anchor)
    ci = elo_intervals(list(bots), pairwise, elo, anchor[0] if anchor else None)
    scale = f"mean {ELO_MEAN:g}" if anchor is None else f"{anchor[0]} = {anchor[1]:g}"
    return {
        "players": players,
        "games": len(results),
        "seed": seed,
        "bots": {name: stats.get(name, BotStats()).to_json(elo[name], ci[name]) for name in bots},
        "elo_method": "Bradley-Terry MM fit of pairwise finishing order, "
        f"{ELO_PRIOR_DRAWS:g} virtual draw per pair, {scale}; 95% interval from the "
        "fit's Fisher information" + (" (difference from the anchor)" if anchor else ""),
    }


def format_table(summary: dict[str, Any]) -> str:
    """The human-readable table of a match report."""
    head = (
        f"{'bot':<12} {'games':>5} {'win rate':>8} {'95% CI':>15} {'mean score':>10} "
        f"{'sd':>6} {'elo':>6} {'elo 95% CI':>13} {'ms/decision':>11}"
    )
    lines = [
        f"{summary['games']} games, {summary['players']} players, seed {summary['seed']}",
        head,
        "-" * len(head),
    ]
    for name, b in sorted(summary["bots"].items(), key=lambda kv: -kv[1]["elo"]):
        low, high = b["win_rate_ci95"]
        elo_low, elo_high = b["elo_ci95"]
        lines.append(
            f"{name:<12} {b['games']:>5} {b['win_rate']:>8.1%} "
            f"{f'[{low:.1%}, {high:.1%}]':>15} {b['mean_score']:>10.1f} {b['score_sd']:>6.1f} "
            f"{b['elo']:>6.0f} {f'[{elo_low:.0f}, {elo_high:.0f}]':>13} "
            f"{b['mean_decision_ms']:>11.1f}"
        )
    return "\n".join(lines)


def plot_scores(results: Sequence[GameResult], bots: Sequence[str], path: str) -> None:
    """Write a PNG of each bot's score distribution (matplotlib, Agg backend)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    stats = bot_stats(results)
    fig, ax = plt.subplots(figsize=(7, 4))
    data = [stats[name].scores if name in stats else [] for name in bots]
    ax.boxplot(data, showmeans=True)
    ax.set_xticks(range(1, len(bots) + 1), list(bots))
    ax.set_ylabel("final score")
    ax.set_title(f"Score distributions over {len(results)} games")
    ax.grid(axis="y", alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
