"""Whether a restored game's state could exist (`Game.restore` checks it).

A game built from state (a position for a test or a puzzle, a determinization from a
view) skips the moves that would have made that state, so nothing else guarantees it
fits the rules. Each problem is a ValueError that names the field at fault.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .options import ROUNDS
from .pieces import DESIGN_NAMES, full_bag
from .steps import FillSlots, StartingChoice

if TYPE_CHECKING:
    from .engine import Game

PHASES = ("setup", "play", "final", "last_reveals", "over")


def check_game(game: Game, complete_bag: bool = True) -> None:
    """ValueError naming the field unless `game`'s state is possible.

    With `complete_bag`, the bag and the pedestals in play (altars, hoards, slots, pool)
    make up the box exactly; without it the bag may be short (never over).
    """
    n = game.n
    if n != game.options.seats:
        raise ValueError(f"seats: {game.options.players} player(s) use {game.options.seats} seats")
    for name in ("altars", "hands", "start_cards", "goals", "revealed"):
        if len(getattr(game, name)) != n:
            raise ValueError(
                f"{name}: one entry per seat is needed ({n}), not {len(getattr(game, name))}"
            )
    for name in ("start_player", "first_player", "current", "turns_in_round"):
        value = getattr(game, name)
        if not 0 <= value < n:
            raise ValueError(f"{name}: {value} is not a seat of this {n}-seat game (0-{n - 1})")
    _check_phase(game)
    if game.extra_turns < 0:
        raise ValueError(f"extra_turns: {game.extra_turns} is negative")
    if len(game.slots) != game.options.slots:
        raise ValueError(
            f"slots: {game.options.slots} slots are in use with {n} seats, not {len(game.slots)}"
        )
    _check_pieces(game, complete_bag)
    _check_cards(game)
    for step in game._stack:
        if not isinstance(step, (StartingChoice, FillSlots)) and not 0 <= step.seat < n:
            raise ValueError(f"steps: {step!r} names no seat of this game")


def _check_phase(game: Game) -> None:
    phase, round_ = game.phase, game.round
    if phase not in PHASES:
        raise ValueError(f"phase: {phase!r} is not one of {', '.join(PHASES)}")
    if phase == "setup":
        if round_ != 0:
            raise ValueError(f"round: {round_} during setup (it is 0 until round 1 begins)")
    elif phase == "play":
        if not 1 <= round_ <= ROUNDS:
            raise ValueError(f"round: {round_} is not a round of the game (1-{ROUNDS})")
    elif round_ != ROUNDS:
        raise ValueError(f"round: the {phase} phase comes after round {ROUNDS}, not round {round_}")
    if phase != "over" and not game._stack:
        raise ValueError("steps: a game that is not over waits on a step")


def _check_pieces(game: Game, complete_bag: bool) -> None:
    box = full_bag()
    if len(game.bag) != len(box) or any(count < 0 for count in game.bag):
        raise ValueError(f"bag: {len(box)} counts of zero or more are needed, not {game.bag}")
    if game.bag_total != sum(game.bag):
        raise ValueError(f"bag: its total {game.bag_total} is not the sum of its counts")
    in_play = [0] * len(box)
    pieces = [d for altar in game.altars for d in altar.pedestals()]
    pieces += [d for slot in game.slots for d in slot] + list(game.pool)
    for d in pieces:
        if not 0 <= d < len(box):
            raise ValueError(f"pieces: {d} is not a pedestal design")
        in_play[d] += 1
    over = [DESIGN_NAMES[d] for d in range(len(box)) if in_play[d] + game.bag[d] > box[d]]
    if over:
        raise ValueError(
            f"bag: with the pieces in play, more pedestals than exist of: {', '.join(over)}"
        )
    if complete_bag:
        short = [DESIGN_NAMES[d] for d in range(len(box)) if in_play[d] + game.bag[d] < box[d]]
        if short:
            raise ValueError(
                "bag: with the pieces in play it does not make up the box "
                f"(missing {', '.join(short)}); give a complete bag or allow a short one "
                "(Position(short_bag=True), Game.restore(complete_bag=False))"
            )


def _check_cards(game: Game) -> None:
    """Cards in play, each held by one seat only; a seat keeps at most 2 as goals (§4)."""
    owner: dict[str, int] = {}
    for seat in range(game.n):
        start = game.start_cards[seat]
        own = [*game.goals[seat], *game.revealed[seat]]
        if len(own) > 2:
            raise ValueError(
                f"goals: seat {seat} holds {len(own)} goals (face down and revealed), at most 2"
            )
        own += [start] if start is not None else []
        if len(set(own)) != len(own):
            raise ValueError(f"goals: seat {seat} holds a card twice")
        hand = list(game.hands[seat])
        if game.phase == "setup" and len(hand) != 3:
            raise ValueError(f"hands: seat {seat} is dealt 3 cards during setup, not {len(hand)}")
        fields = [
            *(("goals", c) for c in game.goals[seat]),
            *(("revealed", c) for c in game.revealed[seat]),
            *([("start_cards", start)] if start is not None else []),
            *(("hands", c) for c in hand if c not in own),
        ]
        for field, card in fields:
            if card not in game.cards:
                raise ValueError(f"{field}: {card!r} (seat {seat}) is not in play in this game")
            holder = owner.setdefault(card, seat)
            if holder != seat:
                raise ValueError(f"cards: {card!r} is held by seats {holder} and {seat}")
