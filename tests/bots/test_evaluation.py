"""The heuristic estimate's action economy (bots/evaluation.py).

The final-totem turn (RULES.md §8) builds one totem and nothing else; a horse gives its
action back (RULES.md §6), so only the other totems use up the builds left.
"""

from __future__ import annotations

from skytotems.bots.evaluation import Estimator, actions_left
from skytotems.rules.actions import Pass
from skytotems.rules.engine import Game
from skytotems.rules.options import GameOptions
from skytotems.rules.position import Position, game_from_position

EMPTY = "0,0 _ _/_ _"
ONE_BIRD_SITE = "0,0 rr rr _/rr _ _"
TWO_BIRD_SITES = "0,0 rr rr _ gg gg/rr _ _ gg _"
BIRD_AND_HORSE_SITES = "0,0 rr rr _ g ggg/rr _ _ _ _"


def _potential(altar: str, phase: str, round_: int = 10) -> float:
    game = game_from_position(Position(altars=[altar, EMPTY], phase=phase, round=round_))
    actions, final_build = actions_left(game, 0)
    return Estimator(game).potential(game.altars[0], actions, final_build)


def test_s8_actions_left_count_full_turns_and_the_final_totem_turn() -> None:
    assert actions_left(Game(GameOptions(players=2), 1), 0) == (10, 1)
    last_round = game_from_position(Position(altars=[EMPTY, EMPTY], round=10))
    assert actions_left(last_round, 0) == (1, 1)
    assert actions_left(last_round, 1) == (1, 1)  # seat 1 plays after seat 0
    final = game_from_position(Position(altars=[EMPTY, EMPTY], phase="final", round=10))
    assert actions_left(final, 0) == (0, 1)
    final.apply(Pass(0))
    assert actions_left(final, 0) == (0, 0)


def test_s8_the_final_totem_turn_builds_one_totem_only() -> None:
    one = _potential(ONE_BIRD_SITE, "final")
    assert one > 0
    assert _potential(TWO_BIRD_SITES, "final") == one
    # With turns to spare, the second site is worth something too.
    assert _potential(TWO_BIRD_SITES, "play", 5) > _potential(ONE_BIRD_SITE, "play", 5)


def test_s6_a_horse_gives_its_action_back_in_the_final_totem_phase() -> None:
    assert _potential(BIRD_AND_HORSE_SITES, "final") > _potential(ONE_BIRD_SITE, "final")
