"""Sky Totems as an OpenSpiel game (python_sky_totems): OpenSpiel's own random
simulation test, explicit chance with the bag's probabilities, views-only information
states, and OpenSpiel's information-set MCTS bot playing it."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

pyspiel = pytest.importorskip(
    "pyspiel", reason="OpenSpiel is not installed (the openspiel extra: pip install '.[openspiel]')"
)

import skytotems.openspiel  # noqa: E402  (registers the game)
from skytotems import game_from_view, sample_hidden, view  # noqa: E402
from skytotems.env.encoding import flatten_observation  # noqa: E402
from skytotems.openspiel import SkyTotemsState  # noqa: E402
from skytotems.rules.rng import Rng  # noqa: E402


def advance(state: Any, rng: random.Random, decisions: int) -> Any:
    """Play `decisions` random decisions, and chance outcomes by their probabilities
    until the next decision (or the end)."""
    made = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probabilities = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(outcomes, probabilities)[0])
        elif made < decisions:
            state.apply_action(rng.choice(state.legal_actions()))
            made += 1
        else:
            break
    return state


@pytest.mark.parametrize(("players", "totems"), [(2, "beginner"), (3, "dragon")])
def test_openspiel_random_simulation_test(players: int, totems: str) -> None:
    """OpenSpiel's C++ checks over a whole random game: legal actions, chance
    probabilities, clones, serialisation, observation and information-state strings
    and tensors for every seat, returns."""
    game = pyspiel.load_game(skytotems.openspiel.GAME_NAME, {"players": players, "totems": totems})
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


def test_game_parameters_and_sizes() -> None:
    game = pyspiel.load_game("python_sky_totems", {"players": 4})
    assert game.num_players() == 4
    assert game.num_distinct_actions() == 5923  # the environment's enumeration
    assert game.get_type().chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert game.new_initial_state().is_chance_node()  # the deal comes first


class BagWatcher(Rng):
    """Answers the engine's bag draws with given outcomes and records the bag it held
    at each one; the next call after the outcomes run out stops the move."""

    def __init__(self, outcomes: list[int]) -> None:
        super().__init__(0)
        self.outcomes = list(outcomes)
        self.bags: list[list[int]] = []

    def weighted(self, counts: list[int], total: int) -> int:
        self.bags.append(list(counts))
        if not self.outcomes:
            raise StopIteration
        return self.outcomes.pop(0)


def test_each_bag_draw_is_a_chance_node_with_the_bag_probabilities() -> None:
    """Every pedestal drawn from the bag (RULES.md §8) is one chance node: each design
    left, with probability (its pedestals in the bag) / (pedestals in the bag), as the
    engine's bag holds them at that draw."""
    game = pyspiel.load_game("python_sky_totems", {"players": 2})
    state = game.new_initial_state()
    rng = random.Random(3)
    bag_nodes = 0
    while bag_nodes < 30 and not state.is_terminal():
        if state.is_chance_node() and state.pending is not None:
            engine_game = state.committed.game.copy()
            engine_game.rng = watcher = BagWatcher(state.outcomes)
            with pytest.raises(StopIteration):
                engine_game.apply_fast(state.pending)
            bag = watcher.bags[-1]
            outcomes, probabilities = zip(*state.chance_outcomes(), strict=True)
            assert list(outcomes) == [d for d in range(10) if bag[d]]
            assert probabilities == pytest.approx([bag[d] / sum(bag) for d in outcomes])
            bag_nodes += 1
            state.apply_action(rng.choices(outcomes, probabilities)[0])
        elif state.is_chance_node():  # the deal
            state.apply_action(rng.choice(state.legal_actions()))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    assert bag_nodes == 30


def test_impossible_chance_outcomes_and_actions_are_refused() -> None:
    """Bad input is a clear error and changes nothing."""
    game = pyspiel.load_game("python_sky_totems", {"players": 2})
    state = game.new_initial_state()
    with pytest.raises(ValueError, match="impossible"):
        state.apply_action(game.max_chance_outcomes() + 1)
    assert state.history() == [] and state.is_chance_node()
    state = advance(state, random.Random(2), 0)
    before = (state.history(), state.information_state_string(0))
    illegal = next(a for a in range(game.num_distinct_actions()) if a not in state.legal_actions())
    with pytest.raises(ValueError, match="not legal"):
        state.apply_action(illegal)
    assert (state.history(), state.information_state_string(0)) == before


def _mid_game(players: int, seed: int) -> Any:
    game = pyspiel.load_game("python_sky_totems", {"players": players})
    state = advance(game.new_initial_state(), random.Random(seed), 40)
    assert not state.is_terminal() and state.committed.game.phase == "play"
    return state


def test_information_states_come_from_the_seat_view_only() -> None:
    """Changing the other seats' face-down goals (and the future draws) never changes a
    seat's information state or observation; the other seats' own do change."""
    state = _mid_game(players=3, seed=5)
    engine_game = state.committed.game
    for seat in range(3):
        own = view(engine_game, seat)
        twin_game = game_from_view(own, sample_hidden(own, Rng(seat + 17)))
        others = [s for s in range(3) if s != seat]
        assert [twin_game.goals[s] for s in others] != [engine_game.goals[s] for s in others]
        twin = SkyTotemsState(state.get_game(), twin_game)
        assert twin.information_state_string(seat) == state.information_state_string(seat)
        assert twin.information_state_tensor(seat) == state.information_state_tensor(seat)
        assert twin.observation_string(seat) == state.observation_string(seat)
        changed = [
            s
            for s in others
            if twin.information_state_string(s) != state.information_state_string(s)
        ]
        assert changed  # a seat whose goals were redrawn sees its new goals


def test_tensor_is_the_environment_encoding_of_the_seat_view() -> None:
    state = _mid_game(players=2, seed=8)
    shared = state.shared
    for seat in range(2):
        arrays = shared.encoder.encode(view(state.committed.game, seat))
        expected = flatten_observation(shared.encoder, arrays)
        assert np.array_equal(np.array(state.observation_tensor(seat), np.float32), expected)


def test_resampled_states_share_the_information_state() -> None:
    state = _mid_game(players=2, seed=11)
    seat = state.current_player()
    sampler = random.Random(0).random
    for _ in range(3):
        sample = state.resample_from_infostate(seat, sampler)
        assert sample.information_state_string(seat) == state.information_state_string(seat)
        assert sample.legal_actions() == state.legal_actions()


def test_openspiel_ismcts_bot_plays_the_game() -> None:
    """OpenSpiel's information-set MCTS (Python) chooses legal actions, sampling worlds
    through resample_from_infostate."""
    ismcts = pytest.importorskip("open_spiel.python.algorithms.ismcts")
    mcts = pytest.importorskip("open_spiel.python.algorithms.mcts")
    game = pyspiel.load_game("python_sky_totems", {"players": 2})
    generator = np.random.RandomState(0)
    bot = ismcts.ISMCTSBot(
        game, mcts.RandomRolloutEvaluator(1, generator), 2.0, 4, random_state=generator
    )
    state = advance(game.new_initial_state(), random.Random(1), 0)
    for _ in range(3):
        while state.is_chance_node():
            state.apply_action(state.chance_outcomes()[0][0])
        action = bot.step(state)
        assert action in state.legal_actions()
        state.apply_action(action)


@pytest.mark.parametrize("players", [1, 5])
def test_player_counts_outside_two_to_four_are_refused(players: int) -> None:
    with pytest.raises(ValueError, match="players must be 2, 3 or 4"):
        pyspiel.load_game("python_sky_totems", {"players": players})
