"""Prove a puzzle: exhaustive search of the rest of the turn.

From any state within the puzzle's turn, every legal line is followed to the end of the
turn (play passes on, or the game ends) and scored by each question's objective (one
search answers several questions: they share the tree). States are shared through a
transposition table keyed on everything that can still change within the turn (the
seat's altar, the bag, the slots, the pool, the engine's pending steps, the seat's goals,
owed extra turns), so a line that places the same pieces in another order is searched
once. The search refuses two things rather than guess:

- chance: an action after which the engine drew from the bag at random (a bird's three
  pedestals, a dragon's hoard, a draw when every slot is empty). A question whose answer
  depends on a draw is not a puzzle, so the position is refused (`Unproved("chance")`);
- size: more than `cap` nodes (an applied action each, default 10^6): `Unproved("nodes")`.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass

from ..rules.actions import Action, BuildTotem, DrawFromBag
from ..rules.engine import Game
from .questions import Origin, Question, objective, turn_over

NODE_CAP = 1_000_000
FAILED = -(10**9)  # the value of a turn that fails the question's condition

# Per question: (best value, length of the shortest line reaching it).
Values = tuple[tuple[int, int], ...]


class Unproved(Exception):
    """The search could not prove the position: `reason` is "chance" or "nodes"."""

    def __init__(self, reason: str, message: str) -> None:
        super().__init__(message)
        self.reason = reason


@dataclass(frozen=True, slots=True)
class Proof:
    """What the search proved about one question from a state of the puzzle's turn."""

    value: int  # the most points the rest of the turn can score (FAILED: the question can't be met)
    length: int  # actions in the shortest line that reaches `value`
    line: tuple[Action, ...]  # one such line
    best_moves: tuple[Action, ...]  # every legal next action from which `value` is reachable
    second: int | None  # best value of a next action that cannot reach `value` (None: none)
    choices: int  # legal next actions
    nodes: int  # actions applied by the search

    @property
    def margin(self) -> int | None:
        """How much the best next action beats every other (None: no other meets the question)."""
        return None if self.second is None else self.value - self.second


def state_key(game: Game, seat: int) -> Hashable:
    """Everything the rest of `seat`'s turn depends on (the others' altars cannot change)."""
    altar = game.altars[seat]
    return (
        frozenset(altar.clouds),
        frozenset(altar.stacks.items()),
        frozenset(altar.totems),
        tuple(sorted(altar.hoard)),
        tuple(game.bag),
        tuple(tuple(s) for s in game.slots),
        tuple(sorted(game.pool)),
        game.pending_steps,
        frozenset(game.goals[seat]),
        frozenset(game.revealed[seat]),
        game.extra_turns,
    )


class _Search:
    def __init__(self, origin: Origin, asked: Sequence[Question], cap: int) -> None:
        self.origin = origin
        self.asked = tuple(asked)
        self.cap = cap
        self.nodes = 0
        self.table: dict[Hashable, Values] = {}

    def child(self, game: Game, action: Action) -> Game:
        self.nodes += 1
        if self.nodes > self.cap:
            raise Unproved("nodes", f"more than {self.cap} nodes")
        child = game.copy()
        before = child.rng.state
        child.apply_fast(action)
        if child.rng.state != before and not turn_over(child, self.origin):
            raise Unproved("chance", f"{action} leads to a random draw within the turn")
        return child

    def values(self, game: Game) -> Values:
        """Per question: (best objective, shortest length reaching it) from `game`."""
        if turn_over(game, self.origin):
            out = []
            for asked in self.asked:
                v = objective(game, self.origin, asked)
                out.append((FAILED if v is None else v, 0))
            return tuple(out)
        key = state_key(game, self.origin.seat)
        known = self.table.get(key)
        if known is not None:
            return known
        best = [(FAILED - 1, 0)] * len(self.asked)
        for action in _chance_first(game.legal_actions(self.origin.seat)):
            below = self.values(self.child(game, action))
            for i, (v, length) in enumerate(below):
                if v > best[i][0] or (v == best[i][0] and length + 1 < best[i][1]):
                    best[i] = (v, length + 1)
        result = tuple(best)
        self.table[key] = result
        return result


def _chance_first(actions: list[Action]) -> list[Action]:
    """The actions that may lead to a draw (totems, a draw from the bag) first: the order
    changes no value, but a position that must be refused is refused sooner."""
    return sorted(actions, key=lambda a: not isinstance(a, (BuildTotem, DrawFromBag)))


def solve_all(
    game: Game, origin: Origin, asked: Sequence[Question], cap: int = NODE_CAP
) -> list[Proof]:
    """Prove the best result of the rest of the turn from `game` (not changed) for each
    question of `asked`, in one search. Raises Unproved (chance, or more than `cap` nodes).
    """
    search = _Search(origin, asked, cap)
    if turn_over(game, origin):
        return [Proof(v, 0, (), (), None, 0, 0) for v, _ in search.values(game)]
    seat = origin.seat
    legal = game.legal_actions(seat)
    children = [search.child(game, a) for a in legal]
    results = [search.values(c) for c in children]
    proofs = []
    for i in range(len(search.asked)):
        value = max(r[i][0] for r in results)
        best_moves = tuple(a for a, r in zip(legal, results, strict=True) if r[i][0] == value)
        others = [r[i][0] for r in results if r[i][0] != value and r[i][0] > FAILED]
        line = _line(search, game, i)
        proofs.append(
            Proof(
                value=value,
                length=len(line),
                line=line,
                best_moves=best_moves,
                second=max(others) if others else None,
                choices=len(legal),
                nodes=search.nodes,
            )
        )
    return proofs


def _line(search: _Search, game: Game, i: int) -> tuple[Action, ...]:
    """A shortest line reaching question i's best value, read from the table."""
    origin, seat = search.origin, search.origin.seat
    line: list[Action] = []
    state, target = game, search.values(game)[i]
    while not turn_over(state, origin):
        for action in state.legal_actions(seat):
            nxt = search.child(state, action)
            v, length = search.values(nxt)[i]
            if v == target[0] and length == target[1] - 1:
                line.append(action)
                state, target = nxt, (v, length)
                break
        else:  # pragma: no cover - the table always holds a continuation
            raise AssertionError("no continuation reaches the proved value")
    return tuple(line)


def solve(game: Game, origin: Origin, asked: Question, cap: int = NODE_CAP) -> Proof:
    """`solve_all` for one question."""
    return solve_all(game, origin, [asked], cap)[0]
