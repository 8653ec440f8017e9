"""A decision's search stopped once decided (bots/mcts.py `Level.stop_decided`,
`decided`): when the most visited root action leads every other by more than the
iterations left, the rest of the budget cannot change the choice (the most visited), so
the search may stop there; same choice, less time. With `Level.carry_decided` the
iterations it did not run go to the bot's next decisions instead. Both measured in solo
and adopted by no released level (docs/bots.md "Stopping a decided search", "Iterations
a decided search did not run")."""

from __future__ import annotations

from dataclasses import replace

import pytest

from skytotems.bots.mcts import CARRY_CAP, LEVELS, Level, MctsBot, Node, custom_level, decided
from skytotems.bots.registry import make_bot
from skytotems.rules.actions import Action, EndTurn, Pass
from skytotems.rules.engine import Game
from skytotems.rules.options import GameOptions
from skytotems.rules.view import view

BASE = Level(iterations=64, determinizations=2, time_cap=60.0)


def root_with(visits: dict[Action, float]) -> Node:
    root = Node()
    for action, n in visits.items():
        root.stats[action] = [n, n * 10.0, n]
    return root


def test_decided_when_the_leader_cannot_be_caught() -> None:
    lead, other = Pass(0), EndTurn(0)
    root = root_with({lead: 30, other: 10})
    legal: set[Action] = {lead, other}
    assert decided(root, legal, 19)  # 30 > 10 + 19: even all 19 to `other` leave it behind
    assert not decided(root, legal, 20)  # 30 = 10 + 20: a tie could still be reached
    assert not decided(root_with({lead: 5, other: 5}), legal, 0)  # a tie is not decided


def test_decided_counts_only_legal_actions() -> None:
    lead, other = Pass(0), EndTurn(0)
    root = root_with({lead: 30, other: 10})
    # the leader is not legal here, so `other` is alone: its 10 visits against none
    assert not decided(root, {other}, 15)
    assert decided(root, {other}, 9)


def positions(players: int, count: int) -> list[Game]:
    """Decisions with a choice, of seeded greedy games, spread over the game."""
    found: list[Game] = []
    for seed in range(3):
        game = Game(GameOptions(players=players), 40 + seed)
        bots = [make_bot("greedy", s) for s in range(game.n)]
        moves = 0
        while not game.is_over and len(found) < count * (seed + 1) // 3:
            seat = game.decision.seats[0]
            legal = game.legal_actions(seat)
            if moves % 17 == 5 and len(legal) > 1:
                found.append(game.copy())
            game.apply(bots[seat].choose(view(game, seat), legal))
            moves += 1
    return found


@pytest.mark.parametrize("players", [1, 2])
def test_a_stopped_search_makes_the_full_budgets_choice(players: int) -> None:
    """From the same (fresh) root, stopping changes no choice and saves iterations."""
    saved = 0
    for game in positions(players, 9):
        seat = game.decision.seats[0]
        legal = game.legal_actions(seat)
        full = MctsBot(7, BASE)
        stopped = MctsBot(7, replace(BASE, stop_decided=True))
        seen = view(game, seat)
        assert stopped.choose(seen, legal) == full.choose(seen, legal)
        assert stopped.last_iterations <= full.last_iterations
        saved += full.last_iterations - stopped.last_iterations
    assert saved > 0  # some decisions were decided before the budget ran out


@pytest.mark.parametrize("players", [1, 2])
def test_carried_iterations_go_to_the_next_decisions(players: int) -> None:
    """With `carry_decided`, what a decision stopped once decided did not run goes to the
    bot's next decisions (at most CARRY_CAP x the budget in one): none is made up, and
    only those still banked when the series ends go unspent."""
    bot = MctsBot(7, replace(BASE, carry_decided=True))
    searched = spent = 0
    above_budget = False
    for game in positions(players, 9):
        seat = game.decision.seats[0]
        bot.choose(view(game, seat), game.legal_actions(seat))
        if bot.last_iterations == 0:
            continue  # answered without search (a card to reveal)
        searched += 1
        spent += bot.last_iterations
        assert bot.last_iterations <= CARRY_CAP * BASE.iterations
        above_budget = above_budget or bot.last_iterations > BASE.iterations
    assert spent + bot.carried == searched * BASE.iterations
    assert above_budget  # some decision spent iterations an earlier one banked


def test_a_variant_sets_it_by_name() -> None:
    assert custom_level("medium", ["stop_decided=true"]).stop_decided
    assert not custom_level("medium", ["stop_decided=no"]).stop_decided
    assert custom_level("medium", ["carry_decided=yes"]).carry_decided


def test_no_released_level_stops_its_searches() -> None:
    """Measured, not adopted: solo scored lower stopping, and no better carrying
    (docs/bots.md)."""
    assert not any(level.stop_decided or level.carry_decided for level in LEVELS.values())
