"""Engine-wide invariants checked over random legal play in every option (Hypothesis).

Each property plays whole games with a chooser seeded from Hypothesis (the engine's
own `Rng`, so a failing example replays exactly) over players 1-4, every totem set
(named sets, random sets and hand-picked ones), both tie-breaks and with or without
the confirmation of every turn's end. The checks are
the promises DESIGN.md and RULES.md §11 make for every position: legal play never
stalls, the 118 pedestals are always somewhere, nothing hidden reaches another seat,
records replay, illegal actions change nothing, copies are faithful, and every
action survives its wire form.
"""

from __future__ import annotations

import copy as copy_module
import dataclasses
import json
import pickle
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from skytotems import (
    Action,
    BuildTotem,
    ChooseCat,
    ChooseDesign,
    ChooseStart,
    DrawFromBag,
    EndTurn,
    Game,
    GameOptions,
    GameOver,
    IllegalAction,
    Pass,
    PlaceCloud,
    PlacePedestal,
    ReturnPedestal,
    Reveal,
    TakeSlot,
    WolfStop,
    WolfTake,
    action_from_json,
    cell,
    events_for,
    make_record,
    replay,
    score_sheet,
    view,
)
from skytotems.rules.events import (
    Event,
    GameEnded,
    HoardAdded,
    PedestalsDrawn,
    SlotFilled,
    StartCardsRevealed,
)
from skytotems.rules.pieces import DESIGNS, T_BIRD, T_CAT, T_HORSE, TOTAL_PEDESTALS, full_bag
from skytotems.rules.rng import Rng
from skytotems.transcript import pick_action

TOTEM_SETS = (
    "beginner",
    "dragon",
    "cat-plus-three",
    "random-four",
    "bird,wolf,horse,dragon",  # hand-picked, no cat: cats must never arrive
    "bird,horse,dragon,cat",  # hand-picked, no wolf
)
MAX_STEPS = 3000  # a real game takes a few hundred decisions; more means a stall

options_strategy = st.builds(
    GameOptions,
    players=st.integers(1, 4),
    totems=st.sampled_from(TOTEM_SETS),
    tie_break=st.sampled_from(("bga", "rulebook")),
    confirm_turns=st.booleans(),
)
seeds = st.integers(0, 2**64 - 1)

PROPERTY_SETTINGS = settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)

# Draws whose outcome comes from the generator: once one appears, later events may
# legitimately differ between two games that differ only in their generator.
RANDOM_SOURCES = frozenset({"draw", "bird", "hoard", "slot_fill", "refill"})


# ----------------------------------------------------------------------------- helpers


def play(
    options: GameOptions,
    seed: int,
    chooser_seed: int,
    greedy: bool,
    on_step: Callable[[Game, int], None] | None = None,
) -> Game:
    """Play a whole game, calling `on_step(game, step)` before every action."""
    game = Game(options, seed)
    rng = Rng(chooser_seed)
    for step in range(MAX_STEPS):
        if game.is_over:
            return game
        if on_step is not None:
            on_step(game, step)
        game.apply(pick_action(game, rng, greedy))
    raise AssertionError(f"no end after {MAX_STEPS} steps: {game.decision}")


def pedestals_by_design(game: Game) -> list[int]:
    """How many pedestals of each design are in the bag, slots, altars (hoards) and pool."""
    counts = list(game.bag)
    for slot in game.slots:
        for d in slot:
            counts[d] += 1
    for altar in game.altars:
        for d in altar.pedestals():
            counts[d] += 1
    for d in game.pool:
        counts[d] += 1
    return counts


def all_views(game: Game) -> list[Any]:
    """Every seat's view and the spectator's, as JSON text (exact comparison)."""
    seats: list[int | None] = [*range(game.n), None]
    return [json.dumps(view(game, s), sort_keys=True) for s in seats]


def result_of(game: Game) -> tuple[Any, ...]:
    """What two identical plays must agree on."""
    return (
        [a.to_json() for a in game.history],
        [score_sheet(game, s).to_json() for s in range(game.n)],
        [view(game, s) for s in range(game.n)],
    )


def is_random_or_disclosure(event: Event) -> bool:
    """Events whose content came from the generator, or that show everyone what was
    secret until then (the starting cards once all have chosen, the goals at the end)."""
    return (isinstance(event, PedestalsDrawn) and event.source in RANDOM_SOURCES) or isinstance(
        event, (SlotFilled, HoardAdded, GameEnded, StartCardsRevealed)
    )


def before_randomness(events: list[Event]) -> list[Event]:
    """Events up to the first random draw or rule-made disclosure: everything before it
    must be the same whatever the hidden cards and the generator."""
    for i, event in enumerate(events):
        if is_random_or_disclosure(event):
            return events[:i]
    return events


def hidden_from(game: Game, viewer: int, rng: Rng) -> Game:
    """A copy of `game` that `viewer` cannot tell apart from it: every card the viewer
    has not seen (other seats' face-down goals, their hands and secret choices during
    setup, the box) dealt anew, and the generator reseeded."""
    other = game.copy()
    other.hands = list(game.hands)  # copy() shares this list (the engine never mutates it)
    if not game.options.solo:  # in solo the one person sees both hands
        others = [s for s in range(game.n) if s != viewer]
        choosing = game.phase == "setup" and any(c is None for c in game.start_cards)
        if choosing:
            unseen = list(game.box) + [c for s in others for c in game.hands[s]]
        else:
            unseen = list(game.box) + [c for s in others for c in game.goals[s]]
        rng.shuffle(unseen)  # type: ignore[arg-type]
        for s in others:
            if choosing:
                hand = tuple(unseen.pop() for _ in range(3))
                other.hands[s] = hand
                if game.start_cards[s] is not None:
                    start = hand[rng.below(3)]
                    other.start_cards[s] = start
                    other.goals[s] = [c for c in hand if c != start]
            else:
                other.goals[s] = [unseen.pop() for _ in game.goals[s]]
                if game.phase == "setup":
                    other.hands[s] = (game.start_cards[s] or "", *other.goals[s])
        other.box = unseen
    other.rng = Rng(rng.next64())
    other._changed()
    other._reveal_cache = {}
    return other


def illegal_candidates(game: Game, rng: Rng) -> list[Action]:
    """Actions that are almost right but not legal now (filtered against the legal ones)."""
    n = game.n
    pending = game.decision.seats
    legal = game.legal_actions()
    far = cell(40, -40)
    out: list[Action] = []
    idle = [s for s in range(n) if s not in pending] + [n, -1]
    for action in legal[:5]:
        for seat in idle:
            out.append(dataclasses.replace(action, seat=seat))
    in_play = sorted(game.cards)
    for seat in pending:
        altar = game.altars[seat]
        not_held = [c for c in in_play if c not in game.goals[seat]]
        out.append(Reveal(seat, not_held[rng.below(len(not_held))]))
        out.extend(Reveal(seat, c) for c in game.goals[seat])  # held but perhaps not met
        out.append(ChooseStart(seat, "no-such-card"))
        out.append(ChooseStart(seat, not_held[rng.below(len(not_held))]))
        out.extend(PlacePedestal(seat, d, far) for d in DESIGNS)
        for c in sorted(altar.covered)[:2]:
            out.append(PlacePedestal(seat, 0, c))
            out.append(PlaceCloud(seat, c))
        out.append(PlaceCloud(seat, far))
        out.extend(PlaceCloud(seat, c) for c in sorted(altar.clouds)[:2])
        out.extend(ReturnPedestal(seat, d) for d in DESIGNS)
        out.extend(TakeSlot(seat, i) for i in (-1, len(game.slots), *range(len(game.slots))))
        out.append(DrawFromBag(seat))
        out.append(Pass(seat))
        out.append(EndTurn(seat))
        out.append(WolfStop(seat))
        out.append(WolfTake(seat, far))
        out.append(ChooseCat(seat, far))
        out.extend(ChooseDesign(seat, d) for d in DESIGNS)
        out.append(BuildTotem(seat, T_CAT, (cell(0, 0),)))
        out.append(BuildTotem(seat, T_BIRD, (cell(0, 0), cell(1, 0), cell(0, 1))))
        out.append(BuildTotem(seat, T_HORSE, (cell(0, 0), far)))
    return [a for a in dict.fromkeys(out) if a not in legal]


def error_of(game: Game, action: Action) -> tuple[str, str, str]:
    """The error class, reason code and message an illegal action gets."""
    with pytest.raises(IllegalAction) as caught:
        game.apply(action)
    return type(caught.value).__name__, caught.value.reason, str(caught.value)


# -------------------------------------------------------------------------- properties


@PROPERTY_SETTINGS
@given(options=options_strategy, seed=seeds, chooser_seed=seeds, greedy=st.booleans())
def test_play_never_stalls_and_pedestals_are_conserved(
    options: GameOptions, seed: int, chooser_seed: int, greedy: bool
) -> None:
    """At every step: a pending seat with ≥1 legal action (others none), every pedestal
    accounted for by design, columns that obey §3, totems whose columns never grow, and
    every legal action surviving its JSON form; at the end nothing more can happen."""
    assert sum(full_bag()) == TOTAL_PEDESTALS == 118

    def check(game: Game, step: int) -> None:
        seats = game.decision.seats
        assert seats, f"step {step}: a decision with no seat"
        for s in range(game.n):
            actions = game.legal_actions(s)
            if s in seats:
                assert actions, f"step {step}: seat {s} must act but has no legal action"
                assert all(a.seat == s for a in actions)
                assert len(set(actions)) == len(actions), "duplicate legal actions"
            else:
                assert actions == []
        assert pedestals_by_design(game) == full_bag()
        assert game.bag_total == sum(game.bag) and min(game.bag) >= 0
        for altar in game.altars:
            assert set(altar.stacks) <= altar.clouds, "a column off the clouds"
            for stack in altar.stacks.values():
                assert all(d == stack[0] or d in altar.hoard for d in stack), stack
            assert altar.covered == {c for t in altar.totems for c in t.cells}
            for totem in altar.totems:
                assert totem.height == max(altar.height(c) for c in totem.over)
        if not game.cat_in_play:
            assert all(t.kind != T_CAT for a in game.altars for t in a.totems)
        for action in game.legal_actions():
            wire = json.loads(json.dumps(action.to_json()))
            assert action_from_json(wire) == action

    game = play(options, seed, chooser_seed, greedy, check)
    assert pedestals_by_design(game) == full_bag()
    assert game.legal_actions() == [] and game.pending_seats() == ()
    with pytest.raises(GameOver):
        _ = game.decision
    with pytest.raises(GameOver):
        game.apply(EndTurn(0))
    assert game.round == 10


@PROPERTY_SETTINGS
@given(options=options_strategy, seed=seeds, chooser_seed=seeds, probe_seed=seeds)
def test_nothing_hidden_reaches_another_seat(
    options: GameOptions, seed: int, chooser_seed: int, probe_seed: int
) -> None:
    """RULES.md §11: at random points, re-deal every card seat A has not seen and reseed
    the generator; A's view, legal actions, errors and the events of A's next action
    (up to the first random draw) are the same in both games."""
    probe = Rng(probe_seed)
    probes = 0

    def check(game: Game, step: int) -> None:
        nonlocal probes
        if game.phase != "setup" and (probes >= 8 or probe.below(12) != 0):
            return
        probes += 1
        viewer = probe.below(game.n)
        twin = hidden_from(game, viewer, probe)
        assert view(twin, viewer) == view(game, viewer)
        assert view(twin, None) == view(game, None)
        assert twin.legal_actions(viewer) == game.legal_actions(viewer)
        for action in illegal_candidates(game, probe)[:: 1 + probe.below(4)]:
            if action.seat == viewer:
                assert error_of(twin, action) == error_of(game, action), action
        if viewer in game.decision.seats:
            actions = game.legal_actions(viewer)
            action = actions[probe.below(len(actions))]
            solo = game.options.solo
            mine = events_for(game.copy().apply(action), viewer, solo)
            theirs = events_for(twin.apply(action), viewer, solo)
            assert before_randomness(theirs) == before_randomness(mine), action

    play(options, seed, chooser_seed, True, check)


@PROPERTY_SETTINGS
@given(options=options_strategy, seed=seeds, chooser_seed=seeds, cut=st.integers(0, 200))
def test_records_replay_to_the_same_game(
    options: GameOptions, seed: int, chooser_seed: int, cut: int
) -> None:
    """`replay(make_record(game))` rebuilds the same game mid-way and at the end: same
    history, altars, scores and every seat's view (through JSON text too)."""
    midway: list[Game] = []

    def keep(game: Game, step: int) -> None:
        if step == cut:
            midway.append(game.copy())

    game = play(options, seed, chooser_seed, True, keep)
    for original in [*midway, game]:
        record = make_record(original)
        for copy in (replay(record), replay(json.dumps(record))):
            assert copy.history == original.history
            assert copy.altars == original.altars
            assert [score_sheet(copy, s) for s in range(copy.n)] == [
                score_sheet(original, s) for s in range(original.n)
            ]
            assert all_views(copy) == all_views(original)
    assert "result" in make_record(game)


@PROPERTY_SETTINGS
@given(options=options_strategy, seed=seeds, chooser_seed=seeds, probe_seed=seeds)
def test_illegal_actions_raise_and_change_nothing(
    options: GameOptions, seed: int, chooser_seed: int, probe_seed: int
) -> None:
    """Wrong seats, cells without clouds, cards not held, empty or missing slots...: each
    raises IllegalAction and leaves every view and the history as they were."""
    probe = Rng(probe_seed)
    tried = 0

    def check(game: Game, step: int) -> None:
        nonlocal tried
        if probe.below(10) != 0:
            return
        candidates = illegal_candidates(game, probe)
        assert candidates, "no illegal action found to try"
        before = all_views(game)
        history = list(game.history)
        state = (game.rng.state, list(game.bag), [list(s) for s in game.slots])
        for action in candidates[:: 1 + probe.below(3)]:
            assert not game.is_legal(action)
            with pytest.raises(IllegalAction):
                game.apply(action)
            tried += 1
        assert all_views(game) == before
        assert game.history == history
        assert (game.rng.state, game.bag, game.slots) == state

    play(options, seed, chooser_seed, probe.below(2) == 0, check)
    assert tried > 0


@PROPERTY_SETTINGS
@given(
    options=options_strategy,
    seed=seeds,
    chooser_seed=seeds,
    rest_seed=seeds,
    cut=st.integers(0, 300),
)
def test_copies_and_pickles_play_on_identically(
    options: GameOptions, seed: int, chooser_seed: int, rest_seed: int, cut: int
) -> None:
    """From a random point, `copy()`, `copy.deepcopy` and pickle round trips played on
    by the same seeded chooser end exactly like the original, and playing them leaves
    the original untouched."""
    game = Game(options, seed)
    rng = Rng(chooser_seed)
    for _ in range(cut):
        if game.is_over:
            break
        game.apply(pick_action(game, rng))
    twins = [
        game.copy(),
        pickle.loads(pickle.dumps(game)),
        pickle.loads(pickle.dumps(game, protocol=pickle.HIGHEST_PROTOCOL)),
        copy_module.deepcopy(game),
    ]
    before = all_views(game)
    length = len(game.history)

    def finish(g: Game) -> Game:
        chooser = Rng(rest_seed)
        while not g.is_over:
            g.apply(pick_action(g, chooser))
        return g

    results = [result_of(finish(t)) for t in twins]
    assert all_views(game) == before and len(game.history) == length
    expected = result_of(finish(game))
    for result in results:
        assert result == expected


@PROPERTY_SETTINGS
@given(options=options_strategy, seed=seeds, chooser_seed=seeds, cut=st.integers(0, 150))
def test_a_copy_played_on_leaves_the_original_unchanged(
    options: GameOptions, seed: int, chooser_seed: int, cut: int
) -> None:
    """`Game.copy` (the search's workhorse) shares nothing mutable: playing a copy to its
    end leaves the original's views, history and legal actions as they were, and the
    original then plays on exactly as a twin that was never copied."""

    def play_a_copy(game: Game, step: int) -> None:
        if step != cut:
            return
        views, history = all_views(game), list(game.history)
        legal = game.legal_actions(game.decision.seats[0])
        copy = game.copy()
        chooser = Rng(chooser_seed)
        while not copy.is_over:
            actions = copy.legal_actions(copy.decision.seats[0])
            copy.apply_fast(actions[chooser.below(len(actions))])
        assert all_views(game) == views
        assert game.history == history
        assert game.legal_actions(game.decision.seats[0]) == legal

    copied = play(options, seed, chooser_seed, True, play_a_copy)
    twin = play(options, seed, chooser_seed, True)
    assert result_of(copied) == result_of(twin)
    assert all_views(copied) == all_views(twin)
