"""Post-game analysis (issue 18, docs/analysis.md): loss >= 0 with the played move a
candidate, common random numbers, the seat's view only, and a bad move flagged."""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from skytotems import (
    Action,
    BuildTotem,
    Game,
    GameOptions,
    Pass,
    Position,
    game_from_position,
    view,
)
from skytotems.bots import make_bot
from skytotems.bots.analysis import (
    BLUNDER_POINTS,
    LEVELS,
    MISTAKE_POINTS,
    AnalysisLevel,
    Analyst,
    DecisionAnalysis,
    analyse_game,
    decisions_to_analyse,
    drop_clearly_worse,
    in_doubt,
    summarise,
)

from .test_hidden_information import hide_differently, sample_positions

SMALL = AnalysisLevel("fast", determinizations=4, candidates=3)
# adaptive: 4 games for every candidate, then 4 more at a time while in doubt, up to 12
ADAPTIVE = AnalysisLevel("fast", determinizations=12, candidates=4, initial=4, step=4)


def played_game(seed: int, bots: tuple[str, str] = ("random", "random")) -> Game:
    game = Game(GameOptions(players=2), seed=seed)
    players = [make_bot(name, seed + i) for i, name in enumerate(bots)]
    while not game.is_over:
        seat = game.decision.seats[0]
        game.apply(players[seat].choose(view(game, seat), game.legal_actions(seat)))
    return game


# ------------------------------------------------------------------ the statistics


@given(
    st.lists(st.lists(st.integers(0, 120), min_size=5, max_size=5), min_size=1, max_size=6).map(
        lambda rows: [[float(x) for x in row] for row in rows]
    )
)
def test_loss_is_never_negative_and_best_has_the_highest_mean(scores: list[list[float]]) -> None:
    moves: Sequence[Action] = [Pass(0)] * len(scores)
    result = summarise(3, 0, "turn", moves, scores)
    means = [sum(row) / len(row) for row in scores]
    assert result.loss >= 0
    assert result.loss == max(means) - means[0]
    low, high = result.loss_ci95
    assert 0 <= low <= result.loss <= high
    assert result.expected == max(means)


def test_a_tie_with_the_played_move_costs_nothing() -> None:
    result = summarise(0, 0, "turn", [Pass(0), Pass(1)], [[10.0, 20.0], [20.0, 10.0]])
    assert result.loss == 0 and result.best == result.played and result.mark is None


# ------------------------------------------------------------------ the candidates


@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 50), pick=st.integers(0, 10_000))
def test_the_played_move_is_always_a_candidate_and_loss_is_not_negative(
    seed: int, pick: int
) -> None:
    game = played_game(seed)
    todo = decisions_to_analyse(game)
    index, seat_view, legal, _ = todo[pick % len(todo)]
    # any legal move as "played", even one the candidates' pruning would drop
    played = legal[pick % len(legal)]
    analyst = Analyst(SMALL, seed)
    replay = Game(game.options, game.seed, game.deck)
    for action in game.history[:index]:
        replay.apply(action)
    assert played in analyst.candidates(replay, played.seat, legal, played)[:1]
    result = analyst.analyse(seat_view, legal, played, index)
    assert result.played == played and result.loss >= 0
    assert result.loss_ci95[0] <= result.loss <= result.loss_ci95[1]


class RecordingAnalyst(Analyst):
    """An analyst that notes the game, draws and playout numbers each playout started from."""

    def __init__(self) -> None:
        super().__init__(SMALL, seed=5)
        self.calls: list[tuple[Action, int, tuple[tuple[str, ...], ...], int, int]] = []

    def play_out(self, game: Game, seat: int, action: Action, draws: int, policy: int) -> float:
        hidden = tuple(tuple(goals) for goals in game.goals)
        self.calls.append((action, id(game), hidden, draws, policy))
        return super().play_out(game, seat, action, draws, policy)


def test_every_candidate_is_played_out_on_the_same_determinizations() -> None:
    game = played_game(4)
    index, seat_view, legal, played = next(
        d for d in decisions_to_analyse(game) if d[1]["phase"] == "play" and len(d[2]) > 3
    )
    analyst = RecordingAnalyst()
    result = analyst.analyse(seat_view, legal, played, index)
    by_move: dict[Action, list[tuple[int, tuple[tuple[str, ...], ...], int, int]]] = {}
    for action, *worlds in analyst.calls:
        by_move.setdefault(action, []).append(tuple(worlds))  # type: ignore[arg-type]
    assert len(by_move) == result.candidates > 1
    worlds = list(by_move.values())
    assert all(w == worlds[0] for w in worlds)  # same games, draws and playout numbers
    assert len(worlds[0]) == SMALL.determinizations
    assert len({w[2] for w in worlds[0]}) == SMALL.determinizations  # K different draws


def test_the_same_move_twice_scores_the_same_on_every_determinization() -> None:
    game = played_game(6)
    index, seat_view, legal, played = decisions_to_analyse(game, [0])[5]
    analyst = Analyst(SMALL, seed=1)
    twice = analyst.analyse(seat_view, legal, played, index)
    again = analyst.analyse(seat_view, legal, played, index)
    assert twice == again  # seeded by the analysis seed and the view: reproducible


@pytest.mark.parametrize("level", sorted(LEVELS))
def test_every_level_plays_its_candidates_out_to_the_end(level: str) -> None:
    game = played_game(8)
    index, seat_view, legal, played = decisions_to_analyse(game, [0])[10]
    analyst = Analyst(level, seed=1, determinizations=2)
    assert analyst.level.determinizations == 2
    assert analyst.level.playout == LEVELS[level].playout
    result = analyst.analyse(seat_view, legal, played, index)
    assert result.loss >= 0 and 10 <= result.expected <= 200


# ------------------------------------------------------------------ the view only


def test_the_analysis_ignores_other_seats_cards_and_future_draws() -> None:
    analyst = Analyst(SMALL, seed=2)
    changed = 0
    for game, seat in sample_positions()[:6]:
        twin = hide_differently(game, seat)
        changed += any(twin.goals[s] != game.goals[s] for s in range(game.n))
        assert twin.rng.state != game.rng.state
        legal = game.legal_actions(seat)
        played = legal[-1]
        first = analyst.analyse_at(game, seat, played, len(game.history))
        second = analyst.analyse_at(twin, seat, played, len(game.history))
        assert first == second
    assert changed >= 3  # the hidden cards really differed in most positions


# ------------------------------------------------------------------ a clear blunder


@pytest.mark.parametrize("level", ["small", "adaptive"])
def test_passing_up_the_last_totem_is_a_blunder_and_the_best_move_costs_nothing(
    level: str,
) -> None:
    """Positions in altar notation (docs/notation.md): the final-totem turn, a bird of
    height 3 ready to build (RULES.md §6: 3 cells x height 3 = 9 points at least)."""
    game = game_from_position(
        Position(altars=["0,0 rrr rrr/rrr _", "0,0 _ _/_ _"], phase="final", round=10)
    )
    legal = game.legal_actions(0)
    passed = next(a for a in legal if isinstance(a, Pass))
    analyst = Analyst(SMALL if level == "small" else ADAPTIVE, 0)
    bad = analyst.analyse_at(game, 0, passed, 0)
    assert isinstance(bad.best, BuildTotem)
    assert bad.loss >= 9 and bad.loss_ci95[0] >= BLUNDER_POINTS and bad.mark == "blunder"
    good = analyst.analyse_at(game, 0, bad.best, 0)
    assert good.loss == 0 and good.best == bad.best and good.mark is None


# ------------------------------------------------------------------ a whole game


def test_a_whole_game_report_has_every_decision_of_the_seat() -> None:
    game = played_game(9)
    seen: list[tuple[int, int]] = []
    tiny = AnalysisLevel("fast", determinizations=2, candidates=1)
    report = analyse_game(game, [1], tiny, seed=3, progress=lambda d, t: seen.append((d, t)))
    expected = [i for i, *_ in decisions_to_analyse(game, [1])]
    assert [d["move"] for d in report["decisions"]] == expected
    assert all(d["seat"] == 1 and d["loss"] >= 0 for d in report["decisions"])
    assert seen[-1] == (len(expected), len(expected))
    assert set(report["total_loss"]) == {"1"} and report["level"] == "custom"
    # the total counts the clear losses only (interval above 0), not the noise
    clear = [d["loss"] for d in report["decisions"] if d["loss_ci95"][0] > 0]
    assert abs(report["total_loss"]["1"] - sum(clear)) < 0.01


# ------------------------------------------------------------------ adaptive sampling


@settings(max_examples=4, deadline=None)
@given(seed=st.integers(0, 40), pick=st.integers(0, 10_000))
def test_the_adaptive_analysis_is_deterministic_for_a_seed(seed: int, pick: int) -> None:
    game = played_game(seed)
    todo = decisions_to_analyse(game)
    index, seat_view, legal, played = todo[pick % len(todo)]
    first = Analyst(ADAPTIVE, seed).analyse(seat_view, legal, played, index)
    again = Analyst(ADAPTIVE, seed).analyse(seat_view, legal, played, index)
    assert first == again
    assert ADAPTIVE.initial <= first.games <= ADAPTIVE.determinizations
    assert first.loss >= 0 and first.loss_ci95[0] <= first.loss <= first.loss_ci95[1]


def test_the_default_level_samples_adaptively() -> None:
    level = LEVELS["greedy"]
    assert 0 < level.initial < level.determinizations and level.step > 0


class ScriptedAnalyst(Analyst):
    """Playouts replaced by a score per (move, game): the sampling rule on known numbers.
    Game k of move m scores `table[m](k)`; every playout is noted."""

    def __init__(self, table: dict[Action, list[float]]) -> None:
        super().__init__(ADAPTIVE, seed=0)
        self.table = table
        self.played_out: list[tuple[Action, int]] = []

    def candidates(
        self, game: Game, seat: int, legal: list[Action], played: Action
    ) -> list[Action]:
        return [played, *(a for a in self.table if a != played)]

    def play_out(self, game: Game, seat: int, action: Action, draws: int, policy: int) -> float:
        k = sum(1 for a, _ in self.played_out if a == action)
        self.played_out.append((action, k))
        return self.table[action][k]


def scripted(table: dict[Action, list[float]]) -> tuple[ScriptedAnalyst, DecisionAnalysis]:
    game = played_game(3)
    index, seat_view, legal, played = next(
        d for d in decisions_to_analyse(game, [0]) if len(d[2]) >= 3
    )
    moves = dict(zip([played, *(a for a in legal if a != played)], table.values(), strict=False))
    analyst = ScriptedAnalyst(moves)
    return analyst, analyst.analyse(seat_view, legal, played, index)


def test_a_clear_blunder_stops_after_the_first_games_and_drops_worse_moves() -> None:
    noise = [0.0, 1.0, -1.0, 0.5, -0.5, 1.5, -1.5, 0.0, 1.0, -1.0, 0.5, -0.5]
    analyst, result = scripted(
        {
            "played": [40 + x for x in noise],
            "best": [60 + x for x in noise],
            "worse": [20 - x for x in noise],
        }
    )
    assert result.mark == "blunder" and result.games == ADAPTIVE.initial
    assert len(analyst.played_out) == 3 * ADAPTIVE.initial


def test_a_loss_near_a_threshold_gets_more_games_and_worse_moves_are_dropped() -> None:
    # the played move loses 3 points on average, 0 or 6 a game: after 4 games the
    # interval reaches 0 but could exclude it after 12, then it straddles "mistake",
    # so all 12 games; the third move is 30 points below from the start
    noise = [1.5, -1.5] * 6
    analyst, result = scripted(
        {
            "played": [47 + x for x in noise],
            "best": [50 - x for x in noise],
            "worse": [20.0] * 12,
        }
    )
    assert result.games == ADAPTIVE.determinizations
    low, high = result.loss_ci95
    assert low < MISTAKE_POINTS < high
    # the loss interval is computed from the games the two moves were played on
    assert result.loss == pytest.approx(3.0)
    worse = list(analyst.table)[2]
    assert sum(1 for a, _ in analyst.played_out if a == worse) == ADAPTIVE.initial


def test_the_pruning_and_doubt_rules() -> None:
    clear = [[40.0, 41, 39, 40], [60.0, 61, 59, 60], [10.0, 12, 11, 10]]
    assert drop_clearly_worse([0, 1, 2], clear) == [0, 1]  # the played move stays
    close = [[40.0, 41, 39, 40], [60.0, 61, 59, 60], [59.0, 62, 58, 61]]
    assert drop_clearly_worse([0, 1, 2], close) == [0, 1, 2]
    two = [Pass(0), Pass(1)]
    blunder = summarise(0, 0, "turn", two, [clear[0], clear[1]])
    assert blunder.mark == "blunder" and not in_doubt(blunder, 2, 12)
    assert in_doubt(blunder, 3, 12)  # marked, but the best move not yet separated
    assert not in_doubt(blunder, 3, 4)  # no games left
    # unmarked, but a loss of 2 whose interval would exclude 0 after 12 games
    edge = summarise(0, 0, "turn", two, [[40.0, 44, 36, 40], [42.0, 42, 42, 42]])
    assert edge.mark is None and in_doubt(edge, 2, 12)
    # a loss of 1 so noisy that 12 games would not mark it: no more games
    noisy = summarise(0, 0, "turn", two, [[40.0, 60, 40, 60], [51.0, 51, 51, 51]])
    assert noisy.mark is None and not in_doubt(noisy, 2, 12)
    nothing = summarise(0, 0, "turn", two, [[40.0, 40.5, 40, 40], [40.0, 40, 40, 40.5]])
    assert nothing.mark is None and not in_doubt(nothing, 2, 12)
