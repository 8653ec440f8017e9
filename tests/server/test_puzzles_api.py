"""The puzzle routes (issue 18): the list and a puzzle never carry the solution; the
server judges moves against the proof (the proved line solves, a losing first move is
wrong), gives a hint, and refuses unknown puzzles and unplayable moves."""

from __future__ import annotations

import httpx
from wsclient import ThreadServer

from skytotems.puzzles.model import shipped


def test_the_list_and_a_puzzle_carry_no_solution(server: ThreadServer) -> None:
    listed = httpx.get(f"{server.base}/api/puzzles").json()["puzzles"]
    assert [p["id"] for p in listed] == [p.id for p in shipped()]
    first = listed[0]
    got = httpx.get(f"{server.base}/api/puzzles/{first['id']}").json()
    assert got["question"] == first["question"] and got["altars"]
    assert got["view"]["legal_actions"] and got["view"]["viewer"] == got["seat"]
    assert "solution" not in got and "line" not in str(listed)


def test_the_proved_line_solves_and_a_wrong_first_move_is_wrong(server: ThreadServer) -> None:
    puzzle = shipped()[0]
    url = f"{server.base}/api/puzzles/{puzzle.id}"
    line = [a.to_json() for a in puzzle.solution.line]
    hint = httpx.post(f"{url}/hint", json={"moves": []}).json()["action"]
    assert hint is not None
    assert httpx.post(f"{url}/check", json={"moves": [hint]}).json()["correct"]
    for i in range(1, len(line)):
        step = httpx.post(f"{url}/check", json={"moves": line[:i]}).json()
        assert step["correct"] and not step["solved"] and line[i] in step["legal_actions"]
    done = httpx.post(f"{url}/check", json={"moves": line}).json()
    assert done["solved"] and done["points"] == done["best"] == puzzle.solution.value
    start = httpx.get(url).json()["view"]["legal_actions"]
    wrong = [a for a in start if a not in _best_first_moves(server, puzzle.id, start)]
    assert wrong, "a puzzle has a first move that loses the optimum"
    verdict = httpx.post(f"{url}/check", json={"moves": [wrong[0]]}).json()
    assert not verdict["correct"] and not verdict["solved"]


def _best_first_moves(server: ThreadServer, pid: str, start: list[dict]) -> list[dict]:
    url = f"{server.base}/api/puzzles/{pid}/check"
    return [a for a in start if httpx.post(url, json={"moves": [a]}).json()["correct"]]


def test_unknown_puzzles_and_unplayable_moves_are_refused(server: ThreadServer) -> None:
    missing = httpx.get(f"{server.base}/api/puzzles/nope")
    assert missing.status_code == 404 and missing.json()["code"] == "no_such_puzzle"
    pid = shipped()[0].id
    bad = httpx.post(
        f"{server.base}/api/puzzles/{pid}/check", json={"moves": [{"type": "fly", "seat": 0}]}
    )
    assert bad.status_code == 400 and bad.json()["code"] == "bad_moves"
    assert "move 1" in bad.json()["message"]
    too_many = httpx.post(
        f"{server.base}/api/puzzles/{pid}/hint", json={"moves": [{"type": "pass"}] * 201}
    )
    assert too_many.status_code == 422
    for body in ({"moves": [], "solution": True}, {"move": []}):  # a misspelt or extra key
        extra = httpx.post(f"{server.base}/api/puzzles/{pid}/check", json=body)
        assert extra.status_code == 422, body


def test_openapi_names_the_refusals_of_the_puzzle_and_analysis_routes(server: ThreadServer):
    paths = httpx.get(f"{server.base}/api/openapi.json").json()["paths"]
    assert "404" in paths["/api/puzzles/{puzzle_id}"]["get"]["responses"]
    for route in ("check", "hint"):
        responses = paths[f"/api/puzzles/{{puzzle_id}}/{route}"]["post"]["responses"]
        assert {"400", "404", "422"} <= set(responses), route
    analysis = paths["/api/tables/{table_id}/analysis"]
    assert "404" in analysis["get"]["responses"] and "404" in analysis["post"]["responses"]
