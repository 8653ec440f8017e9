"""Table chat (stored with the table, fanned out through the publisher, two channels,
limits) and the lobby (private tables, whose turn it is, the solo result), on SQLite and
PostgreSQL like every server test."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

import httpx
import pytest
from test_service import run, settle, until, watching
from wsclient import (
    Client,
    ThreadServer,
    clients_for,
    create_table,
    reach_first_turn,
    run_async,
    wait_for,
)

from skytotems import score_sheet, view
from skytotems.rules.scoring import SOLO_BANDS, solo_band
from skytotems.server import store
from skytotems.server.app import running
from skytotems.server.cache import TableCache
from skytotems.server.errors import ServiceError
from skytotems.server.lobby import Lobby
from skytotems.server.settings import Settings

HUMAN = {"type": "human"}
OPEN = {"type": "open"}
BOT = {"type": "bot", "level": "random"}
TWO = {"players": 2}


@pytest.fixture
def settings(db_url: str) -> Settings:
    return Settings(db_url=db_url, static_dir=None, takeover_level="random")


def chats(received: list[dict]) -> list[tuple[str, str]]:
    return [
        (m["message"]["channel"], m["message"]["text"]) for m in received if m["type"] == "chat"
    ]


# -------------------------------------------------------------------------- chat


def test_chat_is_stored_with_the_table_and_each_channel_reaches_its_readers(settings: Settings):
    async def scenario() -> None:
        async with running(settings) as rt:
            table, _ = await rt.service.create(TWO, [HUMAN, HUMAN], "none")
            async with (
                watching(rt, table, 0) as p0,
                watching(rt, table, 1) as p1,
                watching(rt, table, None) as onlooker,
            ):
                markup = "<b>hi</b> <img src=x onerror=alert(1)>"
                said = await rt.service.say(table, 0, f"  {markup} ", None, "conn-0", "c1")
                await rt.service.say(table, None, "nice move", "Kim", "spectator-1")
                await settle()
            assert said["text"] == markup and said["name"] == table.players[0].name
            assert said["channel"] == "players" and said["player"] == 0
            # players read the players' channel only; a spectator reads both
            assert chats(p0.received) == chats(p1.received) == [("players", markup)]
            assert chats(onlooker.received) == [("players", markup), ("spectators", "nice move")]
            table_id = table.id
        async with running(settings) as again:  # kept with the table
            back = await again.service.get(table_id)
            assert [(m["channel"], m["name"], m["text"]) for m in back.chat] == [
                ("players", "Player 1", markup),
                ("spectators", "Kim", "nice move"),
            ]

    run(scenario)


def test_chat_refuses_empty_long_and_fast_messages_and_stores_nothing_then(settings: Settings):
    limited = replace(settings, chat_max_chars=10, chat_rate_count=2, chat_rate_window_s=60)

    async def scenario() -> None:
        async with running(limited) as rt:
            table, _ = await rt.service.create(TWO, [HUMAN, HUMAN], "none")
            for text, code in (("   ", "chat_empty"), ("x" * 11, "chat_too_long")):
                with pytest.raises(ServiceError) as refused:
                    await rt.service.say(table, 0, text, None, "conn")
                assert refused.value.code == code
            await rt.service.say(table, 0, "x" * 10, None, "conn")
            await rt.service.say(table, 0, "two", None, "another conn of the same player")
            with pytest.raises(ServiceError) as fast:
                await rt.service.say(table, 0, "three", None, "conn")
            assert fast.value.code == "chat_rate"
            await rt.service.say(table, 1, "other one", None, "conn-1")
            assert [m["text"] for m in table.chat] == ["x" * 10, "two", "other one"]
            table_id = table.id
        async with running(limited) as again:
            assert len((await again.service.get(table_id)).chat) == 3

    run(scenario)


def test_chat_goes_over_the_socket_with_its_history_in_welcome(
    start_server: Callable[..., ThreadServer],
):
    server = start_server()
    created = create_table(server.base, [HUMAN, HUMAN])
    tid, tokens = created["table"]["id"], created["token_of"]
    alice, onlooker = Client(server.base, tid, tokens[0]), Client(server.base, tid, None)
    try:
        reply = alice.request({"type": "chat", "text": "<i>good luck</i>"})
        assert reply["type"] == "chat" and reply["message"]["text"] == "<i>good luck</i>"
        heard = onlooker.recv_type("chat")
        assert heard["message"]["name"] == "Player 1" and "ack" not in heard
        said = onlooker.request({"type": "chat", "text": "go!", "name": "Kim"})
        assert said["message"]["channel"] == "spectators"
        too_long = alice.request({"type": "chat", "text": "y" * 301})
        assert (too_long["type"], too_long["code"]) == ("error", "chat_too_long")
        bob = Client(server.base, tid, tokens[1])
        later = Client(server.base, tid, None)
        assert bob.welcome is not None and later.welcome is not None
        assert [m["text"] for m in bob.welcome["chat"]] == ["<i>good luck</i>"]
        assert [m["text"] for m in later.welcome["chat"]] == ["<i>good luck</i>", "go!"]
        bob.close()
        later.close()
    finally:
        alice.close()
        onlooker.close()


# ------------------------------------------------------------------------- lobby


def test_private_tables_stay_out_of_the_lobby_and_to_move_names_whose_turn_it_is(
    server: ThreadServer,
):
    public = create_table(server.base, [HUMAN, OPEN])
    private = create_table(server.base, [HUMAN, BOT], listed=False)
    game = create_table(server.base, [HUMAN, HUMAN])
    listed = httpx.get(server.base + "/api/tables?status=open").json()["tables"]
    ids = {t["id"] for t in listed}
    assert public["table"]["id"] in ids and game["table"]["id"] in ids
    assert private["table"]["id"] not in ids
    # its players still reach it by id
    summary = httpx.get(server.base + f"/api/tables/{private['table']['id']}").json()
    assert summary["listed"] is False and summary["status"] == "playing"
    # both choose a starting card at once: both are to move; once the bot has chosen,
    # only the human is
    both = next(t for t in listed if t["id"] == game["table"]["id"])
    assert both["to_move"] == [0, 1]
    url = server.base + f"/api/tables/{private['table']['id']}"
    wait_for(lambda: httpx.get(url).json()["to_move"] == [0])
    waiting = next(t for t in listed if t["id"] == public["table"]["id"])
    assert waiting["to_move"] == []


def test_the_lobby_read_back_from_the_database_equals_the_one_from_memory(
    server: ThreadServer, db_url: str
):
    """A process holding none of the tables (a fresh cache on the same database) lists
    the same summaries as the one that plays them: seq, moves after an undo, whose turn
    it is, seats and status are all read back from the stored tables and logs."""
    create_table(server.base, [HUMAN, OPEN])
    create_table(server.base, [HUMAN, BOT], listed=False)
    game = create_table(server.base, [HUMAN, HUMAN])
    with clients_for(server.base, game) as clients:
        mover = reach_first_turn(clients)
        assert mover.act(mover.view["legal_actions"][0])["type"] == "state"
        undone = mover.state is not None and mover.state["undo"]["last"]
        if undone:  # (unless that move revealed something)
            assert mover.undo()["type"] == "state"
    shown = httpx.get(server.base + "/api/tables?status=open").json()["tables"]
    assert [t["status"] for t in shown] == ["playing", "waiting"]
    # an undo is an entry of the log that takes a move back: two entries, no move
    assert shown[0]["move"] == shown[0]["seq"] - (2 if undone else 0)

    async def read_back() -> list[dict[str, Any]]:
        engine = store.make_engine(db_url)
        try:
            lobby = Lobby(engine, TableCache(engine, 1.0, 4))
            return await lobby.open_tables(50)
        finally:
            engine.dispose()

    assert run_async(read_back()) == shown


def test_a_finished_solo_game_gives_the_solo_total_and_band_and_private_records_stay_out(
    settings: Settings,
):
    async def scenario() -> None:
        async with running(settings) as rt:
            table, _ = await rt.service.create({"players": 1}, [BOT], "none")
            hidden, _ = await rt.service.create({"players": 1}, [BOT], "none", listed=False)
            await until(lambda: {table.id, hidden.id} <= set(rt.service.tables.finished), 50)
            game = table.game
            total = score_sheet(game, 0).total + score_sheet(game, 1).total
            assert table.result is not None
            assert table.result["solo"] == {"total": total, "band": solo_band(total)}
            assert table.result["solo"] == view(game, 0)["solo"]
            assert table.result["solo"]["band"] in {name for _, name in SOLO_BANDS}
            records = await rt.archive.finished(10)
            assert [t["id"] for t in records] == [table.id]
            assert records[0]["result"]["solo"] == table.result["solo"]

    run(scenario)
