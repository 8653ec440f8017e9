"""Post-game analysis: how many points each decision cost its player (docs/analysis.md).

A decision is judged from what its player could see then: the seat's view and its
legal actions, nothing else (the real game is never read here). From the view we
sample up to K determinizations (hidden cards and the order of future draws, as the
search bots do); every candidate move is played on each of the same games and the game
is played out to the end by the level's playout policy, with the same playout random
numbers for every candidate (common random numbers). An adaptive level plays the first
few games only, drops the candidates clearly below the best and plays more games only
while the verdict is in doubt. The loss of the played move is

    loss = mean own final score after the best candidate − after the played move

where the played move is always a candidate and "best" is the candidate with the
highest mean, so loss ≥ 0. Its 95 % interval is the paired t interval of the
per-determinization differences (best − played) on the games both were played on, with
the lower end clamped at 0.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, Literal

from ..rules.actions import Action, Reveal
from ..rules.engine import Game
from ..rules.rng import Rng
from ..rules.scoring import score_sheet
from ..rules.view import view as seat_view
from .base import View, collector_paused, decision_rng, determinize
from .greedy import LOOK_AHEAD_KINDS, GreedyBot, prune, settle_start
from .mcts import MAX_PLAYOUT_STEPS, estimated_turn, fast_action

Playout = Literal["fast", "greedy-turns", "greedy-bot"]

# Marks, in points of the player's own final score (docs/analysis.md).
MISTAKE_POINTS = 2.0
BLUNDER_POINTS = 5.0
# Adaptive sampling goes on with an unmarked decision whose loss, this many standard
# errors higher, would be marked after all the games (in doubt: `in_doubt`).
DOUBT_SE = 0.5


@dataclass(frozen=True)
class AnalysisLevel:
    """How hard the analysis looks: playout policy, determinizations, candidates."""

    playout: Playout
    determinizations: int  # K: at most K games, the same for every candidate
    candidates: int  # the best-looking legal moves tried, besides the played one
    # Adaptive sampling (0: all K games at once). Every candidate is first played on
    # the first `initial` games; then, `step` games at a time, candidates clearly below
    # the best are dropped and more games are played only while the verdict is in
    # doubt (`in_doubt`), up to K.
    initial: int = 0
    step: int = 0


LEVELS: Mapping[str, AnalysisLevel] = {
    # every seat by the MCTS bots' rules of thumb: cheap, so many games per move
    "fast": AnalysisLevel("fast", determinizations=32, candidates=8),
    # each turn's action chosen greedily by the heuristic estimate (every slot and the
    # best totems followed to the end of the turn), as mcts-hard models its opponents;
    # the small decisions by the rules of thumb
    "greedy": AnalysisLevel("greedy-turns", determinizations=16, candidates=6, initial=4, step=4),
    # every decision by the greedy bot itself: the strongest playouts, ~10x slower
    "thorough": AnalysisLevel("greedy-bot", determinizations=8, candidates=4),
}
DEFAULT_LEVEL = "greedy"
"""The strongest level that analyses a 2-player game in under 2 minutes on one core."""

# Two-sided 95 % quantiles of Student's t by degrees of freedom (normal beyond 30).
_T95 = (12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
        2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
        2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042)  # fmt: skip


def t95(df: int) -> float:
    """Student's t quantile for a two-sided 95 % interval with `df` degrees of freedom."""
    return _T95[df - 1] if df <= len(_T95) else 1.960


@dataclass(frozen=True)
class DecisionAnalysis:
    """The verdict on one decision: the played and the best move, the loss and its interval."""

    move: int  # index of the action in the record
    seat: int
    kind: str  # the decision's kind (turn, place_pedestal, ...)
    played: Action
    best: Action
    loss: float
    loss_ci95: tuple[float, float]
    expected: float  # mean own final score after the best move
    candidates: int
    games: int = 0  # determinizations the played and the best move were played out on

    @property
    def mark(self) -> str | None:
        """ "blunder", "mistake" or None: large losses whose interval excludes 0."""
        if self.loss_ci95[0] <= 0.0:
            return None
        if self.loss >= BLUNDER_POINTS:
            return "blunder"
        if self.loss >= MISTAKE_POINTS:
            return "mistake"
        return None

    def to_json(self) -> dict[str, Any]:
        return {
            "move": self.move,
            "seat": self.seat,
            "kind": self.kind,
            "played": self.played.to_json(),
            "best": self.best.to_json(),
            "loss": round(self.loss, 3),
            "loss_ci95": [round(self.loss_ci95[0], 3), round(self.loss_ci95[1], 3)],
            "expected": round(self.expected, 3),
            "candidates": self.candidates,
            "games": self.games,
            "mark": self.mark,
        }


def own_score(game: Game, seat: int) -> int:
    """The player's final score: its altar's total (solo: both altars, one mind)."""
    if game.options.solo:
        return sum(score_sheet(game, s).total for s in range(game.n))
    return score_sheet(game, seat).total


class Analyst:
    """Analyses decisions from views at one level; seeded, so reproducible."""

    def __init__(
        self, level: str | AnalysisLevel = DEFAULT_LEVEL, seed: int = 0, determinizations: int = 0
    ) -> None:
        if isinstance(level, str):
            if level not in LEVELS:
                raise ValueError(f"unknown level {level!r}; expected one of {', '.join(LEVELS)}")
            level = LEVELS[level]
        if determinizations:  # a sample size of one's own: faster, or tighter intervals
            level = replace(level, determinizations=determinizations)
        self.level = level
        self.seed = seed
        self.greedy = GreedyBot(seed)

    def candidates(
        self, game: Game, seat: int, legal: list[Action], played: Action
    ) -> list[Action]:
        """The played move and the `level.candidates` best others by the greedy estimate."""
        options = [a for a in prune(game, legal) if a != played]
        kind = game.decision.kind
        scored: list[tuple[float, int, Action]] = []
        for index, action in enumerate(options):
            child = game.copy()
            child.apply_fast(action)
            if kind == "choose_start":
                settle_start(child)
            if kind in LOOK_AHEAD_KINDS:
                self.greedy.play_follow_ups(child, seat)
            scored.append((-self.greedy.value(child, seat, game.options.solo), index, action))
        scored.sort(key=lambda entry: entry[:2])
        return [played, *(a for _, _, a in scored[: self.level.candidates])]

    def analyse(
        self, view: View, legal: list[Action], played: Action, move: int
    ) -> DecisionAnalysis:
        """The loss of `played` among `legal`, judged from `view` only."""
        if played not in legal:
            raise ValueError(f"the played move {played!r} is not legal in this view")
        seat = played.seat
        rng = decision_rng(self.seed, view)
        games = [determinize(view, rng) for _ in range(self.level.determinizations)]
        # Each determinization gets its own future draws and playout numbers, the same
        # for every candidate: the candidates differ in their move only.
        seeds = [(rng.next64(), rng.next64()) for _ in games]
        moves = self.candidates(games[0], seat, legal, played)
        kind = games[0].decision.kind
        total = len(games)
        upto = min(self.level.initial, total) if self.level.initial > 0 else total
        alive = list(range(len(moves)))  # the played move (0) is never dropped
        scores: list[list[float]] = [[] for _ in moves]
        while True:
            for i in alive:
                scores[i].extend(
                    self.play_out(game, seat, moves[i], draws, policy)
                    for game, (draws, policy) in zip(
                        games[len(scores[i]) : upto], seeds[len(scores[i]) : upto], strict=True
                    )
                )
            alive = drop_clearly_worse(alive, scores)
            result = summarise(
                move, seat, kind, [moves[i] for i in alive], [scores[i] for i in alive]
            )
            if upto >= total or not in_doubt(result, len(alive), total):
                return replace(result, candidates=len(moves))
            upto = min(total, upto + max(1, self.level.step))

    def analyse_at(self, game: Game, seat: int, played: Action, move: int) -> DecisionAnalysis:
        """`analyse` at a decision of a game, through the seat's view only: the game's
        hidden cards and future draws are never read (tests/bots/test_analysis.py)."""
        return self.analyse(seat_view(game, seat), game.legal_actions(seat), played, move)

    def play_out(self, game: Game, seat: int, action: Action, draws: int, policy: int) -> float:
        """`action` on a copy of `game`, then every seat by the playout policy to the end."""
        child = game.copy()
        child.rng = Rng(draws)
        child.apply(action)
        rng = Rng(policy)
        choose = self._policy()
        for _ in range(MAX_PLAYOUT_STEPS * 4):
            if child.is_over:
                break
            acting = child.decision.seats[0]
            legal = child.legal_actions(acting)
            child.apply_fast(legal[0] if len(legal) == 1 else choose(child, acting, legal, rng))
        return float(own_score(child, seat))

    def _policy(self) -> Callable[[Game, int, list[Action], Rng], Action]:
        playout = self.level.playout
        if playout == "fast":
            return fast_action
        if playout == "greedy-turns":
            return _greedy_turns_policy
        return self._greedy_policy

    def _greedy_policy(self, game: Game, seat: int, legal: list[Action], rng: Rng) -> Action:
        reveals = [a for a in legal if isinstance(a, Reveal)]
        if reveals:  # revealing never costs anything: the most valuable card
            return max(reveals, key=lambda a: (game.cards[a.card].points, a.card))
        return self.greedy.choose_in_game(game, seat, legal)


def _greedy_turns_policy(game: Game, seat: int, legal: list[Action], rng: Rng) -> Action:
    if game.decision.kind == "turn":
        return estimated_turn(game, seat, legal, rng, game.options.solo)
    return fast_action(game, seat, legal, rng)


def summarise(
    move: int, seat: int, kind: str, moves: Sequence[Action], scores: Sequence[Sequence[float]]
) -> DecisionAnalysis:
    """Best candidate by mean (the played one on a tie), the loss and its paired interval."""
    k = len(scores[0])
    means = [sum(row) / k for row in scores]
    best = max(range(len(moves)), key=lambda i: (means[i], i == 0, -i))
    diffs = [b - p for b, p in zip(scores[best], scores[0], strict=True)]
    loss = means[best] - means[0]
    if k > 1:
        variance = sum((d - loss) ** 2 for d in diffs) / (k - 1)
        half = t95(k - 1) * math.sqrt(variance / k)
    else:
        half = math.inf
    return DecisionAnalysis(
        move=move,
        seat=seat,
        kind=kind,
        played=moves[0],
        best=moves[best],
        loss=loss,
        loss_ci95=(max(0.0, loss - half), loss + half),
        expected=means[best],
        candidates=len(moves),
        games=k,
    )


def _best(scores: Sequence[Sequence[float]], alive: Sequence[int]) -> int:
    """The alive candidate with the highest mean (the played one, index 0, on a tie)."""
    return max(alive, key=lambda i: (sum(scores[i]) / len(scores[i]), i == 0, -i))


def drop_clearly_worse(alive: list[int], scores: Sequence[Sequence[float]]) -> list[int]:
    """`alive` without the candidates whose paired difference from the best has a 95 %
    interval above 0: clearly worse, not worth more games. The played
    move (0) stays: its loss is what is asked."""
    best = _best(scores, alive)
    kept = []
    for i in alive:
        if i in (0, best):
            kept.append(i)
            continue
        diffs = [b - c for b, c in zip(scores[best], scores[i], strict=True)]
        k = len(diffs)
        mean = sum(diffs) / k
        if k < 2:
            kept.append(i)
            continue
        half = t95(k - 1) * math.sqrt(sum((d - mean) ** 2 for d in diffs) / (k - 1) / k)
        if mean - half <= 0.0:
            kept.append(i)
    return kept


def in_doubt(result: DecisionAnalysis, alive: int, total: int) -> bool:
    """Whether more games (up to `total`) could change the verdict.

    Unmarked: only if a loss `DOUBT_SE` standard errors above the estimate would be
    marked with the interval it would have at `total` games (the same spread). Marked:
    while its interval straddles a mark's threshold (mistake or blunder?), or its best
    move is not yet separated from the others left (more alive than played and best)."""
    low, high = result.loss_ci95
    games = result.games
    if games >= total or games < 2:
        return games < total
    if result.mark is None:
        error = (high - result.loss) / t95(games - 1)  # the standard error of the loss
        hopeful = result.loss + DOUBT_SE * error
        return hopeful >= MISTAKE_POINTS and hopeful > t95(total - 1) * error * math.sqrt(
            games / total
        )
    if any(low < points < high for points in (MISTAKE_POINTS, BLUNDER_POINTS)):
        return True
    return alive > (1 if result.best == result.played else 2)


def decisions_to_analyse(
    game: Game, seats: Sequence[int] | None = None
) -> list[tuple[int, View, list[Action], Action]]:
    """Replay a game's history: (index, the seat's view then, its legal actions, the
    action played) for each decision of `seats` that had more than one legal choice."""
    replay = Game(game.options, game.seed, game.deck)
    found: list[tuple[int, View, list[Action], Action]] = []
    for index, action in enumerate(game.history):
        seat = action.seat
        if seats is None or seat in seats:
            legal = replay.legal_actions(seat)
            if len(legal) > 1:
                found.append((index, seat_view(replay, seat), legal, action))
        replay.apply_fast(action)
    return found


def clear_losses(decisions: list[dict[str, Any]]) -> list[float]:
    """The losses of `decisions` whose 95 % interval lies above 0 (a report's totals)."""
    return [d["loss"] for d in decisions if d["loss_ci95"][0] > 0.0]


def analyse_game(
    game: Game,
    seats: Sequence[int] | None = None,
    level: str | AnalysisLevel = DEFAULT_LEVEL,
    seed: int = 0,
    progress: Callable[[int, int], None] | None = None,
    determinizations: int = 0,
) -> dict[str, Any]:
    """Every decision of `seats` (default: all) analysed; the JSON report of the CLI.

    `progress(done, total)` is called after each decision.
    """
    analyst = Analyst(level, seed, determinizations)
    todo = decisions_to_analyse(game, seats)
    start = time.perf_counter()
    results: list[DecisionAnalysis] = []
    for index, view, legal, played in todo:
        with collector_paused():
            results.append(analyst.analyse(view, legal, played, index))
        if progress is not None:
            progress(len(results), len(todo))
    return report(
        game.n,
        seats,
        [r.to_json() for r in results],
        level if isinstance(level, str) else "custom",
        analyst.level.determinizations,
        seed,
        time.perf_counter() - start,
    )


def totals(decisions: list[dict[str, Any]], seats: Iterable[int]) -> dict[str, Any]:
    """A report's totals per seat: the clear losses added up, the mistakes and blunders."""

    def mine(s: int) -> list[dict[str, Any]]:
        return [d for d in decisions if d["seat"] == s]

    wanted = list(seats)
    return {
        # the clear losses only (interval above 0): a decision's loss is the best of
        # several noisy estimates less the played move's, biased upwards where they are
        # all alike, and the bias of fifty such decisions added up outweighed the errors
        "total_loss": {str(s): round(sum(clear_losses(mine(s))), 3) for s in wanted},
        "mistakes": {str(s): sum(d["mark"] == "mistake" for d in mine(s)) for s in wanted},
        "blunders": {str(s): sum(d["mark"] == "blunder" for d in mine(s)) for s in wanted},
    }


def with_current_totals(result: dict[str, Any]) -> dict[str, Any]:
    """A stored report with its totals counted again from its decisions, for the seats it
    names: reports stored before a change of what the totals count (e.g. the clear
    losses only) show what today's would."""
    seats = [int(s) for s in result.get("total_loss", {})]
    return {**result, **totals(result["decisions"], seats)}


def report(
    players: int,
    seats: Sequence[int] | None,
    decisions: list[dict[str, Any]],
    level: str,
    determinizations: int,
    seed: int,
    seconds: float,
) -> dict[str, Any]:
    """The JSON report of analysed decisions (`DecisionAnalysis.to_json`): the CLI's
    `--json` object, also what the server stores for a finished table."""
    wanted = range(players) if seats is None else seats
    return {
        "decisions": decisions,
        **totals(decisions, wanted),
        "level": level,
        "determinizations": determinizations,
        "seed": seed,
        "seconds": round(seconds, 2),
    }
