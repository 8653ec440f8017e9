"""Table chat and the lobby in the browser (issue 15): players talk and spectators read,
spectators' own channel stays theirs, markup is shown as text, mute and hide are
remembered; private games stay out of the open tables and "your turn" games come first."""

from __future__ import annotations

from typing import TYPE_CHECKING

from test_web_accessibility import serious_violations
from webplay import MY_TURN

if TYPE_CHECKING:
    from collections.abc import Callable
    from pathlib import Path

    from playwright.sync_api import Page

    from conftest import LiveServer, Pages

MARKUP = "<b>bold</b> <img src=x onerror=alert(1)>"


def say(page: Page, text: str) -> None:
    box = page.get_by_role("textbox", name="Message to", exact=False)
    box.fill(text)
    page.get_by_role("button", name="Send").click()


def chat_texts(page: Page) -> list[str]:
    return page.locator("#chat-messages .chat-text").all_inner_texts()


def test_players_talk_spectators_read_and_markup_stays_text(
    pages: Pages, live_server: LiveServer, screenshot: Callable[[Page, str], Path]
) -> None:
    tid, aiko_token, bruno_token = live_server.two_humans()
    aiko = pages.open(f"/table.html?t={tid}#seat={aiko_token}")
    bruno = pages.open(f"/table.html?t={tid}#seat={bruno_token}")
    onlooker = pages.open(f"/table.html?t={tid}")
    for page in (aiko, bruno, onlooker):
        page.get_by_role("tab", name="Table chat").click()
        page.get_by_role("log", name="Table chat").wait_for()
    say(aiko, MARKUP)
    for page in (aiko, bruno, onlooker):
        page.wait_for_function(
            "(n) => document.querySelectorAll('#chat-messages .chat-text').length === n", arg=1
        )
        assert chat_texts(page) == [MARKUP]
        # shown as the characters typed: no element was made from them
        assert page.locator("#chat-messages b, #chat-messages img").count() == 0
    say(onlooker, "what a move")
    onlooker.wait_for_function("document.querySelectorAll('.chat-spectators').length === 1")
    bruno.wait_for_timeout(500)
    assert chat_texts(bruno) == [MARKUP]  # players never read the spectators' channel
    assert chat_texts(onlooker) == [MARKUP, "what a move"]
    assert serious_violations(bruno) == []
    assert serious_violations(onlooker) == []
    screenshot(bruno, "chat")
    # mute Aiko: her messages go, and stay gone after a reload; unmute brings them back
    bruno.get_by_role("button", name="Mute Aiko").click()
    assert chat_texts(bruno) == []
    bruno.reload()
    bruno.get_by_role("tab", name="Table chat").click()
    bruno.get_by_role("button", name="Unmute Aiko").wait_for()
    assert chat_texts(bruno) == []
    bruno.get_by_role("button", name="Unmute Aiko").click()
    assert chat_texts(bruno) == [MARKUP]
    # hide the chat: remembered too
    bruno.get_by_role("button", name="Hide chat").click()
    assert not bruno.get_by_role("log", name="Table chat").is_visible()
    assert bruno.get_by_role("tab", name="Table chat").count() == 0
    bruno.reload()
    bruno.get_by_role("button", name="Show chat").wait_for()
    assert not bruno.locator("#chat-messages").is_visible()
    assert bruno.get_by_role("tab", name="Game log", selected=True).is_visible()
    bruno.get_by_role("button", name="Show chat").click()
    assert bruno.get_by_role("log", name="Table chat").is_visible()
    # a message said while the log is showing is counted on the chat's tab
    bruno.get_by_role("tab", name="Game log").click()
    say(aiko, "are you there?")
    bruno.get_by_role("tab", name="Table chat (1 new)").wait_for()
    # and read out to a screen reader, the chat's own log being hidden
    spoken = bruno.get_by_role("log").get_by_role("paragraph").all_text_contents()
    assert "Chat, Aiko: are you there?" in spoken, spoken


def test_the_chat_speaks_japanese_and_portuguese(pages: Pages, live_server: LiveServer) -> None:
    tid, token, _ = live_server.two_humans()
    for lang, title, send in (
        ("ja", "テーブルチャット", "送信"),
        ("pt", "Conversa da mesa", "Enviar"),
    ):
        page = pages.open(f"/table.html?t={tid}&lang={lang}#seat={token}")
        page.get_by_role("tab", name=title).click()
        page.get_by_role("log", name=title).wait_for()
        assert page.get_by_role("button", name=send).is_visible()


def test_a_game_against_a_bot_is_private_and_your_turn_games_come_first(
    pages: Pages, live_server: LiveServer
) -> None:
    lobby = pages.open("/")
    lobby.get_by_role("button", name="Play against a bot now").click()
    lobby.wait_for_url("**/table.html?t=*")
    quick = lobby.url.split("t=")[1].split("&")[0].split("#")[0]
    # a table waiting for anyone is listed; the game against a bot is not
    public = live_server.post(
        "/api/tables", {"seats": [{"type": "human"}, {"type": "open"}], "listed": True}
    )["table"]["id"]
    open_ids = [t["id"] for t in live_server.get("/api/tables?status=open")["tables"]]
    assert public in open_ids and quick not in open_ids
    # a game of two people where this browser holds a seat and it is its turn
    tid, token, _ = live_server.two_humans()
    lobby.goto(f"/table.html?t={tid}#seat={token}")
    # the browser remembers the seat once the server has taken its token (its welcome):
    # the chat tab, in the page itself, shows before that (a loaded run left too soon)
    lobby.wait_for_selector(MY_TURN)
    lobby.goto("/")
    mine = lobby.locator("#my-tables li.table-item")
    lobby.locator(f"#my-tables li[data-table='{quick}']").wait_for()
    lobby.locator(f"#my-tables li[data-table='{tid}']").wait_for()
    ids = [mine.nth(i).get_attribute("data-table") for i in range(mine.count())]
    turn = [
        i
        for i in ids
        if "your-turn"
        in (lobby.locator(f"#my-tables li[data-table='{i}']").get_attribute("class") or "")
    ]
    assert tid in turn and ids[: len(turn)] == turn, (ids, turn)
    assert lobby.locator(f"#my-tables li[data-table='{tid}'] .status-chip.your-turn").inner_text()
    assert lobby.locator(f"#open-tables li[data-table='{quick}']").count() == 0
    assert lobby.locator(f"#open-tables li[data-table='{public}']").count() == 1


# a seat's name, a spectator's name and a message, each trying to run a script
EVIL_NAME = "<img src=x onerror=__x=1>"
EVIL_SPECTATOR = "<b onmouseover=__x=5>Eve</b>"
EVIL_TEXT = (
    '<script>window.__x=2</script><img src=x onerror="window.__x=3">'
    '<a href="javascript:window.__x=4">link</a><svg onload="window.__x=6"></svg>'
)
MADE = "img[src=x], script:not([src]), a[href^=javascript], svg[onload], b[onmouseover]"


def test_markup_in_names_and_messages_is_shown_as_text_and_never_run(
    pages: Pages, live_server: LiveServer
) -> None:
    created = live_server.post(
        "/api/tables",
        {"seats": [{"type": "human", "name": EVIL_NAME}, {"type": "human", "name": "Bruno"}]},
    )
    tid = created["table"]["id"]
    tokens = [t["token"] for t in created["tokens"]]
    evil = pages.open(f"/table.html?t={tid}#seat={tokens[0]}")
    bruno = pages.open(f"/table.html?t={tid}#seat={tokens[1]}")
    onlooker = pages.open("/help.html")
    onlooker.add_init_script(f"localStorage.setItem('skytotems.name', {EVIL_SPECTATOR!r});")
    onlooker.goto(f"/table.html?t={tid}")
    everyone = (evil, bruno, onlooker)
    dialogs: list[str] = []
    for page in everyone:
        page.on("dialog", lambda dialog: dialogs.append(dialog.message))
        page.get_by_role("tab", name="Table chat").click()
        page.get_by_role("log", name="Table chat").wait_for()
    say(evil, EVIL_TEXT)
    say(onlooker, EVIL_TEXT)
    count = "(n) => document.querySelectorAll('#chat-messages .chat-text').length === n"
    onlooker.wait_for_function(count, arg=2)
    bruno.wait_for_function(count, arg=1)
    names = onlooker.locator("#chat-messages .chat-name").all_inner_texts()
    assert names == [EVIL_NAME, f"{EVIL_SPECTATOR} (spectator)"]
    assert chat_texts(onlooker) == [EVIL_TEXT, EVIL_TEXT]
    # the seat's name is text wherever it is written: players, log, status, altar switch
    evil.get_by_role("tab", name="Game log").click()
    assert evil.get_by_text(EVIL_NAME, exact=True).count() >= 3
    lobby = evil.context.new_page()
    lobby.goto("/")
    listed = lobby.locator(f"#my-tables li[data-table='{tid}']")
    assert EVIL_NAME in listed.inner_text()  # the lobby lists the seat's name, as text
    for page in (*everyone, lobby):
        page.mouse.move(5, 5)
        page.mouse.move(300, 300)  # over whatever is there: nothing reacts
        assert page.locator(MADE).count() == 0, page.url
        assert page.evaluate("() => window.__x") is None, page.url
    assert dialogs == []


def test_a_refused_message_stays_in_the_box_and_a_spectator_cannot_mute_themselves(
    pages: Pages, live_server: LiveServer
) -> None:
    """Found trying the table as a new user: past the rate limit (5 messages in 10 s by
    default) the toast said "wait", but the typed text had already been wiped; and a
    spectator was offered "mute" beside their own messages (muting every spectator)."""
    tid, _, _ = live_server.two_humans()
    onlooker = pages.open(f"/table.html?t={tid}")
    onlooker.get_by_role("tab", name="Table chat").click()
    onlooker.get_by_role("log", name="Table chat").wait_for()
    box = onlooker.get_by_role("textbox", name="Message to", exact=False)
    said = 0
    answered = (
        "(n) => document.querySelectorAll('#chat-messages .chat-text').length === n"
        " || document.getElementById('chat-input').value !== ''"
        " || document.querySelector('.toast-item') !== null"
    )
    refusal = onlooker.get_by_text("Too many messages", exact=False)
    # connected first: a message sent before the socket opens stays in the box ("not
    # connected") and would be counted as said (a loaded CI run saw 6 said, 5 shown)
    onlooker.wait_for_function("() => document.getElementById('status-text').textContent")
    for n in range(12):  # more than the rate allows; each waits for its answer
        say(onlooker, f"message {n}")
        onlooker.wait_for_function(answered, arg=n + 1)
        if refusal.count():
            break
        said = n + 1
    else:
        raise AssertionError("the chat's rate limit never refused a message")
    # the refused text is back in the box, ready to be sent again
    assert box.input_value() == f"message {said}"
    # the spectator's own messages offer no "mute" (it would hide their own words)
    assert len(chat_texts(onlooker)) == said
    assert onlooker.get_by_role("button", name="Mute spectator").count() == 0


RAIL_TAB_BOXES = """() => {
  const panel = document.getElementById('log-panel').getBoundingClientRect();
  const boxes = [...document.querySelectorAll('.rail-tabs button')]
    .filter((b) => b.offsetParent !== null)
    .map((b) => { const r = b.getBoundingClientRect(); return [b.id, r.left, r.right]; });
  return [panel.left, panel.right, boxes];
}"""


def test_the_log_and_chat_tabs_fit_their_panel_in_every_language(
    pages: Pages, live_server: LiveServer
) -> None:
    """Found trying the table as a new user: in Portuguese "Ocultar conversa" ran out of
    the panel at 1280x800, and on a phone it pushed the drawer's handle off the screen."""
    tid, token, _ = live_server.two_humans()
    for width, height in ((1280, 800), (390, 844), (360, 740)):
        for lang in ("en", "ja", "pt"):
            page = pages.open(f"/table.html?t={tid}&lang={lang}#seat={token}", width, height)
            page.locator("#chat-toggle:not(:empty)").wait_for()
            left, right, boxes = page.evaluate(RAIL_TAB_BOXES)
            where = f"{lang} at {width}x{height}: {boxes}"
            assert len(boxes) == (4 if width < 600 else 3), where
            previous_right = left
            for _name, box_left, box_right in boxes:
                assert box_left >= previous_right - 0.5, f"buttons overlap, {where}"
                assert box_right <= right + 0.5, f"a button leaves the panel, {where}"
                previous_right = box_right
            page.context.close()


def test_the_chat_and_the_log_keep_several_lines_in_sight_beside_four_players(
    pages: Pages, live_server: LiveServer
) -> None:
    """Found trying the table as a new user: at 1280x800 beside four players' panels the
    chat's messages had 61 px (three lines) and the log 97 px."""
    created = live_server.post(
        "/api/tables",
        {
            "options": {"players": 4},
            "seats": [{"type": "human", "name": n} for n in ("Aiko", "Bruno", "Chen", "Dara")],
        },
    )
    tid, token = created["table"]["id"], created["tokens"][0]["token"]
    page = pages.open(f"/table.html?t={tid}#seat={token}")
    page.get_by_role("tab", name="Table chat").click()
    chat = page.get_by_role("log", name="Table chat")
    chat.scroll_into_view_if_needed()
    line = 20  # px: a message of one line at the chat's size
    assert (chat.bounding_box() or {"height": 0})["height"] >= 6 * line
    page.get_by_role("tab", name="Game log").click()
    log = page.locator("#log")
    assert (log.bounding_box() or {"height": 0})["height"] >= 6 * line


SLOW_BOT_LIST_JS = """(() => {
  const plain = window.fetch;
  window.fetch = (url, options) => String(url).endsWith('/api/bots')
    ? new Promise((resolve) => setTimeout(resolve, 1500)).then(() => plain(url, options))
    : plain(url, options);
})();"""


def test_a_click_on_play_before_the_lobby_has_loaded_still_starts_the_game(
    pages: Pages, live_server: LiveServer
) -> None:
    """The buttons wait for the lobby's script (a loaded CI run clicked "Play against a bot
    now" before its handler was attached, and nothing happened)."""
    lobby = pages.open("/")
    lobby.add_init_script(SLOW_BOT_LIST_JS)
    lobby.reload(wait_until="commit")
    lobby.locator("#quick-game").wait_for()
    lobby.locator("#quick-game").click()
    lobby.wait_for_url("**/table.html?t=*")
    tid = lobby.url.split("t=")[1].split("&")[0].split("#")[0]
    assert live_server.get(f"/api/tables/{tid}")["seats"][1]["kind"] == "bot"
