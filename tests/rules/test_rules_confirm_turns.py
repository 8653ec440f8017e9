"""Per-rule tests of the table option "every turn ends with a confirmation" (RULES.md §11).

Without it the end-of-turn prompt and the last reveals ask a seat only when a reveal is
possible (§12 step 5, §8), so whether a turn pauses there is public. With it every turn
ends with the prompt and the last reveals ask every seat, so what others see of a turn's
end no longer depends on the face-down cards.
"""

from __future__ import annotations

import pytest
from helpers import c, play, pos
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from skytotems import (
    EndTurn,
    Game,
    GameOptions,
    OptionsError,
    PlacePedestal,
    Reveal,
    TakeSlot,
    make_record,
    replay,
    view,
)
from skytotems.rules.events import TurnEnded
from skytotems.rules.pieces import RED
from skytotems.rules.rng import Rng
from skytotems.transcript import pick_action

EMPTY = "0,0 _ _/_ _"
HIGH = "0,0 ppppp _/_ _"  # "high-place" is met
MET = ["high-place", "skyline"]  # high-place met on HIGH, skyline not
UNMET = ["plaza", "rainbow"]
OTHER_UNMET = ["twin-peaks", "courtyard"]
CONFIRM = GameOptions(players=2, confirm_turns=True)


def take_and_place(game: Game) -> None:
    """Seat 0 builds pedestals from slot 0 (one red) onto its altar."""
    play(game, TakeSlot(0, 0), PlacePedestal(0, RED, c(1, 0)))


def test_s11_confirm_turns_is_off_by_default() -> None:
    """RULES.md §11: the option is off unless asked for (the published game's behaviour)."""
    assert GameOptions().confirm_turns is False
    game = pos(EMPTY, EMPTY, slots=["r", "", ""], bag={}, goals=[UNMET, OTHER_UNMET])
    take_and_place(game)
    assert game.decision.kind == "turn" and game.decision.seats == (1,)


def test_s11_confirm_turns_prompts_a_turn_end_with_nothing_to_reveal() -> None:
    """RULES.md §11: with the option, the turn ends with the prompt even when its owner
    cannot reveal; its one legal action is to end the turn, and the engine never plays it
    (§12: no decision is played for the player, even a single option)."""
    game = pos(
        EMPTY, EMPTY, slots=["r", "", ""], bag={}, goals=[UNMET, OTHER_UNMET], options=CONFIRM
    )
    take_and_place(game)
    assert game.decision.kind == "end_turn" and game.decision.seats == (0,)
    assert game.legal_actions(0) == [EndTurn(0)]
    events = game.apply(EndTurn(0))
    assert TurnEnded(0) in events
    assert game.decision.kind == "turn" and game.decision.seats == (1,)


def test_s11_confirm_turns_prompt_looks_the_same_to_others_whatever_the_goals() -> None:
    """RULES.md §11: with the option, seat 1 and a spectator see the same view at seat 0's
    turn end whether seat 0 could reveal or not; only seat 0's own view differs."""
    games = [
        pos(HIGH, EMPTY, slots=["r", "", ""], bag={}, goals=[goals, ["rainbow"]], options=CONFIRM)
        for goals in (MET, OTHER_UNMET)
    ]
    for game in games:
        take_and_place(game)
        assert game.decision.kind == "end_turn"
    for viewer in (1, None):
        assert view(games[0], viewer) == view(games[1], viewer)
        assert view(games[0], viewer)["decision"]["kind"] == "turn"
    assert view(games[0], 0) != view(games[1], 0)


def test_s11_confirm_turns_prompt_comes_back_after_a_reveal() -> None:
    """RULES.md §11, §12 step 5: after a reveal at the prompt the prompt is offered again
    (here with nothing left to reveal): the turn still ends only when its player says so."""
    game = pos(HIGH, EMPTY, slots=["r", "", ""], bag={"red": 1}, goals=[MET, UNMET],
               options=CONFIRM)  # fmt: skip
    take_and_place(game)
    play(game, Reveal(0, "high-place"))
    while game.decision.kind != "end_turn":  # the reward pedestal and its pool
        assert game.decision.seats == (0,)
        game.apply(game.legal_actions(0)[0])
    assert game.legal_actions(0) == [EndTurn(0)]


def test_s11_without_the_option_the_prompt_is_asked_only_when_a_reveal_is_possible() -> None:
    """RULES.md §11, §12 step 5: the published behaviour, which the option closes."""
    game = pos(HIGH, EMPTY, slots=["r", "", ""], bag={}, goals=[MET, UNMET])
    take_and_place(game)
    assert game.decision.kind == "end_turn"
    other = pos(HIGH, EMPTY, slots=["r", "", ""], bag={}, goals=[OTHER_UNMET, UNMET])
    take_and_place(other)
    assert other.decision.kind == "turn" and other.decision.seats == (1,)


def test_s11_confirm_turns_last_reveals_ask_every_seat() -> None:
    """RULES.md §11, §8: with the option the last reveals ask each seat in turn from the
    start player, revealable or not."""
    game = pos(EMPTY, EMPTY, phase="last_reveals", decision="last_reveal", round=10, bag={},
               goals=[UNMET, OTHER_UNMET], options=CONFIRM)  # fmt: skip
    asked = []
    while not game.is_over:
        decision = game.decision
        assert decision.kind == "last_reveal"
        assert game.legal_actions(decision.seats[0]) == [EndTurn(decision.seats[0])]
        asked.append(decision.seats[0])
        game.apply(EndTurn(decision.seats[0]))
    assert asked == [0, 1]


def test_s11_confirm_turns_is_kept_by_records_and_replayed() -> None:
    """RULES.md §11: a game option, so a record holds it and replays it; a record of a
    game without it names no such option (records stay as they were)."""
    game = Game(CONFIRM, seed=3)
    rng = Rng(4)
    while not game.is_over and game.decision.kind != "end_turn":
        game.apply(pick_action(game, rng, False))
    record = make_record(game)
    assert record["options"]["confirm_turns"] is True
    again = replay(record)
    assert again.options.confirm_turns and again.decision == game.decision
    assert "confirm_turns" not in make_record(Game(GameOptions(), seed=3))["options"]


@pytest.mark.parametrize("value", [1, "yes", None])
def test_s11_confirm_turns_must_be_true_or_false(value: object) -> None:
    """RULES.md §11: the option is a plain yes/no; anything else is refused."""
    with pytest.raises(OptionsError, match="confirm_turns"):
        GameOptions.from_json({"confirm_turns": value})
    with pytest.raises(OptionsError, match="confirm_turns"):
        GameOptions(confirm_turns=value)  # type: ignore[arg-type]


def observer_turn_ends(options: GameOptions, seed: int, chooser: int) -> list[dict[str, object]]:
    """Play a whole game; for each turn that ends, the last decision an observer (a
    spectator) saw before it ended, and check the turn ended by its player's EndTurn."""
    game = Game(options, seed)
    rng = Rng(chooser)
    seen: list[dict[str, object]] = []
    asked_last: list[int] = []
    for _ in range(3000):
        if game.is_over:
            break
        decision = view(game, None)["decision"]
        if game.decision.kind == "last_reveal":
            asked_last.append(game.decision.seats[0])
        action = pick_action(game, rng)  # leans to reveals, totems: eventful games
        events = game.apply(action)
        ended = [e for e in events if isinstance(e, TurnEnded)]
        if ended:
            assert action == EndTurn(ended[0].seat), "a turn ended without its prompt"
            seen.append(decision)
    assert game.is_over
    order = [(game.start_player + i) % game.n for i in range(game.n)]
    assert sorted(set(asked_last)) == sorted(order)  # every seat asked in the last reveals
    return seen


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    players=st.integers(1, 4),
    totems=st.sampled_from(("beginner", "dragon", "random-four")),
    seed=st.integers(0, 2**64 - 1),
    chooser=st.integers(0, 2**64 - 1),
)
def test_s11_confirm_turns_every_turn_end_looks_the_same_to_observers(
    players: int, totems: str, seed: int, chooser: int
) -> None:
    """RULES.md §11 (Hypothesis): with the option on, every turn of every game ends with
    its player's `end_turn` answer to the prompt, and what an observer sees just before
    is the same decision kind every time (the neutral `turn`, after the action)."""
    options = GameOptions(players=players, totems=totems, confirm_turns=True)
    ends = observer_turn_ends(options, seed, chooser)
    assert ends
    kinds = {(d["kind"], d["context"]["acted"]) for d in ends}  # type: ignore[index]
    assert kinds == {("turn", True)}
