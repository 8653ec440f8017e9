"""A search level's settings in solo (bots/mcts.py `Level.solo_exploration`, its UCB
constant, and `Level.solo_playout_turns`, its playouts' horizon): used in solo, where one
mind plays both altars for their sum (RULES.md §10), and only there (docs/bots.md "Solo
settings"); and likewise the duels' own horizon (`Level.duel_playout_turns`). In solo,
playouts may place pedestals by the fitted rule, by it with its close options checked by
the estimate, or by the estimate (`Level.solo_playout_placements`), the estimate rating
only the rule of thumb's best few (`Level.solo_placement_candidates`) and in the
playout's first turns only
(`Level.solo_placement_turns`), and a decision reusing the turn's tree may count its
visits towards the budget (`Level.solo_reused_visits_count`)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from skytotems.bots.evaluation import Estimator
from skytotems.bots.greedy import prune
from skytotems.bots.mcts import (
    LEVELS,
    Level,
    MctsBot,
    Node,
    PlacementPolicy,
    Search,
    custom_level,
    fast_action,
    placement_rank,
    ranked_placements,
    turn_key,
)
from skytotems.rules.actions import Action, PlacePedestal
from skytotems.rules.engine import Game
from skytotems.rules.options import GameOptions
from skytotems.rules.position import Position, game_from_position
from skytotems.rules.rng import Rng
from skytotems.rules.view import view

ALTAR = "0,0 rr b/g _"
BASE = Level(iterations=40, determinizations=2, time_cap=30.0)


def game_of(players: int) -> Game:
    return game_from_position(
        Position(
            altars=[ALTAR] * max(2, players),
            options=GameOptions(players=players),
            round=3,
            slots=["rb", "g", "CW", "gb"][: GameOptions(players=players).slots],
        )
    )


def test_the_ucb_constant_follows_the_game() -> None:
    bot = MctsBot(1, replace(BASE, exploration=8.0, solo_exploration=12.0))
    assert Search(bot, game_of(1), 0, solo=True).exploration == 12.0
    assert Search(bot, game_of(2), 0, solo=False).exploration == 8.0


def visits(level: Level, players: int) -> list[float]:
    """The root's visit counts after a seeded search of seat 0's turn."""
    game = game_of(players)
    bot = MctsBot(5, level)
    search = Search(bot, game, 0, solo=players == 1)
    root = Node()
    rng = Rng(9)
    for _ in range(level.iterations):
        search.iterate(root, game.copy(), Rng(rng.next64()))
    return sorted(stat[0] for stat in root.stats.values())


def test_only_solo_searches_feel_the_solo_constant() -> None:
    narrow = replace(BASE, exploration=4.0, solo_exploration=4.0)
    wide_solo = replace(narrow, solo_exploration=40.0)
    assert visits(wide_solo, 2) == visits(narrow, 2)
    assert visits(wide_solo, 1) != visits(narrow, 1)  # visits spread wider


def test_only_solo_searches_see_the_solo_horizon() -> None:
    near = replace(BASE, exploration=4.0, solo_exploration=4.0)
    far_in_solo = replace(near, solo_playout_turns=2)
    assert visits(far_in_solo, 2) == visits(near, 2)
    assert visits(far_in_solo, 1) != visits(near, 1)  # the values see one more turn
    # in solo the other games' horizons no longer count
    assert visits(replace(near, playout_turns=2, duel_playout_turns=2), 1) == visits(near, 1)


def test_duels_and_larger_games_each_see_their_own_horizon() -> None:
    """`duel_playout_turns` is two-player games' horizon, `playout_turns` that of 3-4
    players (where a playout also runs through every other seat's turns)."""
    near = replace(BASE, exploration=4.0, solo_exploration=4.0)
    far_in_duels = replace(near, duel_playout_turns=2)
    far_in_larger = replace(near, playout_turns=2)
    assert visits(far_in_duels, 2) != visits(near, 2)
    assert visits(far_in_larger, 2) == visits(near, 2)
    assert visits(far_in_larger, 3) != visits(near, 3)
    assert visits(far_in_duels, 3) == visits(near, 3)


@pytest.mark.parametrize("policy", ["estimate", "fitted", "checked"])
def test_only_solo_playouts_place_pedestals_by_another_policy(policy: PlacementPolicy) -> None:
    fast = replace(BASE, exploration=4.0, solo_exploration=4.0, solo_playout_turns=2)
    other = replace(fast, solo_playout_placements=policy)
    assert visits(other, 2) == visits(fast, 2)
    assert visits(other, 3) == visits(fast, 3)
    assert visits(other, 1) != visits(fast, 1)  # other placements, other values


def placing_red(altar: str) -> Game:
    """A solo game with seat 0 placing a red pedestal from an open pool on `altar`."""
    return game_from_position(
        Position(
            altars=[altar, "0,0 _ _/_ _"],
            options=GameOptions(players=1),
            round=3,
            decision="place_pedestal",
            pool="r",
        )
    )


def test_an_estimated_placement_is_the_one_the_estimate_rates_best() -> None:
    """Where the fast rule stacks on the tallest matching column, the estimate may see
    more: here a fourth column closing a 2x2 of columns is worth more than a taller one."""
    game = placing_red("0,0 rr r/r _")
    legal = game.legal_actions(0)
    search = Search(MctsBot(1, "hard"), game, 0, solo=True)

    def rated(action: Action) -> float:
        child = game.copy()
        child.apply_fast(action)
        return Estimator(child, costs=search.costs).value(0)

    chosen = search.best_by_estimate(game, 0, legal)  # every legal placement rated
    assert rated(chosen) == max(rated(a) for a in legal)
    tallest = fast_action(game, 0, legal, Rng(1))
    assert isinstance(tallest, PlacePedestal) and isinstance(chosen, PlacePedestal)
    assert tallest.cell != chosen.cell
    assert rated(chosen) > rated(tallest)


def test_the_released_levels_differ_in_solo_only_where_measured() -> None:
    hard = LEVELS["hard"]
    assert hard.exploration == 8.0
    assert hard.solo_exploration > hard.exploration  # docs/bots.md "Solo settings"
    assert (hard.playout_turns, hard.duel_playout_turns, hard.solo_playout_turns) == (1, 1, 2)
    expert = LEVELS["expert"]
    assert expert.solo_exploration == hard.solo_exploration
    assert expert.solo_playout_turns == hard.solo_playout_turns
    # docs/bots.md "The expert level": its duels look a turn further, larger games do not
    assert (expert.playout_turns, expert.duel_playout_turns) == (1, 2)
    # docs/bots.md "Placements by the estimate in solo playouts": stronger, but over
    # hard's 1 s a decision; in the playouts' first 2 turns only, weaker and no faster
    # over the 60 games ("Placements in the first turns"); paid for by counting the
    # reused tree, weaker ("Counting the reused tree towards the solo budget"); by the
    # fitted rule, no stronger over the 60 games ("A fitted placement rule"), nor with
    # its close options checked by the estimate ("Placements the fitted rule is unsure
    # of"): no released level uses any of them
    assert all(level.solo_playout_placements == "fast" for level in LEVELS.values())
    assert all(level.solo_placement_turns == 0 for level in LEVELS.values())
    assert all(level.solo_placement_candidates == 0 for level in LEVELS.values())
    assert not any(level.solo_reused_visits_count for level in LEVELS.values())
    for name in ("easy", "medium"):
        level = LEVELS[name]
        assert level.solo_exploration == level.exploration
        assert level.solo_playout_turns == level.duel_playout_turns == level.playout_turns
    assert view(game_of(1), 0)["solo"] is True  # how MctsBot tells solo from a duel


def fresh_iterations_of_next_decision(level: Level, players: int) -> tuple[int, int]:
    """(iterations of the turn's first decision, of the next one in the same turn, which
    reuses the subtree of the action played)."""
    game = game_of(players)
    bot = MctsBot(3, level)
    first = bot.choose(view(game, 0), game.legal_actions(0))
    spent_first = bot.last_iterations
    game.apply(first)
    while game.decision.seats != (0,) or len(game.legal_actions(0)) < 2:
        game.apply(game.legal_actions(game.decision.seats[0])[0])
    bot.choose(view(game, 0), game.legal_actions(0))
    return spent_first, bot.last_iterations


def test_in_solo_a_reused_tree_counts_towards_the_budget_where_the_level_says() -> None:
    level = replace(BASE, iterations=60)
    counting = replace(level, solo_reused_visits_count=True)
    first, next_one = fresh_iterations_of_next_decision(counting, 1)
    assert first == 60
    assert 60 // 4 <= next_one < 60  # only what the reused root lacks
    assert fresh_iterations_of_next_decision(level, 1) == (60, 60)
    assert fresh_iterations_of_next_decision(counting, 2) == (60, 60)  # solo only


def test_a_yes_or_no_field_of_a_variant_is_read_as_such() -> None:
    """`bool("false")` is True: a switch set off must not measure it on."""
    field = "solo_reused_visits_count"
    assert getattr(custom_level("hard", [f"{field}=false"]), field) is False
    assert getattr(custom_level("medium", [f"{field}=True"]), field) is True
    with pytest.raises(ValueError, match=f"{field} must be true or false, not 'maybe'"):
        custom_level("hard", [f"{field}=maybe"])


def test_the_estimate_rates_the_rule_of_thumbs_best_few_placements() -> None:
    game = placing_red("0,0 rrr rr _/r _ _/_ _ _")  # three red columns: 3, 2 and 1 high
    legal = game.legal_actions(0)
    options = prune(game, legal)
    assert ranked_placements(game, 0, legal, 0) == options  # 0: all prune keeps
    assert ranked_placements(game, 0, legal, len(options) + 5) == options
    stacks = game.altars[0].stacks
    best_two = ranked_placements(game, 0, legal, 2)
    assert len(best_two) == 2 and set(best_two) <= set(options)
    left_out = [a for a in options if a not in best_two]
    assert left_out
    assert min(placement_rank(stacks, a) for a in best_two) >= max(
        placement_rank(stacks, a) for a in left_out
    )
    # the rule of thumb's ranking: the taller matching column first
    tallest = best_two[0]
    assert isinstance(tallest, PlacePedestal) and len(stacks[tallest.cell]) == 3


def playout_turns(level: Level, seed: int) -> list[list[Action]]:
    """The actions of a seeded solo playout from seat 0's turn, by turn: the rest of
    the searched turn, then each turn the playout plays."""
    game = game_of(1)
    search = Search(MctsBot(5, level), game, 0, solo=True)
    played = game.copy()
    search.playout(played, Rng(seed))
    replay = game.copy()
    turns: list[list[Action]] = [[]]
    key = turn_key(replay)
    for action in played.history[len(game.history) :]:
        if turn_key(replay) != key:
            key = turn_key(replay)
            turns.append([])
        turns[-1].append(action)
        replay.apply_fast(action)
    return turns


def test_placements_by_the_estimate_only_in_the_playouts_first_turns() -> None:
    fast = replace(BASE, solo_playout_turns=2)
    everywhere = replace(fast, solo_playout_placements="estimate")
    first_only = replace(everywhere, solo_placement_turns=1)
    differs_in_first, differs_later = False, False
    for seed in range(1, 13):
        by_rule, by_estimate, by_both = (
            playout_turns(fast, seed),
            playout_turns(everywhere, seed),
            playout_turns(first_only, seed),
        )
        assert len(by_both) >= 3  # the searched turn's rest, then at least two turns
        # the first turn the playout plays is placed by the estimate, as everywhere
        assert by_both[:2] == by_estimate[:2]
        differs_in_first |= by_both[1] != by_rule[1]
        differs_later |= by_both[2:] != by_estimate[2:]
    assert differs_in_first  # the estimate places otherwise than the rule of thumb
    assert differs_later  # and after the first turn, the rule of thumb places again
