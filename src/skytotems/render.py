"""Text rendering of a game for the terminal: altars, slots, bag, cards, decisions, actions.

Everything here reads one observer's view (an `Observed`, built from `view(game,
viewer)`) and puts it into words; no rule is decided here and nothing hidden from that
observer can be shown (RULES.md §11): its own face-down goals are listed, everybody
else's only counted. The engine's legal actions say what may be done, `build_totem`
gives a totem's height and points, `score_sheet` the scores. `people` names the seats
the observer plays (both in solo), for "You" in the log.

Seats, slots and cells are numbered as the engine and the wire format number them
(from 0; cells as ``x,y``), so what the terminal shows matches records and logs.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from .observed import Observed
from .rules.actions import (
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
from .rules.altar import Altar
from .rules.cards import Card
from .rules.decisions import Decision
from .rules.events import (
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
    SlotTaken,
    StartCardsRevealed,
    StartChosen,
    StartPlayerChosen,
    TotemBuilt,
    TotemSetChosen,
    TurnStarted,
)
from .rules.grid import cell as make_cell
from .rules.grid import format_cell, xy
from .rules.notation import EMPTY_CLOUD, NO_CLOUD, format_altar
from .rules.options import ROUNDS
from .rules.pieces import DESIGN_LETTERS, DESIGN_NAMES, T_CAT, TOTEM_NAMES
from .rules.scoring import ScoreSheet, final_places, score_sheet, solo_band
from .rules.totems import build_totem

RULE = "=" * 72
DESIGN_LEGEND = "Designs (bottom→top): " + "  ".join(
    f"{letter} {name}" for letter, name in zip(DESIGN_LETTERS, DESIGN_NAMES, strict=True)
)
GRID_LEGEND = (
    f"{NO_CLOUD} no cloud   {EMPTY_CLOUD} empty cloud   rrb 3 = column red,red,blue (height 3)"
    "   [T1] under totem 1"
)


# --------------------------------------------------------------------------- names


def designs_text(designs: Sequence[int]) -> str:
    """Designs as words, in the order given ("red, blue"); "nothing" for none."""
    return ", ".join(DESIGN_NAMES[d] for d in designs) or "nothing"


def cells_text(cells: Sequence[int]) -> str:
    """Cells as ``x,y`` words separated by spaces."""
    return " ".join(format_cell(c) for c in cells)


def who(game: Observed, seat: int, people: Collection[int]) -> str:
    """How a log line names a seat: "You", "Altar 1" in solo, else "Seat 2"."""
    if game.options.solo:
        return f"Altar {seat}"
    return "You" if seat in people else f"Seat {seat}"


def whose(game: Observed, seat: int, people: Collection[int]) -> str:
    """The possessive of `who`."""
    name = who(game, seat, people)
    return "Your" if name == "You" else f"{name}'s"


def ordinal(n: int) -> str:
    """1st, 2nd, 3rd, 4th (places)."""
    return f"{n}{ {1: 'st', 2: 'nd', 3: 'rd'}.get(n, 'th') }"


# --------------------------------------------------------------------------- cards


def start_text(card: Card) -> str:
    """A card's starting-altar half in words: "red,red on 0,0; blue on 1,1; + a cloud"."""
    parts = [
        f"{','.join(DESIGN_NAMES[d] for d in stack)} on {format_cell(c)}"
        for c, stack in card.start.columns
    ]
    text = "; ".join(parts) or "no pedestal"
    return text + ("; + a cloud" if card.start.cloud else "")


def card_text(card: Card) -> str:
    """A card's mission half: "Herd (6 points): <mission>"."""
    return f"{card.name} ({card.points} points): {card.mission.describe()}"


def goal_lines(game: Observed, seat: int) -> list[str]:
    """`seat`'s own goals (face down, revealable marked) and revealed cards."""
    revealable = set(game.revealable(seat)) if not game.is_over else set()
    lines = []
    for card_id in game.goals[seat]:
        mark = "REVEALABLE NOW" if card_id in revealable else "face down"
        lines.append(f"  [{mark}] {card_text(game.card(card_id))}")
    if not game.goals[seat]:
        lines.append("  (no face-down goal)")
    revealed = [game.card(c) for c in game.revealed[seat]]
    if revealed:
        lines.append("  revealed: " + ", ".join(f"{c.name} ({c.points})" for c in revealed))
    return lines


# --------------------------------------------------------------------------- table


def slots_text(game: Observed) -> str:
    """The shared slots, numbered as the engine numbers them."""
    parts = [
        f"{i}: {', '.join(DESIGN_NAMES[d] for d in sorted(slot)) or '-'}"
        for i, slot in enumerate(game.slots)
    ]
    return "Slots   " + "   ".join(parts)


def bag_text(game: Observed) -> str:
    """Pedestals left in the bag, per design."""
    counts = " ".join(f"{DESIGN_NAMES[d]} {n}" for d, n in enumerate(game.bag))
    return f"Bag ({game.bag_total})  {counts}"


def status_line(game: Observed) -> str:
    """Round, phase and start player."""
    phase = {
        "setup": "setup",
        "play": f"round {game.round}/{ROUNDS}",
        "final": "final totem",
        "last_reveals": "last reveals",
        "over": "game over",
    }.get(game.phase, game.phase)
    return f"{phase.capitalize()}   start player: seat {game.start_player}   move {game.move}"


def scores_line(game: Observed, people: Collection[int]) -> str:
    """Every seat's score so far (all of it is public)."""
    parts = [f"{who(game, s, people).lower()} {score_sheet(game, s).total}" for s in range(game.n)]
    return "Scores so far: " + ", ".join(parts)


# --------------------------------------------------------------------------- altars


def _cell_label(altar: Altar, c: int, totem_of: dict[int, int]) -> str:
    stack = altar.stacks.get(c)
    if stack:
        text = f"{''.join(DESIGN_LETTERS[d] for d in stack)} {len(stack)}"
    elif c in altar.clouds:
        text = EMPTY_CLOUD
    else:
        text = NO_CLOUD
    if c in totem_of:
        text = f"{text} [T{totem_of[c]}]" if stack or c in altar.clouds else f"[T{totem_of[c]}]"
    return text


def altar_grid(altar: Altar) -> list[str]:
    """The altar as a grid: x across, y down, one margin cell around (where clouds may go).

    A column reads bottom to top with its height; covered cells name their totem,
    listed underneath with height and points; then the dragon's hoard.
    """
    totem_of = {c: i for i, t in enumerate(altar.totems, 1) for c in t.cells}
    known = set(altar.clouds) | set(totem_of)
    coords = [xy(c) for c in known] or [(0, 0)]
    xs = range(min(x for x, _ in coords) - 1, max(x for x, _ in coords) + 2)
    ys = range(min(y for _, y in coords) - 1, max(y for _, y in coords) + 2)
    labels = {(x, y): _cell_label(altar, make_cell(x, y), totem_of) for x in xs for y in ys}
    width = max(max(len(t) for t in labels.values()), max(len(str(x)) for x in xs))
    lines = [("   y\\x " + "  ".join(str(x).ljust(width) for x in xs)).rstrip()]
    for y in ys:
        row = "  ".join(labels[x, y].ljust(width) for x in xs)
        lines.append(f"{y:>6} {row}".rstrip())
    for i, totem in enumerate(altar.totems, 1):
        lines.append(
            f"  T{i} {TOTEM_NAMES[totem.kind]} on {cells_text(totem.cells)}: "
            f"height {totem.height}, {totem.points} points"
        )
    lines.append(f"  hoard: {designs_text(altar.hoard) if altar.hoard else '-'}")
    return lines


def altar_summary(game: Observed, seat: int, people: Collection[int]) -> str:
    """Another seat's altar in one line (its notation), revealed cards and goal count."""
    if game.phase == "setup":
        chosen = "has chosen" if game.chosen[seat] else "is choosing"
        return f"{who(game, seat, people)} {chosen} a starting card."
    revealed = ", ".join(
        f"{game.card(c).name} ({game.card(c).points})" for c in game.revealed[seat]
    )
    return (
        f"{who(game, seat, people)}: {format_altar(game.altars[seat])}\n"
        f"    revealed: {revealed or '-'}; {game.goal_counts[seat]} goal(s) face down"
    )


# --------------------------------------------------------------------------- decisions


def decision_text(game: Observed, decision: Decision, seat: int) -> str:
    """What the pending decision asks of `seat`, in words."""
    context = decision.context
    kind = decision.kind
    if kind == "choose_start":
        return "Choose a starting card: it sets up the altar; the other two become goals."
    if kind == "turn":
        mode = context.get("mode")
        if mode == "final":
            return "Final totem: build one last totem, or pass."
        head = "Extra turn (horse blessing)" if mode == "extra" else "Your turn"
        return f"{head}: build pedestals or build a totem (you may reveal first)."
    if kind == "place_pedestal":
        pool = ", ".join(context.get("pool", []))
        return f"Pool ({pool}): place a pedestal, or return it to the bag for a cloud."
    if kind == "place_cloud":
        why = str(context.get("why", "")).replace("_", " ")
        return f"Place a cloud ({context.get('remaining', 1)} to place; from {why})."
    if kind == "choose_design":
        if context.get("purpose") == "cat":
            first = context.get("first")
            extra = f", not {first}" if first else ""
            return f"Cat blessing: choose a design from the bag{extra}."
        return "Reveal reward: choose a pedestal design from the bag."
    if kind == "choose_cat":
        return "A cat arrives: choose the column (height 6 or more) it stands on."
    if kind == "wolf_blessing":
        return "Wolf blessing: add a pedestal of a column's own kind, or stop."
    if kind == "dragon_build":
        return "Dragon blessing: build pedestals once more."
    if kind == "end_turn":
        return "End of turn: reveal a goal, or end the turn."
    if kind == "last_reveal":
        return "Last reveals: reveal goals whose missions are met, or stop."
    return kind


def action_text(game: Observed, action: Action) -> str:
    """One menu line for a legal action of the pending decision."""
    altar = game.altars[action.seat]
    if isinstance(action, ChooseStart):
        card = game.card(action.card)
        goals = [game.card(c) for c in game.hands[action.seat] if c != action.card]
        goal_names = ", ".join(f"{g.name} ({g.points})" for g in goals)
        return f"Start with {card.name}: {start_text(card)}   (goals: {goal_names})"
    if isinstance(action, TakeSlot):
        return f"Take slot {action.slot} ({designs_text(sorted(game.slots[action.slot]))})"
    if isinstance(action, DrawFromBag):
        return "Draw 2 pedestals from the bag"
    if isinstance(action, BuildTotem):
        totem = build_totem(altar, action.kind, action.cells)
        return (
            f"Build a {TOTEM_NAMES[action.kind]} on {cells_text(action.cells)} "
            f"({totem.points} points)"
        )
    if isinstance(action, Pass):
        return "Pass (build no final totem)"
    if isinstance(action, PlacePedestal):
        h = altar.height(action.cell)
        design, cell = DESIGN_NAMES[action.design], format_cell(action.cell)
        return f"Place {design} on {cell} (height {h}→{h + 1})"
    if isinstance(action, ReturnPedestal):
        return f"Return {DESIGN_NAMES[action.design]} to the bag for a cloud"
    if isinstance(action, PlaceCloud):
        return f"Place a cloud on {format_cell(action.cell)}"
    if isinstance(action, Reveal):
        card = game.card(action.card)
        return f"Reveal {card.name} ({card.points} points)"
    if isinstance(action, ChooseDesign):
        return f"Take {DESIGN_NAMES[action.design]} from the bag ({game.bag[action.design]} left)"
    if isinstance(action, ChooseCat):
        totem = build_totem(altar, T_CAT, (action.cell,))
        return f"Put the cat on {format_cell(action.cell)} ({totem.points} points)"
    if isinstance(action, WolfTake):
        kind = altar.kind(action.cell)
        h = altar.height(action.cell)
        name = DESIGN_NAMES[kind] if kind is not None else "?"
        return f"Add {name} to {format_cell(action.cell)} (height {h}→{h + 1})"
    if isinstance(action, WolfStop):
        return "Take no more pedestals"
    if isinstance(action, EndTurn):
        return "Stop revealing" if game.phase == "last_reveals" else "End the turn"
    return str(action)


def menu_lines(game: Observed, actions: Sequence[Action]) -> list[str]:
    """The numbered menu (numbers from 1) of `actions`."""
    width = len(str(len(actions)))
    return [f"  {i:>{width}}. {action_text(game, a)}" for i, a in enumerate(actions, 1)]


def screen(game: Observed, seat: int, people: Collection[int]) -> list[str]:
    """Everything the person needs before deciding for `seat`: table, altars, cards."""
    lines = [RULE, status_line(game), slots_text(game), bag_text(game), scores_line(game, people)]
    mine = sorted(people) if game.options.solo else [seat]
    for s in mine:
        name = f"Altar {s}" if game.options.solo else "Your"
        acting = "   <- deciding now" if game.options.solo and s == seat else ""
        if game.phase == "setup":
            lines += ["", f"{name} cards:{acting}", *hand_lines(game, s)]
            continue
        label = f"Altar {s}" if game.options.solo else f"Your altar (seat {s})"
        lines += ["", f"{label}: {format_altar(game.altars[s])}{acting}"]
        lines += [*altar_grid(game.altars[s]), f"{name} goals:", *goal_lines(game, s)]
    others = [s for s in range(game.n) if s not in mine]
    if others:
        lines.append("")
        lines += [altar_summary(game, s, people) for s in others]
    return lines


def hand_lines(game: Observed, seat: int) -> list[str]:
    """The three cards dealt to `seat` (its own, private), both halves of each."""
    lines = []
    for card_id in game.hands[seat]:
        card = game.card(card_id)
        lines.append(f"  {card_text(card)}")
        lines.append(f"      as start: {start_text(card)}")
    return lines


# --------------------------------------------------------------------------- events


def event_text(game: Observed, event: Event, people: Collection[int]) -> str | None:
    """A short log line for an event, or None for events the screen already shows."""
    if isinstance(event, TotemSetChosen):
        return "Totems in play: " + ", ".join(event.kinds)
    if isinstance(event, StartPlayerChosen):
        return f"{who(game, event.seat, people)} will start."
    if isinstance(event, CardsDealt):
        if event.cards:
            names = ", ".join(game.card(c).name for c in event.cards)
            return f"{who(game, event.seat, people)} got the cards {names}."
        return None
    if isinstance(event, StartChosen):
        if event.card:
            return f"{who(game, event.seat, people)} chose {game.card(event.card).name} to start."
        return f"{who(game, event.seat, people)} chose a starting card (secret for now)."
    if isinstance(event, StartCardsRevealed):
        parts = [
            f"{who(game, s, people).lower()} {game.card(c).name}"
            for s, c in enumerate(event.cards)
            if c
        ]
        return "Starting cards: " + ", ".join(parts)
    if isinstance(event, PedestalsDrawn):
        if event.seat is None or event.source in ("hoard", "wolf"):
            return None  # slots are on the screen; hoard and wolf have their own lines
        name = who(game, event.seat, people)
        if event.source == "start":
            return f"{name} set up the starting altar with {designs_text(event.designs)}."
        source = {"draw": "from the bag", "bird": "for the bird"}.get(event.source, event.source)
        return f"{name} drew {designs_text(event.designs)} {source}."
    if isinstance(event, SlotTaken):
        return (
            f"{who(game, event.seat, people)} took slot {event.slot} "
            f"({designs_text(sorted(event.designs))})."
        )
    if isinstance(event, PedestalPlaced):
        if event.source == "start":
            return None
        by = " with the wolf" if event.source == "wolf" else ""
        return (
            f"{who(game, event.seat, people)} placed {DESIGN_NAMES[event.design]} "
            f"on {format_cell(event.cell)}{by}."
        )
    if isinstance(event, PedestalReturned):
        return (
            f"{who(game, event.seat, people)} returned {DESIGN_NAMES[event.design]} "
            "to the bag for a cloud."
        )
    if isinstance(event, CloudPlaced):
        return f"{who(game, event.seat, people)} placed a cloud on {format_cell(event.cell)}."
    if isinstance(event, TotemBuilt):
        verb = "got a cat" if event.kind == T_CAT else f"built a {TOTEM_NAMES[event.kind]}"
        return (
            f"{who(game, event.seat, people)} {verb} on {cells_text(event.cells)} "
            f"(height {event.height}, {event.points} points)."
        )
    if isinstance(event, HoardAdded):
        return f"{whose(game, event.seat, people)} dragon hoarded {DESIGN_NAMES[event.design]}."
    if isinstance(event, CardRevealed):
        card = game.card(event.card)
        return f"{who(game, event.seat, people)} revealed {card.name} ({event.points} points)."
    if isinstance(event, DesignChosen):
        why = "as a cat blessing" if event.purpose == "cat" else "as a reveal reward"
        return (
            f"{who(game, event.seat, people)} took {DESIGN_NAMES[event.design]} from the bag {why}."
        )
    if isinstance(event, NothingGained):
        reason = event.reason.replace("_", " ")
        return f"{who(game, event.seat, people)} gained nothing ({reason})."
    if isinstance(event, TurnStarted):
        mode = {"extra": " (extra turn)", "final": " (final totem)"}.get(event.mode, "")
        return f"-- {whose(game, event.seat, people)} turn{mode} --"
    if isinstance(event, Passed):
        return f"{who(game, event.seat, people)} passed."
    if isinstance(event, RoundEnded):
        return f"Round {event.round} is over; seat {event.next_start_player} starts next."
    if isinstance(event, PhaseStarted):
        return {
            "play": "The game begins.",
            "final_totem": "Final totem: everyone may build one last totem.",
            "last_reveals": "Last reveals before scoring.",
        }.get(event.phase, f"Phase {event.phase}.")
    if isinstance(event, GameEnded):
        return "The game is over."
    return None


def event_lines(game: Observed, events: Sequence[Event], people: Collection[int]) -> list[str]:
    """Log lines for `events` (already filtered for the person by `events_for`)."""
    out = []
    for event in events:
        text = event_text(game, event, people)
        if text:
            out.append(f"  > {text}")
    return out


# --------------------------------------------------------------------------- the end


def score_table(game: Observed, people: Collection[int]) -> list[str]:
    """The score sheets side by side, one line per scorepad line, one column per seat."""
    sheets = [score_sheet(game, s) for s in range(game.n)]
    rows: list[tuple[str, list[str]]] = [
        (name, [str(sh.totems[name]) for sh in sheets]) for name in TOTEM_NAMES
    ]
    rows += [
        ("common pedestals (×1)", [_pedestal_cell(sh.common_pedestals, 1) for sh in sheets]),
        ("rare pedestals (×2)", [_pedestal_cell(sh.rare_pedestals, 2) for sh in sheets]),
        ("altar cards", [str(sh.cards) for sh in sheets]),
        ("total", [str(sh.total) for sh in sheets]),
    ]
    heads = [who(game, s, people).lower() for s in range(game.n)]
    label_width = max(len(label) for label, _ in rows)
    width = max(10, *(len(h) for h in heads))
    lines = [" " * label_width + "  " + "".join(h.rjust(width) for h in heads)]
    for label, values in rows:
        if label == "total":
            lines.append("-" * (label_width + 2 + width * len(heads)))
        lines.append(label.ljust(label_width) + "  " + "".join(v.rjust(width) for v in values))
    return lines


def _pedestal_cell(count: int, points: int) -> str:
    return f"{count}×{points}={count * points}"


def result_lines(game: Observed, people: Collection[int]) -> list[str]:
    """Places (or, in solo, the total and its rulebook band) of a finished game."""
    sheets: list[ScoreSheet] = [score_sheet(game, s) for s in range(game.n)]
    if game.options.solo:
        total = sum(sh.total for sh in sheets)
        return [f"Solo total: {total} points: {solo_band(total)}"]
    places = final_places(game)
    order = sorted(range(game.n), key=lambda s: (places[s], s))
    return [
        f"{ordinal(places[s])}: {who(game, s, people).lower()} ({sheets[s].total} points)"
        for s in order
    ]
