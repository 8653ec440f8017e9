"""Seeing the others play and knowing it is your turn (issue 15): the acting player's
altar is brought forward, whole and readable, on a laptop and on a phone; the tab's title
and icon say when it is your turn; notifications are asked for on a click only."""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from webplay import MY_TURN, click_once, click_until, wait_until_answered

if TYPE_CHECKING:
    from playwright.sync_api import Page

    from conftest import LiveServer, Pages

Shot = Callable[["Page", str], Path]

THREE_PLAYERS = {
    "options": {"players": 3},
    "seats": [
        {"type": "human", "name": "Aiko"},
        {"type": "bot", "level": "random"},
        {"type": "bot", "level": "random"},
    ],
}

# the drawn altar's cells on screen: their union box and the width of one cell in pixels
ALTAR_GEOMETRY_JS = """() => {
    const svg = document.getElementById('main-altar');
    const drawer = document.getElementById('log-panel');
    const boxes = [...svg.querySelectorAll('.cloud')].map((c) => c.getBoundingClientRect());
    const view = svg.viewBox.baseVal;
    const scale = svg.getBoundingClientRect().width / view.width;
    return {
        left: Math.min(...boxes.map((b) => b.left)),
        top: Math.min(...boxes.map((b) => b.top)),
        right: Math.max(...boxes.map((b) => b.right)),
        bottom: Math.max(...boxes.map((b) => b.bottom)),
        cell: 64 * scale,
        label: svg.getAttribute('aria-label'),
        // a phone's log drawer is fixed over the bottom of the screen: the altar ends above
        floor: getComputedStyle(drawer).position === 'fixed'
            ? drawer.getBoundingClientRect().top : innerHeight,
    };
}"""


def open_seat(pages: Pages, live_server: LiveServer, width: int, height: int) -> Page:
    created = live_server.post("/api/tables", THREE_PLAYERS)
    tid, token = created["table"]["id"], created["tokens"][0]["token"]
    # full motion: another seat's moves are shown one by one, paced
    page = pages.open(f"/table.html?t={tid}#seat={token}", width=width, height=height)
    page.wait_for_function("() => window.skytotems && window.skytotems.screen.view")
    return page


def play_until(page: Page, seed: int, predicate_js: str) -> None:
    """Play by clicking (when asked) until `predicate_js` holds on the page."""
    if not click_until(page, lambda: page.evaluate(predicate_js), seed, 400, pause_ms=15):
        raise AssertionError(f"never true: {predicate_js}")


def play_until_a_bot_acts(page: Page, seed: int) -> dict[str, Any]:
    """Play by clicking until a bot's turn is on screen; the altar's geometry then."""

    def acting_bot() -> dict[str, Any] | None:
        seat = page.evaluate(
            "() => { const v = window.skytotems.screen.view;"
            " return v && v.phase === 'play' && v.decision && v.decision.seats.length === 1"
            " && v.decision.seats[0] !== 0 ? v.decision.seats[0] : null; }"
        )
        if seat is None:
            return None
        geometry: dict[str, Any] = page.evaluate(ALTAR_GEOMETRY_JS)
        geometry["seat"] = seat
        geometry["name"] = page.evaluate(f"() => window.skytotems.screen.seatName({seat})")
        return geometry

    # the altar may be scrolling into view (smoothly): measure it once it has stopped, in
    # the turn of one bot (a CI run: the next bot's turn came while it settled, and its
    # altar was measured against the first bot's name)
    for _ in range(5):
        found = click_until(page, acting_bot, seed, 200)
        if found is None:
            raise AssertionError("no bot's turn was seen")
        for _ in range(40):
            page.wait_for_timeout(100)
            settled = acting_bot()
            if settled is None:
                break  # back to the human's turn: look for another bot's
            if settled == found:
                return found
            found = settled
    raise AssertionError("no bot's turn stayed on screen long enough to be measured")


def test_the_acting_bots_altar_is_brought_forward_whole_and_readable(
    pages: Pages, live_server: LiveServer, screenshot: Shot
) -> None:
    # (the last: a phone whose page above the altar is taller, as a long status line or a
    # wrapped row of buttons makes it: a CI run found the altar under the log drawer)
    for width, height, taller in ((1280, 800, 0), (390, 844, 0), (390, 844, 160)):
        page = open_seat(pages, live_server, width, height)
        if taller:
            page.add_style_tag(content=f"#altar-title {{ padding-top: {taller}px; }}")
        geometry = play_until_a_bot_acts(page, seed=width)
        assert geometry["label"] == f"Altar of {geometry['name']}", geometry
        assert geometry["left"] >= 0 and geometry["top"] >= 0, geometry
        assert geometry["right"] <= width and geometry["bottom"] <= geometry["floor"], geometry
        assert geometry["floor"] <= height
        assert geometry["cell"] >= 24, geometry
        screenshot(page, "table-3p-bot-acting")
        # the bot's pedestals fly to their cells from where they were (tray or bag)
        travelling = "() => Boolean(document.querySelector('#main-altar .cube.travelling'))"
        play_until(page, width, travelling)
        # one tap shows another altar; the pressed button says which
        switch = page.locator("#altar-switch [data-action=show-altar][data-seat='0']")
        switch.click()
        assert switch.get_attribute("aria-pressed") == "true"
        assert page.locator("#main-altar").get_attribute("aria-label") == "Altar of Aiko"


def test_the_tab_says_when_it_is_your_turn_and_asks_for_notifications_on_a_click(
    pages: Pages, live_server: LiveServer
) -> None:
    tid, aiko_token, _ = live_server.two_humans()
    # count the requests for notification permission (the real API is still called)
    counter = (
        "window.__asked = 0; const ask = Notification.requestPermission.bind(Notification);"
        " Notification.requestPermission = (...a) => { window.__asked += 1; return ask(...a); };"
    )
    aiko = pages.open(f"/table.html?t={tid}#seat={aiko_token}", reduced_motion="reduce")
    aiko.add_init_script(counter)
    aiko.reload()
    aiko.wait_for_selector(MY_TURN)  # both choose a starting card at once
    assert aiko.title().startswith("Your turn")
    assert aiko.locator("link[rel~='icon']").get_attribute("href") == "img/favicon-turn.svg"
    assert aiko.evaluate("() => window.__asked") == 0, "never asked on load"
    toggle = aiko.locator("#turn-alerts")
    assert toggle.get_attribute("aria-pressed") == "false"
    toggle.click()
    assert toggle.get_attribute("aria-pressed") == "true"
    asked = aiko.evaluate("() => window.__asked")
    permission = aiko.evaluate("() => Notification.permission")
    assert asked == 1 or permission != "default", (asked, permission)
    # once Aiko has chosen and waits for Bruno, the tab is plain again
    rng = random.Random(1)
    while aiko.locator(MY_TURN).count():
        move = aiko.locator("#table-root").get_attribute("data-move")
        click_once(aiko, rng)
        wait_until_answered(aiko, move)
    aiko.wait_for_function("() => !document.title.startsWith('Your turn')")
    assert aiko.locator("link[rel~='icon']").get_attribute("href") == "img/favicon.svg"
    # the choice is remembered on the next visit
    aiko.reload()
    # the page's script reads the stored choice once its translations have loaded,
    # which may be after the load event: wait for the button to show it (times out if not)
    aiko.wait_for_selector("#turn-alerts[aria-pressed='true']")


# Instrumentation of the real page: records each tone the page starts (through the real
# AudioContext), each Notification it makes (the real one is made too) and each request
# for permission; `__probe.hidden` stands for a hidden tab (headless Chromium has none).
ALERT_PROBE = """
window.__probe = { hidden: false, tones: [], notes: [], asked: 0 };
Object.defineProperty(Document.prototype, 'hidden', {
    configurable: true, get: () => window.__probe.hidden });
Object.defineProperty(Document.prototype, 'visibilityState', {
    configurable: true, get: () => (window.__probe.hidden ? 'hidden' : 'visible') });
const RealAudio = window.AudioContext;
window.AudioContext = class extends RealAudio {
    createOscillator() {
        const osc = super.createOscillator();
        const start = osc.start.bind(osc);
        osc.start = (...args) => {
            window.__probe.tones.push({ frequency: osc.frequency.value, state: this.state });
            return start(...args);
        };
        return osc;
    }
};
const RealNotification = window.Notification;
window.Notification = class extends RealNotification {
    constructor(title, options) {
        super(title, options);
        // the prompt shown when the notification was made (the test may click on after)
        const shown = document.getElementById('status-text');
        window.__probe.notes.push({
            title, body: (options && options.body) || '', shown: shown ? shown.innerText : null });
    }
};
const ask = RealNotification.requestPermission.bind(RealNotification);
window.Notification.requestPermission = (...args) => {
    window.__probe.asked += 1;
    return ask(...args);
};
"""


def test_the_turn_bell_chimes_and_a_hidden_tab_gets_a_notification(
    pages: Pages, live_server: LiveServer
) -> None:
    created = live_server.post(
        "/api/tables",
        {"seats": [{"type": "human", "name": "Aiko"}, {"type": "bot", "level": "random"}]},
    )
    tid, token = created["table"]["id"], created["tokens"][0]["token"]
    page = pages.open("/help.html", reduced_motion="reduce", permissions=["notifications"])
    page.add_init_script(ALERT_PROBE)
    page.goto(f"/table.html?t={tid}#seat={token}")
    page.wait_for_selector(MY_TURN)

    def probe() -> dict[str, Any]:
        found: dict[str, Any] = page.evaluate("() => window.__probe")
        return found

    # alerts are off until the bell is clicked: the turn on load made no sound
    assert probe() == {"hidden": False, "tones": [], "notes": [], "asked": 0}
    page.get_by_role("button", name=re.compile("^Turn alerts off")).click()
    assert page.locator("#turn-alerts").get_attribute("aria-pressed") == "true"
    assert probe()["asked"] == 0, "permission granted already: nothing to ask"

    def tones_after(count: int) -> Any:
        return len(probe()["tones"]) > count or None

    # a turn of mine begins while the tab shows: the chime, and no notification
    if not click_until(page, lambda: tones_after(0), seed=2, limit=400):
        raise AssertionError("no chime when my turn began")
    heard = probe()
    assert [tone["frequency"] for tone in heard["tones"]] == [660, 880]
    assert all(tone["state"] == "running" for tone in heard["tones"]), heard
    assert heard["notes"] == []
    # the tab hidden: the next turn of mine also makes a system notification
    page.evaluate("() => { window.__probe.hidden = true; }")
    if not click_until(page, lambda: probe()["notes"] or None, seed=3, limit=400):
        raise AssertionError("no notification while the tab was hidden")
    after = probe()
    assert len(after["tones"]) == 4
    [note] = after["notes"]
    assert note["title"] == "Your turn"
    assert note["body"] == note["shown"], note  # the prompt of the turn that began
    assert after["asked"] == 0
