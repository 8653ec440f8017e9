"""The engine shares one `Decision` between games whose steps decide alike (issue 17:
faster search): a shared decision must be read-only, so that one game's caller cannot
change what another game asks; copies (to_json, public) are the caller's to change."""

from __future__ import annotations

import json
import random

import pytest

from skytotems import Game, GameOptions
from skytotems.rules.decisions import Decision


def _decisions_of_random_games(games: int) -> list[Decision]:
    """Every decision met in `games` seeded random 2-player games, in order."""
    chooser = random.Random(7)
    seen: list[Decision] = []
    for seed in range(games):
        game = Game(GameOptions(players=2), seed)
        while not game.is_over:
            decision = game.decision
            seen.append(decision)
            actions = game.legal_actions(decision.seats[0])
            game.apply_fast(actions[chooser.randrange(len(actions))])
    return seen


def test_decision_context_is_read_only() -> None:
    """A decision's context refuses changes: the same object may be another game's."""
    for decision in _decisions_of_random_games(2):
        with pytest.raises(TypeError):
            decision.context["mode"] = "changed"  # type: ignore[index]


def test_copies_of_a_shared_context_are_the_callers() -> None:
    """to_json and the public form copy the context: changing them changes no game."""
    game = Game(GameOptions(players=2), 3)
    decision = game.decision
    before = decision.to_json()
    as_json = decision.to_json()
    as_json["context"]["mode"] = "changed"
    public = decision.public()
    assert isinstance(public.context, dict)
    public.context["mode"] = "changed"
    assert Game(GameOptions(players=2), 3).decision.to_json() == before
    assert game.decision.to_json() == before


def test_decision_repr_reads_as_a_plain_dict() -> None:
    """The documentation's examples print decisions: the read-only context prints as a dict."""
    decision = Game(GameOptions(players=2), 3).decision
    assert repr(decision) == (
        f"Decision(kind={decision.kind!r}, seats={decision.seats!r}, "
        f"context={dict(decision.context)!r})"
    )
    assert "mappingproxy" not in repr(decision)


def test_a_pool_changed_in_one_games_json_is_not_changed_in_anothers() -> None:
    """Two games waiting on the same pool share its decision: the pool list of one's
    `to_json` (or public form) is the caller's, not the shared decision's."""
    pools = [d for d in _decisions_of_random_games(3) if d.kind == "place_pedestal"]
    decision = pools[0]
    before = json.loads(json.dumps(decision.to_json()))
    as_json = decision.to_json()
    as_json["context"]["pool"].append("changed")
    decision.public().context["pool"].append("changed")
    assert decision.to_json() == before
