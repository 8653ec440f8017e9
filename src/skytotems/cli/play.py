"""`skytotems play`: a whole game in the terminal against random opponents.

The person plays one seat (in solo, both altars); every other seat picks uniformly
among its legal actions with a generator seeded by the game seed, so a seed and the
same answers replay the same game. The menu is the engine's list of legal actions
for the pending decision, in the engine's order; this module decides no rule. A
decision with a single legal action is played at once and said so (a UI may do
that, the engine never does), except the end of a turn when the game confirms every
turn (`--confirm-turns`, RULES.md §11): that is always the person's own answer. Input
is read line by line, so it can be piped.
"""

from __future__ import annotations

import random
import secrets
import sys
from collections.abc import Callable, Collection

import click

from ..observed import Observed
from ..render import (
    DESIGN_LEGEND,
    GRID_LEGEND,
    RULE,
    action_text,
    altar_grid,
    decision_text,
    event_lines,
    menu_lines,
    result_lines,
    score_table,
    screen,
    who,
)
from ..rules.actions import Action
from ..rules.engine import Game
from ..rules.events import Event
from ..rules.notation import format_altar
from ..rules.options import TIE_BREAKS, GameOptions
from ..rules.pieces import TOTEM_NAMES
from ..rules.view import events_for, view
from .analyse import bad
from .sim import TOTEMS_HELP, check_totem_set

QUIT_WORDS = ("q", "quit", "exit")

# Asks for one of `count` menu entries: the 0-based index, or None to quit.
Ask = Callable[[int], "int | None"]


# The decisions that end a turn: with `confirm_turns` never played for the person.
CONFIRMED = ("end_turn", "last_reveal")


class QuitGame(Exception):
    """The person asked to leave the game."""


def read_answer(prompt: str) -> str:
    """One line of input after `prompt`; click.Abort at the end of input.

    A terminal echoes what is typed; piped input is echoed here, so a transcript
    reads the same either way.
    """
    stdin = sys.stdin
    if stdin.isatty():
        return str(click.prompt(prompt, default="", show_default=False, prompt_suffix=": "))
    click.echo(f"{prompt}: ", nl=False)
    line = stdin.readline()
    if not line:
        click.echo("")
        raise click.Abort
    click.echo(line.rstrip("\r\n"))
    return line


def ask_in_terminal(count: int) -> int | None:
    """Read a menu number; re-ask on anything else; None on `q`.

    End of input (or Ctrl-C) raises click.Abort, which `play` turns into an exit 1.
    """
    while True:
        answer = read_answer(f"Your choice (1-{count}, q quits)").strip().lower()
        if answer in QUIT_WORDS:
            return None
        if answer.isdigit() and 1 <= int(answer) <= count:
            return int(answer) - 1
        click.echo(f"Please answer a number from 1 to {count}, or q to quit.")


class TerminalGame:
    """Drives one game: the person's decisions through menus, the others at random."""

    def __init__(
        self,
        game: Game,
        people: Collection[int],
        chooser: random.Random,
        ask: Ask = ask_in_terminal,
    ) -> None:
        self.game = game
        self.people = frozenset(people)
        self.chooser = chooser
        self.ask = ask
        # Whose eyes filter the events: the person's seat (in solo both are theirs).
        self.viewer = min(self.people)

    def seen(self) -> Observed:
        """The game as the person sees it: what the screen may show (RULES.md §11)."""
        return Observed(view(self.game, self.viewer))

    def log(self, events: list[Event]) -> None:
        """Print the events the person may see as short log lines."""
        visible = events_for(events, self.viewer, self.game.options.solo)
        for line in event_lines(self.seen(), visible, self.people):
            click.echo(line)

    def choose_for_person(self, seat: int) -> Action:
        """Show the table and the menu for `seat`; the chosen legal action."""
        actions = self.game.legal_actions(seat)
        seen = self.seen()
        assert seen.decision is not None  # the person decides only in a running game
        for line in screen(seen, seat, self.people):
            click.echo(line)
        click.echo("")
        owner = f"Altar {seat}" if seen.options.solo else "You"
        click.echo(f"{owner}: {decision_text(seen, seen.decision, seat)}")
        confirm = seen.options.confirm_turns and seen.decision.kind in CONFIRMED
        if len(actions) == 1 and not confirm:
            click.echo(f"  Only one choice: {action_text(seen, actions[0])}")
            return actions[0]
        for line in menu_lines(seen, actions):
            click.echo(line)
        index = self.ask(len(actions))
        if index is None:
            raise QuitGame
        return actions[index]

    def run(self) -> None:
        """Play until the game is over (QuitGame if the person quits)."""
        game = self.game
        self.log(game.setup_events)
        while not game.is_over:
            pending = game.decision.seats
            mine = [s for s in pending if s in self.people]
            if mine:
                action = self.choose_for_person(mine[0])
            else:
                action = self.chooser.choice(game.legal_actions(pending[0]))
            self.log(game.apply(action))

    def final_lines(self) -> list[str]:
        """Final altars, the score sheets side by side, places or the solo band."""
        seen = self.seen()
        lines = [RULE, "Final altars:"]
        for s in range(seen.n):
            lines.append(f"{who(seen, s, self.people)}: {format_altar(seen.altars[s])}")
            if s in self.people:
                lines += altar_grid(seen.altars[s])
        lines += ["", "Score sheets:", *score_table(seen, self.people), ""]
        lines += result_lines(seen, self.people)
        return lines


@click.command()
@click.option(
    "--players",
    type=click.IntRange(1, 4),
    default=2,
    show_default=True,
    help="Players, 1 = solo (you play both altars).",
)
@click.option(
    "--totems", default="beginner", metavar="SET", callback=check_totem_set, help=TOTEMS_HELP
)
@click.option("--tie-break", type=click.Choice(TIE_BREAKS), default="bga", show_default=True)
@click.option(
    "--confirm-turns",
    is_flag=True,
    help="Every turn ends with a confirmation, and the last reveals ask every seat, so "
    "a turn's end never shows whether a goal could be revealed (RULES.md §11).",
)
@click.option("--seed", type=int, default=None, help="Game seed (random when left out).")
@click.option(
    "--seat",
    type=click.IntRange(min=0),
    default=0,
    show_default=True,
    help="Your seat, from 0 (seat 0 plays first only if drawn to start).",
)
def play(
    players: int, totems: str, tie_break: str, confirm_turns: bool, seed: int | None, seat: int
) -> None:
    """Play a game in the terminal against random opponents."""
    options = GameOptions(
        players=players, totems=totems, tie_break=tie_break, confirm_turns=confirm_turns
    )
    if options.solo and seat != 0:
        raise bad("--seat", "in solo you play both altars; leave --seat out")
    if seat >= options.seats:
        raise bad(
            "--seat", f"a {players}-player game has seats 0 to {options.seats - 1}, not {seat}"
        )
    if seed is None:
        seed = secrets.randbelow(2**31)
    game = Game(options, seed)
    people = (0, 1) if options.solo else (seat,)
    mode = (
        "solo (you play both altars)" if options.solo else f"{players} players, you are seat {seat}"
    )
    confirmed = "; every turn ends with a confirmation" if confirm_turns else ""
    click.echo(f"Sky Totems: {mode}; seed {seed}; tie-break {tie_break}{confirmed}.")
    click.echo("Totems in play: " + ", ".join(TOTEM_NAMES[k] for k in game.kinds))
    click.echo(DESIGN_LEGEND)
    click.echo("Altar grid: " + GRID_LEGEND)
    session = TerminalGame(game, people, random.Random(seed))
    try:
        session.run()
    except QuitGame:
        click.echo(f"You left the game at move {len(game.history)} (seed {seed}).")
        return
    except click.Abort:
        click.echo(
            f"\nInput ended at move {len(game.history)}; the game (seed {seed}) is "
            "left unfinished.",
            err=True,
        )
        raise SystemExit(1) from None
    for line in session.final_lines():
        click.echo(line)
