"""Game records: options + the deck used + seed + actions, replayed exactly (DESIGN.md §1).

    {"format": "skytotems-record", "version": 1, "engine": "<package version>",
     "options": {...}, "deck": {...deck file...}, "seed": 123,
     "actions": [{"type": ..., "seat": ..., ...}, ...],
     "result": {"totals": [...], "places": [...]}}      # only when the game is over

A record holds the seed, so a server must not publish it before the game ends.
See docs/record-format.md.
"""

from __future__ import annotations

import json
from typing import Any

from .actions import Action, action_from_json
from .cards import Deck
from .engine import Game
from .errors import DeckError, IllegalAction, MalformedAction, OptionsError, RecordError
from .options import GameOptions
from .scoring import final_places, score_sheet

RECORD_FORMAT = "skytotems-record"
RECORD_VERSION = 1


def engine_version() -> str:
    """The installed package version (one source: pyproject.toml)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("skytotems")
    except PackageNotFoundError:  # pragma: no cover - running from a source tree
        return "unknown"


def make_record(game: Game) -> dict[str, Any]:
    """The record of `game` so far (its seed included: keep it private until the end)."""
    record: dict[str, Any] = {
        "format": RECORD_FORMAT,
        "version": RECORD_VERSION,
        "engine": engine_version(),
        "options": game.options.to_json(),
        "deck": game.deck.to_json(),
        "seed": game.seed,
        "actions": [a.to_json() for a in game.history],
    }
    if game.is_over:
        record["result"] = {
            "totals": [score_sheet(game, s).total for s in range(game.n)],
            "places": final_places(game),
        }
    return record


def dumps_record(game: Game) -> str:
    """The record as compact JSON text."""
    return json.dumps(make_record(game), separators=(",", ":"))


def replay(record: object) -> Game:
    """Rebuild the game of a record; RecordError names the first action that fails."""
    if isinstance(record, str):
        try:
            record = json.loads(record)
        except json.JSONDecodeError as exc:
            raise RecordError(f"the record is not valid JSON: {exc}") from None
        except RecursionError:
            raise RecordError("the record is not valid JSON: nested too deeply") from None
    if not isinstance(record, dict):
        raise RecordError("a record must be a JSON object")
    if record.get("format") != RECORD_FORMAT:
        raise RecordError(f"not a skytotems record (format {record.get('format')!r})")
    if record.get("version") != RECORD_VERSION:
        raise RecordError(f"unsupported record version {record.get('version')!r}")
    for key in ("options", "deck", "seed", "actions"):
        if key not in record:
            raise RecordError(f"the record lacks {key!r}")
    seed = record["seed"]
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise RecordError("seed must be an integer")
    actions = record["actions"]
    if not isinstance(actions, list):
        raise RecordError("actions must be a list")
    try:
        options = GameOptions.from_json(record["options"])
        deck = Deck.from_json(record["deck"])
        game = Game(options, seed, deck)
    except (OptionsError, DeckError) as exc:
        raise RecordError(f"cannot start the recorded game: {exc}") from None
    for index, data in enumerate(actions):
        try:
            action: Action = action_from_json(data)
            game.apply(action)
        except (MalformedAction, IllegalAction) as exc:
            raise RecordError(f"action {index} ({json.dumps(data)}) fails: {exc}") from None
    result = record.get("result")
    if result is not None:
        if not isinstance(result, dict):
            raise RecordError("result must be an object with the final totals")
        if not game.is_over:
            raise RecordError(
                f"the record has a result but its {len(actions)} actions do not finish the "
                "game: actions are missing"
            )
        totals = [score_sheet(game, s).total for s in range(game.n)]
        if result.get("totals") != totals:
            raise RecordError(f"the replay scores {totals}, the record says {result.get('totals')}")
    return game
