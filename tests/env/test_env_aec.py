"""The PettingZoo AEC environment sky_totems_v0: PettingZoo's own tests, the mask against
the engine's legal actions, information hiding, rewards, the window's edge, copies."""

from __future__ import annotations

import copy
import pickle
import re
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from env_helpers import TOTEM_SETS, play_random, random_index, same_observation
from pettingzoo.test import (  # type: ignore[import-untyped]
    api_test,
    performance_benchmark,
    seed_test,
)

from skytotems import (
    GameOptions,
    PlacePedestal,
    Position,
    game_from_view,
    sample_hidden,
    score_sheet,
    view,
)
from skytotems.env import sky_totems_v0
from skytotems.rules.grid import cell, xy
from skytotems.rules.pieces import RED, T_CAT
from skytotems.rules.rng import Rng


def quiet(function: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """Run a PettingZoo test function without its style warnings (dict observations)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return function(*args, **kwargs)


@pytest.mark.parametrize(
    ("players", "totems"), [(2, "beginner"), (3, "dragon"), (4, "random-four")]
)
def test_pettingzoo_api_test(players: int, totems: str) -> None:
    quiet(api_test, sky_totems_v0.env(players=players, totems=totems), num_cycles=200)


def test_pettingzoo_api_test_on_the_raw_env() -> None:
    quiet(api_test, sky_totems_v0.raw_env(players=2, reward="score_diff"), num_cycles=200)


@pytest.mark.parametrize(("players", "totems"), [(2, "cat-plus-three"), (4, "beginner")])
def test_pettingzoo_seed_test(players: int, totems: str) -> None:
    quiet(seed_test, lambda: sky_totems_v0.env(players=players, totems=totems), num_cycles=200)


def test_pettingzoo_performance_benchmark(capsys: pytest.CaptureFixture[str]) -> None:
    """PettingZoo's 5-second benchmark runs and reports a rate (its figure is printed, not
    asserted: a loaded machine measured 70 turns/s where an idle one does 4,000)."""
    performance_benchmark(sky_totems_v0.env(players=2))
    out = capsys.readouterr().out
    turns = float(re.search(r"([0-9.]+) turns per second", out).group(1))  # type: ignore[union-attr]
    print(f"sky_totems_v0: {turns:.0f} turns per second")
    assert turns > 0


def test_mask_equals_the_engine_legal_actions_after_random_play() -> None:
    """At every decision of random games (2-4 players, every totem set, uniform and
    totem-eager random play), the mask's indices decode to exactly the engine's legal
    actions: all of them, since such games stay inside the 16×16 window, and nothing
    else. The games reach every kind of decision that carries cells or designs."""
    kinds_seen: set[str] = set()
    for players in (2, 3, 4):
        for game_number, totems in enumerate(TOTEM_SETS):
            for eager in (False, True):
                env = sky_totems_v0.raw_env(players=players, totems=totems)
                env.reset(seed=100 * players + game_number)
                rng = np.random.default_rng(10 * players + game_number)
                check = _mask_checker(env, kinds_seen)
                for _ in play_random(env, rng, check, eager=eager):
                    pass
                assert env.game is not None and env.game.is_over
    assert kinds_seen >= {
        "choose_start",
        "turn",
        "place_pedestal",
        "place_cloud",
        "choose_design",
        "choose_cat",
        "wolf_blessing",
        "dragon_build",
    }


def _mask_checker(
    env: sky_totems_v0.raw_env, kinds_seen: set[str]
) -> Callable[[str, dict[str, Any]], None]:
    codec = env.codec

    def check(agent: str, observation: dict[str, Any]) -> None:
        game = env.game
        assert game is not None
        seat = env.agent_name_mapping[agent]
        assert seat == min(game.decision.seats)  # the AEC turn is the engine's decision
        kinds_seen.add(game.decision.kind)
        legal = game.legal_actions(seat)
        own = view(game, seat)["seats"][seat]
        hand, goals = own.get("hand", ()), [g["card"] for g in own.get("goals", ())]
        allowed = np.flatnonzero(observation["action_mask"]).tolist()
        decoded = [codec.decode(i, seat, hand, goals) for i in allowed]
        assert sorted(map(str, decoded)) == sorted(map(str, legal))
        assert len(allowed) == len(legal)
        for action in legal:
            index = codec.encode(action, hand, goals)
            assert index is not None and observation["action_mask"][index] == 1

    return check


def test_other_agents_see_a_zero_mask() -> None:
    """Only agent_selection may act, even during the simultaneous starting choice."""
    env = sky_totems_v0.raw_env(players=3)
    env.reset(seed=4)
    assert env.agent_selection == "player_0"
    assert env.observe("player_0")["action_mask"].sum() == 3
    assert env.observe("player_1")["action_mask"].sum() == 0
    env.step(random_index(env.observe("player_0"), np.random.default_rng(0)))
    assert env.agent_selection == "player_1"  # starting choices serialised in seat order
    assert env.observe("player_1")["action_mask"].sum() == 3


def test_observation_is_the_encoded_seat_view_and_ignores_hidden_state() -> None:
    """Each observation is built from the seat's own view only: a game that differs in
    the other seats' face-down goals and in future draws gives the same observation."""
    env = sky_totems_v0.raw_env(players=3, totems="dragon")
    env.reset(seed=11)
    rng = np.random.default_rng(11)
    for _ in range(120):
        env.step(random_index(env.observe(env.agent_selection), rng))
    game = env.game
    assert game is not None and game.phase == "play"
    seat = env.agent_name_mapping[env.agent_selection]
    observation = env.observe(env.agent_selection)
    own_view = view(game, seat)
    assert same_observation(
        observation,
        {"observation": env.encoder.encode(own_view), "action_mask": observation["action_mask"]},
    )
    other = game_from_view(own_view, sample_hidden(own_view, Rng(99)))
    assert [other.goals[s] for s in range(3) if s != seat] != [
        game.goals[s] for s in range(3) if s != seat
    ]
    twin = copy.deepcopy(env)
    twin.game = other
    twin._forget()
    assert same_observation(twin.observe(env.agent_selection), observation)


def _finish(env: sky_totems_v0.raw_env, seed: int) -> None:
    for _ in play_random(env, np.random.default_rng(seed)):
        pass


@pytest.mark.parametrize("players", [2, 4])
def test_win_loss_rewards(players: int) -> None:
    env = sky_totems_v0.raw_env(players=players)
    env.reset(seed=21)
    rewards: dict[str, float] = {}
    for agent in env.possible_agents:
        rewards[agent] = 0.0
    rng = np.random.default_rng(21)
    while env.agents:
        agent = env.agent_selection
        observation, reward, terminated, _, info = env.last()
        if terminated:
            rewards[agent] = reward
            assert info["place"] in range(1, players + 1)
            env.step(None)
        else:
            assert reward == 0.0  # nothing before the end
            env.step(random_index(observation, rng))
    assert sorted(rewards.values()) == [-1.0] * (players - 1) + [1.0]  # bga: no shared places
    game = env.game
    assert game is not None
    totals = [score_sheet(game, s).total for s in range(players)]
    winner = max(range(players), key=lambda s: rewards[f"player_{s}"])
    assert totals[winner] == max(totals)


def test_score_diff_rewards_are_own_minus_best_other() -> None:
    env = sky_totems_v0.raw_env(players=3, reward="score_diff")
    env.reset(seed=5)
    final: dict[str, float] = {}
    rng = np.random.default_rng(5)
    while env.agents:
        agent = env.agent_selection
        observation, reward, terminated, _, _ = env.last()
        if terminated:
            final[agent] = reward
            env.step(None)
        else:
            env.step(random_index(observation, rng))
    game = env.game
    assert game is not None
    totals = [score_sheet(game, s).total for s in range(3)]
    for s in range(3):
        best_other = max(t for o, t in enumerate(totals) if o != s)
        assert final[f"player_{s}"] == totals[s] - best_other


def test_a_shared_victory_gives_zero_in_win_loss() -> None:
    """Rulebook tie-break, equal scores and totem counts: both share first place."""
    options = GameOptions(players=2, tie_break="rulebook")
    position = Position(
        altars=["0,0 r _/_ _", "0,0 r _/_ _"], options=options, phase="final", round=10
    )
    for mode, expected in (("win_loss", 0.0), ("score_diff", 0.0)):
        env = sky_totems_v0.raw_env(players=2, tie_break="rulebook", reward=mode)
        env.reset(seed=0, options={"position": position})
        assert env.game is not None and env.game.phase == "final"
        while env.agents:
            observation, reward, terminated, _, info = env.last()
            if terminated:
                assert reward == expected and info["place"] == 1
                env.step(None)
            else:
                allowed = np.flatnonzero(observation["action_mask"]).tolist()
                assert allowed == [env.codec.blocks["pass"][0]]  # no totem possible: pass
                env.step(allowed[0])


def test_position_must_match_the_environment_options() -> None:
    env = sky_totems_v0.raw_env(players=2)
    position = Position(altars=["0,0 _ _/_ _"] * 3, options=GameOptions(players=3))
    with pytest.raises(ValueError):
        env.reset(options={"position": position})


def test_illegal_actions() -> None:
    """The raw environment refuses a masked index; the wrapped one ends the game with
    -1 for the offender and 0 for the others (PettingZoo's classic convention)."""
    raw = sky_totems_v0.raw_env(players=2)
    raw.reset(seed=1)
    masked = int(np.flatnonzero(raw.observe(raw.agent_selection)["action_mask"] == 0)[0])
    with pytest.raises(ValueError, match="masked out"):
        raw.step(masked)
    wrapped = sky_totems_v0.env(players=2)
    wrapped.reset(seed=1)
    offender = wrapped.agent_selection
    wrapped.last()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        wrapped.step(masked)
    assert all(wrapped.terminations.values())
    assert wrapped._cumulative_rewards[offender] == -1
    assert wrapped._cumulative_rewards["player_1"] == 0


def test_cloud_fallback_at_the_window_edge() -> None:
    """A 4×4 window full of clouds: every legal cloud cell lies outside, so the mask
    holds only the fallback, which places the cloud nearest the window (engine order
    breaks the tie: the smallest cell id, (-1,-2))."""
    full = "-1,-1 " + "/".join(["_ _ _ _"] * 4)
    position = Position(altars=[full, "0,0 _ _/_ _"], slots=["r", "", ""])
    env = sky_totems_v0.raw_env(players=2, window=4)
    env.reset(seed=0, options={"position": position})
    codec = env.codec
    env.step(codec.blocks["take_slot"][0])
    env.step(codec.blocks["return_pedestal"][0] + RED)
    game = env.game
    assert game is not None and game.decision.kind == "place_cloud"
    mask = env.observe("player_0")["action_mask"]
    assert np.flatnonzero(mask).tolist() == [codec.fallback]
    env.step(codec.fallback)
    new = game.altars[0].clouds - {cell(x, y) for x in range(-1, 3) for y in range(-1, 3)}
    assert [xy(c) for c in new] == [(-1, -2)]
    outside = env.observe("player_0")["observation"]["outside"]
    assert outside[0].tolist() == [1, 0]  # one cloud, no pedestal outside the window


def test_cat_fallback_outside_the_window() -> None:
    """A column raised to 6 outside the window (by an engine action, as a bot may play)
    owes a cat that only the fallback can place."""
    position = Position(altars=["0,0 _ _ _ rrrrr/_ _ . .", "0,0 _ _/_ _"], slots=["r", "", ""])
    env = sky_totems_v0.raw_env(players=2, window=4)  # x in [-1, 2]: (3,0) is outside
    env.reset(seed=0, options={"position": position})
    codec = env.codec
    env.step(codec.blocks["take_slot"][0])
    mask = env.observe("player_0")["action_mask"]
    assert codec.encode(PlacePedestal(0, RED, cell(3, 0))) is None
    assert mask[codec.encode(PlacePedestal(0, RED, cell(2, 0)))] == 1
    env.step_action(PlacePedestal(0, RED, cell(3, 0)))
    game = env.game
    assert game is not None and game.decision.kind == "choose_cat"
    mask = env.observe("player_0")["action_mask"]
    assert np.flatnonzero(mask).tolist() == [codec.fallback]
    env.step(codec.fallback)
    cats = [t for t in game.altars[0].totems if t.kind == T_CAT]
    assert [t.cells for t in cats] == [(cell(3, 0),)]


@pytest.mark.parametrize("how", ["deepcopy", "pickle"])
def test_copies_mid_game_continue_identically_and_independently(how: str) -> None:
    env = sky_totems_v0.env(players=3, totems="random-four")
    env.reset(seed=8)
    rng = np.random.default_rng(8)
    for _ in range(70):
        observation, *_ = env.last()
        env.step(random_index(observation, rng))
    twin = copy.deepcopy(env) if how == "deepcopy" else pickle.loads(pickle.dumps(env))
    moves = len(env.unwrapped.game.history)
    twin_rng = copy.deepcopy(rng)
    # the copy moves on alone: the original is untouched
    for _ in range(10):
        observation, *_ = twin.last()
        twin.step(random_index(observation, twin_rng))
    assert len(env.unwrapped.game.history) == moves
    # a fresh copy and the original, fed the same choices, stay identical to the end
    twin = copy.deepcopy(env) if how == "deepcopy" else pickle.loads(pickle.dumps(env))
    twin_rng = copy.deepcopy(rng)
    while env.agents:
        assert twin.agent_selection == env.agent_selection
        a = env.last()
        b = twin.last()
        assert same_observation(a[0], b[0]) and a[1:] == b[1:]
        if a[2]:
            env.step(None)
            twin.step(None)
        else:
            env.step(random_index(a[0], rng))
            twin.step(random_index(b[0], twin_rng))
    assert not twin.agents


def test_clone_continues_identically_and_independently() -> None:
    env = sky_totems_v0.raw_env(players=2, totems="dragon", reward="score_diff")
    env.reset(seed=3)
    rng = np.random.default_rng(3)
    for _ in range(60):
        env.step(random_index(env.observe(env.agent_selection), rng))
    assert env.game is not None
    moves = len(env.game.history)
    scratch = env.clone()
    for _ in range(20):
        scratch.step(random_index(scratch.observe(scratch.agent_selection), rng))
    assert len(env.game.history) == moves  # searching in the clone leaves the original alone
    twin, twin_rng = env.clone(), copy.deepcopy(rng)
    while env.agents:
        a, b = env.last(), twin.last()
        assert twin.agent_selection == env.agent_selection
        assert same_observation(a[0], b[0]) and a[1:] == b[1:]
        env.step(None if a[2] else random_index(a[0], rng))
        twin.step(None if b[2] else random_index(b[0], twin_rng))
    assert not twin.agents and twin.game is not env.game


def test_render_ansi_shows_the_public_state_only() -> None:
    env = sky_totems_v0.raw_env(players=2, render_mode="ansi")
    env.reset(seed=2)
    rng = np.random.default_rng(2)
    for _ in range(30):
        env.step(random_index(env.observe(env.agent_selection), rng))
    text = env.render()
    assert isinstance(text, str)
    game = env.game
    assert game is not None
    assert view(game, None)["altars"][0]["notation"] in text
    for goals in game.goals:
        for card in goals:
            assert card not in text


def test_bad_options_are_refused() -> None:
    with pytest.raises(ValueError):
        sky_totems_v0.raw_env(players=1)
    with pytest.raises(ValueError):
        sky_totems_v0.raw_env(reward="points")
    with pytest.raises(ValueError):
        sky_totems_v0.raw_env(render_mode="rgb_array")


def test_pettingzoo_dummy_option_gives_no_warning() -> None:
    """api_test resets with options={"options": 1}: ignored, with no warning."""
    env = sky_totems_v0.env(players=2)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        env.reset(seed=0, options={"options": 1})
    assert env.agent_selection == "player_0"
