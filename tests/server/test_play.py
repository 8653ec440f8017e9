"""Whole games through the real server: humans over WebSockets, bots, solo, lobby, records."""

from __future__ import annotations

import random

import httpx
from wsclient import (
    Client,
    ThreadServer,
    clients_for,
    create_table,
    db_rows,
    play_until,
    wait_for,
)

from skytotems import replay

HUMAN = {"type": "human"}


def finished(clients: list[Client]) -> bool:
    return any(c.state is not None and c.state["status"] == "finished" for c in clients)


def test_two_humans_play_a_whole_game_and_get_its_record(server: ThreadServer, db_url: str):
    table = create_table(server.base, [{"type": "human", "name": "Ann"}, HUMAN])
    table_id = table["table"]["id"]
    assert table["table"]["status"] == "playing"
    with clients_for(server.base, table) as clients:
        # the record holds the seed: refused while the game runs
        early = httpx.get(f"{server.base}/api/tables/{table_id}/record")
        assert early.status_code == 409
        assert httpx.get(f"{server.base}/api/tables/{table_id}/replay/0").status_code == 409
        moves = play_until(clients, random.Random(7), lambda: finished(clients))
        for c in clients:
            c.drain(0.1)
        final = clients[0].state
        assert final is not None and final["status"] == "finished"
        assert final["seq"] == moves  # no undo here: one log entry per acknowledged move
    download = httpx.get(f"{server.base}/api/tables/{table_id}/record")
    # a browser saves it as a file, for `skytotems analyse`
    disposition = download.headers["content-disposition"]
    assert disposition == f'attachment; filename="skytotems-{table_id}.json"'
    record = download.json()
    game = replay(record)
    assert game.is_over and len(record["actions"]) == moves
    totals = [sheet["total"] for sheet in final["view"]["score_sheets"]]
    assert record["result"]["totals"] == totals
    stats = httpx.get(f"{server.base}/api/tables/{table_id}/stats").json()["players"]
    for seat, entry in enumerate(stats):
        points = entry["points"]
        assert points["total"] == totals[seat]
        assert (
            sum(points["totems"].values())
            + points["common_pedestals"]
            + points["rare_pedestals"]
            + points["cards"]
        ) == totals[seat]
        assert sum(entry["totems"].values()) == len(game.altars[seat].totems)
    # the log in the database is the acknowledged moves, in order, and nothing else
    rows = db_rows(
        db_url, "SELECT seq, kind FROM actions WHERE table_id = :id ORDER BY seq", id=table_id
    )
    assert rows == [(i + 1, "action") for i in range(moves)]
    # the replay viewer's steps: the spectator's view after each effective move
    first = httpx.get(f"{server.base}/api/tables/{table_id}/replay/0").json()
    assert first["moves"] == moves and first["action"] is None and first["view"]["move"] == 0
    middle = httpx.get(f"{server.base}/api/tables/{table_id}/replay/{moves // 2}").json()
    assert middle["action"] == record["actions"][moves // 2 - 1]
    assert middle["view"]["move"] == moves // 2 and "goals" not in middle["view"]["seats"][0]
    last = httpx.get(f"{server.base}/api/tables/{table_id}/replay/{moves}").json()
    spectator = httpx.get(f"{server.base}/api/tables/{table_id}/view").json()["view"]
    assert last["view"] == spectator and last["events"][-1]["type"] == "game_ended"
    beyond = httpx.get(f"{server.base}/api/tables/{table_id}/replay/{moves + 1}")
    assert beyond.status_code == 404
    finished_list = httpx.get(f"{server.base}/api/tables", params={"status": "finished"}).json()
    assert table_id in [t["id"] for t in finished_list["tables"]]


def test_bots_play_their_seats_and_a_table_of_bots_finishes_alone(server: ThreadServer):
    mixed = create_table(
        server.base,
        [HUMAN, {"type": "bot", "level": "random"}, {"type": "bot", "level": "greedy"}],
        options={"players": 3},
    )
    bots_only = create_table(server.base, [{"type": "bot", "level": "random"}] * 2)
    assert bots_only["tokens"] == []
    with clients_for(server.base, mixed) as clients:
        play_until(clients, random.Random(3), lambda: finished(clients))
        by_seat = {1: 0, 2: 0}
        for message in clients[0].received:
            for event in message.get("events", []):
                if event["type"] == "turn_ended" and event["seat"] in by_seat:
                    by_seat[event["seat"]] += 1
        assert min(by_seat.values()) >= 10  # each bot seat played all its turns
    bots_id = bots_only["table"]["id"]
    wait_for(
        lambda: httpx.get(f"{server.base}/api/tables/{bots_id}").json()["status"] == "finished",
        timeout=60,
    )


def test_solo_player_plays_both_altars_with_one_token(server: ThreadServer):
    table = create_table(server.base, [HUMAN], options={"players": 1})
    assert list(table["token_of"]) == [0]
    with clients_for(server.base, table) as clients:
        assert clients[0].welcome is not None and clients[0].welcome["seats"] == [0, 1]
        play_until(clients, random.Random(5), lambda: finished(clients))
        view = clients[0].view
        assert view["solo"]["total"] == sum(s["total"] for s in view["score_sheets"])


def test_open_seat_is_joined_then_the_game_starts(server: ThreadServer):
    table = create_table(server.base, [HUMAN, {"type": "open"}])
    table_id = table["table"]["id"]
    assert table["table"]["status"] == "waiting"
    host = Client(server.base, table_id, table["token_of"][0])
    refused = host.act(host.view["legal_actions"][0])
    assert refused["type"] == "error" and refused["code"] == "waiting"
    joined = httpx.post(f"{server.base}/api/tables/{table_id}/join", json={"name": "Bo"}).json()
    assert joined["player"] == 1 and joined["table"]["status"] == "playing"
    assert host.recv_type("state")["events"][-1] == {
        "type": "player_joined",
        "player": 1,
        "name": "Bo",
    }
    full = httpx.post(f"{server.base}/api/tables/{table_id}/join", json={"name": "Cy"})
    assert full.status_code == 409
    guest = Client(server.base, table_id, joined["token"])
    assert guest.welcome is not None and guest.welcome["player"] == 1
    assert guest.act(guest.view["legal_actions"][0])["type"] == "state"
    host.close()
    guest.close()


def test_reconnection_resumes_from_the_last_seen_seq(server: ThreadServer):
    table = create_table(server.base, [HUMAN, HUMAN])
    table_id = table["table"]["id"]
    with clients_for(server.base, table) as clients:
        rng = random.Random(11)
        play_until(clients, rng, lambda: clients[0].seq >= 6)
        clients[1].drain(0.1)
        seen = clients[1].seq
        clients[1].close()
        play_until(
            clients[:1],
            rng,
            lambda: clients[0].seq >= seen + 5 or not clients[0].view["legal_actions"],
        )
        clients[0].drain(0.1)
        missed_by_zero = [
            e
            for m in clients[0].received
            if m["type"] == "state" and m["seq"] > seen
            for e in m["events"]
        ]
        back = Client(server.base, table_id, table["token_of"][1], seq=seen)
        state = back.state
        assert state is not None and state["seq"] == clients[0].seq
        assert "reset" not in state
        # the same events the other seat saw live (nothing hidden in them for either seat)
        assert [e["type"] for e in state["events"]] == [e["type"] for e in missed_by_zero]
        fresh = Client(server.base, table_id, table["token_of"][1])
        assert fresh.state is not None and fresh.state["events"] == []
        # from seq 0: the whole log, the deal first (the seat's own hand only)
        everything = Client(server.base, table_id, table["token_of"][1], seq=0).state
        assert everything is not None
        setup = everything["events"][:4]
        assert [e["type"] for e in setup] == [
            "totem_set",
            "start_player",
            "cards_dealt",
            "cards_dealt",
        ]
        assert setup[2]["cards"] == [] and len(setup[3]["cards"]) == 3
        assert len(everything["events"]) > len(state["events"])
        assert fresh.state["view"] == state["view"]
        back.close()
        fresh.close()


def test_http_views_lobby_and_openapi(server: ThreadServer):
    table = create_table(server.base, [HUMAN, {"type": "bot", "level": "random"}])
    table_id = table["table"]["id"]
    mine = httpx.get(
        f"{server.base}/api/tables/{table_id}/view",
        headers={"Authorization": f"Bearer {table['token_of'][0]}"},
    ).json()
    assert mine["player"] == 0 and "hand" in mine["view"]["seats"][0]
    spectator = httpx.get(f"{server.base}/api/tables/{table_id}/view").json()
    assert spectator["player"] is None and "hand" not in spectator["view"]["seats"][0]
    forged = httpx.get(
        f"{server.base}/api/tables/{table_id}/view",
        headers={"Authorization": "Bearer not-a-real-token"},
    )
    assert forged.status_code == 403
    lobby = httpx.get(f"{server.base}/api/tables").json()["tables"]
    assert table_id in [t["id"] for t in lobby]
    assert httpx.get(f"{server.base}/api/tables/nope").status_code == 404
    bad = httpx.post(f"{server.base}/api/tables", json={"seats": [HUMAN], "clock": "hourly"})
    assert bad.status_code == 422
    wrong_count = httpx.post(f"{server.base}/api/tables", json={"seats": [HUMAN]})
    assert wrong_count.status_code == 422 and wrong_count.json()["code"] == "bad_seats"
    spec = httpx.get(f"{server.base}/api/openapi.json").json()
    for path in (
        "/api/tables",
        "/api/tables/{table_id}/join",
        "/api/tables/{table_id}/record",
        "/api/tables/{table_id}/stats",
        "/api/tables/{table_id}/view",
    ):
        assert path in spec["paths"], path
    assert "CreateTable" in spec["components"]["schemas"]
