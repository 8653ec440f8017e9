"""The puzzle solver (issue 18): exhaustive search of the rest of the turn, with a
transposition table, refusing draws and oversize trees. Positions are built in altar
notation (docs/notation.md); the rules they exercise are RULES.md §5 (a turn), §6 (the
horse's extra turn, the bird's draw), §3 (placing or returning pedestals)."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from skytotems import (
    BuildTotem,
    Game,
    GameOptions,
    Position,
    TakeSlot,
    game_from_position,
    view,
)
from skytotems.bots import make_bot
from skytotems.puzzles.model import position_of
from skytotems.puzzles.questions import QUESTIONS, Origin, objective, turn_over
from skytotems.puzzles.solver import FAILED, Unproved, solve, solve_all
from skytotems.rules.grid import cell
from skytotems.rules.pieces import T_HORSE

POINTS = QUESTIONS["points"]


def start(**kw: Any) -> tuple[Game, Origin]:
    game = game_from_position(Position(**kw))
    return game, Origin.of(game, game.decision.seats[0])


def test_a_horse_and_its_extra_turn_beat_taking_a_slot() -> None:
    """RULES.md §6 Horse: heights 1 and 3 give 6 points and an extra turn (+2 from a slot)."""
    game, origin = start(altars=["0,0 r rrr/_ _", "0,0 _ _/_ _"], slots=["bb", "", "C"])
    proof = solve(game, origin, POINTS)
    horse = BuildTotem(0, T_HORSE, (cell(0, 0), cell(1, 0)))
    assert proof.value == 8 and proof.best_moves == (horse,)
    assert proof.second == 2 and proof.margin == 6
    # The shortest optimal line takes the slot with one pedestal (the cat, 2 points).
    assert proof.line[:2] == (horse, TakeSlot(0, 2)) and proof.length == len(proof.line) == 3
    replayed = game.copy()
    for action in proof.line:
        replayed.apply(action)
    assert turn_over(replayed, origin) and objective(replayed, origin, POINTS) == 8


def test_two_totems_question_fails_where_only_one_totem_can_be_built() -> None:
    game, origin = start(altars=["0,0 r rrr/_ _", "0,0 _ _/_ _"], slots=["bb", "", "C"])
    proof = solve(game, origin, QUESTIONS["two_totems"])
    assert proof.value == FAILED and proof.second is None


def test_a_bird_site_is_refused_as_chance() -> None:
    """RULES.md §6 Bird: its blessing draws 3 random pedestals, so the turn hangs on a draw."""
    game, origin = start(altars=["0,0 rr rr/rr _", "0,0 _ _/_ _"], slots=["bb", "", "C"])
    with pytest.raises(Unproved) as info:
        solve(game, origin, POINTS)
    assert info.value.reason == "chance"


def test_a_draw_from_the_bag_is_refused_as_chance() -> None:
    """RULES.md §5: with every slot empty, building pedestals draws 2 at random."""
    game, origin = start(altars=["0,0 r _/_ _", "0,0 _ _/_ _"])
    with pytest.raises(Unproved) as info:
        solve(game, origin, POINTS)
    assert info.value.reason == "chance"


def test_the_node_cap_leaves_a_position_unproved() -> None:
    game, origin = start(altars=["0,0 r rrr/_ _", "0,0 _ _/_ _"], slots=["bb", "", "C"])
    with pytest.raises(Unproved) as info:
        solve(game, origin, POINTS, cap=5)
    assert info.value.reason == "nodes"


def test_the_solver_leaves_the_game_unchanged() -> None:
    game, origin = start(altars=["0,0 r rrr/_ _", "0,0 _ _/_ _"], slots=["bb", "", "C"])
    before = (view(game, 0), len(game.history))
    solve(game, origin, POINTS)
    assert (view(game, 0), len(game.history)) == before


def brute_force(game: Game, origin: Origin) -> int:
    """The best points of the turn by trying every line, with no table (for small trees)."""
    if turn_over(game, origin):
        value = objective(game, origin, POINTS)
        assert value is not None
        return value
    best = FAILED
    for action in game.legal_actions(origin.seat):
        child = game.copy()
        child.apply_fast(action)
        best = max(best, brute_force(child, origin))
    return best


def open_pools(seed: int, limit: int) -> list[Game]:
    """Positions at an open pool after a slot was taken, from a random game."""
    game = Game(GameOptions(), seed)
    bots = [make_bot("random", seed), make_bot("random", seed + 1)]
    out = []
    while not game.is_over and len(out) < limit:
        position = position_of(game)
        if position is not None and position.decision == "place_pedestal":
            out.append(game_from_position(position))
        seat = game.decision.seats[0]
        game.apply(bots[seat].choose(view(game, seat), game.legal_actions(seat)))
    return out


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10_000))
def test_the_transposition_table_changes_no_value(seed: int) -> None:
    """Sharing equal states (any order of the same placements) finds the brute-force best."""
    for game in open_pools(seed, 2):
        origin = Origin.of(game, game.decision.seats[0])
        try:
            proof = solve_all(game, origin, [POINTS], cap=3_000)[0]
        except Unproved:
            continue
        assert proof.value == brute_force(game, origin)
