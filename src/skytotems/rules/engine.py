"""The game: state, the decision machine of RULES.md §12, and `apply`.

The engine is a small stack machine. Each entry on `_stack` is a step still to
come (a pool to resolve, clouds to place, cats to check, the rest of the turn...),
one type per step of RULES.md §12 (`skytotems.rules.steps`). `_advance` settles
steps that need nobody's choice until the top step asks a decision; `apply`
checks an action against the legal ones, changes the state, and advances.
Nothing here knows about bots, servers or screens.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from types import MappingProxyType
from typing import Any, ClassVar, TypeVarTuple

from .actions import (
    Action,
    BuildTotem,
    ChooseCat,
    ChooseDesign,
    ChooseStart,
    DrawFromBag,
    EndTurn,
    Pass,
    PlaceCloud,
    PlacePedestal,
    ReturnPedestal,
    Reveal,
    TakeSlot,
    WolfStop,
    WolfTake,
)
from .altar import Altar
from .cards import Card, Deck, default_deck
from .consistency import check_game
from .decisions import Decision
from .errors import GameOver, IllegalAction, NotYourDecision, OptionsError, WrongDecision
from .events import (
    CardRevealed,
    CardsDealt,
    CloudPlaced,
    DesignChosen,
    Event,
    GameEnded,
    HoardAdded,
    NothingGained,
    Passed,
    PedestalPlaced,
    PedestalReturned,
    PedestalsDrawn,
    PhaseStarted,
    RoundEnded,
    SlotFilled,
    SlotTaken,
    StartCardsRevealed,
    StartChosen,
    StartPlayerChosen,
    TotemBuilt,
    TotemSetChosen,
    TurnEnded,
    TurnStarted,
)
from .grid import cell_to_json, format_cell
from .options import ROUNDS, SLOTS_BY_SEATS, TOTAL_SLOTS, GameOptions
from .pieces import DESIGN_NAMES, T_CAT, T_DRAGON, T_HORSE, T_WOLF, TOTEM_NAMES, full_bag
from .rng import Rng
from .scoring import final_places, score_sheet
from .steps import (
    CLOUD_REASONS,
    TURN_MODES,
    AfterAction,
    BirdDraw,
    CatBlessing,
    CatCheck,
    CloudsOwed,
    DragonBuild,
    EndOfTurnPrompt,
    FillSlots,
    LastReveals,
    OpenPool,
    RevealReward,
    StartingAltar,
    StartingChoice,
    Step,
    TopOfTurn,
    WolfBlessing,
)
from .totems import build_totem, cat_cells, cat_owed, sites

# Which action types answer which decision kind.
ANSWERS: dict[str, tuple[type[Action], ...]] = {
    "choose_start": (ChooseStart,),
    "turn": (Reveal, TakeSlot, DrawFromBag, BuildTotem, Pass),
    "place_pedestal": (PlacePedestal, ReturnPedestal, Reveal),
    "place_cloud": (PlaceCloud,),
    "choose_design": (ChooseDesign,),
    "choose_cat": (ChooseCat,),
    "wolf_blessing": (WolfTake, WolfStop),
    "dragon_build": (TakeSlot, DrawFromBag),
    "end_turn": (Reveal, EndTurn),
    "last_reveal": (Reveal, EndTurn),
}


Fields = TypeVarTuple("Fields")

# Steps are immutable values, so the hot paths reuse one instance per value instead of
# building a NamedTuple each time (a Python-level `__new__` and a tracked allocation).
_SEATS = range(max(SLOTS_BY_SEATS))
_TOP_OF_TURN = {m: tuple(TopOfTurn(s, m) for s in _SEATS) for m in TURN_MODES}
_AFTER_ACTION = {m: tuple(AfterAction(s, m) for s in _SEATS) for m in TURN_MODES}
_END_OF_TURN = {m: tuple(EndOfTurnPrompt(s, m) for s in _SEATS) for m in TURN_MODES}
_CAT_CHECK = tuple(CatCheck(s) for s in _SEATS)
_OPEN_POOL = tuple(OpenPool(s) for s in _SEATS)
# _CLOUDS_OWED[why][remaining][seat], remaining 0 to 3 (3 for a bird).
_CLOUDS_OWED = {
    why: tuple(tuple(CloudsOwed(s, r, why) for s in _SEATS) for r in range(4))
    for why in CLOUD_REASONS
}


# Decisions that follow from their step alone (and the pool's designs) are shared the
# same way, built once: their contexts are read-only mappings, so no consumer can change
# another game's. The pool and cloud decisions are kept as they come up (bounded).
def _read_only_decision(kind: str, seat: int, **context: Any) -> Decision:
    return Decision(kind, (seat,), MappingProxyType(context))


def _shared(
    cache: dict[Any, Decision], key: object, kind: str, seat: int, **context: Any
) -> Decision:
    """`_read_only_decision(...)`, kept in `cache` under `key` (emptied when too large)."""
    if len(cache) >= _INTERNED_LIMIT:
        cache.clear()
    decision = cache[key] = _read_only_decision(kind, seat, **context)
    return decision


_TURN_DECISIONS = {
    m: tuple(_read_only_decision("turn", s, mode=m, acted=False) for s in _SEATS)
    for m in TURN_MODES
}
_END_TURN_DECISIONS = {
    m: tuple(_read_only_decision("end_turn", s, mode=m, acted=True) for s in _SEATS)
    for m in TURN_MODES
}
_SEAT_DECISIONS = {
    kind: tuple(_read_only_decision(kind, s) for s in _SEATS)
    for kind in ("choose_cat", "dragon_build", "last_reveal")
}
_REWARD_DECISIONS = tuple(_read_only_decision("choose_design", s, purpose="reward") for s in _SEATS)
_POOL_DECISIONS: dict[Any, Decision] = {}
_CLOUD_DECISIONS: dict[Any, Decision] = {}
# Actions of the small kinds, one instance per value (see `_place_pedestals`).
_RETURN_PEDESTAL = tuple(
    tuple(ReturnPedestal(s, d) for d in range(len(DESIGN_NAMES))) for s in _SEATS
)
_CHOOSE_DESIGN = tuple(tuple(ChooseDesign(s, d) for d in range(len(DESIGN_NAMES))) for s in _SEATS)
_TAKE_SLOT = tuple(tuple(TakeSlot(s, i) for i in range(TOTAL_SLOTS)) for s in _SEATS)
_DRAW_FROM_BAG = tuple(DrawFromBag(s) for s in _SEATS)
_PASS = tuple(Pass(s) for s in _SEATS)
_END_TURN = tuple(EndTurn(s) for s in _SEATS)
_WOLF_STOP = tuple(WolfStop(s) for s in _SEATS)


class Game:
    """One game of Sky Totems.

    >>> game = Game(GameOptions(players=2), seed=7)
    >>> game.decision.kind
    'choose_start'
    >>> events = game.apply(game.legal_actions(0)[0])
    """

    def __init__(
        self,
        options: GameOptions | None = None,
        seed: int = 0,
        deck: Deck | None = None,
        rng: Rng | None = None,
        *,
        _blank: bool = False,
    ) -> None:
        # `_blank`: an empty shell that `copy`, `restore` and unpickling fill in field by
        # field (a compiled class has no `__new__` that skips `__init__`).
        if _blank:
            return
        self._deck_json: list[dict[str, Any]] | None = None
        self.options = options or GameOptions()
        self.deck = deck or default_deck()
        self.seed = seed
        # `rng` replaces the seeded generator where something outside chooses the draws
        # (OpenSpiel's explicit chance nodes); `seed` is then only recorded.
        self.rng = Rng(seed) if rng is None else rng
        n = self.options.seats
        self.n = n
        self.kinds = self.options.resolve_kinds(self.rng)
        self.cat_in_play = T_CAT in self.kinds
        self.buildable_kinds = tuple(k for k in self.kinds if k != T_CAT)
        in_play = self.deck.for_totems(self.kinds)
        if len(in_play) < 3 * n:
            raise OptionsError(
                f"the deck has {len(in_play)} cards in play, {3 * n} are needed for {n} seats"
            )
        self.cards: dict[str, Card] = {c.id: c for c in in_play}
        order = [c.id for c in in_play]
        self.rng.shuffle(order)  # type: ignore[arg-type]
        self.hands: list[tuple[str, ...]] = [tuple(order[3 * s : 3 * s + 3]) for s in range(n)]
        self.box: list[str] = order[3 * n :]
        self.first_player = self.rng.below(n)
        self.start_player = self.first_player
        self.current = self.first_player
        self.altars = [Altar() for _ in range(n)]
        self.bag = full_bag()
        self.bag_total = sum(self.bag)
        self.slots: list[list[int]] = [[] for _ in range(self.options.slots)]
        self.start_cards: list[str | None] = [None] * n
        self.goals: list[list[str]] = [[] for _ in range(n)]
        self.revealed: list[list[str]] = [[] for _ in range(n)]
        self.round = 0
        self.phase = "setup"
        self.turns_in_round = 0
        self.extra_turns = 0
        self.pool: list[int] = []
        self._stack: list[Step] = [StartingChoice()]
        self.history: list[Action] = []
        self.base_move = 0  # moves made before `history` began (rebuilt games)
        self._events: list[Event] | None = []
        self._decision: Decision | None = None
        self._legal: dict[int, list[Action]] = {}
        self._reveal_cache: dict[int, tuple[int, tuple[str, ...]]] = {}
        self._site_cache: dict[int, tuple[int, list[BuildTotem]]] = {}
        self._emit(TotemSetChosen, tuple(TOTEM_NAMES[k] for k in self.kinds))
        self._emit(StartPlayerChosen, self.first_player)
        for s in range(n):
            self._emit(CardsDealt, s, self.hands[s], len(self.hands[s]))
        self.setup_events: list[Event] = self._events or []
        self._events = None

    # ------------------------------------------------------------------ copying

    def copy(self) -> Game:
        """A fully independent copy, cheap enough for search (a search copies games at
        every estimate): immutable fields are shared, mutable ones copied. Every field
        is named (a compiled Game has no `__dict__`); `_STATE` lists them for pickling,
        and a test holds both lists to the fields a game has."""
        other = Game(_blank=True)
        other.options = self.options
        other.deck = self.deck
        other.seed = self.seed
        other.rng = self.rng.copy()
        other.n = self.n
        other.kinds = self.kinds
        other.cat_in_play = self.cat_in_play
        other.buildable_kinds = self.buildable_kinds
        other.cards = self.cards
        other.hands = self.hands[:]
        other.box = self.box[:]
        other.first_player = self.first_player
        other.start_player = self.start_player
        other.current = self.current
        other.altars = [a.copy() for a in self.altars]
        other.bag = self.bag[:]
        other.bag_total = self.bag_total
        other.slots = [s[:] for s in self.slots]
        other.start_cards = self.start_cards[:]
        other.goals = [g[:] for g in self.goals]
        other.revealed = [r[:] for r in self.revealed]
        other.round = self.round
        other.phase = self.phase
        other.turns_in_round = self.turns_in_round
        other.extra_turns = self.extra_turns
        other.pool = self.pool[:]
        other._stack = self._stack[:]
        other.history = self.history[:]
        other.base_move = self.base_move
        other._events = None
        other._decision = self._decision
        other._legal = self._legal.copy()
        other._reveal_cache = self._reveal_cache.copy()
        other._site_cache = self._site_cache.copy()
        other.setup_events = self.setup_events
        other._deck_json = self._deck_json
        return other

    # Every field of a game, for pickling (caches are left out and rebuilt).
    _STATE: ClassVar[tuple[str, ...]] = (
        "options", "deck", "seed", "rng", "n", "kinds", "cat_in_play", "buildable_kinds",
        "cards", "hands", "box", "first_player", "start_player", "current", "altars", "bag",
        "bag_total", "slots", "start_cards", "goals", "revealed", "round", "phase",
        "turns_in_round", "extra_turns", "pool", "_stack", "history", "base_move",
        "setup_events",
    )  # fmt: skip
    _CACHES: ClassVar[tuple[str, ...]] = (
        "_events", "_decision", "_legal", "_reveal_cache", "_site_cache", "_deck_json"
    )  # fmt: skip

    def __getstate__(self) -> dict[str, Any]:
        return {name: getattr(self, name) for name in self._STATE}

    def __setstate__(self, state: dict[str, Any]) -> None:
        for name, value in state.items():
            setattr(self, name, value)
        self._events = None
        self._deck_json = None
        self._forget_caches()

    def __reduce__(self) -> tuple[Any, ...]:
        # an empty shell, then the state (the default would call `Game()`, which deals)
        return (_blank_game, (), self.__getstate__())

    # ----------------------------------------------------------------- querying

    @property
    def is_over(self) -> bool:
        return self.phase == "over"

    @property
    def decision(self) -> Decision:
        """The pending decision (GameOver if the game has ended)."""
        if self._decision is None:
            if self.phase == "over":
                raise GameOver("the game is over")
            self._decision = self._make_decision()
        return self._decision

    @property
    def pending_steps(self) -> tuple[Step, ...]:
        """The steps still to resolve, innermost last (a read-only copy of the stack).

        Each is a small typed step (`skytotems.rules.steps`), e.g. `OpenPool(seat)` or
        `CloudsOwed(seat, remaining, why)`; evaluators read what the game still owes a
        seat from them.
        """
        return tuple(self._stack)

    def pending_seats(self) -> tuple[int, ...]:
        """Seats that may act now (empty once the game is over)."""
        return () if self.phase == "over" else self.decision.seats

    def legal_actions(self, seat: int | None = None) -> list[Action]:
        """The exact legal actions of `seat` now (all pending seats' when None)."""
        if self.phase == "over":
            return []
        if seat is None:
            out: list[Action] = []
            for s in self.decision.seats:
                out.extend(self.legal_actions(s))
            return out
        cached = self._legal.get(seat)
        if cached is None:
            cached = self._legal[seat] = (
                self._generate_legal(seat) if seat in self.decision.seats else []
            )
        return list(cached)

    def is_legal(self, action: Action) -> bool:
        """Whether `action` may be applied now."""
        if self.phase == "over" or action.seat not in self.decision.seats:
            return False
        self.legal_actions(action.seat)
        return action in self._legal[action.seat]

    def revealable(self, seat: int) -> tuple[str, ...]:
        """Face-down goals of `seat` whose mission is met now (private to `seat`)."""
        altar = self.altars[seat]
        cached = self._reveal_cache.get(seat)
        if cached is not None and cached[0] == altar.version:
            return cached[1]
        met = tuple(c for c in self.goals[seat] if self.cards[c].mission.met(altar))
        self._reveal_cache[seat] = (altar.version, met)
        return met

    def totem_options(self, seat: int) -> list[BuildTotem]:
        """Every totem `seat` could build now (cached per altar version)."""
        altar = self.altars[seat]
        cached = self._site_cache.get(seat)
        if cached is not None and cached[0] == altar.version:
            return cached[1]
        options = [
            BuildTotem(seat, kind, cells)
            for kind in self.buildable_kinds
            for cells in sites(altar, kind)
        ]
        self._site_cache[seat] = (altar.version, options)
        return options

    def turn_order(self) -> list[int]:
        """Seats in this round's order, from the start player."""
        return [(self.start_player + i) % self.n for i in range(self.n)]

    def card(self, card_id: str) -> Card:
        return self.cards[card_id]

    def deck_json(self) -> list[dict[str, Any]]:
        """The cards in play in their JSON form, sorted by id (computed once per game;
        shared between views, so treat it as read-only)."""
        cached = self._deck_json
        if cached is None:
            cached = self._deck_json = [self.cards[c].to_json() for c in sorted(self.cards)]
        return cached

    # ----------------------------------------------------------------- applying

    def apply(self, action: Action) -> list[Event]:
        """Apply a legal action and return the events it caused (unfiltered).

        Anything not legal raises an `IllegalAction` naming the reason and changes
        nothing. Use `skytotems.rules.view.events_for` before showing events to a seat.
        """
        if self.phase == "over":
            raise GameOver("the game is over; no action can be applied")
        if not isinstance(action, Action):
            raise WrongDecision(f"not an action: {action!r}")
        decision = self.decision
        if action.seat not in decision.seats:
            if decision.kind == "choose_start" and 0 <= action.seat < self.n:
                raise NotYourDecision(f"seat {action.seat} has already chosen a starting card")
            raise NotYourDecision(
                f"seat {action.seat} cannot act now: the game waits on seat(s) "
                f"{', '.join(map(str, decision.seats))} ({decision.public().kind})"
            )
        if not self.is_legal(action):
            try:
                error = self._explain(action)
            except (TypeError, ValueError, IndexError, KeyError, AttributeError):
                error = IllegalAction(f"{action!r} is not legal now")
            raise error
        events: list[Event] = []
        self._events = events
        try:
            self._do(action)
            self.history.append(action)
            self._advance()
        finally:
            self._events = None
        return events

    def apply_fast(self, action: Action) -> None:
        """Apply an action known to be legal (from `legal_actions`), with no events.

        For search and playouts only: skips validation.
        """
        self._do(action)
        self.history.append(action)
        self._advance()

    # -------------------------------------------------------------- the machine

    def _emit(self, event: Callable[[*Fields], Event], *fields: *Fields) -> None:
        """Record `event(*fields)` while `apply` collects events. The event is built only
        then: `apply_fast` (search, playouts) never pays for objects nobody reads."""
        if self._events is not None:
            self._events.append(event(*fields))

    def _changed(self) -> None:
        self._decision = None
        self._legal = {}

    def _forget_caches(self) -> None:
        """Drop every cache, after the state was set field by field (positions, views)."""
        self._changed()
        self._reveal_cache = {}
        self._site_cache = {}

    def _do(self, action: Action) -> None:
        self._changed()
        handler = _HANDLERS[type(action)]
        handler(self, action)

    def _advance(self) -> None:
        """Settle steps that need no decision until one does (or the game ends).

        Steps are told apart by `type(step) is ...`, in the order they come up most: a
        `match` on class patterns costs a full isinstance check per case, which made
        every engine step several percent slower (issue 16's measurement).
        """
        self._changed()
        stack = self._stack
        while stack:
            step = stack[-1]
            if type(step) is OpenPool:
                if self.pool:
                    return
                stack.pop()
            elif type(step) is CatCheck:
                if self.cat_in_play and cat_owed(self.altars[step.seat]):
                    return
                stack.pop()
            elif type(step) is AfterAction:
                stack.pop()
                if self.extra_turns > 0:
                    self.extra_turns -= 1
                    stack.append(_TOP_OF_TURN["extra"][step.seat])
                    self._emit(TurnStarted, step.seat, self.round, "extra")
                else:
                    stack.append(_END_OF_TURN[step.mode][step.seat])
            elif type(step) is EndOfTurnPrompt:
                # With `confirm_turns` every turn ends here, reveal or not (§11).
                if self.options.confirm_turns or self.revealable(step.seat):
                    return
                stack.pop()
                self._pass_turn(step.seat)
            elif type(step) is TopOfTurn or type(step) is CloudsOwed:
                return
            elif type(step) is WolfBlessing:
                stacks = self.altars[step.seat].stacks
                bag = self.bag
                if any(bag[stacks[c][0]] for c in step.remaining):
                    return
                stack.pop()
            elif type(step) is RevealReward:
                if self.bag_total:
                    return
                stack.pop()
                self._emit(NothingGained, step.seat, "empty_bag")
            elif type(step) is CatBlessing:
                seat, first = step
                if first < 0:
                    if self.bag_total:
                        return
                    stack.pop()
                    self._emit(NothingGained, seat, "empty_bag")
                elif any(n for d, n in enumerate(self.bag) if d != first):
                    return
                else:
                    stack[-1] = OpenPool(seat)
            elif type(step) is BirdDraw:
                self.pool = self._draw_random(3, step.seat, "bird")
                stack[-1] = OpenPool(step.seat)
            elif type(step) is LastReveals:
                if self.options.confirm_turns or self.revealable(step.seat):
                    return
                stack.pop()
                self._next_last_reveal(step.order)
            elif type(step) is StartingAltar:
                stack.pop()
                self._build_start_altar(step.seat)
            elif type(step) is FillSlots:
                stack.pop()
                self._fill_slots_at_setup()
            else:  # StartingChoice, DragonBuild: always a decision
                return
        if self.phase != "over":
            self._finish()

    def _make_decision(self) -> Decision:
        step = self._stack[-1]
        if type(step) is OpenPool:
            key: tuple[object, ...] = (step.seat, *sorted(self.pool))
            decision = _POOL_DECISIONS.get(key)
            if decision is None:
                pool = [DESIGN_NAMES[d] for d in sorted(self.pool)]
                decision = _shared(_POOL_DECISIONS, key, "place_pedestal", step.seat, pool=pool)
            return decision
        if type(step) is TopOfTurn:
            return _TURN_DECISIONS[step.mode][step.seat]
        if type(step) is CloudsOwed:
            key = (step.seat, step.remaining, step.why)
            decision = _CLOUD_DECISIONS.get(key)
            if decision is None:
                decision = _shared(
                    _CLOUD_DECISIONS, key, "place_cloud", step.seat,
                    remaining=step.remaining, why=step.why,
                )  # fmt: skip
            return decision
        if type(step) is WolfBlessing:
            remaining = [cell_to_json(c) for c in step.remaining]
            return _read_only_decision("wolf_blessing", step.seat, remaining=remaining)
        if type(step) is StartingChoice:
            seats = tuple(s for s in range(self.n) if self.start_cards[s] is None)
            chosen = [s for s in range(self.n) if self.start_cards[s] is not None]
            return Decision("choose_start", seats, MappingProxyType({"chosen": chosen}))
        if type(step) is EndOfTurnPrompt:
            return _END_TURN_DECISIONS[step.mode][step.seat]
        if type(step) is CatCheck:
            return _SEAT_DECISIONS["choose_cat"][step.seat]
        if type(step) is RevealReward:
            return _REWARD_DECISIONS[step.seat]
        if type(step) is CatBlessing:
            cat: dict[str, Any] = {"purpose": "cat"}
            if step.first >= 0:
                cat["first"] = DESIGN_NAMES[step.first]
            return Decision("choose_design", (step.seat,), MappingProxyType(cat))
        if type(step) is DragonBuild:
            return _SEAT_DECISIONS["dragon_build"][step.seat]
        if type(step) is LastReveals:
            return _SEAT_DECISIONS["last_reveal"][step.seat]
        raise AssertionError(f"no decision for step {step!r}")  # pragma: no cover

    def _generate_legal(self, seat: int) -> list[Action]:
        step = self._stack[-1]
        out: list[Action] = []
        if type(step) is OpenPool:
            altar = self.altars[seat]
            for d in sorted(set(self.pool)):
                out.extend(_place_pedestals(seat, d, altar.pedestal_cells(d)))
                out.append(_RETURN_PEDESTAL[seat][d])
            # Open point, unless in the last reveals (one card at a time) or while a cat
            # is owed: a column of height >= 6 waits for its cat (RULES.md §12).
            if self.phase != "last_reveals" and not (self.cat_in_play and cat_owed(altar)):
                out.extend(Reveal(seat, c) for c in self.revealable(seat))
        elif type(step) is TopOfTurn:
            out.extend(Reveal(seat, c) for c in self.revealable(seat))
            if step.mode == "final":
                out.extend(self.totem_options(seat))
                out.append(_PASS[seat])
            else:
                out.extend(self._build_pedestal_actions(seat))
                out.extend(self.totem_options(seat))
        elif type(step) is CloudsOwed:
            out.extend(_place_clouds(seat, self.altars[seat].cloud_cells()))
        elif type(step) is WolfBlessing:
            stacks = self.altars[seat].stacks
            out.extend(WolfTake(seat, c) for c in step.remaining if self.bag[stacks[c][0]])
            out.append(_WOLF_STOP[seat])
        elif type(step) is StartingChoice:
            out.extend(ChooseStart(seat, c) for c in self.hands[seat])
        elif type(step) is CatCheck:
            out.extend(ChooseCat(seat, c) for c in cat_cells(self.altars[seat]))
        elif type(step) is RevealReward or type(step) is CatBlessing:
            first = step.first if type(step) is CatBlessing else -1
            choose = _CHOOSE_DESIGN[seat]
            out.extend(choose[d] for d, count in enumerate(self.bag) if count and d != first)
        elif type(step) is DragonBuild:
            out.extend(self._build_pedestal_actions(seat))
        elif type(step) is EndOfTurnPrompt or type(step) is LastReveals:
            out.extend(Reveal(seat, c) for c in self.revealable(seat))
            out.append(_END_TURN[seat])
        return out

    def _build_pedestal_actions(self, seat: int) -> list[Action]:
        """Take a non-empty slot, or draw 2 from the bag when every slot is empty (§5)."""
        take = _TAKE_SLOT[seat]
        slots: list[Action] = [take[i] for i, s in enumerate(self.slots) if s]
        return slots or [_DRAW_FROM_BAG[seat]]

    # ----------------------------------------------------------------- handlers

    def _choose_start(self, a: ChooseStart) -> None:
        self.start_cards[a.seat] = a.card
        self.goals[a.seat] = [c for c in self.hands[a.seat] if c != a.card]
        self._emit(StartChosen, a.seat, a.card)
        if all(c is not None for c in self.start_cards):
            self._build_start_altars()

    def _build_start_altars(self) -> None:
        """RULES.md §12 setup order: once every seat has chosen, the starting altars are
        built one seat at a time from the start player on, then the slots are filled."""
        self._emit(StartCardsRevealed, tuple(c or "" for c in self.start_cards))
        stack = self._stack
        stack.pop()  # the starting choice
        stack.append(FillSlots())
        for seat in reversed(self.turn_order()):
            stack.append(StartingAltar(seat))

    def _build_start_altar(self, seat: int) -> None:
        """RULES.md §4 step 4: the card's pedestals, then its cloud (if it shows one) as
        this seat's `place_cloud` decision, before the next seat builds."""
        card = self.cards[self.start_cards[seat] or ""]
        altar = self.altars[seat]
        drawn = []
        for cell, designs in card.start.columns:
            for d in designs:
                if self.bag[d]:
                    self._take_from_bag(d)
                    altar.add_pedestal(d, cell)
                    drawn.append(d)
                    self._emit(PedestalPlaced, seat, d, cell, "start")
        self._emit(PedestalsDrawn, seat, "start", tuple(drawn))
        if card.start.cloud:
            self._stack.append(CloudsOwed(seat, 1, "start_card"))

    def _fill_slots_at_setup(self) -> None:
        for i in range(len(self.slots)):
            drawn = self._draw_random(2, None, "slot_fill")
            self.slots[i] = drawn
            self._emit(SlotFilled, i, tuple(drawn))
        self.round = 1
        self.phase = "play"
        self._emit(PhaseStarted, "play")
        self._start_turn(self.start_player, "normal")

    def _start_turn(self, seat: int, mode: str) -> None:
        self.current = seat
        self._stack.append(_TOP_OF_TURN[mode][seat])
        self._emit(TurnStarted, seat, self.round, mode)

    def _take_slot(self, a: TakeSlot) -> None:
        taken = self.slots[a.slot]
        self.slots[a.slot] = []
        self._emit(SlotTaken, a.seat, a.slot, tuple(taken))
        self._open_build_pool(a.seat, list(taken))

    def _draw_from_bag(self, a: DrawFromBag) -> None:
        self._open_build_pool(a.seat, self._draw_random(2, a.seat, "draw"))

    def _open_build_pool(self, seat: int, pool: list[int]) -> None:
        """A build-pedestals action (also the dragon's): resolve the pool, then cats."""
        self.pool = pool
        stack = self._stack
        top = stack.pop()
        if type(top) is TopOfTurn:
            stack.append(_AFTER_ACTION[top.mode][seat])
        stack.append(_CAT_CHECK[seat])
        stack.append(_OPEN_POOL[seat])

    def _build_totem(self, a: BuildTotem) -> None:
        seat = a.seat
        altar = self.altars[seat]
        totem = build_totem(altar, a.kind, a.cells)
        altar.add_totem(totem)
        self._emit(TotemBuilt, seat, a.kind, a.cells, totem.height, totem.points)
        stack = self._stack
        top = stack.pop()
        assert isinstance(top, TopOfTurn)  # a totem is built only at the top of a turn
        stack.append(_AFTER_ACTION[top.mode][seat])
        stack.append(_CAT_CHECK[seat])
        kind = a.kind
        if kind == T_HORSE:
            self.extra_turns += 1
        elif kind == T_WOLF:
            remaining = tuple(sorted(c for c in altar.stacks if c not in altar.covered))
            stack.append(WolfBlessing(seat, remaining))
        elif kind == T_DRAGON:
            if self.bag_total:
                d = self._draw_random(1, seat, "hoard")[0]
                altar.add_hoard(d)
                self._emit(HoardAdded, seat, d)
            else:
                self._emit(NothingGained, seat, "empty_bag")
            stack.append(DragonBuild(seat))
        else:  # bird: 3 clouds, then 3 random pedestals
            stack.append(BirdDraw(seat))
            stack.append(_CLOUDS_OWED["bird"][3][seat])

    def _pass(self, a: Pass) -> None:
        self._emit(Passed, a.seat)
        top = self._stack.pop()
        assert isinstance(top, TopOfTurn)  # passing answers only a final-totem turn
        self._stack.append(AfterAction(a.seat, top.mode))

    def _place_pedestal(self, a: PlacePedestal) -> None:
        self.pool.remove(a.design)
        self.altars[a.seat].add_pedestal(a.design, a.cell)
        self._emit(PedestalPlaced, a.seat, a.design, a.cell, "pool")

    def _return_pedestal(self, a: ReturnPedestal) -> None:
        self.pool.remove(a.design)
        self.bag[a.design] += 1
        self.bag_total += 1
        self._emit(PedestalReturned, a.seat, a.design)
        self._stack.append(_CLOUDS_OWED["return"][1][a.seat])

    def _place_cloud(self, a: PlaceCloud) -> None:
        self.altars[a.seat].add_cloud(a.cell)
        self._emit(CloudPlaced, a.seat, a.cell)
        step = self._stack[-1]
        assert isinstance(step, CloudsOwed)
        if step.remaining > 1:
            self._stack[-1] = _CLOUDS_OWED[step.why][step.remaining - 1][step.seat]
        else:
            self._stack.pop()

    def _reveal(self, a: Reveal) -> None:
        self.goals[a.seat].remove(a.card)
        self.revealed[a.seat].append(a.card)
        self._reveal_cache.pop(a.seat, None)
        self._emit(CardRevealed, a.seat, a.card, self.cards[a.card].points)
        self._stack.append(RevealReward(a.seat))

    def _choose_design(self, a: ChooseDesign) -> None:
        seat, d = a.seat, a.design
        stack = self._stack
        step = stack.pop()
        self._take_from_bag(d)
        if type(step) is RevealReward:
            self._emit(DesignChosen, seat, d, "reward")
            if type(stack[-1]) is OpenPool:
                self.pool.append(d)
            else:
                self.pool = [d]
                stack.append(CatCheck(seat))
                stack.append(OpenPool(seat))
        else:  # cat blessing
            assert isinstance(step, CatBlessing)
            self._emit(DesignChosen, seat, d, "cat")
            self.pool.append(d)
            if step.first < 0:
                stack.append(CatBlessing(seat, d))
            else:
                stack.append(OpenPool(seat))

    def _choose_cat(self, a: ChooseCat) -> None:
        altar = self.altars[a.seat]
        totem = build_totem(altar, T_CAT, (a.cell,))
        altar.add_totem(totem)
        self._emit(TotemBuilt, a.seat, T_CAT, (a.cell,), totem.height, totem.points)
        self.pool = []
        self._stack.append(CatBlessing(a.seat, -1))

    def _wolf_take(self, a: WolfTake) -> None:
        step = self._stack[-1]
        assert isinstance(step, WolfBlessing)
        altar = self.altars[a.seat]
        d = altar.stacks[a.cell][0]
        self._take_from_bag(d)
        altar.add_pedestal(d, a.cell)
        self._emit(PedestalsDrawn, a.seat, "wolf", (d,))
        self._emit(PedestalPlaced, a.seat, d, a.cell, "wolf")
        self._stack[-1] = WolfBlessing(a.seat, tuple(c for c in step.remaining if c != a.cell))

    def _wolf_stop(self, a: WolfStop) -> None:
        self._stack.pop()

    def _end_turn(self, a: EndTurn) -> None:
        step = self._stack.pop()
        if type(step) is LastReveals:
            self._next_last_reveal(step.order)
        else:
            self._pass_turn(a.seat)

    # ------------------------------------------------------------ turn and round

    def _pass_turn(self, seat: int) -> None:
        """RULES.md §12 step 6: play passes on; after the last seat, the end of round."""
        self._emit(TurnEnded, seat)
        self.turns_in_round += 1
        if self.turns_in_round < self.n:
            self._start_turn((seat + 1) % self.n, "final" if self.phase == "final" else "normal")
            return
        self.turns_in_round = 0
        if self.phase == "final":
            self.phase = "last_reveals"
            self._emit(PhaseStarted, "last_reveals")
            self.current = self.start_player
            self._stack.append(LastReveals(self.start_player, 0))
            return
        self.start_player = (self.start_player + 1) % self.n
        self._emit(RoundEnded, self.round, self.start_player)
        if self.round < ROUNDS:
            self.round += 1
            self._refill_slots()
            self._start_turn(self.start_player, "normal")
        else:
            self.phase = "final"
            self._emit(PhaseStarted, "final_totem")
            self._start_turn(self.start_player, "final")

    def _refill_slots(self) -> None:
        """RULES.md §8: 1 to a slot that holds some, 2 to an empty one, in board order."""
        for i, slot in enumerate(self.slots):
            if not self.bag_total:
                break
            drawn = self._draw_random(1 if slot else 2, None, "refill")
            slot.extend(drawn)
            self._emit(SlotFilled, i, tuple(drawn))

    def _next_last_reveal(self, index: int) -> None:
        index += 1
        if index < self.n:
            seat = (self.start_player + index) % self.n
            self.current = seat
            self._stack.append(LastReveals(seat, index))

    def _finish(self) -> None:
        self.phase = "over"
        self._changed()
        if self._events is None:
            return  # nobody collects events (playouts): skip scoring for the event
        sheets = [score_sheet(self, s) for s in range(self.n)]
        self._emit(
            GameEnded,
            tuple(sh.total for sh in sheets),
            tuple(final_places(self, sheets)),
            tuple(tuple(g) for g in self.goals),
        )

    # ------------------------------------------------------------------ the bag

    def _take_from_bag(self, design: int) -> None:
        self.bag[design] -= 1
        self.bag_total -= 1

    def _draw_random(self, count: int, seat: int | None, source: str) -> list[int]:
        """Draw up to `count` random pedestals; an empty bag gives nothing (RULES.md §8)."""
        drawn = []
        bag = self.bag
        for _ in range(count):
            if not self.bag_total:
                break
            d = self.rng.weighted(bag, self.bag_total)
            bag[d] -= 1
            self.bag_total -= 1
            drawn.append(d)
        if seat is not None:
            self._emit(PedestalsDrawn, seat, source, tuple(drawn))
        return drawn

    # ---------------------------------------------------------------- the errors

    def _explain(self, action: Action) -> IllegalAction:
        """Why `action` is not legal now, in words that reveal nothing hidden."""
        decision = self.decision
        if not isinstance(action, ANSWERS[decision.kind]):
            allowed = ", ".join(cls.type for cls in ANSWERS[decision.kind])
            return WrongDecision(
                f"{action.type} does not answer the pending decision {decision.kind} "
                f"(expected {allowed})"
            )
        seat = action.seat
        if decision.kind == "turn" and decision.context.get("mode") == "final":
            if isinstance(action, (TakeSlot, DrawFromBag)):
                return IllegalAction(
                    "a final-totem turn is build a totem or pass; pedestals cannot be built",
                    "final_totem_only",
                )
        elif isinstance(action, Pass) and decision.kind == "turn":
            return IllegalAction("passing is only for the final totem", "cannot_pass")
        if isinstance(action, ChooseStart):
            return IllegalAction(f"{action.card!r} is not one of your three cards", "not_your_card")
        if isinstance(action, Reveal):
            if action.card not in self.goals[seat]:
                return IllegalAction(
                    f"{action.card!r} is not one of your face-down goals", "not_your_card"
                )
            return IllegalAction(f"the mission of {action.card!r} is not met", "mission_not_met")
        if isinstance(action, TakeSlot):
            if not 0 <= action.slot < len(self.slots):
                return IllegalAction(f"there is no slot {action.slot}", "no_such_slot")
            return IllegalAction(f"slot {action.slot} is empty", "empty_slot")
        if isinstance(action, DrawFromBag):
            return IllegalAction(
                "you may draw from the bag only when every slot is empty", "slots_not_empty"
            )
        if isinstance(action, Pass):
            return IllegalAction("passing is only for the final totem", "cannot_pass")
        if isinstance(action, BuildTotem):
            if action.kind not in self.buildable_kinds:
                return IllegalAction(
                    f"a {TOTEM_NAMES[action.kind]} cannot be built as an action in this game",
                    "totem_not_buildable",
                )
            return IllegalAction(
                f"the {TOTEM_NAMES[action.kind]}'s condition is not met on cells "
                f"{' '.join(format_cell(c) for c in action.cells)}",
                "condition_not_met",
            )
        if isinstance(action, (PlacePedestal, ReturnPedestal)):
            if action.design not in self.pool:
                return IllegalAction(
                    f"there is no {DESIGN_NAMES[action.design]} pedestal in the pool", "not_in_pool"
                )
            assert isinstance(action, PlacePedestal)
            return IllegalAction(
                f"a {DESIGN_NAMES[action.design]} pedestal cannot go on "
                f"{format_cell(action.cell)}: {self._placement_reason(action)}",
                "illegal_placement",
            )
        if isinstance(action, PlaceCloud):
            return IllegalAction(
                f"a cloud cannot go on {format_cell(action.cell)}: it must touch a cloud of "
                "your altar by an edge, on a cell with no cloud and no totem",
                "illegal_cloud",
            )
        if isinstance(action, ChooseDesign):
            if self.bag[action.design] == 0:
                return IllegalAction(
                    f"the bag holds no {DESIGN_NAMES[action.design]} pedestal", "not_in_bag"
                )
            return IllegalAction(
                "the cat's two pedestals must be of two different designs", "same_design"
            )
        if isinstance(action, ChooseCat):
            return IllegalAction(
                f"no cat is owed on {format_cell(action.cell)}: it needs an uncovered column "
                "of height 6 or more",
                "no_cat_here",
            )
        if isinstance(action, WolfTake):
            return IllegalAction(
                f"the wolf cannot add to {format_cell(action.cell)}: each uncovered column "
                "takes at most one pedestal of its own kind, while the bag holds one",
                "wolf_no_pedestal",
            )
        return IllegalAction(f"{action} is not legal now")

    def _placement_reason(self, a: PlacePedestal) -> str:
        altar = self.altars[a.seat]
        if a.cell not in altar.clouds:
            return "there is no cloud there"
        if a.cell in altar.covered:
            return "a totem covers that cell"
        return "a pedestal may only go on a column of its own kind (or of a hoard design)"

    # ------------------------------------------------------------- construction

    @classmethod
    def from_actions(
        cls,
        options: GameOptions,
        seed: int,
        actions: Iterable[Action],
        deck: Deck | None = None,
    ) -> Game:
        """Replay `actions` from a new game (IllegalAction at the first illegal one)."""
        game = cls(options, seed, deck)
        for action in actions:
            game.apply(action)
        return game

    @classmethod
    def restore(
        cls,
        *,
        options: GameOptions,
        kinds: Sequence[int],
        altars: Sequence[Altar],
        bag: Sequence[int],
        slots: Sequence[Sequence[int]],
        steps: Sequence[Step],
        phase: str,
        round: int,
        start_player: int,
        first_player: int,
        current: int,
        turns_in_round: int,
        hands: Sequence[Sequence[str]],
        start_cards: Sequence[str | None],
        goals: Sequence[Sequence[str]],
        revealed: Sequence[Sequence[str]],
        rng: Rng,
        seed: int = 0,
        deck: Deck | None = None,
        pool: Sequence[int] = (),
        extra_turns: int = 0,
        base_move: int = 0,
        complete_bag: bool = True,
    ) -> Game:
        """A game in the given state, the one way to build a game other than dealing one
        (positions, determinizations). ValueError naming the field if the state could
        not exist (`skytotems.rules.consistency`); `complete_bag=False` lets the bag be
        short of the pedestals in play. The history starts empty (`base_move` moves are
        counted as made); the caller's objects are copied, not shared."""
        game = cls(_blank=True)
        game._deck_json = None
        game.options = options
        game.deck = deck or default_deck()
        game.seed = seed
        game.rng = rng
        game.n = options.seats
        game.kinds = tuple(kinds)
        game.cat_in_play = T_CAT in game.kinds
        game.buildable_kinds = tuple(k for k in game.kinds if k != T_CAT)
        game.cards = {c.id: c for c in game.deck.for_totems(game.kinds)}
        game.hands = [tuple(h) for h in hands]
        game.start_cards = list(start_cards)
        game.goals = [list(g) for g in goals]
        game.revealed = [list(r) for r in revealed]
        used = {c for h in game.hands for c in h} | {c for g in game.goals for c in g}
        used |= {c for r in game.revealed for c in r} | {c for c in game.start_cards if c}
        game.box = sorted(c for c in game.cards if c not in used)
        game.first_player = first_player
        game.start_player = start_player
        game.current = current
        game.altars = [a.copy() for a in altars]
        game.bag = list(bag)
        game.bag_total = sum(game.bag)
        game.slots = [list(s) for s in slots]
        game.round = round
        game.phase = phase
        game.turns_in_round = turns_in_round
        game.extra_turns = extra_turns
        game.pool = list(pool)
        game._stack = list(steps)
        game.history = []
        game.base_move = base_move
        game._events = None
        game.setup_events = []
        game._forget_caches()
        check_game(game, complete_bag)
        return game


def _blank_game() -> Game:
    """An empty game for unpickling to fill (`Game.__reduce__`)."""
    return Game(_blank=True)


# Actions are immutable values, so the legal-action lists reuse one instance per value
# for the two most frequent kinds: building a frozen dataclass costs an attribute store
# per field, a dictionary lookup much less. Bounded: cleared when it grows too large.
_PLACE_PEDESTAL: dict[tuple[int, int, int], PlacePedestal] = {}
_PLACE_CLOUD: dict[tuple[int, int], PlaceCloud] = {}
_INTERNED_LIMIT = 50_000


def _place_pedestals(seat: int, design: int, cells: Iterable[int]) -> list[PlacePedestal]:
    """`PlacePedestal(seat, design, c)` for each of `cells`, reused across calls."""
    cache = _PLACE_PEDESTAL
    if len(cache) >= _INTERNED_LIMIT:
        cache.clear()
    out = []
    for c in cells:
        key = (seat, design, c)
        action = cache.get(key)
        if action is None:
            action = cache[key] = PlacePedestal(seat, design, c)
        out.append(action)
    return out


def _place_clouds(seat: int, cells: Iterable[int]) -> list[PlaceCloud]:
    """`PlaceCloud(seat, c)` for each of `cells`, reused across calls."""
    cache = _PLACE_CLOUD
    if len(cache) >= _INTERNED_LIMIT:
        cache.clear()
    out = []
    for c in cells:
        key = (seat, c)
        action = cache.get(key)
        if action is None:
            action = cache[key] = PlaceCloud(seat, c)
        out.append(action)
    return out


_HANDLERS: dict[type[Action], Any] = {
    ChooseStart: Game._choose_start,
    TakeSlot: Game._take_slot,
    DrawFromBag: Game._draw_from_bag,
    BuildTotem: Game._build_totem,
    Pass: Game._pass,
    PlacePedestal: Game._place_pedestal,
    ReturnPedestal: Game._return_pedestal,
    PlaceCloud: Game._place_cloud,
    Reveal: Game._reveal,
    ChooseDesign: Game._choose_design,
    ChooseCat: Game._choose_cat,
    WolfTake: Game._wolf_take,
    WolfStop: Game._wolf_stop,
    EndTurn: Game._end_turn,
}
