"""Start a game (or a test) from given altars, slots and bag contents.

>>> from skytotems import Position, game_from_position
>>> game = game_from_position(Position(altars=["0,0 rr rr/_ _", "0,0 _ _/_ _"],
...                                    slots=["bb", "", "C"]))
>>> game.decision.kind, game.decision.seats
('turn', (0,))

Altars are in the altar notation (docs/notation.md). Unless `bag` is given, the bag
holds every pedestal not on an altar, in a hoard or in a slot, so the 118 pedestals
stay accounted for. The game starts at the top of `seat`'s turn.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from .cards import Deck, default_deck
from .engine import Game
from .notation import parse_altar
from .options import GameOptions
from .pieces import DESIGN_BY_LETTER, DESIGN_NAMES, design_from_name, full_bag
from .rng import Rng


@dataclass(frozen=True)
class Position:
    """A mid-game position: everything `game_from_position` needs."""

    altars: Sequence[str]
    options: GameOptions = field(default_factory=GameOptions)
    seat: int = 0
    round: int = 1
    start_player: int = 0
    first_player: int | None = None
    phase: str = "play"  # or "final" (the final-totem phase)
    slots: Sequence[str] = ()  # design letters per slot, e.g. ["rb", "", "C"]
    bag: Mapping[str, int] | None = None  # counts by design name
    goals: Sequence[Sequence[str]] = ()  # face-down goals per seat
    revealed: Sequence[Sequence[str]] = ()
    start_cards: Sequence[str | None] = ()
    extra_turns: int = 0
    seed: int = 0
    deck: Deck | None = None


def game_from_position(position: Position) -> Game:
    """A game at the top of `position.seat`'s turn; ValueError if the position is impossible."""
    options = position.options
    n = options.seats
    if len(position.altars) != n:
        raise ValueError(f"{n} altars are needed for {options.players} player(s)")
    if position.phase not in ("play", "final"):
        raise ValueError("phase must be 'play' or 'final'")
    game = Game(options, position.seed, position.deck or default_deck())
    game._events = None
    game.rng = Rng(position.seed ^ 0x5EED)
    game.altars = [parse_altar(text) for text in position.altars]
    slots = list(position.slots) or [""] * options.slots
    if len(slots) != options.slots:
        raise ValueError(f"{options.slots} slots are in use with {n} seats")
    try:
        game.slots = [[DESIGN_BY_LETTER[letter] for letter in slot] for slot in slots]
    except KeyError as exc:
        raise ValueError(f"unknown design letter {exc.args[0]!r} in the slots") from None
    if position.bag is None:
        bag = full_bag()
        for altar in game.altars:
            for d in altar.pedestals():
                bag[d] -= 1
        for slot in game.slots:
            for d in slot:
                bag[d] -= 1
        short = [DESIGN_NAMES[d] for d, count in enumerate(bag) if count < 0]
        if short:
            raise ValueError(f"more pedestals than exist of: {', '.join(short)}")
    else:
        bag = [0] * 10
        for name, count in position.bag.items():
            bag[design_from_name(name)] = count
    game.bag = bag
    game.bag_total = sum(bag)
    known = set(game.cards)
    goals = [list(g) for g in position.goals] or [[] for _ in range(n)]
    revealed = [list(r) for r in position.revealed] or [[] for _ in range(n)]
    start_cards = list(position.start_cards) or [None] * n
    for group in (*goals, *revealed, [c for c in start_cards if c]):
        for card in group:
            if card not in known:
                raise ValueError(f"card {card!r} is not in play in this game")
    game.goals = goals
    game.revealed = revealed
    game.start_cards = start_cards
    game.hands = [tuple(g) for g in goals]
    used = {c for g in goals for c in g} | {c for r in revealed for c in r}
    used |= {c for c in start_cards if c}
    game.box = sorted(c for c in game.cards if c not in used)
    game.round = position.round
    game.start_player = position.start_player
    game.first_player = (
        position.first_player if position.first_player is not None else position.start_player
    )
    game.turns_in_round = (position.seat - position.start_player) % n
    game.phase = position.phase
    game.extra_turns = position.extra_turns
    game.pool = []
    game.current = position.seat
    mode = "final" if position.phase == "final" else "normal"
    game._stack = [("turn", position.seat, mode)]
    game._forget_caches()
    game.history = []
    return game
