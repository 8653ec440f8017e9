"""The table option "every turn ends with a confirmation" (RULES.md §11) through the real
server: offered at creation, shown in the table's options, every turn of a human ends
with the prompt while the others see the same neutral decision, and bots answer it."""

from __future__ import annotations

import random
from typing import Any

import httpx
from wsclient import ThreadServer, clients_for, create_table, wait_for

from skytotems import replay

HUMAN = {"type": "human"}
BOT = {"type": "bot", "level": "random"}
CONFIRM = {"players": 2, "confirm_turns": True}


def turn_ended(message: dict[str, Any]) -> bool:
    return any(e.get("type") == "turn_ended" for e in message.get("events", []))


def test_every_turn_of_two_humans_ends_with_the_prompt(server: ThreadServer):
    table = create_table(server.base, [HUMAN, HUMAN], options=CONFIRM)
    assert table["table"]["options"]["confirm_turns"] is True
    rng = random.Random(5)
    ends = 0
    bare_prompts = 0
    with clients_for(server.base, table) as clients:
        while ends < 8:
            for c in clients:
                c.drain(0.02)
            movers = [c for c in clients if c.view["legal_actions"]]
            if not movers:
                continue
            mover = movers[0]
            other = clients[1 - clients.index(mover)]
            decision = mover.view["decision"]
            legal = mover.view["legal_actions"]
            if decision["kind"] == "end_turn":
                # the other seat's copy of this move may still be on its way (a loaded
                # machine took more than the drain's 20 ms): wait for it, then compare
                while other.view["move"] < mover.view["move"]:
                    other.recv_type("state")
                seen = other.view["decision"]
                assert seen["kind"] == "turn" and seen["context"]["acted"] is True
                ends_with = [a for a in legal if a["type"] == "end_turn"]
                assert ends_with
                bare_prompts += legal == ends_with
                action = ends_with[0]
            else:
                action = rng.choice([a for a in legal if a["type"] != "reveal"] or legal)
            reply = mover.act(action)
            assert reply["type"] == "state", reply
            if turn_ended(reply):
                assert action["type"] == "end_turn", "a turn ended without its prompt"
                ends += 1
    assert bare_prompts >= 1  # asked although nothing could be revealed


def test_bots_answer_the_prompt_and_finish_the_game(server: ThreadServer):
    table = create_table(server.base, [BOT, BOT], options=CONFIRM)
    table_id = table["table"]["id"]
    url = f"{server.base}/api/tables/{table_id}"
    wait_for(lambda: httpx.get(url).json()["status"] == "finished", timeout=120, step=0.1)
    record = httpx.get(url + "/record").json()
    assert record["options"]["confirm_turns"] is True
    game = replay(record)
    ends = [a for a in game.history if a.type == "end_turn"]
    assert len(ends) >= 2 * 10  # every turn of both seats (10 rounds and the final totem)


def test_a_human_facing_a_bot_is_not_kept_waiting(server: ThreadServer):
    table = create_table(server.base, [HUMAN, BOT], options=CONFIRM)
    with clients_for(server.base, table) as (human,):
        rng = random.Random(2)
        turns_started = 0
        while turns_started < 3:
            if not human.view["legal_actions"]:
                human.recv_type("state", timeout=30)
                continue
            decision = human.view["decision"]["kind"]
            turns_started += decision == "turn" and not human.view["decision"]["context"].get(
                "acted"
            )
            legal = human.view["legal_actions"]
            ends = [a for a in legal if a["type"] == "end_turn"]
            assert human.act(ends[0] if ends else rng.choice(legal))["type"] == "state"


def test_a_bad_confirm_turns_value_is_refused(server: ThreadServer):
    before = httpx.get(server.base + "/api/tables").json()["tables"]
    response = httpx.post(
        server.base + "/api/tables",
        json={"seats": [HUMAN, HUMAN], "options": {"confirm_turns": "sometimes"}},
    )
    assert response.status_code == 422
    assert "confirm_turns" in response.text
    assert httpx.get(server.base + "/api/tables").json()["tables"] == before


def test_a_table_without_the_option_names_none(server: ThreadServer):
    table = create_table(server.base, [HUMAN, HUMAN])
    assert "confirm_turns" not in table["table"]["options"]
