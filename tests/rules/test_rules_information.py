"""Per-rule tests of RULES.md §11 (information: what each view holds).

The test of §11 is that what is sent to seat A (views, events, legal actions, errors)
never depends on B's face-down cards or on future draws. Most tests therefore build two
games that differ only in a hidden part and compare what A receives.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from helpers import c, of_type, play, pos

from skytotems import (
    ChooseDesign,
    ChooseStart,
    DrawFromBag,
    Game,
    GameOptions,
    IllegalAction,
    NotYourDecision,
    Pass,
    PlacePedestal,
    Reveal,
    TakeSlot,
    dealt_hands,
    events_for,
    generator_secrets,
    score_sheet,
    view,
)
from skytotems.rules.events import (
    CardsDealt,
    DesignChosen,
    GameEnded,
    PedestalsDrawn,
    StartCardsRevealed,
    StartChosen,
)
from skytotems.rules.pieces import BLUE, DESIGN_NAMES, RED

EMPTY = "0,0 _ _/_ _"
HIGH = "0,0 ppppp _/_ _"  # "high-place" is met
MET = ["high-place", "skyline"]  # high-place met on HIGH, skyline not
UNMET = ["plaza", "rainbow"]
OTHER_UNMET = ["twin-peaks", "courtyard"]
VIEWERS = (0, 1, None)


def without_deck(data: dict[str, Any]) -> dict[str, Any]:
    """A view minus the deck list (every card in play is public as a definition)."""
    return {k: v for k, v in data.items() if k != "deck"}


def keys(data: object) -> Iterator[str]:
    """Every key of every dict nested in `data`."""
    if isinstance(data, dict):
        for k, v in data.items():
            yield k
            yield from keys(v)
    elif isinstance(data, list):
        for v in data:
            yield from keys(v)


def at_prompt() -> Game:
    """Seat 0 has taken its action and may still reveal: the end-of-turn prompt."""
    game = pos(HIGH, EMPTY, slots=["r", "", ""], bag={}, goals=[MET, UNMET])
    play(game, TakeSlot(0, 0), PlacePedestal(0, RED, c(1, 0)))
    assert game.decision.kind == "end_turn"
    return game


# --- each seat's own secrets --------------------------------------------------------------


def test_s11_own_view_holds_goals_their_points_and_revealable_flags() -> None:
    """RULES.md §11: private to its owner — face-down goals, the points they would give,
    and whether each is revealable now."""
    game = pos(HIGH, EMPTY, goals=[MET, UNMET])
    assert view(game, 0)["seats"][0]["goals"] == [
        {"card": "high-place", "points": 2, "revealable": True},
        {"card": "skyline", "points": 4, "revealable": False},
    ]


def test_s11_others_and_spectators_see_only_how_many_goals() -> None:
    """RULES.md §11: others learn how many face-down cards a player holds, never which,
    and no revealable flag; a spectator sees no goals and has no legal actions."""
    game = pos(HIGH, EMPTY, goals=[MET, UNMET])
    for viewer, hidden_seats in ((1, [0]), (None, [0, 1])):
        data = view(game, viewer)
        for s in hidden_seats:
            entry = data["seats"][s]
            assert entry["goal_count"] == 2
            assert "goals" not in entry and "hand" not in entry
            text = json.dumps(entry)
            assert "revealable" not in text
            assert all(card not in text for card in game.goals[s])
        assert data["legal_actions"] == []


def test_s11_revealable_flag_and_reveal_actions_only_for_the_owner() -> None:
    """RULES.md §11: the gold highlight (revealable) shows only in the owner's view; the
    reveal actions appear only in the owner's legal actions."""
    game = pos(HIGH, EMPTY, slots=["r", "", ""], goals=[MET, UNMET])
    mine = view(game, 0)
    assert {"type": "reveal", "seat": 0, "card": "high-place"} in mine["legal_actions"]
    for viewer in (1, None):
        theirs = without_deck(view(game, viewer))
        assert "high-place" not in json.dumps(theirs)
        assert "revealable" not in json.dumps(theirs["seats"][0])


def test_s11_end_of_turn_prompt_reads_as_turn_to_others() -> None:
    """RULES.md §11: which seat acts is public, in the same words whether or not it could
    reveal — the prompt reads as "turn" to others, also in the error they get."""
    game = at_prompt()
    assert view(game, 0)["decision"]["kind"] == "end_turn"
    for viewer in (1, None):
        decision = view(game, viewer)["decision"]
        assert decision["kind"] == "turn" and decision["seats"] == [0]
    with pytest.raises(NotYourDecision) as info:
        game.apply(DrawFromBag(1))
    assert "end_turn" not in str(info.value)


def test_s11_end_of_turn_prompt_is_not_named_in_others_views() -> None:
    """RULES.md §11: the end-of-turn prompt shows only in the owner's view: nothing sent to
    another seat or a spectator names it."""
    game = at_prompt()
    for viewer in (1, None):
        text = json.dumps(without_deck(view(game, viewer)))
        assert "prompt" not in text and "end_turn" not in text


# --- nothing sent to A depends on B's face-down cards -------------------------------------


def two_games_differing_in_seat_1_goals() -> tuple[Game, Game]:
    """Seat 1 holds a met card in the first game and only unmet ones in the second (where
    "high-place" lies in the box instead)."""
    met = pos(EMPTY, HIGH, slots=["r", "", ""], bag={}, goals=[UNMET, MET])
    unmet = pos(EMPTY, HIGH, slots=["r", "", ""], bag={}, goals=[UNMET, OTHER_UNMET])
    return met, unmet


def test_s11_views_and_events_of_a_do_not_depend_on_b_face_down_cards() -> None:
    """RULES.md §11: views and events for seat 0 and a spectator are identical whether seat 1
    could reveal or not, during seat 0's turn and at the top of seat 1's."""
    games = two_games_differing_in_seat_1_goals()
    for viewer in (0, None):
        assert view(games[0], viewer) == view(games[1], viewer)
    sent = [
        events_for(play(game, TakeSlot(0, 0), PlacePedestal(0, RED, c(0, 0))), 0) for game in games
    ]
    assert sent[0] == sent[1]
    assert all(game.decision.seats == (1,) for game in games)
    for viewer in (0, None):
        assert view(games[0], viewer) == view(games[1], viewer)
    assert view(games[0], 1) != view(games[1], 1)  # the owner does see the difference


def test_s11_errors_to_a_do_not_depend_on_b_face_down_cards() -> None:
    """RULES.md §11: an illegal action gets the same error whether the card named is an
    opponent's goal or lies in the box, and acting out of turn gets the same error whether
    the seat to act could reveal or not."""
    errors = []
    for game in two_games_differing_in_seat_1_goals():
        with pytest.raises(IllegalAction) as wrong_card:
            game.apply(Reveal(0, "high-place"))  # seat 1's goal, or a boxed card
        with pytest.raises(NotYourDecision) as out_of_turn:
            game.apply(Reveal(1, "high-place"))
        errors.append(
            (
                wrong_card.value.reason,
                str(wrong_card.value),
                out_of_turn.value.reason,
                str(out_of_turn.value),
            )
        )
    assert errors[0] == errors[1]


def test_s11_future_draws_never_shape_a_view() -> None:
    """RULES.md §11: the order of future draws is secret — two games differing only in
    their generator look the same to every viewer until a draw happens."""
    first = pos(EMPTY, EMPTY, bag={"red": 3, "blue": 3}, seed=1)
    second = pos(EMPTY, EMPTY, bag={"red": 3, "blue": 3}, seed=2)
    for viewer in VIEWERS:
        assert view(first, viewer) == view(second, viewer)


def test_s11_the_seed_and_generator_state_are_never_in_a_view() -> None:
    """RULES.md §11, DESIGN.md §2: neither the seed nor the generator's state (nor the box of
    unused cards) appears in any view."""
    seed = 0x5EED_C0FF_EE12_3457
    game = Game(GameOptions(players=2), seed)
    play(game, ChooseStart(0, dealt_hands(game)[0][0]), ChooseStart(1, dealt_hands(game)[1][0]))
    while game.decision.kind == "place_cloud":  # starting cards with a cloud icon
        seat = game.decision.seats[0]
        play(game, game.legal_actions(seat)[0])
    for viewer in VIEWERS:
        data = view(game, viewer)
        text = json.dumps(data)
        assert not any(secret in text for secret in generator_secrets(game))
        assert not {"seed", "rng", "box"} & set(keys(data))


# --- setup --------------------------------------------------------------------------------


def test_s11_starting_choice_secret_until_all_have_chosen_but_who_chose_is_public() -> None:
    """RULES.md §11 / §4: during setup who has chosen is public; which card stays with its
    owner until all have chosen, then every starting card is public."""
    game = Game(GameOptions(players=2), seed=11)
    kept = dealt_hands(game)[0][1]
    events = play(game, ChooseStart(0, kept))
    assert of_type(events_for(events, 0), StartChosen) == [StartChosen(0, kept)]
    for viewer in (1, None):
        assert of_type(events_for(events, viewer), StartChosen) == [StartChosen(0, "")]
        entry = view(game, viewer)["seats"][0]
        assert entry["chosen"] is True and entry["start_card"] is None
        assert "hand" not in entry and "goals" not in entry
        assert kept not in json.dumps(without_deck(view(game, viewer)))
    assert view(game, 1)["decision"]["context"] == {"chosen": [0]}
    own = view(game, 0)["seats"][0]
    assert own["start_card"] == kept and own["hand"] == list(dealt_hands(game)[0])

    other = dealt_hands(game)[1][0]
    events = play(game, ChooseStart(1, other))
    assert of_type(events_for(events, 0), StartCardsRevealed) == [StartCardsRevealed((kept, other))]
    for viewer in VIEWERS:
        assert [e["start_card"] for e in view(game, viewer)["seats"]] == [kept, other]


def test_s11_dealt_hands_are_private_only_their_size_is_public() -> None:
    """RULES.md §11: a dealt hand is seen by its owner; others learn it holds 3 cards."""
    game = Game(GameOptions(players=2), seed=11)
    for viewer in (1, None):
        dealt = of_type(events_for(game.setup_events, viewer), CardsDealt)
        assert dealt[0] == CardsDealt(0, (), 3)
    own = of_type(events_for(game.setup_events, 0), CardsDealt)[0]
    assert own == CardsDealt(0, dealt_hands(game)[0], 3)


def test_s11_solo_player_sees_both_hands_and_both_seats_goals() -> None:
    """RULES.md §11 / §10: in solo one person holds both seats, so sees both hands and both
    seats' goals and may act for either; a spectator still sees neither."""
    game = Game(GameOptions(players=1), seed=11)
    assert view(game, 0)["seats"][1]["hand"] == list(dealt_hands(game)[1])
    assert (
        of_type(events_for(game.setup_events, 0, solo=True), CardsDealt)[1].cards
        == (dealt_hands(game)[1])
    )
    assert of_type(events_for(game.setup_events, None, solo=True), CardsDealt)[1].cards == ()

    solo = pos(HIGH, EMPTY, goals=[MET, UNMET], options=GameOptions(players=1), seat=1)
    mine = view(solo, 0)
    assert [g["card"] for g in mine["seats"][0]["goals"]] == MET
    assert [g["card"] for g in mine["seats"][1]["goals"]] == UNMET
    assert mine["legal_actions"] == [a.to_json() for a in solo.legal_actions(1)] != []
    assert all("goals" not in entry for entry in view(solo, None)["seats"])


# --- public information -------------------------------------------------------------------


def test_s11_public_state_is_the_same_for_every_viewer() -> None:
    """RULES.md §11: altars, hoards, slots, revealed cards, round, start player, points so
    far, the bag's contents by design and who must act are public and identical for all."""
    game = pos(
        "0,0 rr rrrr/_ _ | horse 0,0 1,0 | hoard B",
        EMPTY,
        slots=["rb", "", "C"],
        bag={"red": 2, "horse": 1},
        goals=[UNMET[:1], MET],  # seat 0 keeps two goals: one face down, one revealed
        revealed=[["courtyard"], []],
        round=4,
        start_player=1,
        first_player=0,
        seat=0,
    )
    public = ("altars", "slots", "bag", "bag_total", "round", "start_player", "first_player")
    seen = [view(game, viewer) for viewer in VIEWERS]
    for data in seen:
        assert {k: data[k] for k in public} == {k: seen[0][k] for k in public}
        assert data["bag"] == {name: game.bag[d] for d, name in enumerate(DESIGN_NAMES)}
        assert data["slots"] == [["red", "blue"], [], ["cat"]]
        assert (data["round"], data["start_player"]) == (4, 1)
        assert data["decision"]["seats"] == [0] and data["decision"]["kind"] == "turn"
        assert data["altars"][0]["hoard"] == ["bird"]
        entry = data["seats"][0]
        assert entry["revealed"] == ["courtyard"]
        assert entry["score"]["total"] == score_sheet(game, 0).total == 6 + 2 + 8 + 2


def test_s11_every_drawn_or_chosen_pedestal_is_public() -> None:
    """RULES.md §11: a pedestal is public once drawn or chosen from the bag — the draw
    events reach every viewer unchanged, and the open pool is in every view."""
    game = pos(EMPTY, EMPTY, slots=["", "", ""], bag={"red": 1, "blue": 1})
    events = play(game, DrawFromBag(0))
    drawn = of_type(events, PedestalsDrawn)
    assert sorted(drawn[0].designs) == [RED, BLUE]
    for viewer in VIEWERS:
        assert events_for(events, viewer) == events
        assert view(game, viewer)["pool"] == ["red", "blue"]


def test_s11_reward_design_is_public() -> None:
    """RULES.md §11: a reward chosen from the bag is shown to every viewer."""
    game = pos(HIGH, EMPTY, bag={"blue": 1}, goals=[MET, UNMET])
    play(game, Reveal(0, "high-place"))
    events = play(game, ChooseDesign(0, BLUE))
    for viewer in VIEWERS:
        assert of_type(events_for(events, viewer), DesignChosen) == [
            DesignChosen(0, BLUE, "reward")
        ]
        assert view(game, viewer)["pool"] == ["blue"]


def test_s11_unrevealed_goals_are_shown_to_everyone_when_the_game_ends() -> None:
    """RULES.md §11: face-down goals stay hidden until the game ends, then every viewer
    sees them (and the final event lists them)."""
    game = pos(EMPTY, EMPTY, goals=[UNMET, OTHER_UNMET], phase="final", round=10)
    play(game, Pass(0))
    assert "goals" not in view(game, 0)["seats"][1]
    events = play(game, Pass(1))
    assert game.is_over
    ended = of_type(events_for(events, None), GameEnded)
    assert ended[0].hidden_goals == (tuple(UNMET), tuple(OTHER_UNMET))
    for viewer in VIEWERS:
        seats = view(game, viewer)["seats"]
        assert [[g["card"] for g in entry["goals"]] for entry in seats] == [UNMET, OTHER_UNMET]
