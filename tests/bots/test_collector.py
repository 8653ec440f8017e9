"""The cyclic garbage collector is paused during a search (`collector_paused`), which
is safe only because a search makes no reference cycles: both are checked here
(docs/bots.md "The collector paused")."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from dataclasses import replace

import pytest

from skytotems import Game, GameOptions, view
from skytotems.bots.base import collector_paused
from skytotems.bots.greedy import GreedyBot
from skytotems.bots.mcts import LEVELS, MctsBot

# The hard level's solo settings at a budget small enough for a test.
SMALL_HARD = replace(LEVELS["hard"], iterations=40, determinizations=2)


def solo_position(moves: int) -> Game:
    """A solo game after `moves` greedy moves, at a decision with several choices."""
    game = Game(GameOptions(players=1), 11)
    bot = GreedyBot(3)
    while len(game.history) < moves or len(game.legal_actions(game.decision.seats[0])) < 2:
        seat = game.decision.seats[0]
        game.apply(bot.choose(view(game, seat), game.legal_actions(seat)))
    return game


@pytest.fixture
def collections_seen() -> Iterator[list[int]]:
    """The generations of the collections that start while the test runs."""
    seen: list[int] = []

    def note(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            seen.append(info["generation"])

    gc.callbacks.append(note)
    try:
        yield seen
    finally:
        gc.callbacks.remove(note)


def test_a_search_runs_with_the_collector_paused(collections_seen: list[int]) -> None:
    game = solo_position(30)
    seat = game.decision.seats[0]
    bot, seen, legal = MctsBot(5, SMALL_HARD), view(game, seat), game.legal_actions(seat)
    gc.collect()
    collections_seen.clear()
    assert gc.isenabled()
    bot.choose(seen, legal)
    # Hundreds of thousands of allocations (unpaused, dozens of collections start), and
    # at most the one that catches up as the collector comes back.
    assert len(collections_seen) <= 1
    assert gc.isenabled()  # restored after the decision


def test_a_search_makes_no_reference_cycles() -> None:
    game = solo_position(40)
    seat = game.decision.seats[0]
    bot = MctsBot(6, SMALL_HARD)
    gc.collect()
    gc.disable()
    try:
        for _ in range(2):  # the second decision reuses the first's tree
            legal = game.legal_actions(seat)
            game.apply(bot.choose(view(game, seat), legal))
            if game.is_over or seat not in game.decision.seats:
                break
        unreachable = gc.collect()  # what only the collector could have freed
    finally:
        gc.enable()
    assert unreachable == 0


def test_the_pause_restores_a_collector_that_was_off() -> None:
    gc.disable()
    try:
        with collector_paused():
            assert not gc.isenabled()
        assert not gc.isenabled()  # left as it was: off
    finally:
        gc.enable()
    with collector_paused():
        assert not gc.isenabled()
    assert gc.isenabled()


def test_the_collector_comes_back_when_the_search_fails() -> None:
    with pytest.raises(RuntimeError), collector_paused():
        raise RuntimeError("a search that fails")
    assert gc.isenabled()
