"""Browser tests: the real server process, driven through Debian's Chromium by Playwright.

Playwright's own browser download does not work here (never run `playwright install`),
so the system executable found on PATH (`apt-get install chromium`) is launched. Without
it every browser test is skipped with that reason; the translation tests
(test_web_i18n.py) need no browser.
"""

from __future__ import annotations

import shutil
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import httpx
import pytest
from playwright.sync_api import sync_playwright

from skytotems.server.process import UNLIMITED_RATES, ServerProcess

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

REPO = Path(__file__).resolve().parents[2]
SCREENSHOTS = REPO / "artifacts" / "screenshots"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
]
SERVER_START_TIMEOUT_S = 120.0
# the post-game analysis at its cheapest: a whole game in a few seconds (test_web_analysis.py)
CHEAP_ANALYSIS = {"SKYTOTEMS_ANALYSIS_LEVEL": "fast", "SKYTOTEMS_ANALYSIS_DETERMINIZATIONS": "2"}


class LiveServer(ServerProcess):
    """`python -m skytotems.server` (what `skytotems serve` runs) in a child process."""

    def get(self, path: str) -> Any:
        response = httpx.get(self.base + path, timeout=10)
        response.raise_for_status()
        return response.json()

    def post(self, path: str, body: dict[str, Any]) -> Any:
        response = httpx.post(self.base + path, json=body, timeout=10)
        response.raise_for_status()
        return response.json()

    def two_humans(self) -> tuple[str, str, str]:
        """A new table of two human seats, Aiko's and Bruno's: (id, their tokens)."""
        created = self.post(
            "/api/tables",
            {"seats": [{"type": "human", "name": "Aiko"}, {"type": "human", "name": "Bruno"}]},
        )
        tokens = {t["player"]: t["token"] for t in created["tokens"]}
        return created["table"]["id"], tokens[0], tokens[1]


@pytest.fixture(scope="session")
def chromium_path() -> str:
    path = shutil.which("chromium") or shutil.which("chromium-browser")
    if path is None:
        pytest.skip("chromium not found on PATH (apt-get install chromium): browser tests skipped")
    return path


@pytest.fixture(scope="session")
def live_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """The game server on 127.0.0.1 with a port chosen now and a fresh SQLite file."""
    folder = tmp_path_factory.mktemp("e2e-server")
    server = LiveServer(
        f"sqlite:///{folder / 'skytotems.db'}",
        env={"SKYTOTEMS_BOT_DELAY_MS": "0", **UNLIMITED_RATES, **CHEAP_ANALYSIS},
        log_path=folder / "server.log",
        start_timeout=SERVER_START_TIMEOUT_S,
    ).start()
    yield server
    server.terminate()


@pytest.fixture(scope="session")
def finished_bot_table(live_server: LiveServer) -> dict[str, Any]:
    """The summary of a 2-player game two random bots played to its end (fast: no delay)."""
    created = live_server.post(
        "/api/tables",
        {"seats": [{"type": "bot", "level": "random"}, {"type": "bot", "level": "random"}]},
    )
    tid = created["table"]["id"]
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        summary: dict[str, Any] = live_server.get(f"/api/tables/{tid}")
        if summary["status"] == "finished":
            return summary
        time.sleep(0.2)
    raise AssertionError(f"the bots' game {tid} did not finish within 60 s")


@pytest.fixture(scope="session")
def browser(chromium_path: str) -> Iterator[Browser]:
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=chromium_path, args=CHROMIUM_ARGS)
        yield launched
        launched.close()


@dataclass
class Pages:
    """Opens pages (each in its own browser context: its own storage, like a second
    browser) and remembers every script error they raise."""

    browser: Browser
    base: str
    errors: list[str] = field(default_factory=list)
    contexts: list[Any] = field(default_factory=list)

    def open(self, path: str = "/", width: int = 1280, height: int = 800, **options: Any) -> Page:
        context = self.browser.new_context(
            viewport={"width": width, "height": height}, base_url=self.base, **options
        )
        self.contexts.append(context)
        page = context.new_page()
        page.set_default_timeout(15_000)
        page.on("pageerror", lambda error: self.errors.append(f"page error: {error}"))
        page.on("console", lambda message: self._console(message.type, message.text))
        page.goto(path)
        return page

    def _console(self, kind: str, text: str) -> None:
        # a socket closed by the test's teardown is not a page bug
        if kind == "error" and "WebSocket" not in text:
            self.errors.append(f"console error: {text}")

    def close(self) -> None:
        for context in self.contexts:
            context.close()


@pytest.fixture
def pages(browser: Browser, live_server: LiveServer) -> Iterator[Pages]:
    opened = Pages(browser, live_server.base)
    yield opened
    opened.close()
    assert not opened.errors, "the pages raised script errors:\n" + "\n".join(opened.errors)


@pytest.fixture
def screenshot() -> Callable[[Page, str], Path]:
    """Save a screenshot as a test artifact: artifacts/screenshots/<name>-<w>x<h>.png."""

    def save(page: Page, name: str) -> Path:
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        size = page.viewport_size or {"width": 0, "height": 0}
        path = SCREENSHOTS / f"{name}-{size['width']}x{size['height']}.png"
        page.screenshot(path=str(path))
        return path

    return save
