// table.html: the live table (or, with &replay=1, the replay viewer). Connects the
// screen to the server through net.js, queues incoming states so other players'
// moves are seen one by one, and keeps the log. A forced single-option choice is never
// made for the player (a timer would race their click): the screen shows it and the
// player confirms it.

import { has, initI18n, languageSwitcher, onLanguageChange, t } from "./i18n.js";
import { GameLog } from "./log.js";
import { createdTokens, inviteLink, myName, rememberSeat, seatToken, setMyName } from "./mine.js";
import { TableSocket, api } from "./net.js";
import { TableScreen } from "./screen.js";
import { TableChat } from "./ui/chat.js";
import { LogDrawer } from "./ui/drawer.js";
import { installTooltips } from "./ui/tooltip.js";
import { TurnAlert } from "./ui/turn-alert.js";

// Time to see each move of another player; people who ask for less motion get no pause.
const REDUCED_MOTION = matchMedia("(prefers-reduced-motion: reduce)").matches;
const OTHERS_PACE_MS = REDUCED_MOTION ? 0 : 420;

export function toast(text, kind = "info") {
  const box = document.getElementById("toast");
  if (!box) return;
  const item = document.createElement("div");
  item.className = `toast-item toast-${kind}`;
  item.textContent = text;
  box.appendChild(item);
  setTimeout(() => item.classList.add("leaving"), 3800);
  setTimeout(() => item.remove(), 4400);
}

export function errorText(code, message) {
  const key = `error.${code}`;
  if (has(key)) return t(key);
  console.warn("server refused:", code, message);
  return t("error.refused");
}

/** Say `texts` through the page's live region (the last few are kept, older ones go). */
function announce(texts) {
  const region = document.getElementById("announce");
  if (!region) return;
  for (const text of texts) {
    if (!text) continue;
    const line = document.createElement("p");
    line.textContent = text;
    region.appendChild(line);
  }
  while (region.childElementCount > 200) region.firstElementChild.remove();
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function main() {
  await initI18n();
  installTooltips();
  document.getElementById("lang-slot")?.appendChild(languageSwitcher());
  const params = new URLSearchParams(location.search);
  const tableId = params.get("t");
  if (!tableId) {
    location.href = "index.html";
    return;
  }
  document.getElementById("table-id").textContent = tableId;
  const drawer = new LogDrawer(document.getElementById("log-panel"), document.getElementById("drawer-handle"));
  onLanguageChange(() => drawer.render());
  if (params.get("replay")) {
    for (const id of ["chat-tab", "chat-toggle"]) document.getElementById(id).hidden = true; // no chat in a replay
    const { startReplay } = await import("./replay.js");
    await startReplay(tableId);
    return;
  }
  // a token in the link's fragment opens that seat; it is hidden from the address once the
  // server has answered (then it is remembered): a reload before that keeps the seat
  const linkToken = () => new URLSearchParams(location.hash.slice(1)).get("seat");
  let token = linkToken() || seatToken(tableId);
  // another invite link pasted into this tab changes only the fragment: open its seat
  addEventListener("hashchange", () => linkToken() && location.reload());
  const hideLinkToken = () => {
    if (linkToken()) history.replaceState(null, "", `${location.pathname}${location.search}`);
  };

  const root = document.getElementById("table-root");
  const turnAlert = new TurnAlert(document.getElementById("turn-alerts"));
  const log = new GameLog(document.getElementById("log"), {
    onHover: (seat, cells) => {
      screen.highlight = seat === null ? null : { seat, cells };
      screen.render();
    },
  });
  let socket = null;
  const chat = new TableChat(document.getElementById("chat-panel"), {
    say: (text) => {
      const id = socket?.chat(text, myName() || t("chat.spectator"));
      if (id == null) {
        toast(t("error.offline_chat"), "error");
        return false;
      }
      return id;
    },
  });
  let firstState = true;
  let lastPrompt = null; // the last prompt of the player's own that was announced
  let statsLoaded = false;
  const queue = [];
  let pumping = false;

  const screen = new TableScreen(root, {
    send: (action) => {
      if (socket.act(action) === null) {
        screen.setBusy(false);
        toast(t("error.offline"), "error");
      }
    },
    undo: (to) => {
      screen.setBusy(true);
      socket.undo(to);
    },
    join: async (name) => {
      try {
        setMyName(name);
        const joined = await api.join(tableId, name);
        rememberSeat(tableId, joined.player, joined.token);
        token = joined.token;
        reconnect();
      } catch (err) {
        toast(errorText(err.code, err.message), "error");
      }
    },
    takeover: (player) => socket.takeover(player),
    cancel: async () => {
      try {
        await api.cancel(tableId, token);
      } catch (err) {
        toast(errorText(err.code, err.message), "error");
      }
    },
    defaultName: myName,
    inviteLinks: () => {
      const links = [];
      const tokens = createdTokens(tableId) || [];
      for (const { player, token: other } of tokens) {
        if (player === screen.player) continue;
        links.push({ label: t("lobby.invite_for", { name: screen.playerName(player) }), url: inviteLink(tableId, other) });
      }
      if (screen.summary?.seats?.some((s) => s.kind === "open")) {
        links.push({ label: t("lobby.invite_open"), url: inviteLink(tableId, null) });
      }
      return links;
    },
  });

  const othersActed = (message) =>
    message.events.some(
      (e) => typeof e.seat === "number" && !screen.mySeats.includes(e.seat) && e.type !== "turn_started" && e.type !== "turn_ended",
    );

  function show(message) {
    const view = message.view;
    if (message.status && screen.summary) screen.summary.status = message.status;
    if (message.events.some((e) => e.type === "player_joined" || e.type === "taken_over")) refreshSummary();
    const written = log.add(message.events, screen.logContext());
    const wasMine = Boolean(screen.model?.mine);
    screen.update(view, {
      status: message.status,
      clocks: message.clocks,
      clocksReceived: Date.now(),
      undo: message.undo,
      animate: !firstState && !message.reset,
    });
    // the live region tells a screen reader what the others did, and when it is your turn
    if (!firstState) {
      const spoken = written.filter((entry) => !screen.mySeats.includes(entry.seat)).map((entry) => entry.text);
      const prompt = document.getElementById("status-text")?.textContent || "";
      const turnBegan = message.events.some((e) => e.type === "turn_started" && screen.mySeats.includes(e.seat));
      if (screen.model?.mine && (prompt !== lastPrompt || turnBegan)) {
        spoken.push(wasMine && !turnBegan ? prompt : `${t("alert.title")}. ${prompt}`);
      }
      lastPrompt = screen.model?.mine ? prompt : null;
      if (view.phase === "over" && message.events.length) spoken.push(document.getElementById("status-text")?.textContent || "");
      announce(spoken);
    }
    firstState = false;
    turnAlert.update(Boolean(screen.model?.mine), document.getElementById("status-text")?.textContent || "");
    if (view.phase === "over" && !statsLoaded) {
      statsLoaded = true;
      api.stats(tableId).then((stats) => {
        screen.extra.stats = stats;
        screen.render();
      }).catch(() => {});
    }
  }

  async function pump() {
    if (pumping) return;
    pumping = true;
    while (queue.length) {
      const message = queue.shift();
      show(message);
      if (OTHERS_PACE_MS && !message.reset && othersActed(message) && queue.length < 12) await sleep(OTHERS_PACE_MS);
    }
    pumping = false;
  }

  async function refreshSummary() {
    try {
      screen.setSummary(await api.table(tableId));
      screen.render();
    } catch {
      /* the next state will do */
    }
  }

  function reconnect() {
    socket?.close();
    firstState = true;
    log.clear();
    socket = new TableSocket(tableId, token, {
      onWelcome: (message) => {
        screen.setDeck(message.deck);
        screen.setSummary(message.table);
        screen.setPlayer(message.player, message.seats);
        if (message.player !== null && token) rememberSeat(tableId, message.player, token);
        hideLinkToken();
        document.body.classList.toggle("spectator", message.player === null);
        chat.setPlayer(message.player);
        chat.reset(message.chat);
      },
      onChat: (message, ack) => {
        if (chat.add(message, ack)) announce([t("chat.announce", { name: message.name, text: message.text })]);
      },
      onState: (message) => {
        queue.push(message);
        pump();
      },
      onError: (message) => {
        if (chat.refused(message.id)) {
          toast(errorText(message.code, message.message), "error"); // only the chat was refused
          return;
        }
        screen.setBusy(false);
        if (message.code === "bad_token") {
          // a wrong link in a browser that holds a seat of this table: back to that seat
          const remembered = seatToken(tableId);
          token = remembered && remembered !== token ? remembered : null;
          hideLinkToken();
          toast(t(token ? "error.bad_token_kept" : "error.bad_token"), "error");
          setTimeout(reconnect, 100);
          return;
        }
        if (message.code === "stale") return; // a newer state is on its way
        toast(errorText(message.code, message.message), "error");
        screen.render();
      },
      onConnection: (status) => {
        document.body.dataset.connection = status;
        const badge = document.getElementById("connection");
        if (badge) {
          badge.hidden = status === "open";
          badge.textContent = t(status === "closed" ? "status.offline" : "status.connecting");
        }
      },
    });
    socket.seq = 0; // ask for every event so far: the log starts complete
    socket.connect();
  }

  onLanguageChange(() => {
    document.getElementById("announce")?.replaceChildren(); // said already, in the old language
    screen.render();
    turnAlert.renderToggle();
    turnAlert.update(Boolean(screen.model?.mine));
    log.rerender(screen.logContext());
    chat.render();
  });
  reconnect();
  window.skytotems = { screen, get socket() { return socket; } };
}

main();
