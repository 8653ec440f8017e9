"""The app's shell: the browser game at /, the serve command, and the group-commit writer."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
import pytest
from click.testing import CliRunner
from sqlalchemy import insert
from wsclient import (
    Client,
    ThreadServer,
    create_table,
    db_rows,
    play_until,
    reach_first_turn,
    run_async,
)

from skytotems.cli.serve import serve
from skytotems.server import store


def test_the_browser_game_is_served_at_the_root(
    start_server: Callable[..., ThreadServer], tmp_path: Path
):
    static = tmp_path / "static"
    static.mkdir()
    (static / "index.html").write_text("<title>Sky Totems</title>")
    server = start_server(static_dir=static)
    page = httpx.get(server.base + "/")
    assert page.status_code == 200 and "Sky Totems" in page.text
    assert httpx.get(server.base + "/api/health").json()["status"] == "ok"


def test_serve_command_defaults():
    result = CliRunner().invoke(serve, ["--help"])
    assert result.exit_code == 0
    for text in ("--host", "127.0.0.1", "--port", "8000", "--db", "sqlite:///skytotems.db"):
        assert text in result.output


def entry(seq: int) -> dict[str, object]:
    return {
        "table_id": "t",
        "seq": seq,
        "player": 0,
        "kind": "action",
        "data": {"type": "end_turn", "seat": 0},
        "at_ms": 0,
    }


def test_writer_groups_commits_and_isolates_a_failing_write(db_url: str):
    engine = store.make_engine(db_url)
    store.migrate(engine)
    store.migrate(engine)  # a second start finds the schema up to date
    with engine.begin() as conn:
        conn.execute(insert(store.DECKS).values(id="d", data={}))
        conn.execute(
            insert(store.TABLES).values(
                id="t",
                created_ms=0,
                updated_ms=0,
                options={},
                deck_id="d",
                seed=1,
                status="playing",
                clock="none",
            )
        )

    async def run() -> list[object]:
        writer = store.Writer(engine)
        writer.start(asyncio.get_running_loop())
        futures = [writer.submit(store.Write((entry(seq),))) for seq in range(1, 201)]
        futures.append(writer.submit(store.Write((entry(5),))))  # a second seq 5
        results = await asyncio.gather(*futures, return_exceptions=True)
        writer.stop()
        assert writer.commits < writer.writes  # writes queued together share a commit
        return results

    results = run_async(run())
    assert results[:200] == [None] * 200
    assert isinstance(results[200], Exception)  # the unique (table, seq) refused it
    rows = db_rows(db_url, "SELECT seq FROM actions ORDER BY seq")
    assert [r[0] for r in rows] == list(range(1, 201))
    engine.dispose()


def test_an_unknown_sqlite_durability_mode_is_refused():
    with pytest.raises(ValueError, match="synchronous"):
        store.make_engine("sqlite://", "SOMETIMES")


def test_a_seq_taken_by_another_writer_is_stale_and_the_cache_is_rebuilt(
    server: ThreadServer, db_url: str
):
    """Another writer takes the next seq first (as a second server process could): the
    unique (table, seq) refuses our write, the mover is answered `stale`, and every
    socket gets the events of the other writer's move from the stored log (the stored
    move, not ours; the move is not tried again: its view is out of date)."""
    table = create_table(server.base, [{"type": "human"}, {"type": "human"}])
    table_id = table["table"]["id"]
    clients = [Client(server.base, table_id, table["token_of"][p]) for p in (0, 1)]
    mover = reach_first_turn(clients)
    theirs, ours = mover.view["legal_actions"][0], mover.view["legal_actions"][-1]
    assert theirs != ours
    other_writer = store.make_engine(db_url)
    with other_writer.begin() as conn:
        conn.execute(
            insert(store.ACTIONS).values(
                table_id=table_id,
                seq=mover.seq + 1,
                player=theirs["seat"],
                kind="action",
                data=theirs,
                at_ms=0,
            )
        )
    other_writer.dispose()
    seq = mover.seq
    reply = mover.act(ours)
    assert reply["type"] == "error" and reply["code"] == "stale"
    state = mover.state  # sent before the error: the store's state, from its log
    assert state is not None and not state.get("reset") and state["seq"] == seq + 1
    assert state["events"] and state["events"][0]["seat"] == theirs["seat"]
    stored = db_rows(
        db_url,
        "SELECT data FROM actions WHERE table_id = :id AND seq = :seq",
        id=table_id,
        seq=seq + 1,
    )[0][0]
    assert stored == theirs
    assert state["view"]["move"] == seq + 1
    # the game goes on from the stored state
    play_until(clients, random.Random(1), lambda: clients[0].seq >= seq + 4)


def newest_revision() -> str:
    """The head of the server's migration scripts."""
    from alembic.config import Config
    from alembic.script import ScriptDirectory

    config = Config()
    config.set_main_option("script_location", str(Path(store.__file__).parent / "migrations"))
    head = ScriptDirectory.from_config(config).get_current_head()
    assert head is not None
    return head


def test_processes_starting_together_migrate_once(postgres_url: str):
    """N server processes start at once on one PostgreSQL database: the advisory lock lets
    one migrate while the others wait, then find the schema up to date (none fails on a
    table that another has just created)."""
    # (a lock wait of more than 20 s fails instead of hanging the test)
    url = postgres_url + "%20-clock_timeout%3D20000"
    engines = [store.make_engine(url) for _ in range(4)]
    with ThreadPoolExecutor(len(engines)) as pool:
        list(pool.map(store.migrate, engines))  # re-raises any migration's failure
    assert db_rows(postgres_url, "SELECT version_num FROM alembic_version") == [
        (newest_revision(),)
    ]
    assert db_rows(postgres_url, "SELECT count(*) FROM actions") == [(0,)]
    for engine in engines:
        engine.dispose()


def test_the_bot_list_comes_from_the_registry(server: ThreadServer):
    """DESIGN.md §2: one list of bots; the lobby reads it from /api/bots and the schema
    accepts exactly the registry's names (an unknown level is refused, nothing created)."""
    from skytotems.bots.registry import ALIASES, BOT_NAMES, OFFERED

    bots = httpx.get(f"{server.base}/api/bots").json()
    assert bots == {"levels": list(OFFERED), "aliases": dict(ALIASES)}
    spec = httpx.get(f"{server.base}/api/openapi.json").json()
    level = spec["components"]["schemas"]["SeatIn"]["properties"]["level"]
    assert set(level["anyOf"][0]["enum"]) == set(BOT_NAMES)
    before = httpx.get(f"{server.base}/api/tables?status=open").json()
    seats = [{"type": "human", "name": "ann"}, {"type": "bot", "level": "grandmaster"}]
    refused = httpx.post(f"{server.base}/api/tables", json={"seats": seats})
    assert refused.status_code == 422
    assert httpx.get(f"{server.base}/api/tables?status=open").json() == before
    for name in BOT_NAMES:
        seats[1]["level"] = name
        assert httpx.post(f"{server.base}/api/tables", json={"seats": seats}).status_code == 201
