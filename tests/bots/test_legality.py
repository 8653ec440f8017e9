"""Bots answer every decision kind with a legal action, over thousands of positions."""

from __future__ import annotations

from collections import Counter

import pytest

from skytotems import GameOptions, view
from skytotems.bots import make_bot
from skytotems.bots.arena import play_game
from skytotems.rules.decisions import DECISION_KINDS

from .bot_helpers import TINY_LEVELS, positions, tiny_mcts


def test_random_greedy_and_mcts_choose_only_legal_actions_in_every_decision_kind() -> None:
    random_bot = make_bot("random", 1)
    greedy = make_bot("greedy", 2)
    searchers = [tiny_mcts(name, 3 + i) for i, name in enumerate(TINY_LEVELS)]
    asked: Counter[str] = Counter()
    for i, (game, seat) in enumerate(positions(48, seed=7)):
        kind = game.decision.kind
        legal = game.legal_actions(seat)
        seen = view(game, seat)
        bots = [random_bot]
        # The searching bots are slower: ask them at a sample of the positions, and at
        # every position of a rare kind.
        rare = kind in ("choose_cat", "dragon_build", "last_reveal", "end_turn", "choose_design")
        if rare or i % 10 == 0:
            bots.append(greedy)
        if rare or i % 40 == 0:
            bots.extend(searchers)
        for bot in bots:
            action = bot.choose(seen, legal)
            assert action in legal, f"{bot.name} chose {action} at {kind}"
            asked[kind] += 1
    missing = set(DECISION_KINDS) - set(asked)
    assert not missing, f"kinds never asked: {missing}"
    assert sum(asked.values()) > 4000


@pytest.mark.parametrize(
    "name", ["mcts-tiny", "mcts-tiny-estimate", "mcts-tiny-expert", "greedy", "random"]
)
def test_bots_finish_a_solo_and_a_four_player_game(name: str) -> None:
    bot = tiny_mcts(name, 11) if name.startswith("mcts") else make_bot(name, 11)
    solo = play_game([bot, bot], GameOptions(players=1), seed=5)
    assert solo.places == (1, 1)
    assert sum(solo.decisions) == solo.actions
    others = [make_bot("random", s) for s in range(3)]
    four = play_game([bot, *others], GameOptions(players=4, totems="dragon"), seed=6)
    assert sorted(four.places)[0] == 1 and len(four.scores) == 4
