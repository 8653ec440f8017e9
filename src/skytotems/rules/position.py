"""Start a game (or a test) from given altars, slots and bag contents.

>>> from skytotems import Position, game_from_position
>>> game = game_from_position(Position(altars=["0,0 rr rr/_ _", "0,0 _ _/_ _"],
...                                    slots=["bb", "", "C"]))
>>> game.decision.kind, game.decision.seats
('turn', (0,))

Altars are in the altar notation (docs/notation.md). Unless `bag` is given, the bag
holds every pedestal not on an altar, in a hoard, in a slot or in the pool, so the 118
pedestals stay accounted for; a given bag must make them up too, unless `short_bag`.
The game starts at the top of `seat`'s turn, or at another of its decisions
(`decision`: an open pool, a cat owed, the end-of-turn prompt, the last reveals).
Every field is checked (`Game.restore`): a ValueError names the one at fault.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from .cards import Deck
from .engine import Game
from .notation import parse_altar
from .options import GameOptions
from .pieces import DESIGN_BY_LETTER, DESIGN_NAMES, design_from_name, full_bag
from .rng import Rng
from .steps import (
    AfterAction,
    CatCheck,
    EndOfTurnPrompt,
    LastReveals,
    OpenPool,
    Step,
    TopOfTurn,
)
from .totems import cat_cells

# The decisions a position may start at, and the phases each belongs to.
DECISIONS = {
    "turn": ("play", "final"),
    "place_pedestal": ("play", "final", "last_reveals"),
    "choose_cat": ("play", "final", "last_reveals"),
    "end_turn": ("play", "final"),
    "last_reveal": ("last_reveals",),
}


@dataclass(frozen=True)
class Position:
    """A mid-game position: everything `game_from_position` needs."""

    altars: Sequence[str]
    options: GameOptions = field(default_factory=GameOptions)
    seat: int = 0
    round: int = 1
    start_player: int = 0
    first_player: int | None = None
    phase: str = "play"  # or "final" (the final-totem phase) or "last_reveals"
    decision: str = "turn"  # the decision `seat` faces: one of DECISIONS
    slots: Sequence[str] = ()  # design letters per slot, e.g. ["rb", "", "C"]
    pool: str = ""  # design letters of an open pool (decision "place_pedestal")
    bag: Mapping[str, int] | None = None  # counts by design name
    short_bag: bool = False  # let an explicit bag hold fewer than the box leaves (tests)
    goals: Sequence[Sequence[str]] = ()  # face-down goals per seat
    revealed: Sequence[Sequence[str]] = ()
    start_cards: Sequence[str | None] = ()
    extra_turns: int = 0
    seed: int = 0
    deck: Deck | None = None


def game_from_position(position: Position) -> Game:
    """A game waiting on `position.decision` of `position.seat`; ValueError naming the
    field if the position is impossible."""
    options = position.options
    n = options.seats
    if len(position.altars) != n:
        raise ValueError(
            f"altars: {n} are needed for {options.players} player(s), not {len(position.altars)}"
        )
    for name in ("seat", "start_player", "first_player"):
        value = getattr(position, name)
        if value is not None and not 0 <= value < n:
            raise ValueError(f"{name}: {value} is not a seat of this {n}-seat game (0-{n - 1})")
    allowed = DECISIONS.get(position.decision)
    if allowed is None:
        raise ValueError(f"decision: {position.decision!r} is not one of {', '.join(DECISIONS)}")
    if position.phase not in allowed:
        fitting = [d for d, phases in DECISIONS.items() if position.phase in phases]
        raise ValueError(
            f"phase: a {position.decision} decision comes in the {' or '.join(allowed)} "
            f"phase, not {position.phase!r} (the {position.phase!r} phase takes a decision "
            f"of {', '.join(map(repr, fitting))})"
        )
    if position.decision == "place_pedestal" and not position.pool:
        raise ValueError("pool: a place_pedestal decision needs an open pool")
    if position.decision != "place_pedestal" and position.pool:
        raise ValueError(f"pool: no pool is open at a {position.decision} decision")
    for name in ("goals", "revealed", "start_cards"):
        given = getattr(position, name)
        if given and len(given) != n:
            raise ValueError(f"{name}: one entry per seat is needed ({n}), not {len(given)}")
    altars = [parse_altar(text) for text in position.altars]
    slots = [_designs(letters, "slots") for letters in position.slots or [""] * options.slots]
    pool = _designs(position.pool, "pool")
    if position.bag is None:
        bag = full_bag()
        for d in [
            *(d for a in altars for d in a.pedestals()),
            *(d for s in slots for d in s),
            *pool,
        ]:
            bag[d] -= 1
        over = [DESIGN_NAMES[d] for d, count in enumerate(bag) if count < 0]
        if over:
            raise ValueError(f"altars: more pedestals than exist of: {', '.join(over)}")
    else:
        bag = [0] * 10
        for name, count in position.bag.items():
            try:
                bag[design_from_name(name)] = count
            except ValueError as exc:
                raise ValueError(f"bag: {exc}") from None
    goals = [list(g) for g in position.goals] or [[] for _ in range(n)]
    seat, start_player = position.seat, position.start_player
    index = (seat - start_player) % n
    game = Game.restore(
        options=options,
        deck=position.deck,
        kinds=options.resolve_kinds(Rng(position.seed)),
        altars=altars,
        bag=bag,
        complete_bag=not position.short_bag,
        slots=slots,
        pool=pool,
        steps=_steps(position, index),
        phase=position.phase,
        round=position.round,
        start_player=start_player,
        first_player=start_player if position.first_player is None else position.first_player,
        current=seat,
        turns_in_round=0 if position.phase == "last_reveals" else index,
        extra_turns=position.extra_turns,
        hands=goals,
        start_cards=list(position.start_cards) or [None] * n,
        goals=goals,
        revealed=[list(r) for r in position.revealed] or [[] for _ in range(n)],
        seed=position.seed,
        rng=Rng(position.seed ^ 0x5EED),
    )
    _check_pending(game, position)
    return game


def _designs(letters: str, name: str) -> list[int]:
    try:
        return [DESIGN_BY_LETTER[letter] for letter in letters]
    except KeyError as exc:
        raise ValueError(f"{name}: unknown design letter {exc.args[0]!r}") from None


def _steps(position: Position, index: int) -> list[Step]:
    """The engine's steps at `position.decision` (RULES.md §12)."""
    seat = position.seat
    mode = "final" if position.phase == "final" else "normal"
    if position.decision == "turn":
        return [TopOfTurn(seat, mode)]
    if position.decision == "end_turn":
        return [EndOfTurnPrompt(seat, mode)]
    # The last reveals, or a turn whose action is under way (then the cats, §12 step 3).
    base: Step = (
        LastReveals(seat, index) if position.phase == "last_reveals" else AfterAction(seat, mode)
    )
    if position.decision == "last_reveal":
        return [base]
    if position.decision == "choose_cat":
        return [base, CatCheck(seat)]
    return [base, CatCheck(seat), OpenPool(seat)]


def _check_pending(game: Game, position: Position) -> None:
    """The asked decision must really be pending (the engine would skip it otherwise)."""
    seat = position.seat
    if position.decision == "choose_cat" and not (
        game.cat_in_play and cat_cells(game.altars[seat])
    ):
        raise ValueError(
            f"decision: no cat is owed to seat {seat} (the cat in play and an uncovered "
            "column of height 6 or more are needed)"
        )
    asked_anyway = game.options.confirm_turns  # every turn ends with the prompt (§11)
    if (
        position.decision in ("end_turn", "last_reveal")
        and not asked_anyway
        and not game.revealable(seat)
    ):
        raise ValueError(
            f"decision: seat {seat} has no revealable goal, so no {position.decision} is asked"
        )
