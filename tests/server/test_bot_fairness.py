"""Fair bot workers (issue 17): expensive bot seats never starve other tables' bots.

A real server process with one bot worker drives several tables of searching bots and,
created last, one table of quick random bots. The database's action log (its ids are
the order of the commits) shows what the worker did: first come, first served, each
random move would wait behind one move of every searching table; the fair queue serves
the table that used the worker least first, so the random table moves between any two
moves of the searching tables. Ordering is asserted, never timings.
"""

from __future__ import annotations

from pathlib import Path

from wsclient import REPO, create_table, db_rows, scrape, value, wait_for

from skytotems.server.process import UNLIMITED_RATES, ServerProcess

SEARCHING = {"type": "bot", "level": "mcts-easy"}
QUICK = {"type": "bot", "level": "random"}
SEARCH_TABLES = 3
QUICK_MOVES = 20


def test_a_quick_bot_is_not_queued_behind_other_tables_searches(tmp_path: Path) -> None:
    db_url = f"sqlite:///{tmp_path / 'skytotems.db'}"
    env = {**UNLIMITED_RATES, "SKYTOTEMS_BOT_WORKERS": "1"}
    server = ServerProcess(db_url, env, tmp_path / "server.log", REPO, start_timeout=120).start()
    try:
        searching = [
            create_table(server.base, [SEARCHING, SEARCHING])["table"]["id"]
            for _ in range(SEARCH_TABLES)
        ]
        # the searching tables are busy before the quick one arrives
        wait_for(lambda: len(actions(db_url)) >= SEARCH_TABLES, timeout=60)
        quick = create_table(server.base, [QUICK, QUICK])["table"]["id"]
        wait_for(
            lambda: sum(t == quick for t in actions(db_url)) >= QUICK_MOVES,
            timeout=120,
            step=0.2,
        )
        samples = scrape(server.base)
        assert value(samples, "skytotems_bot_workers_busy") <= 1
        assert value(samples, "skytotems_bot_moves_queued") <= SEARCH_TABLES + 1
    finally:
        server.terminate()
    log = actions(db_url)
    first = log.index(quick)
    last = [i for i, t in enumerate(log) if t == quick][QUICK_MOVES - 1]
    between = [t for t in log[first : last + 1] if t in searching]
    # first come, first served: about SEARCH_TABLES searching moves per quick move
    # (53 of them measured with the queue of before); fair: at most one, the move that
    # took the worker while the quick table's next move was being asked for (18)
    assert len(between) <= QUICK_MOVES + 2, (len(between), QUICK_MOVES)
    assert len(set(between)) > 1  # the searching tables still moved, in turn


def actions(db_url: str) -> list[str]:
    """The table of every stored action, in commit order."""
    return [row[0] for row in db_rows(db_url, "SELECT table_id FROM actions ORDER BY id")]
