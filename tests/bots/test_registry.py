"""The bot registry and the MCTS search's own guarantees."""

from __future__ import annotations

from dataclasses import replace

import pytest

from skytotems import EndTurn, Game, GameOptions, view
from skytotems.bots import BOT_NAMES, Bot, make_bot
from skytotems.bots.mcts import LEVELS, MctsBot

from .bot_helpers import first_real_turn


@pytest.mark.parametrize("name", BOT_NAMES)
def test_every_registered_name_makes_a_bot(name: str) -> None:
    bot = make_bot(name, 3)
    assert isinstance(bot, Bot)
    assert bot.name == ("mcts-medium" if name == "mcts" else name)


UNCAPPED_EASY = replace(LEVELS["easy"], time_cap=120.0)


def test_unknown_names_are_refused_with_the_valid_ones() -> None:
    with pytest.raises(ValueError, match="greedy"):
        make_bot("grandmaster", 0)


def test_levels_grow_in_budget() -> None:
    budgets = [LEVELS[k].iterations for k in ("easy", "medium", "hard", "expert")]
    assert budgets == sorted(set(budgets))


def test_the_expert_level_spends_its_whole_budget_legally_and_repeats_itself() -> None:
    """mcts-expert (issue 17) is an iteration budget: the same seed and view give the
    same choice, whatever the machine's speed (the time cap lifted for a loaded one)."""
    game, seat = first_real_turn()
    seen, legal = view(game, seat), game.legal_actions(seat)
    made = make_bot("mcts-expert", 8)
    assert isinstance(made, MctsBot) and made.level == LEVELS["expert"]
    uncapped = replace(LEVELS["expert"], time_cap=600.0)
    bot = MctsBot(8, uncapped)
    action = bot.choose(seen, legal)
    assert action in legal
    assert bot.last_iterations == LEVELS["expert"].iterations
    assert MctsBot(8, uncapped).choose(seen, legal) == action


def test_mcts_spends_its_budget_and_repeats_itself_for_a_seed() -> None:
    game, seat = first_real_turn()
    seen = view(game, seat)
    legal = game.legal_actions(seat)
    made = make_bot("mcts-easy", 5)
    assert isinstance(made, MctsBot) and made.level == LEVELS["easy"]
    # the same budget without the safety time cap, which a loaded machine can reach
    bot = MctsBot(5, UNCAPPED_EASY)
    action = bot.choose(seen, legal)
    assert bot.last_iterations == LEVELS["easy"].iterations
    assert MctsBot(5, UNCAPPED_EASY).choose(seen, legal) == action


def test_mcts_reuses_its_search_within_a_turn() -> None:
    game, seat = first_real_turn()
    bot = MctsBot(2, UNCAPPED_EASY)
    action = bot.choose(view(game, seat), game.legal_actions(seat))
    searched_root = bot._last[3] if bot._last else None
    game.apply(action)
    assert game.decision.seats == (seat,)  # the turn goes on (a pool to place)
    reused = bot._reused_root(view(game, seat), seat)
    assert searched_root is not None and reused is searched_root.children[action]
    assert reused.visits > 0


@pytest.mark.parametrize("name", BOT_NAMES)
def test_every_bot_ends_its_turn_at_once_when_every_turn_is_confirmed(name: str) -> None:
    """RULES.md §11: on a table that confirms every turn, a bot at the bare prompt (end
    the turn is its one legal action) answers it, without searching."""
    game = Game(GameOptions(players=2, confirm_turns=True), seed=21)
    moves = 0
    while not (game.decision.kind == "end_turn" and len(game.legal_actions()) == 1):
        seat = game.decision.seats[0]
        game.apply(game.legal_actions(seat)[0])
        moves += 1
        assert moves < 200
    seat = game.decision.seats[0]
    bot = make_bot(name, 1)
    legal = game.legal_actions(seat)
    assert bot.choose(view(game, seat), legal) == legal[0] == EndTurn(seat)
    if isinstance(bot, MctsBot):
        assert bot.last_iterations == 0
