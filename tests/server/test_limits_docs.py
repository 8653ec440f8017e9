"""Every socket limit is a setting read from its environment variable and named in the
README's Limits table with its default (README and settings must not drift apart)."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from skytotems.server.settings import ENVIRONMENT, Settings

README = Path(__file__).resolve().parents[2] / "README.md"
KIB = 1024
# variable -> (the README's default, the setting's default)
SOCKET_LIMITS: dict[str, tuple[str, object]] = {
    "SKYTOTEMS_WS_SOCKETS_PER_ADDRESS": ("100", 100),
    "SKYTOTEMS_WS_HANDSHAKE_RATE": ("120/minute", "120/minute"),
    "SKYTOTEMS_WS_MESSAGE_RATE": ("40/2 seconds", "40/2 seconds"),
    "SKYTOTEMS_WS_ABUSE_RATE": ("40/10 seconds", "40/10 seconds"),
    "SKYTOTEMS_HELLO_TIMEOUT_S": ("5 s", 5.0),
    "SKYTOTEMS_SEND_QUEUE_LIMIT": ("256", 256),
    "SKYTOTEMS_SEND_QUEUE_BYTES": ("512 KiB", 512 * KIB),
    "SKYTOTEMS_SEND_STALL_S": ("15 s", 15.0),
    "SKYTOTEMS_SEND_BUFFER_BYTES": ("64 KiB", 64 * KIB),
    "SKYTOTEMS_RECEIVE_BUFFER_BYTES": ("64 KiB", 64 * KIB),
    "SKYTOTEMS_WS_PING_S": ("20 s", 20.0),
}


def limits_rows() -> dict[str, str]:
    """Variable name -> default, from the README's Limits table."""
    section = README.read_text("utf-8").split("### Limits", 1)[1].split("\n## ", 1)[0]
    rows = {}
    for line in section.splitlines():
        cells = [c.strip() for c in line.strip("|").split("|")]
        if len(cells) >= 3 and (name := re.fullmatch(r"`(SKYTOTEMS_\w+)`", cells[2])):
            rows[name.group(1)] = cells[1]
    return rows


def test_every_socket_limit_is_in_the_readme_with_its_default() -> None:
    rows = limits_rows()
    defaults = Settings()
    for variable, (shown, value) in SOCKET_LIMITS.items():
        attribute, _ = ENVIRONMENT[variable]
        assert getattr(defaults, attribute) == value, variable
        assert rows.get(variable) == shown, (variable, rows.get(variable))


def test_bot_workers_are_a_limit_of_the_readme_and_the_cores_less_one_by_default(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Issue 17: the bot workers are bounded, by a setting the README names; the serve
    command's option left out no longer hides the variable (it used to default to 1)."""
    assert limits_rows()["SKYTOTEMS_BOT_WORKERS"] == "cores − 1, at least 1"
    assert Settings().bot_workers == max(1, len(os.sched_getaffinity(0)) - 1)
    monkeypatch.setenv("SKYTOTEMS_BOT_WORKERS", "3")
    assert Settings.from_env(bot_workers=None).bot_workers == 3
    assert Settings.from_env(bot_workers=2).bot_workers == 2
