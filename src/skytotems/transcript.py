"""Readable transcripts of seeded games, and the golden files built from them.

A transcript is a referee's log of one whole game played by a seeded chooser: every
decision, the action chosen and the events it caused, the altars (in the altar
notation) after each turn, and the final score sheets. Golden transcripts in
``tests/golden/`` pin the engine's behaviour: any change to the rules or to the
random draws shows up as a readable diff.

The chooser draws from the engine's own generator (`Rng`, SplitMix64) and never from
`random`, so a transcript is the same on every Python version and machine.

    python -m skytotems.transcript --regen            # rewrite tests/golden/*.txt
    python -m skytotems.transcript --players 3 --seed 5 --chooser-seed 9
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from .rules.actions import (
    Action,
    BuildTotem,
    PlacePedestal,
    ReturnPedestal,
    Reveal,
    WolfTake,
)
from .rules.engine import Game
from .rules.events import Event, TurnEnded
from .rules.notation import format_altar
from .rules.options import GameOptions
from .rules.pieces import DESIGN_NAMES
from .rules.rng import Rng
from .rules.scoring import final_places, score_sheet, solo_band

# Where `--regen` writes by default, relative to the repository root (the usual cwd).
DEFAULT_GOLDEN_DIR = Path("tests") / "golden"


@dataclass(frozen=True)
class GoldenGame:
    """One seeded game whose transcript is kept as `tests/golden/<name>.txt`."""

    name: str
    options: GameOptions
    seed: int
    chooser_seed: int


# Seeds picked so that together the games show totems of every kind, blessings, cats,
# reveals, returns for clouds and both end phases.
GOLDEN_GAMES: tuple[GoldenGame, ...] = (
    GoldenGame("two-players", GameOptions(players=2), seed=77, chooser_seed=77),
    GoldenGame("three-players", GameOptions(players=3), seed=30, chooser_seed=30),
    GoldenGame("four-players", GameOptions(players=4), seed=10, chooser_seed=10),
    GoldenGame("solo", GameOptions(players=1), seed=40, chooser_seed=40),
    GoldenGame(
        "dragon-four-players",
        GameOptions(players=4, totems="dragon", tie_break="rulebook"),
        seed=8,
        chooser_seed=8,
    ),
)


# --------------------------------------------------------------------------- chooser


def pick_action(game: Game, rng: Rng, greedy: bool = True) -> Action:
    """A legal action for one pending seat, chosen with `rng` only (reproducible anywhere).

    Uniform play almost never stacks pedestals high enough for a totem, so by default
    the chooser leans towards what makes a game eventful: it always reveals a met
    card, usually builds a totem when it can, often grows its tallest column, takes
    every wolf pedestal, and still returns a pedestal for a cloud now and then.
    `greedy=False` picks uniformly among the legal actions.
    """
    seats = game.decision.seats
    seat = seats[rng.below(len(seats))]
    actions = game.legal_actions(seat)
    if not greedy:
        return actions[rng.below(len(actions))]
    reveals = [a for a in actions if isinstance(a, Reveal)]
    if reveals:
        return reveals[rng.below(len(reveals))]
    totems = [a for a in actions if isinstance(a, BuildTotem)]
    if totems and rng.below(4) != 0:
        return totems[rng.below(len(totems))]
    wolf = [a for a in actions if isinstance(a, WolfTake)]
    if wolf:
        return wolf[rng.below(len(wolf))]
    places = [a for a in actions if isinstance(a, PlacePedestal)]
    if places:
        returns = [a for a in actions if isinstance(a, ReturnPedestal)]
        roll = rng.below(10)
        if roll == 0 and returns:
            return returns[rng.below(len(returns))]
        if roll < 6:
            altar = game.altars[seat]
            best = max(altar.height(a.cell) for a in places)
            tallest = [a for a in places if altar.height(a.cell) == best]
            return tallest[rng.below(len(tallest))]
        return places[rng.below(len(places))]
    return actions[rng.below(len(actions))]


def play_out(game: Game, chooser_seed: int, greedy: bool = True, max_steps: int = 5000) -> Game:
    """Play `game` to its end with a chooser seeded by `chooser_seed`; returns `game`."""
    rng = Rng(chooser_seed)
    for _ in range(max_steps):
        if game.is_over:
            return game
        game.apply(pick_action(game, rng, greedy))
    raise RuntimeError(f"the game did not end within {max_steps} steps")


# ------------------------------------------------------------------------ transcript


def _options_text(options: GameOptions) -> str:
    return f"players={options.players} totems={options.totems} tie_break={options.tie_break}"


def _table_text(game: Game) -> list[str]:
    """Altars, hoards, slots and bag after a turn: the state a reader checks by eye."""
    lines = [f"    altar {s}: {format_altar(game.altars[s])}" for s in range(game.n)]
    slots = " ".join(
        "[" + " ".join(DESIGN_NAMES[d] for d in sorted(slot)) + "]" for slot in game.slots
    )
    lines.append(f"    slots: {slots}")
    bag = " ".join(f"{DESIGN_NAMES[d]}={n}" for d, n in enumerate(game.bag))
    lines.append(f"    bag ({game.bag_total}): {bag}")
    return lines


def _events_text(events: Sequence[Event]) -> list[str]:
    return [f"    {event}" for event in events]


def transcript(game_options: GameOptions, seed: int, chooser_seed: int) -> str:
    """The full text transcript of one game (same inputs, same text, everywhere)."""
    game = Game(game_options, seed)
    rng = Rng(chooser_seed)
    out = [
        "# Sky Totems game transcript",
        f"options: {_options_text(game_options)}",
        f"seed: {seed}",
        f"chooser seed: {chooser_seed}",
        "",
        "## setup",
        *_events_text(game.setup_events),
    ]
    step = 0
    while not game.is_over:
        decision = game.decision
        action = pick_action(game, rng)
        seats = ",".join(str(s) for s in decision.seats)
        out.append(f"[{step}] {decision.kind} (seats {seats}) -> {action}")
        events = game.apply(action)
        out.extend(_events_text(events))
        if not game.is_over and any(isinstance(e, TurnEnded) for e in events):
            out.extend(_table_text(game))
        step += 1
    out += ["", "## final altars", *_table_text(game), "", "## scores"]
    places = final_places(game)
    total = 0
    for s in range(game.n):
        sheet = score_sheet(game, s)
        total += sheet.total
        cards = ", ".join(sheet.revealed) or "none"
        out.append(
            f"seat {s}: place {places[s]}, revealed: {cards}, "
            f"face down: {', '.join(game.goals[s]) or 'none'}"
        )
        out.extend(f"    {name}: {points}" for name, points in sheet.lines())
    if game_options.solo:
        out.append(f"solo total {total}: {solo_band(total)}")
    out.append(f"places: {' '.join(str(p) for p in places)}")
    return "\n".join(out) + "\n"


def golden_text(golden: GoldenGame) -> str:
    """The transcript a golden file must hold."""
    return transcript(golden.options, golden.seed, golden.chooser_seed)


def regenerate(directory: Path = DEFAULT_GOLDEN_DIR) -> list[Path]:
    """Rewrite every golden transcript in `directory`; returns the files written."""
    directory.mkdir(parents=True, exist_ok=True)
    written = []
    for golden in GOLDEN_GAMES:
        path = directory / f"{golden.name}.txt"
        path.write_text(golden_text(golden), encoding="utf-8", newline="\n")
        written.append(path)
    return written


def main(argv: Sequence[str] | None = None) -> int:
    """Command line: print one transcript, or `--regen` the golden files."""
    parser = argparse.ArgumentParser(
        prog="python -m skytotems.transcript",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--regen", action="store_true", help="rewrite the golden transcripts")
    parser.add_argument(
        "--dir",
        type=Path,
        default=DEFAULT_GOLDEN_DIR,
        help="golden directory (default: tests/golden)",
    )
    parser.add_argument("--players", type=int, default=2, help="1 (solo) to 4")
    parser.add_argument("--totems", default="beginner", help="totem set or four kind names")
    parser.add_argument("--tie-break", default="bga", choices=("bga", "rulebook"))
    parser.add_argument("--seed", type=int, default=0, help="the game's seed")
    parser.add_argument("--chooser-seed", type=int, default=0, help="the chooser's seed")
    args = parser.parse_args(argv)
    if args.regen:
        for path in regenerate(args.dir):
            print(f"wrote {path}")
        return 0
    options = GameOptions(players=args.players, totems=args.totems, tie_break=args.tie_break)
    sys.stdout.write(transcript(options, args.seed, args.chooser_seed))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
