"""The stylesheet's blocks close where they should: no browser needed.

A rule left open swallows every rule after it (Chromium reads them as nested under the
open selector, so they match nothing): the puzzles page once lost all its layout that
way. The stylesheet uses no CSS nesting, so only at-rules may hold blocks.
"""

from __future__ import annotations

import re
from pathlib import Path

STATIC = Path(__file__).resolve().parents[2] / "src" / "skytotems" / "web" / "static"
STYLESHEET = STATIC / "css" / "style.css"
NESTING_AT_RULES = ("@media", "@supports", "@keyframes", "@layer", "@container")


def stray_blocks(css: str) -> list[str]:
    """Each fault: a block opened inside a plain rule, or braces that do not balance."""
    text = re.sub(r"/\*.*?\*/", "", css, flags=re.S)
    text = re.sub(r"\"[^\"]*\"|'[^']*'", '""', text)
    faults: list[str] = []
    stack: list[str] = []  # the prelude of each open block
    start = 0
    for match in re.finditer(r"[{}]", text):
        prelude = text[start : match.start()].rsplit(";", 1)[-1].strip()
        start = match.end()
        if match.group() == "{":
            if stack and not stack[-1].startswith(NESTING_AT_RULES):
                line = text.count("\n", 0, match.start()) + 1
                faults.append(f"line {line}: {prelude!r} opened inside {stack[-1]!r}")
            stack.append(prelude)
        elif stack:
            stack.pop()
        else:
            faults.append(f"line {text.count(chr(10), 0, match.start()) + 1}: '}}' closes nothing")
    faults.extend(f"{prelude!r} is never closed" for prelude in stack)
    return faults


def test_every_rule_of_the_stylesheet_is_closed_before_the_next() -> None:
    assert stray_blocks(STYLESHEET.read_text("utf-8")) == []


def test_the_check_sees_a_rule_left_open() -> None:
    assert stray_blocks(".a { color: red; }\n@media (x) { .b { color: red; } }") == []
    faults = stray_blocks(".a {\n  color: red;\n.b { color: blue; }\n")
    assert faults == ["line 3: '.b' opened inside '.a'", "'.a' is never closed"]
