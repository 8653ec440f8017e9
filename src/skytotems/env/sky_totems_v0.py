"""Sky Totems as a PettingZoo AEC environment: ``skytotems.env.sky_totems_v0``.

>>> from skytotems.env import sky_totems_v0
>>> env = sky_totems_v0.env(players=2, totems="beginner")
>>> env.reset(seed=0)
>>> observation, reward, termination, truncation, info = env.last()
>>> int(observation["action_mask"].sum())  # the three starting cards of player_0
3

Version 0. The full documentation is the docstring of `raw_env` below.
"""

from __future__ import annotations

import copy
import warnings
from collections.abc import Mapping
from dataclasses import replace
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from pettingzoo import AECEnv  # type: ignore[import-untyped]
from pettingzoo.utils import wrappers  # type: ignore[import-untyped]

from ..rules.actions import Action
from ..rules.cards import Deck, default_deck
from ..rules.engine import Game
from ..rules.options import GameOptions
from ..rules.position import Position, game_from_position
from ..rules.view import view
from .encoding import DEFAULT_WINDOW, ActionCodec, ObservationEncoder

REWARD_MODES = ("win_loss", "score_diff")
VERSION = 0


def env(**kwargs: Any) -> AECEnv[str, dict[str, Any], int]:
    """The environment with PettingZoo's classic wrappers: an illegal (masked) action
    ends the game with reward -1 for its author, out-of-range actions are asserted,
    and the AEC call order is enforced."""
    wrapped: AECEnv[str, dict[str, Any], int] = raw_env(**kwargs)
    wrapped = wrappers.TerminateIllegalWrapper(wrapped, illegal_reward=-1)
    wrapped = wrappers.AssertOutOfBoundsWrapper(wrapped)
    wrapped = wrappers.OrderEnforcingWrapper(wrapped)
    return wrapped


class raw_env(AECEnv[str, dict[str, Any], int]):  # type: ignore[misc]  # PettingZoo's name
    """Sky Totems for 2-4 players, every totem set: the PettingZoo AEC environment, v0.

    Agents and turns
    ----------------
    Agents are ``player_0`` … ``player_{n-1}``, one per seat (seat numbers as in the
    engine: clockwise, ``player_{s}`` is seat ``s``). The environment follows the engine's
    decisions one by one (RULES.md §12): ``agent_selection`` is the seat the pending
    decision belongs to, and each `step` answers exactly one decision (place one
    pedestal, one cloud, choose one design…), so an agent often acts several times in a
    row. The only simultaneous decision, the secret choice of starting cards, is
    serialised in seat order; nobody's observation shows another seat's choice before
    all have chosen. The game is finite (10 rounds, then the final totem and the last
    reveals); there is no truncation.

    Observations
    ------------
    ``observe(agent)`` returns ``{"observation": dict of arrays, "action_mask": int8
    array}``, built only from ``skytotems.view(game, seat)`` (the seat's own view: public
    facts plus its own secrets, never another seat's goals nor future draws) and the
    seat's legal actions. The arrays (``ObservationEncoder`` in
    ``skytotems.env.encoding``; S = 4 seats, W = the window, seats relative: index 0 is
    the observer, then clockwise; absent seats are zero, or -1 where -1 means none):

    ====================  ==========  ==============================================
    key                   shape       content
    ====================  ==========  ==============================================
    heights               S×W×W       column heights (int16)
    kinds                 S×W×W       design of a column's bottom pedestal, -1 none
    clouds                S×W×W       1 where a cloud is
    covered               S×W×W       1 where a totem covers the cell (a wolf's gap too)
    totems                S×W×W       kind of the totem on the cell, -1 none
    outside               S×2         clouds and pedestals outside the window
    hoard                 S×10        dragon's hoard, count per design
    seats                 S           1 for seats in the game
    scores                S           score so far (pedestals, totems, revealed cards)
    revealed_points       S           points of revealed goal cards
    goal_counts           S           face-down goal cards held
    start_cards           S           starting card (card index), -1 until all chose
    start_player          S           one-hot: this round's start player
    first_player          S           one-hot: round 1's start player (BGA tie-break)
    acting                S           one-hot: seat(s) the pending decision waits on
    slots                 5×10        pedestals per slot and design
    slots_used            5           1 for slots in use (3, 4 or 5)
    bag                   10          bag contents by design (public, RULES.md §11)
    pool                  10          the open pool being resolved, by design
    hand                  3           own hand during setup (card indices), else -1
    goals                 2           own face-down goals (card indices), -1 none
    goal_points           2           their points
    goal_revealable       2           1 when the mission is met now
    goal_progress         2           rough progress in [0, 1]; 1 iff revealable
    kinds_in_play         5           totem kinds in play (bird wolf horse dragon cat)
    round                 1           0 during setup, then 1-10
    phase                 5           one-hot setup, play, final, last_reveals, over
    decision              10          one-hot pending decision kind (another seat's
                                      end-of-turn prompt reads as ``turn``)
    turn_mode             3           one-hot normal, extra (horse), final
    clouds_to_place       1           clouds left in a ``place_cloud`` decision
    cat_first_design      1           the cat blessing's first design, -1 none
    extra_turns           1           horse extra turns still owed
    ====================  ==========  ==============================================

    Card indices number the sorted card ids of the deck (``encoder.card_ids``).
    ``action_mask`` is 1 exactly at the indices of the agent's representable legal
    actions when it is ``agent_selection``, and all zeros for other agents and once the
    game is over.

    Actions
    -------
    ``Discrete(N)``, N = 5,923 for the default 16×16 window: a fixed enumeration of
    every action kind (``ActionCodec`` in ``skytotems.env.encoding`` documents the
    blocks, the window centred on the starting tile, and what happens at its edge: legal
    actions naming a cell outside the window are masked out; if none is left, a single
    ``fallback`` index plays the legal action nearest to the window). Stepping a
    masked-out index raises ``ValueError`` in `raw_env`; the wrapped `env` ends the game
    instead with reward -1 for the offender. `index_map(agent)` gives index → engine
    action, and `step_action` applies an engine action directly (bots, tests).

    Rewards
    -------
    All rewards arrive when the game ends (zero before), from the final view:

    - ``reward="win_loss"`` (default): +1 for the winner, -1 for every other seat; when
      the rulebook tie-break leaves several seats sharing first place, they get 0.
    - ``reward="score_diff"``: own final score minus the best final score among the
      other seats (positive only for the top score; the plain difference for 2 players).

    ``infos[agent]`` is ``{}`` during play and ``{"score": total, "place": place}`` at
    the end.

    Options (keyword arguments of `env` / `raw_env`)
    ------------------------------------------------
    ``players`` 2-4 (solo is not offered: one person holds two seats);
    ``totems`` any totem set of ``GameOptions`` ("beginner", "dragon",
    "cat-plus-three", "random-four" or four kind names); ``tie_break`` "bga" or
    "rulebook"; ``reward`` as above; ``window`` even, ≥ 4 (default 16; changes the
    spaces); ``deck`` a ``skytotems.Deck`` (default: the reconstructed deck);
    ``render_mode`` None, "ansi" (`render` returns text) or "human" (prints it).

    ``reset(seed=None, options=None)``: `seed` seeds the environment's generator, from
    which each game's engine seed is drawn (same seed, same actions: same game).
    ``options={"position": skytotems.Position(...)}`` starts from a mid-game position
    of the same options instead (its future draws follow the environment's seed, not
    the position's); other keys are ignored (PettingZoo's and Gymnasium's checkers pass
    a dummy option), while a ``position`` that is not a matching ``Position`` is an error.

    Copies: ``copy.deepcopy(env)`` and ``pickle`` work at any point of a game and give
    independent environments that continue identically (search over environments);
    `clone` does the same about 50 times faster by sharing what play never changes.
    """

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["human", "ansi"],
        "name": "sky_totems_v0",
        "is_parallelizable": False,
        "render_fps": 1,
    }

    def __init__(
        self,
        players: int = 2,
        totems: str = "beginner",
        tie_break: str = "bga",
        reward: str = "win_loss",
        window: int = DEFAULT_WINDOW,
        deck: Deck | None = None,
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        if not isinstance(players, int) or not 2 <= players <= 4:
            raise ValueError(f"players must be 2, 3 or 4, got {players!r}")
        if reward not in REWARD_MODES:
            raise ValueError(f"reward must be one of {', '.join(REWARD_MODES)}, got {reward!r}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be None, 'human' or 'ansi', got {render_mode!r}")
        self.game_options = GameOptions(players=players, totems=totems, tie_break=tie_break)
        self.reward_mode = reward
        self.render_mode = render_mode
        self.deck = deck or default_deck()
        self.codec = ActionCodec(window)
        self.encoder = ObservationEncoder([c.id for c in self.deck.cards], window)
        self.possible_agents = [f"player_{s}" for s in range(players)]
        self.agent_name_mapping = {a: s for s, a in enumerate(self.possible_agents)}
        mask_space = spaces.Box(0, 1, (self.codec.size,), np.int8)
        self.observation_spaces = {
            a: spaces.Dict({"observation": self.encoder.space, "action_mask": mask_space})
            for a in self.possible_agents
        }
        self.action_spaces = {a: spaces.Discrete(self.codec.size) for a in self.possible_agents}
        self.game: Game | None = None
        self._np_random: np.random.Generator | None = None
        self._views: dict[int, dict[str, Any]] = {}
        self._index_maps: dict[int, dict[int, Action]] = {}
        self.agents: list[str] = []
        self.rewards: dict[str, float] = {}
        self._cumulative_rewards: dict[str, float] = {}
        self.terminations: dict[str, bool] = {}
        self.truncations: dict[str, bool] = {}
        self.infos: dict[str, dict[str, Any]] = {}
        self.agent_selection = self.possible_agents[0]

    # ---------------------------------------------------------------- spaces

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    # ----------------------------------------------------------------- reset

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a new game (see the class docstring for `seed` and `options`)."""
        if seed is not None or self._np_random is None:
            self._np_random, _ = seeding.np_random(seed)
        game_seed = int(self._np_random.integers(0, 2**63 - 1))
        # Other keys are ignored, as Gymnasium and PettingZoo expect (their checkers pass
        # a dummy option); the one key read is checked strictly.
        position = (options or {}).get("position")
        if position is not None:
            self.game = self._game_from_position(position, game_seed)
        else:
            self.game = Game(self.game_options, game_seed, self.deck)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {} for a in self.agents}
        self._skip_agent_selection = None
        self._forget()
        self.agent_selection = self._pending_agent()

    def _game_from_position(self, position: object, seed: int) -> Game:
        if not isinstance(position, Position):
            raise TypeError("options['position'] must be a skytotems.Position")
        if position.options != self.game_options:
            raise ValueError(
                f"the position's options {position.options} differ from the environment's "
                f"{self.game_options}"
            )
        return game_from_position(replace(position, seed=seed, deck=position.deck or self.deck))

    # ------------------------------------------------------------ observing

    @property
    def np_random(self) -> np.random.Generator:
        """The environment's generator (engine seeds are drawn from it)."""
        if self._np_random is None:
            self._np_random, _ = seeding.np_random(None)
        return self._np_random

    def seat_view(self, agent: str) -> dict[str, Any]:
        """`agent`'s own view of the game (``skytotems.view``); do not modify it."""
        seat = self.agent_name_mapping[agent]
        cached = self._views.get(seat)
        if cached is None:
            cached = self._views[seat] = view(self._require_game(), seat)
        return cached

    def index_map(self, agent: str) -> dict[int, Action]:
        """Action index → engine action, for every index the agent's mask allows now."""
        seat = self.agent_name_mapping[agent]
        cached = self._index_maps.get(seat)
        if cached is None:
            game = self._require_game()
            if game.is_over or agent != self.agent_selection or agent not in self.agents:
                cached = {}
            else:
                cached = self.codec.seat_index_map(game, seat)
            self._index_maps[seat] = cached
        return cached

    def observe(self, agent: str) -> dict[str, Any]:
        """The agent's observation and action mask (see the class docstring)."""
        return {
            "observation": self.encoder.encode(self.seat_view(agent)),
            "action_mask": self.codec.mask(self.index_map(agent)),
        }

    # ----------------------------------------------------------------- step

    def step(self, action: int | np.integer[Any] | None) -> None:
        """Answer the pending decision of `agent_selection` with an action index."""
        agent = self.agent_selection
        if self.terminations.get(agent) or self.truncations.get(agent):
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} is not done: give an action index, not None")
        index = int(action)
        legal = self.index_map(agent)
        if index not in legal:
            what = self.codec.describe(index) if 0 <= index < self.codec.size else "out of range"
            raise ValueError(f"action {index} ({what}) is not legal for {agent} now (masked out)")
        self._apply(agent, legal[index])

    def step_action(self, action: Action) -> None:
        """Apply an engine action of `agent_selection` directly (it need not be
        representable in the window). IllegalAction / NotYourDecision when not legal."""
        agent = self.agent_selection
        if self.terminations.get(agent) or self.truncations.get(agent):
            raise ValueError("the game is over: step the finished agents with None")
        if action.seat != self.agent_name_mapping[agent]:
            raise ValueError(f"it is {agent}'s decision, not seat {action.seat}'s")
        game = self._require_game()
        if not game.is_legal(action):
            game.apply(action)  # raises the engine's explanation
        self._apply(agent, action)

    def _apply(self, agent: str, action: Action) -> None:
        game = self._require_game()
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        game.apply_fast(action)
        self._forget()
        if game.is_over:
            self._finish()
        else:
            self.agent_selection = self._pending_agent()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def _finish(self) -> None:
        final = view(self._require_game(), None)
        rewards = final_rewards(final, self.reward_mode)
        for seat, agent in enumerate(self.possible_agents):
            self.rewards[agent] = rewards[seat]
            self.terminations[agent] = True
            self.infos[agent] = {
                "score": final["score_sheets"][seat]["total"],
                "place": final["places"][seat],
            }

    def _pending_agent(self) -> str:
        seats = self._require_game().decision.seats
        return self.possible_agents[min(seats)]

    def _forget(self) -> None:
        self._views = {}
        self._index_maps = {}

    def _require_game(self) -> Game:
        if self.game is None:
            raise RuntimeError("call reset() before using the environment")
        return self.game

    # ---------------------------------------------------------------- render

    def render(self) -> str | None:
        """The public state as text (a spectator's view: no hidden card shown)."""
        if self.render_mode is None:
            warnings.warn("render() called with render_mode None", stacklevel=2)
            return None
        text = render_text(view(self._require_game(), None))
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release; present because `render` is defined."""

    # -------------------------------------------------------------- copying

    def clone(self) -> raw_env:
        """A fast independent copy for search (tens of microseconds, against milliseconds
        for ``copy.deepcopy``): the game, the generator and the AEC bookkeeping are
        copied; the spaces, codec, encoder and deck, which play never changes, are
        shared (so are the spaces' own sampling generators)."""
        other = raw_env.__new__(raw_env)
        other.__dict__.update(self.__dict__)
        other.game = None if self.game is None else self.game.copy()
        other._np_random = copy.deepcopy(self._np_random)
        other.agents = list(self.agents)
        other.rewards = dict(self.rewards)
        other._cumulative_rewards = dict(self._cumulative_rewards)
        other.terminations = dict(self.terminations)
        other.truncations = dict(self.truncations)
        other.infos = {agent: dict(info) for agent, info in self.infos.items()}
        other._views = {}
        other._index_maps = {}
        return other

    def __getstate__(self) -> dict[str, Any]:
        state = dict(self.__dict__)
        state["_views"] = {}
        state["_index_maps"] = {}
        return state

    def __setstate__(self, state: Mapping[str, Any]) -> None:
        self.__dict__.update(state)


def final_rewards(final_view: Mapping[str, Any], mode: str = "win_loss") -> list[float]:
    """Each seat's reward from a finished game's spectator view (see `raw_env`'s
    Rewards): ``win_loss`` +1 / -1 / 0 for a shared first place, or ``score_diff``."""
    totals = [sheet["total"] for sheet in final_view["score_sheets"]]
    places = final_view["places"]
    rewards = []
    for seat, total in enumerate(totals):
        if mode == "score_diff":
            rewards.append(float(total - max(t for s, t in enumerate(totals) if s != seat)))
        elif places[seat] != 1:
            rewards.append(-1.0)
        else:
            rewards.append(0.0 if places.count(1) > 1 else 1.0)
    return rewards


def render_text(spectator_view: Mapping[str, Any]) -> str:
    """Round, slots, bag, each altar in notation and the pending decision."""
    v = spectator_view
    lines = [f"round {v['round']} · phase {v['phase']} · start player {v['start_player']}"]
    lines.append("slots: " + " | ".join(" ".join(s) or "-" for s in v["slots"]))
    lines.append("bag: " + " ".join(f"{d}:{n}" for d, n in v["bag"].items() if n))
    for seat, (altar, entry) in enumerate(zip(v["altars"], v["seats"], strict=True)):
        lines.append(f"seat {seat} ({entry['score']['total']} pts): {altar['notation']}")
    decision = v["decision"]
    if decision is None:
        lines.append(f"game over · places {v['places']}")
    else:
        lines.append(f"waiting on seat(s) {decision['seats']}: {decision['kind']}")
    return "\n".join(lines)
