"""Small helpers shared by the per-rule tests (tests/rules/test_rules_*.py).

They only wrap the public API (`Position`, `game_from_position`, `legal_actions`,
`apply`) so that a test reads like the rule it checks.
"""

from __future__ import annotations

import pickle
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, TypeVar

import pytest

from skytotems import (
    Action,
    Game,
    GameOptions,
    IllegalAction,
    Position,
    cell,
    format_altar,
    game_from_position,
)
from skytotems.rules.events import Event

A = TypeVar("A", bound=Action)
E = TypeVar("E", bound=Event)


def c(x: int, y: int) -> int:
    """The cell id of (x, y): x to the right, y downward (RULES.md §2)."""
    return cell(x, y)


def cells(*coords: tuple[int, int]) -> tuple[int, ...]:
    """Canonical (ascending) cell ids of several (x, y) pairs, as `BuildTotem` wants them."""
    return tuple(sorted(cell(x, y) for x, y in coords))


def pos(
    *altars: str,
    slots: Sequence[str] = (),
    bag: Mapping[str, int] | None = None,
    options: GameOptions | None = None,
    **kw: Any,
) -> Game:
    """A game at the top of a turn, from altars in notation (see `Position`).

    The player count follows the number of altars unless `options` says otherwise
    (solo: `GameOptions(players=1)` with two altars). A test that names the bag names
    only the pedestals it needs, so its bag may be short of the box (`short_bag`).
    """
    if options is None:
        options = GameOptions(players=len(altars))
    kw.setdefault("short_bag", bag is not None)
    return game_from_position(
        Position(altars=list(altars), slots=list(slots), bag=bag, options=options, **kw)
    )


def play(game: Game, *actions: Action) -> list[Event]:
    """Apply `actions` in order (each must be legal) and return all their events."""
    events: list[Event] = []
    for action in actions:
        events.extend(game.apply(action))
    return events


def legal(game: Game, kind: type[A], seat: int | None = None) -> list[A]:
    """The legal actions of type `kind` for `seat` (the pending seat when None)."""
    if seat is None:
        seat = game.decision.seats[0]
    return [a for a in game.legal_actions(seat) if isinstance(a, kind)]


def find(game: Game, kind: type[A], seat: int | None = None, **fields: Any) -> A:
    """The one legal action of type `kind` whose fields equal `fields` (fails otherwise)."""
    matches = [
        a
        for a in legal(game, kind, seat)
        if all(getattr(a, name) == value for name, value in fields.items())
    ]
    assert len(matches) == 1, (
        f"expected exactly one legal {kind.__name__} with {fields}, found {matches}; "
        f"legal now: {[str(a) for a in game.legal_actions(seat)]}"
    )
    return matches[0]


def of_type(events: Iterable[Event], kind: type[E]) -> list[E]:
    """The events of type `kind`, in order."""
    return [e for e in events if isinstance(e, kind)]


def altar(game: Game, seat: int = 0) -> str:
    """The notation of `seat`'s altar (what a person would read)."""
    return format_altar(game.altars[seat])


def snapshot(game: Game) -> bytes:
    """Everything about the game's state, to prove an illegal action changed nothing."""
    return pickle.dumps(game)


def assert_illegal(game: Game, action: Action, reason: str | None = None) -> IllegalAction:
    """`action` raises IllegalAction (with `reason` if given) and leaves the game unchanged."""
    assert not game.is_legal(action)
    before = snapshot(game)
    with pytest.raises(IllegalAction) as info:
        game.apply(action)
    if reason is not None:
        assert info.value.reason == reason, str(info.value)
    assert snapshot(game) == before, "an illegal action changed the game"
    return info.value


# --- added for the §5, §7, §8, §11, §12 tests --------------------------------------------


def actions(game: Game, seat: int | None = None) -> set[Action]:
    """The exact set of `seat`'s legal actions (the pending seat when None): tests compare
    whole sets, so an extra or a missing action fails."""
    if seat is None:
        seat = game.decision.seats[0]
    return set(game.legal_actions(seat))


def build(game: Game, totem: int, *coords: tuple[int, int], seat: int | None = None) -> Action:
    """The one legal `BuildTotem` of kind `totem` on `coords` (`find` cannot filter on the
    totem kind: `kind` is its own parameter)."""
    from skytotems import BuildTotem

    wanted = cells(*coords)
    matches = [a for a in legal(game, BuildTotem, seat) if a.kind == totem and a.cells == wanted]
    assert len(matches) == 1, (
        f"expected one legal build_totem of kind {totem} on {coords}; "
        f"legal now: {[str(a) for a in game.legal_actions(seat)]}"
    )
    return matches[0]
