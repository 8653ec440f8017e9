"""Engine behaviour the bots depend on: determinization during the start-card cloud."""

from __future__ import annotations

from skytotems import Game, GameOptions, view
from skytotems.bots.base import determinize
from skytotems.rules.rng import Rng


def start_cloud_pending() -> tuple[Game, int]:
    """A 2-player game where every seat has chosen and a start card's cloud is pending.

    Seed 0 with each seat keeping its first card: seat 0 keeps sea-of-clouds, whose
    cloud icon makes seat 0 place a cloud while the phase is still "setup".
    """
    game = Game(GameOptions(players=2), seed=0)
    while game.decision.kind == "choose_start":
        seat = game.decision.seats[0]
        game.apply(game.legal_actions(seat)[0])
    assert game.phase == "setup" and game.decision.kind == "place_cloud"
    return game, game.decision.seats[0]


def test_bots_determinize_the_start_card_cloud_all_the_same() -> None:
    game, seat = start_cloud_pending()
    seen = view(game, seat)
    for k in range(5):
        sampled = determinize(seen, Rng(k))
        assert view(sampled, seat)["legal_actions"] == seen["legal_actions"]
        other = 1 - seat
        assert sampled.start_cards[other] == game.start_cards[other]
        assert len(sampled.goals[other]) == 2
        assert sampled.start_cards[other] not in sampled.goals[other]
