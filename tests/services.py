"""What a test does when a real service it needs (PostgreSQL, Redis, nginx) is missing."""

from __future__ import annotations

import os
from typing import NoReturn

import pytest


def service_unavailable(reason: str) -> NoReturn:
    """Skip (a developer's machine without the service) or fail (CI, which must run it)."""
    if os.environ.get("SKYTOTEMS_REQUIRE_SERVICES") == "1":
        pytest.fail(f"{reason} (SKYTOTEMS_REQUIRE_SERVICES=1: these tests must run)")
    pytest.skip(reason)
