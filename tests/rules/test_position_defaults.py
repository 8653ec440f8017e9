"""Position defaults (rules note E18; docs/notation.md): what `game_from_position` fills in.

A `Position` names only what a test or a puzzle cares about; the rest has fixed defaults
that keep the position a real game: every pedestal of the box (RULES.md §1) is
somewhere, and the game stands at the top of a turn (RULES.md §12).
"""

from __future__ import annotations

import pytest
from helpers import c, play, pos

from skytotems import DrawFromBag, GameOptions, PlacePedestal, Position, game_from_position
from skytotems.rules.events import PedestalsDrawn
from skytotems.rules.pieces import (
    BLUE,
    CAT,
    RED,
    T_BIRD,
    T_CAT,
    T_HORSE,
    T_WOLF,
    TOTAL_PEDESTALS,
    full_bag,
)
from skytotems.rules.rng import Rng

EMPTY = "0,0 _ _/_ _"


def test_s12_a_bare_position_is_seat_0_at_the_top_of_round_1() -> None:
    """RULES.md §12, §10 (rules note E18): 2 players with the beginner set, seat 0 to play
    a normal turn in round 1, start and first player 0, no cards anywhere, no extra turn,
    no history."""
    game = game_from_position(Position(altars=[EMPTY, EMPTY]))
    assert game.options == GameOptions()
    assert (game.n, game.kinds) == (2, (T_BIRD, T_WOLF, T_HORSE, T_CAT))
    assert (game.decision.kind, game.decision.seats) == ("turn", (0,))
    assert game.decision.context["mode"] == "normal"
    assert (game.round, game.phase, game.start_player, game.first_player) == (1, "play", 0, 0)
    assert game.slots == [[] for _ in range(GameOptions().slots)]
    assert game.goals == game.revealed == [[], []]
    assert game.start_cards == [None, None]
    assert game.extra_turns == 0 and game.history == []


def test_s1_the_default_bag_holds_what_the_altars_and_slots_do_not() -> None:
    """RULES.md §1 (rules note E18): without `bag`, the bag is the 118 pedestals minus
    those on the altars, in the hoards and in the slots; more than exist is refused."""
    game = pos("0,0 rrr b/_ _ | hoard C", EMPTY, slots=["rb", "", ""])
    expected = full_bag()
    for design in (RED, RED, RED, BLUE, CAT, RED, BLUE):  # altar, hoard (cat), slot
        expected[design] -= 1
    assert game.bag == expected and game.bag_total == TOTAL_PEDESTALS - 7
    with pytest.raises(ValueError, match="more pedestals than exist of: red"):
        pos("0,0 " + "r" * 14 + " _/_ _", EMPTY, slots=["rr", "", ""])


@pytest.mark.parametrize("seed", [0, 77, 2**63 + 5])
def test_s12_a_position_draws_from_the_generator_seeded_with_seed_xor_5eed(seed: int) -> None:
    """RULES.md §12 (rules note E18): the position's draws come from `Rng(seed ^ 0x5EED)`,
    the first one on the bag as the position leaves it."""
    game = pos(EMPTY, EMPTY, slots=["", "", ""], seed=seed)
    expected_rng = Rng(seed ^ 0x5EED)
    bag = list(game.bag)
    first = expected_rng.weighted(bag, sum(bag))
    bag[first] -= 1
    second = expected_rng.weighted(bag, sum(bag))
    events = play(game, DrawFromBag(0))
    assert [e.designs for e in events if isinstance(e, PedestalsDrawn)] == [(first, second)]
    assert PlacePedestal(0, first, c(0, 0)) in game.legal_actions(0)
