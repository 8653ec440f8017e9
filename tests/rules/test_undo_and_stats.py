"""The engine's judgement of where undo stops, and a finished game's statistics.

Undo is the online game's convenience, not a rule, but where it must stop is about
hidden information (RULES.md §11): no undo may go back past a random draw, a revealed
card or a choice from the bag, nor past the end of a turn. Statistics are read from
the final state and the score sheets (RULES.md §8).
"""

from __future__ import annotations

import itertools
import random

import pytest

from skytotems import Game, GameOptions, final_places, score_sheet
from skytotems.rules.events import CardRevealed, PedestalsDrawn, StartChosen
from skytotems.rules.grid import START_TILE
from skytotems.rules.stats import game_stats
from skytotems.rules.undo import blocks_undo


def test_s11_a_random_draw_a_reveal_or_a_starting_choice_blocks_undo():
    assert blocks_undo([StartChosen(seat=0, card="skyline")])
    assert blocks_undo([CardRevealed(seat=1, card="plaza", points=5)])
    assert blocks_undo([PedestalsDrawn(seat=0, source="draw", designs=(2,))])
    assert not blocks_undo([])


def test_s11_the_wolf_takes_a_named_design_so_it_does_not_block_undo():
    assert not blocks_undo([PedestalsDrawn(seat=0, source="wolf", designs=(2,))])
    assert blocks_undo(
        [PedestalsDrawn(seat=0, source="wolf", designs=(2,)), StartChosen(seat=0, card="x")]
    )


def random_game(players: int, seed: int) -> tuple[Game, list[tuple[int, bool]]]:
    """A random game to its end: the game and, per action, its seat and whether it blocks."""
    game = Game(GameOptions(players=players), seed=seed)
    rng = random.Random(seed)
    played = []
    while not game.is_over:
        seat = game.decision.seats[0]
        action = rng.choice(game.legal_actions(seat))
        played.append((action.seat, blocks_undo(game.apply(action))))
    return game, played


@pytest.mark.parametrize(("players", "seed"), [(1, 3), (2, 5), (3, 8), (4, 13)])
def test_s11_undo_never_crosses_into_another_seats_action(players: int, seed: int):
    """Whenever the next action is another seat's, the action before it blocks undo: a
    player can never take back what led to someone else's turn."""
    _, played = random_game(players, seed)
    assert any(not blocks for _, blocks in played)  # undo has something to do at all
    for (seat, blocks), (next_seat, _) in itertools.pairwise(played):
        if next_seat != seat:
            assert blocks
    assert played[-1][1]  # the game's end closes it for good


@pytest.mark.parametrize(("players", "seed"), [(1, 4), (2, 7), (4, 21)])
def test_s8_statistics_agree_with_the_score_sheets(players: int, seed: int):
    game, _ = random_game(players, seed)
    stats = game_stats(game)
    places = final_places(game)
    assert [s["seat"] for s in stats] == list(range(game.n))
    for seat, line in enumerate(stats):
        sheet = score_sheet(game, seat)
        altar = game.altars[seat]
        points = line["points"]
        assert line["place"] == places[seat]
        assert points["total"] == sheet.total
        assert (
            sum(points["totems"].values())
            + points["common_pedestals"]
            + points["rare_pedestals"]
            + points["cards"]
            == sheet.total
        )
        assert sum(line["totems"].values()) == len(altar.totems)
        assert line["clouds"] == len(altar.clouds) - len(START_TILE) >= 0
        assert line["cards"]["count"] == len(line["cards"]["revealed"])
