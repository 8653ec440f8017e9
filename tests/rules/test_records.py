"""Game records (DESIGN.md §1): exact replays, precise errors, and the embedded deck."""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from skytotems import (
    Game,
    GameOptions,
    RecordError,
    cell,
    dealt_hands,
    dumps_record,
    final_places,
    format_altar,
    make_record,
    replay,
    score_sheet,
    view,
)
from skytotems.rules.pieces import DESIGN_NAMES, HORSE
from skytotems.rules.rng import Rng
from skytotems.transcript import pick_action, play_out

Record = dict[str, Any]


def finished_game(options: GameOptions, seed: int, chooser_seed: int = 1) -> Game:
    return play_out(Game(options, seed), chooser_seed)


def first_game(predicate: Callable[[Game], bool], options: GameOptions) -> Game:
    """The first seeded game (seeds 0, 1, 2...) that satisfies `predicate`."""
    for seed in range(200):
        game = finished_game(options, seed, seed)
        if predicate(game):
            return game
    raise AssertionError("no seed in 0..199 gives such a game")  # pragma: no cover


def failing_index(exc: RecordError) -> int:
    """The action index a RecordError names ("action <i> (...) fails: ...")."""
    match = re.match(r"action (\d+) \(", str(exc))
    assert match, f"the error does not name an action: {exc}"
    return int(match.group(1))


def game_before(record: Record, index: int) -> Game:
    """The recorded game replayed up to (not including) action `index` (an unfinished
    game, so without the record's result)."""
    partial = {key: value for key, value in record.items() if key != "result"}
    return replay({**partial, "actions": record["actions"][:index]})


@pytest.fixture(scope="module")
def three_player_record() -> Record:
    return make_record(finished_game(GameOptions(players=3), seed=5, chooser_seed=6))


# ------------------------------------------------------------------------ exact replays


@pytest.mark.parametrize(
    "options",
    [
        GameOptions(players=1),
        GameOptions(players=2, tie_break="rulebook"),
        GameOptions(players=3, totems="cat-plus-three"),
        GameOptions(players=4, totems="dragon"),
        GameOptions(players=4, totems="random-four"),
        GameOptions(players=2, totems="bird,wolf,horse,dragon"),
    ],
    ids=lambda o: f"{o.players}p-{o.totems}-{o.tie_break}",
)
def test_a_record_replays_exactly(options: GameOptions) -> None:
    """Scores, places, history, altars and every view come back, through JSON text too."""
    game = finished_game(options, seed=17, chooser_seed=3)
    text = dumps_record(game)
    record = json.loads(text)
    assert record["result"] == {
        "totals": [score_sheet(game, s).total for s in range(game.n)],
        "places": final_places(game),
    }
    for again in (replay(record), replay(text)):
        assert again.is_over
        assert again.history == game.history
        assert again.altars == game.altars
        assert [score_sheet(again, s) for s in range(again.n)] == [
            score_sheet(game, s) for s in range(game.n)
        ]
        assert final_places(again) == final_places(game)
        assert all(view(again, s) == view(game, s) for s in [*range(game.n), None])
        assert make_record(again) == record


def test_an_unfinished_record_replays_and_plays_on_identically() -> None:
    """A record taken mid-game has no result; the replay continues exactly like the game."""
    game = Game(GameOptions(players=4), seed=8)
    rng = Rng(2)
    for _ in range(150):
        game.apply(pick_action(game, rng))
    record = make_record(game)
    assert "result" not in record
    again = replay(record)
    assert again.decision == game.decision
    assert view(again, None) == view(game, None)
    assert make_record(play_out(again, 9)) == make_record(play_out(game, 9))


def test_the_record_holds_the_seed_and_every_action(three_player_record: Record) -> None:
    """What a replay needs is in the record (and the seed makes it private until the end)."""
    record = three_player_record
    assert record["format"] == "skytotems-record" and record["version"] == 1
    assert record["seed"] == 5
    assert record["options"] == GameOptions(players=3).to_json()
    assert len(record["actions"]) == len(replay(record).history)
    assert all(isinstance(a, dict) and "type" in a and "seat" in a for a in record["actions"])


# -------------------------------------------------------------------- altered actions


def test_a_take_slot_changed_to_an_unusable_slot_fails_at_its_index(
    three_player_record: Record,
) -> None:
    """Changing a take_slot to a slot that is empty (or absent) then is caught right there."""
    record = copy.deepcopy(three_player_record)
    index = next(i for i, a in enumerate(record["actions"]) if a["type"] == "take_slot")
    before = game_before(record, index)
    empty = [i for i, s in enumerate(before.slots) if not s]
    bad_slot = empty[0] if empty else len(before.slots)
    record["actions"][index]["slot"] = bad_slot
    with pytest.raises(RecordError) as caught:
        replay(record)
    assert failing_index(caught.value) == index
    message = str(caught.value)
    assert f"slot {bad_slot} is empty" in message or f"no slot {bad_slot}" in message


def test_a_place_pedestal_moved_off_the_clouds_fails_at_its_index(
    three_player_record: Record,
) -> None:
    record = copy.deepcopy(three_player_record)
    index = next(i for i, a in enumerate(record["actions"]) if a["type"] == "place_pedestal")
    record["actions"][index]["cell"] = [30, 30]
    with pytest.raises(RecordError) as caught:
        replay(record)
    assert failing_index(caught.value) == index
    assert "30,30" in str(caught.value) and "no cloud" in str(caught.value)


def test_an_action_by_the_wrong_seat_fails_at_its_index(three_player_record: Record) -> None:
    record = copy.deepcopy(three_player_record)
    index = next(i for i, a in enumerate(record["actions"]) if a["type"] == "place_cloud")
    seat = record["actions"][index]["seat"]
    record["actions"][index]["seat"] = (seat + 1) % 3
    with pytest.raises(RecordError) as caught:
        replay(record)
    assert failing_index(caught.value) == index
    assert f"seat {(seat + 1) % 3} cannot act now" in str(caught.value)


def test_a_legal_change_fails_at_the_first_action_it_breaks(
    three_player_record: Record,
) -> None:
    """Taking another (non-empty) slot is legal, but the recorded placements that follow
    no longer match the pool: the error names that later action, not the changed one."""
    record = copy.deepcopy(three_player_record)
    for index, action in enumerate(record["actions"]):
        if action["type"] != "take_slot":
            continue
        slots = game_before(record, index).slots
        taken = sorted(slots[action["slot"]])
        others = [i for i, s in enumerate(slots) if s and not set(s) & set(taken)]
        if others:
            break
    else:  # pragma: no cover - the seeded game has such a moment
        pytest.fail("no take_slot with a disjoint alternative")
    record["actions"][index]["slot"] = others[0]
    with pytest.raises(RecordError) as caught:
        replay(record)
    assert failing_index(caught.value) > index
    assert "pedestal in the pool" in str(caught.value)


# ---------------------------------------------------------------------- malformed ones


def _set(key: str, value: object) -> Callable[[Record], object]:
    def change(record: Record) -> object:
        record[key] = value
        return record

    return change


def _drop(key: str) -> Callable[[Record], object]:
    def change(record: Record) -> object:
        del record[key]
        return record

    return change


def _first_action(value: object) -> Callable[[Record], object]:
    def change(record: Record) -> object:
        record["actions"][0] = value
        return record

    return change


def _wrong_totals(record: Record) -> object:
    record["result"]["totals"] = [t + 1 for t in record["result"]["totals"]]
    return record


def _tiny_deck(record: Record) -> object:
    record["deck"]["cards"] = record["deck"]["cards"][:2]
    return record


MALFORMED: list[tuple[str, Callable[[Record], object], str]] = [
    ("bad JSON", lambda r: json.dumps(r)[:-7], "not valid JSON"),
    ("a list", lambda r: [r], "must be a JSON object"),
    ("a number", lambda r: 42, "must be a JSON object"),
    ("wrong format", _set("format", "chess-pgn"), "not a skytotems record"),
    ("no format", _drop("format"), "not a skytotems record"),
    ("future version", _set("version", 2), "unsupported record version 2"),
    ("no options", _drop("options"), "lacks 'options'"),
    ("no deck", _drop("deck"), "lacks 'deck'"),
    ("no seed", _drop("seed"), "lacks 'seed'"),
    ("no actions", _drop("actions"), "lacks 'actions'"),
    ("text seed", _set("seed", "5"), "seed must be an integer"),
    ("boolean seed", _set("seed", True), "seed must be an integer"),
    ("actions not a list", _set("actions", {"0": {}}), "actions must be a list"),
    ("bad player count", _set("options", {"players": 9}), "players must be 1 (solo) to 4"),
    ("unknown option", _set("options", {"players": 3, "colour": "red"}), "unknown option"),
    ("bad deck", _set("deck", {"format": "cards"}), "cannot start the recorded game"),
    ("too small a deck", _tiny_deck, "cards in play"),
    ("action not an object", _first_action("choose_start"), "action 0 "),
    ("unknown action", _first_action({"type": "cheat", "seat": 0}), "unknown action type"),
    (
        "action field missing",
        _first_action({"type": "choose_start", "seat": 0}),
        "missing field 'card'",
    ),
    ("scores disagree", _wrong_totals, "the replay scores"),
]


@pytest.mark.parametrize(
    ("change", "expected"),
    [(change, expected) for _, change, expected in MALFORMED],
    ids=[name for name, _, _ in MALFORMED],
)
def test_malformed_records_give_clear_errors(
    three_player_record: Record, change: Callable[[Record], object], expected: str
) -> None:
    """Each defect is reported as a RecordError whose message says what is wrong."""
    broken = change(copy.deepcopy(three_player_record))
    with pytest.raises(RecordError) as caught:
        replay(broken)
    assert expected in str(caught.value)


def test_record_errors_do_not_chain_internal_exceptions(three_player_record: Record) -> None:
    """The message is the whole story: no KeyError or JSONDecodeError leaks as the cause."""
    with pytest.raises(RecordError) as caught:
        replay(json.dumps(three_player_record)[:-3])
    assert caught.value.__cause__ is None


# ---------------------------------------------------------------------- embedded deck


def test_the_record_embeds_the_deck_it_was_played_with(three_player_record: Record) -> None:
    game = replay(three_player_record)
    assert three_player_record["deck"] == game.deck.to_json()
    assert len(three_player_record["deck"]["cards"]) == 24


def test_changing_a_start_layout_in_the_record_changes_the_replay() -> None:
    """The replay builds starting altars from the record's deck, not the built-in one."""
    game = finished_game(GameOptions(players=2), seed=3)
    record = make_record(game)
    seat = 0
    start = game.start_cards[seat]
    chosen = [i for i, a in enumerate(record["actions"]) if a["type"] == "choose_start"]
    prefix = {**record, "actions": record["actions"][: max(chosen) + 1]}
    prefix.pop("result")
    original = replay(prefix).altars[seat]
    for card in prefix["deck"]["cards"]:
        if card["id"] == start:
            card["start"] = {
                "columns": [{"cell": [1, 1], "stack": ["horse", "horse"]}],
                "cloud": False,
            }
    changed = replay(prefix).altars[seat]
    assert changed.stacks == {cell(1, 1): (HORSE, HORSE)}
    assert changed != original


def test_changing_card_points_in_the_record_changes_the_score() -> None:
    """A revealed card scores what the record's deck says; with the stored result kept, the
    replay notices that the scores no longer match."""
    game = first_game(lambda g: any(g.revealed), GameOptions(players=3))
    seat = next(s for s in range(game.n) if game.revealed[s])
    card_id = game.revealed[seat][0]
    record = make_record(game)
    for card in record["deck"]["cards"]:
        if card["id"] == card_id:
            card["points"] += 10
    with pytest.raises(RecordError, match="the replay scores"):
        replay(record)
    del record["result"]
    again = replay(record)
    for s in range(game.n):
        delta = 10 * game.revealed[s].count(card_id)
        assert score_sheet(again, s).total == score_sheet(game, s).total + delta


def test_reordering_the_record_deck_changes_the_deal() -> None:
    """The shuffle starts from the record's card order, so another order deals other hands
    and the recorded starting choices no longer fit."""
    game = finished_game(GameOptions(players=3), seed=4)
    record = make_record(game)
    record["deck"]["cards"].reverse()
    unplayed = {key: value for key, value in record.items() if key != "result"}
    deck_first = replay({**unplayed, "actions": []})
    assert dealt_hands(deck_first) != dealt_hands(game)
    misfits = [
        i
        for i, a in enumerate(record["actions"][: game.n])
        if a["card"] not in dealt_hands(deck_first)[a["seat"]]
    ]
    assert misfits, "the reordered deal should not hold every recorded starting choice"
    with pytest.raises(RecordError) as caught:
        replay(record)
    assert failing_index(caught.value) == misfits[0]
    assert "is not one of your three cards" in str(caught.value)


# ------------------------------------------------------------- gaps in the checks (xfail)


def test_a_finished_record_missing_its_last_action_is_refused(
    three_player_record: Record,
) -> None:
    record = copy.deepcopy(three_player_record)
    record["actions"].pop()
    with pytest.raises(RecordError):
        replay(record)


def test_a_result_that_is_not_an_object_is_refused(three_player_record: Record) -> None:
    record = copy.deepcopy(three_player_record)
    record["result"] = "white wins"
    with pytest.raises(RecordError):
        replay(record)


def test_s12_a_record_stored_before_the_setup_order_change_still_replays() -> None:
    """RULES.md §12 setup order (rules note 12.9): building each starting altar in turn,
    its cloud included, changed only the order of events, not the actions nor the random
    draws, so a record written by the engine before that change (three seats, each with
    a cloud card) replays to the same position."""
    path = Path(__file__).parent / "data" / "record-before-setup-order.json"
    game = replay(json.loads(path.read_text(encoding="utf-8")))
    assert [format_altar(a) for a in game.altars] == [
        "0,0 r g . ./y CC b p",
        "-2,-1 W C rr ./. . r o/. . b g",
        "-1,-1 . _ ./b o p/_ p b/. . y",
    ]
    assert [sorted(DESIGN_NAMES[d] for d in slot) for slot in game.slots] == [
        ["orange", "yellow"],
        [],
        ["green", "orange", "orange"],
        ["orange", "red"],
    ]
    assert game.bag == [10, 9, 12, 12, 11, 12, 4, 5, 7, 7]
    assert len(game.history) == 43
