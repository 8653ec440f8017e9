"""Match statistics on inputs whose answers are known."""

from __future__ import annotations

import math
from collections import Counter

import pytest

from skytotems.bots.arena import (
    GameResult,
    anchored,
    elo_intervals,
    fit_elo,
    format_table,
    games_needed,
    match_tasks,
    pairwise_results,
    schedule,
    summarize,
    wilson_interval,
    win_shares,
)


def result(lineup: tuple[str, ...], scores: tuple[int, ...], places: tuple[int, ...]) -> GameResult:
    n = len(lineup)
    return GameResult(0, 0, lineup, scores, places, (10,) * n, (0.5,) * n)


def test_wilson_interval_matches_the_formula_on_textbook_cases() -> None:
    # 0 of 10: the upper bound is z²/(n+z²) exactly.
    z = 1.959963984540054
    low, high = wilson_interval(0, 10)
    assert low == 0.0
    assert high == pytest.approx(z * z / (10 + z * z))
    # Half of n is symmetric around 1/2 and narrower than the normal interval's ±z/(2√n)
    # would be only for... it is centred exactly on 1/2.
    low, high = wilson_interval(50, 100)
    assert (low + high) / 2 == pytest.approx(0.5)
    assert high - low < 2 * z * 0.5 / 10 + 1e-12
    # Known value: 8 of 10 → [0.4902, 0.9433] (Wilson 1927, as in common tables).
    low, high = wilson_interval(8, 10)
    assert low == pytest.approx(0.4902, abs=1e-4)
    assert high == pytest.approx(0.9433, abs=1e-4)
    assert wilson_interval(0, 0) == (0.0, 1.0)


def test_shared_first_places_split_the_win() -> None:
    assert win_shares([1, 2]) == [1.0, 0.0]
    assert win_shares([1, 1]) == [0.5, 0.5]
    assert win_shares([2, 1, 1, 4]) == [0.0, 0.5, 0.5, 0.0]


def test_pairwise_results_follow_the_finishing_order() -> None:
    games = [
        result(("a", "b", "c"), (50, 40, 30), (1, 2, 3)),
        result(("b", "c", "a"), (50, 50, 10), (1, 1, 3)),
    ]
    table = pairwise_results(games)
    assert table[("a", "b")] == 1.0  # won game 1, lost game 2
    assert table[("b", "a")] == 1.0
    assert table[("b", "c")] == 1.0 + 0.5  # better in game 1, shared place in game 2
    assert table[("c", "b")] == 0.5
    assert table[("a", "c")] == 1.0 and table[("c", "a")] == 1.0


def test_elo_of_two_bots_is_the_logit_of_the_score_with_one_virtual_draw() -> None:
    # a beats b 3 times out of 4; with one virtual draw the fitted odds are 3.5 : 1.5.
    elo = fit_elo(["a", "b"], {("a", "b"): 3.0, ("b", "a"): 1.0})
    assert elo["a"] - elo["b"] == pytest.approx(400 * math.log10(3.5 / 1.5), abs=1e-6)
    assert (elo["a"] + elo["b"]) / 2 == pytest.approx(1500.0)
    # Without the prior, an even record means equal ratings, whatever the counts.
    even = fit_elo(
        ["a", "b", "c"],
        {("a", "b"): 5, ("b", "a"): 5, ("b", "c"): 2, ("c", "b"): 2, ("a", "c"): 1, ("c", "a"): 1},
        prior_draws=0,
    )
    assert all(v == pytest.approx(1500.0) for v in even.values())


def test_elo_of_three_bots_recovers_bradley_terry_strengths() -> None:
    # Expected scores generated from strengths 4 : 2 : 1 (Elo gaps 400·log10 2 each).
    strengths = {"a": 4.0, "b": 2.0, "c": 1.0}
    n = 1000.0
    pairwise = {}
    for x in strengths:
        for y in strengths:
            if x != y:
                pairwise[(x, y)] = n * strengths[x] / (strengths[x] + strengths[y])
    elo = fit_elo(list(strengths), pairwise, prior_draws=0)
    gap = 400 * math.log10(2)
    assert elo["a"] - elo["b"] == pytest.approx(gap, abs=1e-6)
    assert elo["b"] - elo["c"] == pytest.approx(gap, abs=1e-6)
    assert sum(elo.values()) / 3 == pytest.approx(1500.0)


def test_summary_of_known_games() -> None:
    games = [
        result(("x", "y"), (60, 40), (1, 2)),
        result(("y", "x"), (55, 45), (1, 2)),
        result(("x", "y"), (70, 50), (1, 2)),
        result(("y", "x"), (50, 50), (1, 1)),  # a shared win
    ]
    summary = summarize(games, ["x", "y"], players=2, seed=0)
    x = summary["bots"]["x"]
    y = summary["bots"]["y"]
    assert x["win_rate"] == pytest.approx(2.5 / 4)
    assert y["win_rate"] == pytest.approx(1.5 / 4)
    assert x["win_rate_ci95"] == pytest.approx(list(wilson_interval(2.5, 4)))
    assert x["mean_score"] == pytest.approx((60 + 45 + 70 + 50) / 4)
    assert y["mean_score"] == pytest.approx((40 + 55 + 50 + 50) / 4)
    assert x["mean_decision_ms"] == pytest.approx(50.0)  # 0.5 s over 10 decisions
    assert x["elo"] > 1500 > y["elo"]
    assert x["elo"] + y["elo"] == pytest.approx(3000.0)


@pytest.mark.parametrize(
    ("bots", "players"),
    [
        (["a", "b"], 2),
        (["a", "b", "c"], 2),
        (["a", "b", "c"], 3),
        (["a", "b"], 4),
        (["a", "b", "c", "d", "e"], 4),
    ],
)
def test_every_bot_sits_in_every_seat_equally_often(bots: list[str], players: int) -> None:
    cycle = schedule(bots, players)
    seats = Counter((name, s) for lineup in cycle for s, name in enumerate(lineup))
    assert len({count for count in seats.values()}) == 1
    assert {name for name, _ in seats} == set(bots)
    assert games_needed(bots, players, 1) == len(cycle)
    assert games_needed(bots, players, len(cycle) * 3) == len(cycle) * 3


def test_rotated_lineups_share_their_deal() -> None:
    tasks = match_tasks(["a", "b", "c"], 3, 6, seed=4)
    assert [t.lineup for t in tasks[:3]] == [("a", "b", "c"), ("b", "c", "a"), ("c", "a", "b")]
    assert len({t.game_seed for t in tasks[:3]}) == 1
    assert tasks[3].game_seed != tasks[0].game_seed
    assert len({t.bot_seeds for t in tasks}) == len(tasks)


def test_the_table_lists_bots_by_elo_with_their_interval() -> None:
    games = [result(("x", "y"), (60, 40), (1, 2)), result(("y", "x"), (30, 45), (2, 1))]
    table = format_table(summarize(games, ["y", "x"], players=2, seed=0))
    lines = table.splitlines()
    assert lines[3].startswith("x") and lines[4].startswith("y")
    low, high = wilson_interval(2, 2)
    assert f"[{low:.1%}, {high:.1%}]" in lines[3]


def test_elo_interval_of_two_bots_is_the_binomial_one_on_the_logit_scale() -> None:
    """With two bots the Fisher information is n·p·(1−p) on the natural-log scale: the
    difference of the ratings has standard error 1/sqrt(n·p·(1−p)), times 400/ln 10."""
    pairwise = {("a", "b"): 30.0, ("b", "a"): 10.0}
    elo = fit_elo(["a", "b"], pairwise)
    n, p = 41.0, 30.5 / 41  # one virtual draw
    half = 1.959963984540054 * 400 / math.log(10) / math.sqrt(n * p * (1 - p))
    about_b = elo_intervals(["a", "b"], pairwise, anchored(elo, ("b", 0.0)), anchor="b")
    gap = elo["a"] - elo["b"]
    assert about_b["b"] == pytest.approx((0.0, 0.0))
    assert about_b["a"] == pytest.approx((gap - half, gap + half))
    # without an anchor each rating is known about the mean: half the difference's width
    about_mean = elo_intervals(["a", "b"], pairwise, elo)
    low, high = about_mean["a"]
    assert (low + high) / 2 == pytest.approx(elo["a"])
    assert high - low == pytest.approx(half)


def test_elo_intervals_narrow_with_more_games_and_stay_finite_for_a_clean_sweep() -> None:
    names = ["a", "b", "c"]
    better = [("a", "b"), ("b", "c"), ("a", "c")]
    sweep = {pair: 4.0 for pair in better}  # every game won by the better bot
    elo = anchored(fit_elo(names, sweep), ("c", 0.0))
    bounds = elo_intervals(names, sweep, elo, anchor="c")
    assert all(math.isfinite(x) for bound in bounds.values() for x in bound)
    assert bounds["a"][0] < elo["a"] < bounds["a"][1]
    widths = []
    for games in (4, 100):  # each pairing won 3 : 1 by the better bot
        pairwise = {**{p: 0.75 * games for p in better}, **{p[::-1]: 0.25 * games for p in better}}
        elo = anchored(fit_elo(names, pairwise), ("c", 0.0))
        bounds = elo_intervals(names, pairwise, elo, anchor="c")
        widths.append(bounds["a"][1] - bounds["a"][0])
    assert widths[1] < widths[0] / 4  # about 1/sqrt(n): 25 times the games, 1/5 the width


def test_games_with_caps_the_expensive_pairings_and_keeps_every_game_as_scheduled() -> None:
    bots = ["cheap", "cheaper", "dear"]
    full = match_tasks(bots, 2, 60, seed=5)
    capped = match_tasks(bots, 2, 60, seed=5, caps={"dear": 3})
    per_pair = Counter(frozenset(t.lineup) for t in capped)
    assert per_pair[frozenset({"cheap", "cheaper"})] == 20
    assert per_pair[frozenset({"cheap", "dear"})] == 4  # 3, rounded up to whole rotations
    assert per_pair[frozenset({"cheaper", "dear"})] == 4
    assert set(capped) <= set(full)  # same indices, deals and seeds as without the cap
    seats = Counter(
        (t.lineup.index("dear"), frozenset(t.lineup)) for t in capped if "dear" in t.lineup
    )
    assert set(seats.values()) == {2}  # the capped pairings still rotate their seats
