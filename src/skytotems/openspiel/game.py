"""Sky Totems as an OpenSpiel Python game, ``python_sky_totems`` (see docs/env.md).

Players act with the indices of the research environment's action enumeration
(``skytotems.env.ActionCodec``, 5,923 with the 16×16 window); every random draw of
the engine is an explicit chance node (`chance`): each step of the deal's shuffle and
the start player (uniform), and each pedestal drawn from the bag (probability =
pedestals of that design left / pedestals left). Observations and information states
come from one seat's view (``skytotems.view``) only: the string is the view as JSON,
the tensor is the environment's encoder (``ObservationEncoder``) flattened.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
import orjson
import pyspiel  # type: ignore[import-not-found]

from ..env.encoding import DEFAULT_WINDOW, ActionCodec, ObservationEncoder
from ..env.sky_totems_v0 import final_rewards, render_text
from ..rules.actions import Action, ChooseStart
from ..rules.cards import Deck, default_deck
from ..rules.determinize import game_from_view, sample_hidden
from ..rules.engine import Game
from ..rules.options import GameOptions
from ..rules.pieces import DESIGN_NAMES, TOTEM_KINDS
from ..rules.rng import Rng
from ..rules.view import view
from .chance import Distribution, ScriptedRng, resolve

GAME_NAME = "python_sky_totems"
MAX_GAME_LENGTH = 6000  # moves and chance outcomes; random 4-player games take about 300

GAME_TYPE = pyspiel.GameType(
    short_name=GAME_NAME,
    long_name="Sky Totems (Python)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.GENERAL_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=4,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification={"players": 2, "totems": "beginner", "tie_break": "bga"},
)


@dataclass(frozen=True)
class _Shared:
    """Read-only values that every state of a game shares; copies are the object itself
    (OpenSpiel clones a Python state by deep-copying its attributes)."""

    options: GameOptions
    deck: Deck
    codec: ActionCodec
    encoder: ObservationEncoder

    def __deepcopy__(self, memo: dict[int, Any]) -> _Shared:
        return self


class SkyTotemsGame(pyspiel.Game):  # type: ignore[misc]
    """The game: parameters ``players`` (2-4), ``totems`` and ``tie_break`` (as in
    ``skytotems.GameOptions``)."""

    def __init__(self, params: Mapping[str, Any] | None = None) -> None:
        params = dict(params or {})
        if params.get("players", 2) not in (2, 3, 4):
            raise ValueError(f"players must be 2, 3 or 4, got {params['players']!r}")
        options = GameOptions(
            players=int(params.get("players", 2)),
            totems=str(params.get("totems", "beginner")),
            tie_break=str(params.get("tie_break", "bga")),
        )
        deck = default_deck()
        codec = ActionCodec(DEFAULT_WINDOW)
        encoder = ObservationEncoder([c.id for c in deck.cards], DEFAULT_WINDOW)
        info = pyspiel.GameInfo(
            num_distinct_actions=codec.size,
            max_chance_outcomes=max(len(deck.cards), len(DESIGN_NAMES), len(TOTEM_KINDS)),
            num_players=options.players,
            min_utility=-1.0,
            max_utility=1.0,
            max_game_length=MAX_GAME_LENGTH,
        )
        super().__init__(GAME_TYPE, info, params)
        self.shared = _Shared(options=options, deck=deck, codec=codec, encoder=encoder)

    def new_initial_state(self) -> SkyTotemsState:
        return SkyTotemsState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: Mapping[str, Any] | None = None
    ) -> SeatObserver:
        if isinstance(iig_obs_type, Mapping):  # pyspiel passes only params when no type
            iig_obs_type, params = None, iig_obs_type
        if params:
            raise ValueError(f"observation parameters are not supported: {params}")
        if iig_obs_type is not None and (
            iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER
            or not iig_obs_type.public_info
        ):
            raise ValueError("only a seat's own view is offered (public + its private info)")
        return SeatObserver(self.shared.encoder)


class _Committed:
    """A game between moves, never changed once built (every move works on a copy),
    with what is derived from it; shared by clones, like `_Shared`."""

    def __init__(self, game: Game, codec: ActionCodec) -> None:
        self.game = game
        self.codec = codec
        self._index_map: dict[int, Action] | None = None
        self.views: dict[int | None, dict[str, Any]] = {}

    def __deepcopy__(self, memo: dict[int, Any]) -> _Committed:
        return self

    def index_map(self) -> dict[int, Action]:
        if self._index_map is None:
            game = self.game
            self._index_map = (
                {} if game.is_over else self.codec.seat_index_map(game, min(game.decision.seats))
            )
        return self._index_map

    def view(self, seat: int | None) -> dict[str, Any]:
        """A seat's view (None: a spectator's), computed once."""
        cached = self.views.get(seat)
        if cached is None:
            cached = self.views[seat] = view(self.game, seat)
        return cached


class SkyTotemsState(pyspiel.State):  # type: ignore[misc]
    """A state: a committed game, or a step (the setup, or a move) waiting for chance."""

    def __init__(self, game: SkyTotemsGame, committed: Game | None = None) -> None:
        super().__init__(game)
        self.shared: _Shared = game.shared
        self.committed: _Committed | None = None
        self.pending: Action | None = None  # the move being resolved (None: the setup)
        self.outcomes: list[int] = []
        self.distribution: Distribution | None = None
        if committed is None:
            self._resolve()
        else:
            self.committed = _Committed(committed, self.shared.codec)

    # ------------------------------------------------------------- OpenSpiel API

    def current_player(self) -> int:
        if self.distribution is not None:
            return int(pyspiel.PlayerId.CHANCE)
        game = self._game()
        if game.is_over:
            return int(pyspiel.PlayerId.TERMINAL)
        return min(game.decision.seats)

    def _legal_actions(self, player: int) -> list[int]:
        return sorted(self._require_committed().index_map())

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self.distribution is None:
            raise ValueError("not a chance node")
        return list(self.distribution)

    def _apply_action(self, action: int) -> None:
        if self.distribution is not None:
            if all(action != o for o, _ in self.distribution):
                raise ValueError(f"chance outcome {action} is impossible here")
            self.outcomes.append(int(action))
        else:
            legal = self._require_committed().index_map()
            if action not in legal:
                raise ValueError(f"action {action} is not legal now")
            self.pending = legal[action]
            self.outcomes = []
        self._resolve()

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            if self.pending is None:
                return f"setup draw {action}"
            return f"bag gives {DESIGN_NAMES[action]}"
        legal = self.committed.index_map() if self.committed is not None else {}
        if action in legal:
            return str(legal[action])
        return str(self.shared.codec.describe(action))

    def is_terminal(self) -> bool:
        return self.distribution is None and self._game().is_over

    def returns(self) -> list[float]:
        if not self.is_terminal():
            return [0.0] * self.shared.options.players
        return final_rewards(self._require_committed().view(None), "win_loss")

    def resample_from_infostate(
        self, player_id: int, probability_sampler: Callable[[], float]
    ) -> SkyTotemsState:
        """A state the seat cannot tell from this one: hidden cards and the future
        draws are sampled (``skytotems.sample_hidden``) from its view alone."""
        if self.distribution is not None or self.is_terminal():
            raise ValueError("resampling is offered at decisions only")
        seat_view = self._require_committed().view(player_id)
        rng = Rng(int(probability_sampler() * 2**53))
        game = game_from_view(seat_view, sample_hidden(seat_view, rng))
        return SkyTotemsState(self.get_game(), game)

    def __str__(self) -> str:
        if self.committed is None:
            return f"setup: {len(self.outcomes)} draws made"
        text = render_text(self.committed.view(None))
        if self.distribution is not None:
            text += f"\nresolving {self.pending}: {len(self.outcomes)} draws made"
        return text

    # ---------------------------------------------------------------- helpers

    def seat_view(self, seat: int) -> dict[str, Any]:
        """The seat's view of the committed game (before a move being resolved)."""
        return self._require_committed().view(seat)

    def _game(self) -> Game:
        return self._require_committed().game

    def _require_committed(self) -> _Committed:
        if self.committed is None:
            raise ValueError("the setup is still drawing: no game yet")
        return self.committed

    def _resolve(self) -> None:
        shared = self.shared
        outcomes = self.outcomes
        if self.pending is None:
            result = resolve(lambda rng: Game(shared.options, 0, shared.deck, rng=rng), outcomes)
        else:
            base, action = self._game(), self.pending

            def step(rng: ScriptedRng) -> Game:
                game = base.copy()
                game.rng = rng
                game.apply_fast(action)
                return game

            result = resolve(step, outcomes)
        if isinstance(result, Game):
            self.committed = _Committed(result, shared.codec)
            self.pending, self.outcomes, self.distribution = None, [], None
        else:
            self.distribution = result


class SeatObserver:
    """OpenSpiel's observer of one seat: the view as JSON, the encoder's arrays as one
    float32 tensor (``dict`` names each array). Between a move and its last draw the
    seat sees the game before the move, the move (a start card stays hidden) and the
    draws so far; during the setup's draws it sees nothing yet."""

    def __init__(self, encoder: ObservationEncoder) -> None:
        self.encoder = encoder
        shapes = {k: tuple(space.shape or ()) for k, space in encoder.space.spaces.items()}
        size = sum(int(np.prod(s)) for s in shapes.values())
        self.tensor = np.zeros(size, np.float32)
        self.dict: dict[str, np.ndarray] = {}
        start = 0
        for key, shape in shapes.items():
            n = int(np.prod(shape))
            self.dict[key] = self.tensor[start : start + n].reshape(shape)
            start += n

    def set_from(self, state: SkyTotemsState, player: int) -> None:
        if state.committed is None:
            self.tensor.fill(0.0)
            return
        arrays = self.encoder.encode(state.seat_view(player))
        for key, target in self.dict.items():
            target[...] = arrays[key]

    def string_from(self, state: SkyTotemsState, player: int) -> str:
        if state.committed is None:
            return f"setup: {len(state.outcomes)} draws made"
        text = orjson.dumps(state.seat_view(player), option=orjson.OPT_SORT_KEYS).decode()
        if state.distribution is not None:
            move = state.pending
            shown = f"{move.type} by seat {move.seat}" if isinstance(move, ChooseStart) else move
            drawn = " ".join(DESIGN_NAMES[o] for o in state.outcomes)
            text += f"\nresolving {shown}; drawn: {drawn}"
        return text


def register() -> None:
    """Register ``python_sky_totems`` with pyspiel (once; later calls do nothing)."""
    if GAME_NAME not in pyspiel.registered_names():
        pyspiel.register_game(GAME_TYPE, SkyTotemsGame)


def random_seed_sampler(seed: int) -> Callable[[], float]:
    """A seeded stand-in for ``pyspiel.UniformProbabilitySampler`` (tests, benchmarks)."""
    return random.Random(seed).random
