"""Missions measure themselves (RULES.md §7, §9): each type's shortfall is a lower bound.

The shortfall of a mission on an altar is a lower bound on the pieces (pedestals, totems,
cloud cells) the altar must still gain to meet it: 0 exactly when the mission is met,
never dropping by more than the pieces one action adds. Bots and the research
environment build their estimates on it, so a type without one is refused at load.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_cards import altar_of, deck_json, row

from skytotems import Game, GameOptions
from skytotems.rules import mission_types
from skytotems.rules.altar import Altar
from skytotems.rules.cards import Deck, default_deck
from skytotems.rules.errors import DeckError
from skytotems.rules.missions import Mission
from skytotems.rules.pieces import T_BIRD, T_CAT, T_WOLF
from skytotems.rules.rng import Rng
from skytotems.transcript import pick_action

DECK = default_deck()
MISSIONS = {card.id: card.mission for card in DECK}


def shortfall(card_id: str, altar: Altar) -> int:
    return MISSIONS[card_id].shortfall(altar)


def test_s9_every_mission_type_has_a_shortfall_measure() -> None:
    """RULES.md §9: each registered type measures itself, and the deck uses all of them."""
    assert all(callable(t.shortfall) for t in mission_types.MISSION_TYPES.values())
    assert {m.type for m in MISSIONS.values()} == set(mission_types.MISSION_TYPES)


def test_s9_a_fresh_altar_is_as_far_as_each_requirement_says() -> None:
    """RULES.md §9: on the starting tile alone, the shortfall counts what each card asks."""
    fresh = Altar()
    assert shortfall("wolf-pack", fresh) == 2  # two wolf totems
    assert shortfall("bird-god", fresh) == 2  # a rare pedestal and the totem over it
    assert shortfall("high-place", fresh) == 5  # a column of 5
    assert shortfall("skyline", fresh) == 12  # 4 columns of 3
    assert shortfall("wide-clouds", fresh) == 8  # 12 clouds, 4 there
    assert shortfall("rainbow", fresh) == 6  # a column of each common kind
    assert shortfall("plaza", fresh) == 8  # a 2×2 square of height 2
    assert shortfall("courtyard", fresh) == 4  # an empty cloud needs four columns around
    for mission in MISSIONS.values():
        assert mission.shortfall(fresh) >= 1


def test_s9_shortfall_counts_what_the_altar_already_has() -> None:
    """RULES.md §9: existing columns, totems and clouds shorten the way."""
    near_plaza = altar_of({(0, 0): "rr", (1, 0): "gg", (0, 1): "b", (1, 1): "yy"})
    assert shortfall("plaza", near_plaza) == 1
    near_courtyard = altar_of({(0, 0): "r", (2, 0): "g", (1, 1): "b"}, clouds=[(1, 0), (1, -1)])
    assert shortfall("courtyard", near_courtyard) == 1  # a column on (1,-1) closes it
    wolf = [(0, 0), (1, 0), (2, 0)]
    one_wolf = altar_of(row(0, "rr", "", "gg"), totems=[(T_WOLF, wolf, 2)])
    assert shortfall("wolf-pack", one_wolf) == 1
    rare_column_open = altar_of({(0, 1): "B"})
    assert shortfall("bird-god", rare_column_open) == 1  # only the totem is missing
    bird = [(0, 0), (1, 0), (0, 1)]
    rare_covered = altar_of({(0, 0): "rr", (1, 0): "rr", (0, 1): "BB"}, totems=[(T_BIRD, bird, 2)])
    assert shortfall("bird-god", rare_covered) == 0
    cat_on_rare = altar_of({(0, 0): "CCCCCC"}, totems=[(T_CAT, [(0, 0)], 6)])
    assert MISSIONS["cat-god"].met(cat_on_rare) and shortfall("cat-god", cat_on_rare) == 0


def test_s9_a_deck_naming_a_type_without_a_shortfall_is_refused(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """RULES.md §9: a mission type that cannot measure itself is an error at load."""
    registry = dict(mission_types.MISSION_TYPES)
    registry["courtyard"] = dataclasses.replace(registry["courtyard"], shortfall=None)
    monkeypatch.setattr("skytotems.rules.missions.MISSION_TYPES", registry)
    with pytest.raises(DeckError, match=r"card 'courtyard'.*no shortfall measure"):
        Deck.from_json(deck_json())
    with pytest.raises(DeckError, match="no shortfall measure"):
        Mission("courtyard")


def pieces(altar: Altar) -> tuple[int, ...]:
    """What an altar holds, per sort of piece: pedestals, hoard, totems, clouds."""
    return (
        sum(len(s) for s in altar.stacks.values()),
        len(altar.hoard),
        len(altar.totems),
        len(altar.clouds),
    )


def played_altars(options: GameOptions, seed: int, chooser: int) -> Iterator[tuple[Altar, int]]:
    """Each altar after each action of a random game, with the pieces that action added."""
    game = Game(options, seed)
    rng = Rng(chooser)
    before = [pieces(a) for a in game.altars]
    while not game.is_over:
        game.apply(pick_action(game, rng, greedy=True))
        for s, altar in enumerate(game.altars):
            now = pieces(altar)
            gained = sum(max(0, b - a) for a, b in zip(before[s], now, strict=True))
            before[s] = now
            yield altar, gained


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    players=st.integers(1, 4),
    totems=st.sampled_from(("beginner", "dragon", "cat-plus-three", "random-four")),
    seed=st.integers(0, 2**64 - 1),
    chooser=st.integers(0, 2**64 - 1),
)
def test_s9_shortfall_is_a_lower_bound_in_any_game(
    players: int, totems: str, seed: int, chooser: int
) -> None:
    """RULES.md §7, §9: 0 exactly when met, and no action closes more than it adds."""
    options = GameOptions(players=players, totems=totems)
    missions = list(MISSIONS.values())
    last: dict[int, list[int]] = {}
    for altar, gained in played_altars(options, seed, chooser):
        now = [m.shortfall(altar) for m in missions]
        for mission, value in zip(missions, now, strict=True):
            assert value >= 0
            assert (value == 0) == mission.met(altar), (mission, value)
        previous = last.get(id(altar))
        if previous is not None:
            for mission, old, new in zip(missions, previous, now, strict=True):
                assert old - new <= gained, (mission, old, new, gained)
        last[id(altar)] = now
