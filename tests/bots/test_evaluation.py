"""The heuristic estimate's action economy (bots/evaluation.py).

The final-totem turn (RULES.md §8) builds one totem and nothing else; a horse gives its
action back (RULES.md §6), so only the other totems use up the builds left.
"""

from __future__ import annotations

from skytotems.bots.evaluation import Estimator, actions_left, mission_distance
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


def _distance(card_id: str, altar: str) -> float:
    """How far the altar is from a card's mission, by the estimate (round 3 of 10)."""
    game = game_from_position(Position(altars=[altar, EMPTY], round=3))
    card = next(c for c in game.cards.values() if c.id == card_id)
    return mission_distance(card.mission, game.altars[0], Estimator(game))


def test_s9_a_god_card_is_nearer_when_the_totem_site_is_over_a_rare_column() -> None:
    over_rare = _distance("wolf-god", "0,0 WW r WW/_ _ _")
    over_common = _distance("wolf-god", "0,0 rr r rr/_ _ _")
    rare_elsewhere = _distance("wolf-god", "0,0 rr r rr/W _ _")
    assert over_rare < rare_elsewhere <= over_common


def test_s9_two_totems_of_a_kind_need_two_sites_that_share_no_cell() -> None:
    one_site = _distance("wolf-pack", "0,0 rr _ rr/_ _ _")
    two_sites = _distance("wolf-pack", "0,0 rr _ rr/gg _ gg")
    assert two_sites < one_site


def test_s9_totems_of_several_kinds_count_each_missing_kind_s_site() -> None:
    far = _distance("menagerie", "0,0 r _/_ _")
    bird_ready = _distance("menagerie", "0,0 rr rr/rr _")
    bird_and_horse_ready = _distance("menagerie", "0,0 rr rr b/rr _ bbb")
    assert bird_and_horse_ready < bird_ready < far


def test_s6_cat_goals_count_six_pedestals_of_one_design_as_slow() -> None:
    # A cat arrives at height 6 (RULES.md §6); one design must fill the column.
    tall_rare = _distance("cat-god", "0,0 WWWW _/_ _")
    short_rare = _distance("cat-god", "0,0 W _/_ _")
    tall_common = _distance("cat-god", "0,0 rrrr _/_ _")
    assert tall_rare < short_rare < tall_common
    assert _distance("high-place", "0,0 rrr _/_ _") < _distance("cat-pair", "0,0 rrrr rrrr/_ _")
    # No rare column yet: a cat god is farther than sixteen clouds from four.
    assert _distance("cat-god", "0,0 rrrr _/_ _") > _distance("sea-of-clouds", "0,0 r _/_ _")
