"""Determinization: a full game built from one seat's view plus chosen hidden values.

A searching bot sees only its view (DESIGN.md §2). It samples what it cannot see —
opponents' face-down goals (and, during setup, their hands and choices) and the order
of future draws (a generator seed) — and asks `game_from_view` for a game consistent
with both. The bot never touches the real game, so it cannot cheat by construction.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .altar import Altar
from .cards import Deck
from .engine import Game
from .options import GameOptions
from .pieces import DESIGN_BY_NAME, DESIGN_NAMES, TOTEM_BY_NAME
from .rng import Rng
from .steps import step_from_json


@dataclass(frozen=True)
class Hidden:
    """Values for what the viewer cannot see.

    `goals[s]`: face-down goals of seat s; `hands[s]` and `start_cards[s]`: during
    setup, the hand and (if it has chosen) the chosen card of seat s; `seed`: the
    generator seed for every future random draw.
    """

    seed: int
    goals: Mapping[int, Sequence[str]] = field(default_factory=dict)
    hands: Mapping[int, Sequence[str]] = field(default_factory=dict)
    start_cards: Mapping[int, str] = field(default_factory=dict)


def unseen_cards(view: Mapping[str, Any]) -> list[str]:
    """Cards of the deck in play that the viewer has not seen anywhere (sorted).

    Opponents' face-down goals (and unknown hands) are drawn from these; the rest
    lie in the box.
    """
    seen: set[str] = set()
    for entry in view["seats"]:
        seen.update(entry["revealed"])
        if entry.get("start_card"):
            seen.add(entry["start_card"])
        seen.update(g["card"] for g in entry.get("goals", []))
        seen.update(entry.get("hand", []))
    return sorted(c["id"] for c in view["deck"] if c["id"] not in seen)


def game_from_view(view: Mapping[str, Any], hidden: Hidden) -> Game:
    """A game equal to the viewed one in everything public and the viewer's secrets,
    with `hidden` filling in the rest. ValueError if `hidden` does not fit the view."""
    options = GameOptions.from_json(view["options"])
    deck = Deck.from_json(
        {"format": "skytotems-deck", "version": 1, "name": "view", "cards": view["deck"]}
    )
    hands: list[tuple[str, ...]] = []
    start_cards: list[str | None] = []
    goals: list[list[str]] = []
    setup = view["phase"] == "setup"
    for s, entry in enumerate(view["seats"]):
        start = entry["start_card"]
        if start is None and entry["chosen"]:
            start = hidden.start_cards.get(s)
            if start is None:
                raise ValueError(f"seat {s} has chosen: give its starting card")
        if "hand" in entry:
            hand = tuple(entry["hand"])
        elif setup and entry["start_card"] is not None:  # all chose; goals stay hidden
            hand = (entry["start_card"], *hidden.goals.get(s, ()))
        elif setup:
            hand = tuple(hidden.hands.get(s, ()))
            if len(hand) != 3:
                raise ValueError(f"seat {s}: give its 3-card hand during setup")
        else:
            hand = ()
        if "goals" in entry:
            goal_ids = [g["card"] for g in entry["goals"]]
        elif setup:
            goal_ids = [c for c in hand if c != start] if start is not None else []
            if len(hand) != 3:
                raise ValueError(f"seat {s}: give its 2 face-down goals")
        else:
            goal_ids = list(hidden.goals.get(s, ()))
        if len(goal_ids) != entry["goal_count"]:
            raise ValueError(
                f"seat {s} holds {entry['goal_count']} face-down goals, {len(goal_ids)} given"
            )
        hands.append(hand)
        start_cards.append(start)
        goals.append(goal_ids)
    game = Game.restore(
        options=options,
        deck=deck,
        kinds=sorted(TOTEM_BY_NAME[k] for k in view["kinds"]),
        altars=[Altar.from_json(a) for a in view["altars"]],
        bag=[view["bag"][name] for name in DESIGN_NAMES],
        slots=[sorted(DESIGN_BY_NAME[d] for d in slot) for slot in view["slots"]],
        pool=[DESIGN_BY_NAME[d] for d in view["pool"]],
        steps=[step_from_json(f) for f in view["machine"]],
        phase=view["phase"],
        round=view["round"],
        start_player=view["start_player"],
        first_player=view["first_player"],
        current=view["current"],
        turns_in_round=view["turns_in_round"],
        extra_turns=view["extra_turns"],
        hands=hands,
        start_cards=start_cards,
        goals=goals,
        revealed=[e["revealed"] for e in view["seats"]],
        seed=hidden.seed,
        rng=Rng(hidden.seed),
        base_move=view["move"],
        # A view of a position built with a short bag (tests) rebuilds with that bag.
        complete_bag=False,
    )
    # No _advance here: a `turn_end` step stays a prompt even when the sampled goals
    # of its seat are not met (its only legal action is then EndTurn), so the rebuilt
    # game waits on the same seat as the view.
    return game


def sample_hidden(view: Mapping[str, Any], rng: Rng) -> Hidden:
    """Uniformly sample hidden values consistent with `view` (for search bots)."""
    pool = unseen_cards(view)
    rng.shuffle(pool)  # type: ignore[arg-type]
    goals: dict[int, list[str]] = {}
    hands: dict[int, list[str]] = {}
    start_cards: dict[int, str] = {}
    for s, entry in enumerate(view["seats"]):
        if "goals" in entry or "hand" in entry:
            continue
        if view["phase"] == "setup":
            if entry["start_card"] is not None:  # every seat has chosen: it is public
                goals[s] = [pool.pop() for _ in range(entry["goal_count"])]
                continue
            hand = [pool.pop() for _ in range(3)]
            hands[s] = hand
            if entry["chosen"]:
                start_cards[s] = hand[rng.below(3)]
        else:
            goals[s] = [pool.pop() for _ in range(entry["goal_count"])]
    return Hidden(seed=rng.next64(), goals=goals, hands=hands, start_cards=start_cards)
