"""skytotems: the open digital version of the board game Sky Totems.

The public API of the rules engine (see README.md and docs/api.md):

>>> from skytotems import Game, GameOptions
>>> game = Game(GameOptions(players=2, totems="beginner"), seed=42)
>>> game.decision.kind
'choose_start'
>>> len(game.legal_actions(0))
3
"""

# First: importing it decides whether the compiled modules or their sources run.
from . import native  # noqa: F401
from .rules.actions import (
    ACTION_TYPES,
    Action,
    BuildTotem,
    ChooseCat,
    ChooseDesign,
    ChooseStart,
    DrawFromBag,
    EndTurn,
    Pass,
    PlaceCloud,
    PlacePedestal,
    ReturnPedestal,
    Reveal,
    TakeSlot,
    WolfStop,
    WolfTake,
    action_from_json,
)
from .rules.altar import Altar, PlacedTotem
from .rules.audit import dealt_hands, generator_secrets
from .rules.cards import Card, Deck, default_deck, load_deck
from .rules.decisions import Decision
from .rules.determinize import Hidden, game_from_view, sample_hidden, unseen_cards
from .rules.engine import Game
from .rules.errors import (
    DeckError,
    GameOver,
    IllegalAction,
    MalformedAction,
    NotationError,
    NotYourDecision,
    OptionsError,
    RecordError,
    SkyTotemsError,
    WrongDecision,
)
from .rules.events import Event
from .rules.grid import cell, xy
from .rules.missions import Mission
from .rules.notation import format_altar, parse_altar
from .rules.options import GameOptions
from .rules.position import Position, game_from_position
from .rules.record import dumps_record, engine_version, make_record, replay
from .rules.scoring import ScoreSheet, final_places, score_sheet, solo_band
from .rules.view import events_for, view

__version__ = engine_version()

__all__ = [
    "ACTION_TYPES",
    "Action",
    "Altar",
    "BuildTotem",
    "Card",
    "ChooseCat",
    "ChooseDesign",
    "ChooseStart",
    "Decision",
    "Deck",
    "DeckError",
    "DrawFromBag",
    "EndTurn",
    "Event",
    "Game",
    "GameOptions",
    "GameOver",
    "Hidden",
    "IllegalAction",
    "MalformedAction",
    "Mission",
    "NotYourDecision",
    "NotationError",
    "OptionsError",
    "Pass",
    "PlaceCloud",
    "PlacePedestal",
    "PlacedTotem",
    "Position",
    "RecordError",
    "ReturnPedestal",
    "Reveal",
    "ScoreSheet",
    "SkyTotemsError",
    "TakeSlot",
    "WolfStop",
    "WolfTake",
    "WrongDecision",
    "action_from_json",
    "cell",
    "dealt_hands",
    "default_deck",
    "dumps_record",
    "events_for",
    "final_places",
    "format_altar",
    "game_from_position",
    "game_from_view",
    "generator_secrets",
    "load_deck",
    "make_record",
    "parse_altar",
    "replay",
    "sample_hidden",
    "score_sheet",
    "solo_band",
    "unseen_cards",
    "view",
    "xy",
]
