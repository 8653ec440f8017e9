"""The documentation tells the truth: its examples run and its JSON matches the code.

- Every `>>>` example of README.md and the docs pages runs as a doctest.
- docs/wire-format.md: each action example reads back through `action_from_json` to the
  same JSON, each event example has exactly its event type's fields, each decision
  example names a real kind, every type and kind is shown, and the view example is the
  exact view of the game it says it comes from.
- Relative links between the pages point at files that exist.
"""

from __future__ import annotations

import doctest
import json
import re
from dataclasses import fields
from pathlib import Path
from typing import Any

import pytest

from skytotems import (
    ACTION_TYPES,
    ChooseStart,
    Event,
    Game,
    GameOptions,
    TakeSlot,
    action_from_json,
    view,
)
from skytotems.rules.decisions import DECISION_KINDS

ROOT = Path(__file__).resolve().parent.parent
DOCTEST_FILES = [
    "README.md",
    "docs/analysis.md",
    "docs/api.md",
    "docs/bots.md",
    "docs/env.md",
    "docs/notation.md",
    "docs/record-format.md",
]
LINKED_PAGES = [
    "README.md",
    *sorted(p.relative_to(ROOT).as_posix() for p in (ROOT / "docs").glob("*.md")),
]
WIRE_FORMAT = ROOT / "docs" / "wire-format.md"
JSON_BLOCK = re.compile(r"```json\n(.*?)```", re.DOTALL)


@pytest.mark.parametrize("name", DOCTEST_FILES)
def test_doc_examples_run(name: str) -> None:
    """Each page's `>>>` examples give exactly the output the page shows."""
    result = doctest.testfile(
        str(ROOT / name),
        module_relative=False,
        optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE,
        encoding="utf-8",
    )
    assert result.attempted > 0, f"{name} has no >>> examples"
    assert result.failed == 0, f"{result.failed} example(s) of {name} failed (output above)"


def section_json(heading: str) -> list[Any]:
    """The JSON code blocks of one `## heading` section of docs/wire-format.md."""
    text = WIRE_FORMAT.read_text(encoding="utf-8")
    start = text.index(f"\n## {heading}\n")
    end = text.find("\n## ", start + 1)
    body = text[start : end if end >= 0 else len(text)]
    return [json.loads(block) for block in JSON_BLOCK.findall(body)]


def test_wire_format_action_examples_read_back_identically() -> None:
    """Every action example round-trips through the code, and each type has one."""
    examples = section_json("Actions")
    for data in examples:
        assert action_from_json(data).to_json() == data
    assert sorted(data["type"] for data in examples) == sorted(ACTION_TYPES)


def event_types() -> dict[str, type[Event]]:
    """Every concrete event class by its wire type."""
    return {cls.type: cls for cls in Event.__subclasses__()}


def test_wire_format_event_examples_have_their_types_fields() -> None:
    """Every event example has the fields of its type, in the order `to_json` writes
    them, and every event type is shown."""
    types = event_types()
    examples = section_json("Events")
    for data in examples:
        cls = types[data["type"]]
        assert list(data) == ["type", *(f.name for f in fields(cls))], data
    assert sorted({data["type"] for data in examples}) == sorted(types)


def test_wire_format_decision_examples_name_real_kinds() -> None:
    """Every decision example is a real kind in the `Decision.to_json` shape, and every
    kind is shown."""
    examples = section_json("Decisions")
    for data in examples:
        assert list(data) == ["kind", "seats", "context"]
        assert data["kind"] in DECISION_KINDS
        assert all(isinstance(seat, int) for seat in data["seats"])
    assert {data["kind"] for data in examples} == set(DECISION_KINDS)


def test_wire_format_view_example_is_the_exact_view() -> None:
    """The view example is seat 1's view of the seed-42 game after `take_slot` 1, with
    only the first card of `deck` and the first two legal actions kept, as it says."""
    game = Game(GameOptions(players=2), seed=42)
    for action in (ChooseStart(0, "wolf-god"), ChooseStart(1, "twin-peaks"), TakeSlot(1, 1)):
        game.apply(action)
    expected = json.loads(json.dumps(view(game, 1)))
    expected["deck"] = expected["deck"][:1]
    expected["legal_actions"] = expected["legal_actions"][:2]
    shown = [data for data in section_json("Views") if data.get("format") == "skytotems-view"]
    assert shown == [expected]


@pytest.mark.parametrize("name", LINKED_PAGES)
def test_relative_links_point_at_existing_files(name: str) -> None:
    """Links such as `[notation](notation.md#grammar)` lead to files of the repository."""
    page = ROOT / name
    targets = re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", page.read_text(encoding="utf-8"))
    local = [t for t in targets if "://" not in t and not t.startswith("mailto:")]
    missing = [t for t in local if not (page.parent / t).exists()]
    assert not missing, f"{name} links to missing files: {missing}"


def test_rules_notes_name_tests_that_exist() -> None:
    """Every `file::test` that docs/rules-notes.md cites is a test function of that file
    (`::test` alone continues the file named before it)."""
    text = (ROOT / "docs" / "rules-notes.md").read_text(encoding="utf-8")
    cited = re.findall(r"`([\w/]*\.py)?::(test_\w+)`", text)
    assert cited, "docs/rules-notes.md cites no test"
    missing = []
    current = ""
    for path, name in cited:
        current = path or current
        source = (ROOT / "tests" / current).read_text(encoding="utf-8")
        if f"def {name}(" not in source:
            missing.append(f"{current}::{name}")
    assert not missing, f"docs/rules-notes.md cites missing tests: {missing}"
