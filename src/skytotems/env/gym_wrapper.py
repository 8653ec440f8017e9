"""A Gymnasium single-agent view of Sky Totems: one seat learns, the others are bots.

>>> from skytotems.env import SkyTotemsGymEnv
>>> env = SkyTotemsGymEnv(players=2, opponents="random")
>>> observation, info = env.reset(seed=1)
>>> int(info["action_mask"].sum()) == int(observation["action_mask"].sum())
True
>>> SkyTotemsGymEnv(observation="flat").observation_space.shape
(5313,)

Actions, rewards and options are those of `sky_totems_v0`. The observation is chosen
with ``observation``: ``"dict"`` (the default) is one ``Dict`` with one level of keys,
the encoder's arrays (``ObservationEncoder``) plus ``"action_mask"``; ``"flat"`` is
those arrays as one float32 ``Box`` (no mask: take it from `action_masks()`), which
Stable-Baselines3's ``MlpPolicy`` and sb3-contrib's ``MaskablePPO`` take as they are.
The Gymnasium id ``skytotems/SkyTotems-v0`` makes this class (docs/env.md).

A step answers one decision of the learner, then lets the opponents answer theirs
until the learner must choose again or the game ends; the reward (win/loss or score
difference) comes with the final step. ``info["action_mask"]`` repeats the mask, and
`action_masks()` returns it, for libraries that expect either. A masked-out action
ends the episode with reward -1 and ``info["illegal_action"]``
(``illegal_action="lose"``, the default, like the PettingZoo ``env()``), or raises
``ValueError`` (``illegal_action="raise"``).

Opponents are given per seat, as one spec for all or a list for the other seats in
clockwise order from the learner. A spec is a bot name (through
``skytotems.bots.make_bot(name, seed)`` when that package is installed; ``"random"``
works without it), an object with ``choose(view, legal_actions) -> Action``, or a plain
callable ``(view, legal_actions) -> Action``. Bots see only their own seat's view and
answer with engine actions, which need not lie inside the window.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any, Protocol

import gymnasium
import numpy as np

from ..bots.registry import BOT_NAMES, make_bot
from ..rules.actions import Action
from .encoding import DEFAULT_WINDOW, flat_observation_space, flatten_observation
from .sky_totems_v0 import raw_env, render_text


class Opponent(Protocol):
    """What the wrapper asks of a bot (the interface of ``skytotems.bots``)."""

    def choose(self, view: dict[str, Any], legal_actions: list[Action]) -> Action: ...


OpponentSpec = str | Opponent | Callable[[dict[str, Any], list[Action]], Action]


class RandomOpponent:
    """Uniform over the legal actions, from its own seeded generator (picklable)."""

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: dict[str, Any], legal_actions: list[Action]) -> Action:
        return legal_actions[self.rng.randrange(len(legal_actions))]


def random_opponent(seed: int | None = None) -> RandomOpponent:
    """The default opponent: uniform random over legal actions, seeded."""
    return RandomOpponent(seed)


class _CallableOpponent:
    """Adapts a plain function to the `Opponent` interface."""

    def __init__(self, function: Callable[[dict[str, Any], list[Action]], Action]) -> None:
        self.function = function

    def choose(self, view: dict[str, Any], legal_actions: list[Action]) -> Action:
        return self.function(view, legal_actions)


def resolve_opponent(spec: OpponentSpec, seed: int | None = None) -> Opponent:
    """A bot from a name, an object with `choose`, or a callable (see the module doc)."""
    if isinstance(spec, str):
        bot: Opponent = make_bot(spec, 0 if seed is None else seed)
        return bot
    if hasattr(spec, "choose"):
        return spec
    if callable(spec):
        return _CallableOpponent(spec)
    raise TypeError(f"an opponent is a bot name, an object with choose(), or a callable: {spec!r}")


OBSERVATION_MODES = ("dict", "flat")


class SkyTotemsGymEnv(gymnasium.Env[Any, np.int64]):
    """One learning seat against bots (see the module docstring).

    `learner_seat` is a seat number or ``"random"`` (drawn at each reset);
    `illegal_action` is ``"lose"`` or ``"raise"`` and `observation` ``"dict"`` or
    ``"flat"`` (module docstring); the other keyword arguments are those of
    ``sky_totems_v0.raw_env``.
    """

    metadata: dict[str, Any] = {"render_modes": ["human", "ansi"], "render_fps": 1}  # noqa: RUF012

    def __init__(
        self,
        opponents: OpponentSpec | Sequence[OpponentSpec] = "random",
        learner_seat: int | str = 0,
        players: int = 2,
        totems: str = "beginner",
        tie_break: str = "bga",
        reward: str = "win_loss",
        window: int = DEFAULT_WINDOW,
        illegal_action: str = "lose",
        render_mode: str | None = None,
        observation: str = "dict",
    ) -> None:
        if illegal_action not in ("lose", "raise"):
            raise ValueError(f"illegal_action must be 'lose' or 'raise', got {illegal_action!r}")
        if observation not in OBSERVATION_MODES:
            raise ValueError(f"observation must be 'dict' or 'flat', got {observation!r}")
        self.observation_mode = observation
        self.illegal_action = illegal_action
        self._lost_by_illegal = False
        self.aec = raw_env(
            players=players, totems=totems, tie_break=tie_break, reward=reward, window=window
        )
        if learner_seat != "random" and (
            not isinstance(learner_seat, int) or not 0 <= learner_seat < players
        ):
            raise ValueError(f"learner_seat must be 0..{players - 1} or 'random'")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be None, 'human' or 'ansi', got {render_mode!r}")
        self.render_mode = render_mode
        self.players = players
        self.learner_choice = learner_seat
        if isinstance(opponents, Sequence) and not isinstance(opponents, str):
            if len(opponents) != players - 1:
                raise ValueError(f"give one opponent, or {players - 1} (one per other seat)")
            self.opponent_specs: list[OpponentSpec] = list(opponents)
        else:
            self.opponent_specs = [opponents] * (players - 1)
        for spec in self.opponent_specs:
            if isinstance(spec, str) and spec not in BOT_NAMES:  # refused now, not at reset
                raise ValueError(
                    f"opponents: unknown bot {spec!r}; expected one of {', '.join(BOT_NAMES)}"
                )
            if not (isinstance(spec, str) or hasattr(spec, "choose") or callable(spec)):
                raise TypeError(f"not an opponent: {spec!r}")
        first = self.aec.possible_agents[0]
        self.observation_space: gymnasium.Space[Any]
        if observation == "flat":
            self.observation_space = flat_observation_space(self.aec.encoder)
        else:
            mask_space = self.aec.observation_spaces[first]["action_mask"]
            self.observation_space = gymnasium.spaces.Dict(
                {**self.aec.encoder.space.spaces, "action_mask": mask_space}
            )
        self.action_space = self.aec.action_spaces[first]
        self.learner_seat = 0 if learner_seat == "random" else int(learner_seat)
        self.opponents: dict[int, Opponent] = {}

    @property
    def learner(self) -> str:
        """The learning agent's name in the AEC environment."""
        return self.aec.possible_agents[self.learner_seat]

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Any, dict[str, Any]]:
        super().reset(seed=seed)
        self._lost_by_illegal = False
        rng = self.np_random
        if self.learner_choice == "random":
            self.learner_seat = int(rng.integers(self.players))
        self.aec.reset(seed=int(rng.integers(0, 2**63 - 1)), options=options)
        self.opponents = {}
        for k, spec in enumerate(self.opponent_specs):
            seat = (self.learner_seat + 1 + k) % self.players
            self.opponents[seat] = resolve_opponent(spec, int(rng.integers(0, 2**31 - 1)))
        self._play_opponents()
        return self._observe()

    def step(self, action: int | np.integer[Any]) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        if self.aec.agent_selection != self.learner or self._over() or self._lost_by_illegal:
            raise RuntimeError("the episode is over: call reset()")
        if self.illegal_action == "lose" and int(action) not in self.aec.index_map(self.learner):
            self._lost_by_illegal = True
            observation, info = self._observe()
            info["illegal_action"] = True
            return observation, -1.0, True, False, info
        self.aec.step(action)
        self._play_opponents()
        observation, info = self._observe()
        reward = float(self.aec._cumulative_rewards.get(self.learner, 0.0))
        terminated = self._over()
        if self.render_mode == "human":
            self.render()
        return observation, reward, terminated, False, info

    def action_masks(self) -> np.ndarray:
        """The learner's current action mask (for maskable-policy libraries)."""
        mask: np.ndarray = self.aec.codec.mask(self.aec.index_map(self.learner))
        return mask

    def render(self) -> str | None:
        from ..rules.view import view

        text = render_text(view(self.aec._require_game(), None))
        if self.render_mode == "human":
            print(text)
            return None
        return text

    # ------------------------------------------------------------------ helpers

    def _over(self) -> bool:
        return self.aec._require_game().is_over

    def _play_opponents(self) -> None:
        aec = self.aec
        game = aec._require_game()
        while not game.is_over and aec.agent_selection != self.learner:
            agent = aec.agent_selection
            seat = aec.agent_name_mapping[agent]
            action = self.opponents[seat].choose(aec.seat_view(agent), game.legal_actions(seat))
            aec.step_action(action)

    def _observe(self) -> tuple[Any, dict[str, Any]]:
        """The learner's observation in the chosen form, and the step's info."""
        nested = self.aec.observe(self.learner)
        mask = nested["action_mask"]
        observation: Any
        if self.observation_mode == "flat":
            observation = flatten_observation(self.aec.encoder, nested["observation"])
        else:
            observation = {**nested["observation"], "action_mask": mask}
        info: dict[str, Any] = {"action_mask": mask, "seat": self.learner_seat}
        info.update(self.aec.infos.get(self.learner, {}))
        return observation, info
