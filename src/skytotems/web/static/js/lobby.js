// index.html: create a table (players, seats, totems, tie-break, clock, whether every
// turn ends with a confirmation), share the
// invite links, and list open, running and finished tables.

import { applyI18n, has, initI18n, languageSwitcher, onLanguageChange, t, tn } from "./i18n.js";
import { createdTokens, inviteLink, myName, mySeats, rememberCreated, rememberSeat, setMyName } from "./mine.js";
import { api } from "./net.js";
import { TOTEMS, totemIcon } from "./pieces.js";
import { soloBandKey } from "./render/scoresheet.js";
import { installTooltips } from "./ui/tooltip.js";

let botLevels = []; // the server's bot registry (GET /api/bots), read at start
const DEFAULT_OPPONENT = "bot:greedy";
const REFRESH_MS = 5000;

const $ = (selector) => document.querySelector(selector);

function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

function toast(text, kind = "info") {
  const box = $("#toast");
  const item = el("div", `toast-item toast-${kind}`, text);
  box.appendChild(item);
  setTimeout(() => item.remove(), 4400);
}

function errorText(err) {
  const key = `error.${err.code}`;
  if (has(key)) return t(key);
  console.warn("server refused:", err.code, err.message);
  return t("error.refused");
}

// ----------------------------------------------------------------- the form

const seatChoices = []; // remembered per seat index while the player count changes

function playerCount() {
  return Number(document.querySelector("input[name=players]:checked").value);
}

function seatOptions(select, value) {
  select.replaceChildren();
  const group = (labelKey, entries) => {
    const g = document.createElement("optgroup");
    g.label = t(labelKey);
    for (const [val, key] of entries) {
      const option = el("option", "", t(key));
      option.value = val;
      g.appendChild(option);
    }
    select.appendChild(g);
  };
  group("lobby.seat.bots", botLevels.map((level) => [`bot:${level}`, `lobby.bot.${level}`]));
  group("lobby.seat.people", [["invite", "lobby.seat.invite"], ["open", "lobby.seat.open"]]);
  select.value = value;
}

function buildSeatRows() {
  const rows = $("#seat-rows");
  // remember what was chosen before redrawing
  rows.querySelectorAll(".seat-row").forEach((row) => {
    const index = Number(row.dataset.seat);
    const select = row.querySelector("select");
    const friend = row.querySelector("input.friend-name");
    if (select) seatChoices[index] = { value: select.value, friend: friend?.value || "" };
  });
  const own = $("#my-name")?.value ?? myName();
  rows.replaceChildren();
  const n = playerCount();
  const seats = n === 1 ? 1 : n;
  for (let i = 0; i < seats; i++) {
    const row = el("div", "seat-row");
    row.dataset.seat = String(i);
    row.appendChild(el("span", "seat-number", String(i + 1)));
    if (i === 0) {
      row.appendChild(el("span", "seat-you", t("lobby.you")));
      const input = el("input");
      input.id = "my-name";
      input.maxLength = 40;
      input.placeholder = t("lobby.your_name");
      input.value = own;
      input.setAttribute("aria-label", t("lobby.your_name"));
      row.appendChild(input);
      if (n === 1) row.appendChild(el("span", "seat-note", t("lobby.solo_note")));
    } else {
      const select = el("select", "seat-kind");
      select.setAttribute("aria-label", t("lobby.seat_label", { n: i + 1 }));
      const saved = seatChoices[i] || { value: DEFAULT_OPPONENT, friend: "" };
      seatOptions(select, saved.value);
      row.appendChild(select);
      const friend = el("input", "friend-name");
      friend.maxLength = 40;
      friend.placeholder = t("lobby.friend_name");
      friend.setAttribute("aria-label", t("lobby.friend_name"));
      friend.value = saved.friend;
      friend.hidden = select.value !== "invite";
      select.addEventListener("change", () => (friend.hidden = select.value !== "invite"));
      row.appendChild(friend);
    }
    rows.appendChild(row);
  }
}

function buildCustomTotems() {
  const box = $("#custom-totems");
  const chosen = new Set([...box.querySelectorAll("input:checked")].map((i) => i.value));
  if (!chosen.size) ["bird", "wolf", "horse", "cat"].forEach((k) => chosen.add(k));
  box.replaceChildren();
  for (const kind of TOTEMS) {
    const label = el("label", "totem-check");
    const input = el("input");
    input.type = "checkbox";
    input.value = kind;
    input.checked = chosen.has(kind);
    label.appendChild(input);
    label.appendChild(totemIcon(kind, 20));
    label.appendChild(el("span", "", t(`totem.${kind}`)));
    label.dataset.tip = t(`totem.${kind}.rule`);
    box.appendChild(label);
  }
}

function formBody() {
  const players = playerCount();
  let totems = $("#totem-set").value;
  if (totems === "custom") {
    const kinds = [...document.querySelectorAll("#custom-totems input:checked")].map((i) => i.value);
    if (kinds.length !== 4) throw new Error(t("lobby.error_four"));
    totems = kinds.join(",");
  }
  const name = $("#my-name").value.trim();
  if (name) setMyName(name);
  const seats = [{ type: "human", name: name || t("lobby.default_name") }];
  document.querySelectorAll(".seat-row select.seat-kind").forEach((select) => {
    const value = select.value;
    if (value.startsWith("bot:")) seats.push({ type: "bot", level: value.slice(4) });
    else if (value === "invite") {
      const friend = select.parentElement.querySelector("input.friend-name").value.trim();
      seats.push({ type: "human", name: friend || t("lobby.friend_default", { n: seats.length + 1 }) });
    } else seats.push({ type: "open" });
  });
  return {
    options: { players, totems, tie_break: $("#tie-break").value, confirm_turns: $("#confirm-turns").checked },
    seats,
    clock: $("#clock").value,
    // only a table with a seat anyone may take is shown to strangers in the lobby
    listed: seats.some((seat) => seat.type === "open"),
  };
}

async function create(body) {
  const created = await api.createTable(body);
  const id = created.table.id;
  rememberCreated(id, created.tokens);
  const mine = created.tokens.find((tk) => tk.player === 0);
  if (mine) rememberSeat(id, 0, mine.token);
  return created;
}

function showCreated(created) {
  const box = $("#created");
  box.replaceChildren();
  box.hidden = false;
  const id = created.table.id;
  box.appendChild(el("h3", "", t("lobby.created")));
  box.appendChild(el("p", "", t("lobby.share")));
  if (created.table.listed === false) box.appendChild(el("p", "private-note", t("lobby.private_note")));
  const list = el("ul", "invite-list");
  for (const { player, token } of created.tokens) {
    if (player === 0) continue;
    const li = el("li");
    const seat = created.table.seats[player];
    li.appendChild(el("span", "invite-name", t("lobby.invite_for", { name: seat?.name || t("player.seat", { n: player + 1 }) })));
    li.appendChild(copyField(inviteLink(id, token)));
    list.appendChild(li);
  }
  if (created.table.seats.some((s) => s.kind === "open")) {
    const li = el("li");
    li.appendChild(el("span", "invite-name", t("lobby.invite_open")));
    li.appendChild(copyField(inviteLink(id, null)));
    list.appendChild(li);
  }
  box.appendChild(list);
  const go = el("a", "btn btn-primary btn-large", t("lobby.go_to_table"));
  go.href = `table.html?t=${encodeURIComponent(id)}`;
  go.id = "go-to-table";
  box.appendChild(go);
  box.scrollIntoView({ behavior: "smooth", block: "nearest" });
}

function copyField(url) {
  const wrap = el("span", "copy-field");
  const input = el("input", "invite-link");
  input.readOnly = true;
  input.value = url;
  input.addEventListener("focus", () => input.select());
  const button = el("button", "btn btn-small", t("button.copy"));
  button.type = "button";
  button.addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText(url);
      toast(t("lobby.copied"));
    } catch {
      input.select();
    }
  });
  wrap.append(input, button);
  return wrap;
}

// ----------------------------------------------------------------- lists

function seatLabel(seat) {
  if (seat.kind === "bot") return t("player.bot", { level: t(`bot.level.${seat.level || "random"}`) });
  if (seat.kind === "open") return t("player.open");
  return seat.name;
}

function tableItem(summary, { mine = null } = {}) {
  const li = el("li", `table-item status-${summary.status}`);
  li.dataset.table = summary.id;
  const head = el("div", "table-item-head");
  const status = el("span", `status-chip ${summary.status}`, t(`lobby.status.${summary.status}`));
  head.appendChild(status);
  if (mine !== null && summary.status === "playing" && summary.to_move?.includes(mine)) {
    li.classList.add("your-turn");
    head.appendChild(el("span", "status-chip your-turn", t("lobby.your_turn")));
  }
  const players = summary.options.players === 1 ? t("lobby.solo") : tn("lobby.n_players", summary.options.players);
  head.appendChild(el("span", "table-options", `${players} · ${totemSetName(summary.options.totems)}`));
  li.appendChild(head);
  const who = el("div", "table-seats");
  summary.seats.forEach((seat, i) => {
    const chip = el("span", `seat-chip ${seat.kind}`);
    chip.textContent = seatLabel(seat);
    if (seat.kind === "human") chip.dataset.userContent = "";
    if (summary.result?.places && summary.options.players !== 1) {
      const place = summary.result.places[i];
      chip.appendChild(el("b", "", ` ${summary.result.totals[i]}`));
      if (place === 1) chip.classList.add("winner");
    }
    who.appendChild(chip);
  });
  li.appendChild(who);
  // a solo game scores both altars together: its total and band, when the server gives
  // them (a solo result without them shows no number rather than one altar's points)
  const solo = summary.options.players === 1 ? summary.result?.solo : null;
  if (solo) li.appendChild(el("div", "solo-result", t("lobby.solo_result", { total: solo.total, band: t(soloBandKey(solo.band)) })));
  const actions = el("div", "table-actions");
  const link = (labelKey, href, action) => {
    const a = el("a", "btn btn-small", t(labelKey));
    a.href = href;
    a.dataset.action = action;
    actions.appendChild(a);
  };
  const url = `table.html?t=${encodeURIComponent(summary.id)}`;
  if (summary.status === "finished") {
    link("lobby.open_game", url, "open");
    link("lobby.replay", `${url}&replay=1`, "replay");
  } else if (mine !== null) {
    link("lobby.resume", url, "resume");
  } else {
    if (summary.seats.some((s) => s.kind === "open")) link("lobby.join", url, "join");
    link("lobby.watch", url, "watch");
  }
  if (summary.status !== "finished" && createdTokens(summary.id)) {
    const share = el("button", "btn btn-small", t("lobby.links"));
    share.type = "button";
    share.addEventListener("click", () => {
      const tokens = createdTokens(summary.id) || [];
      showCreated({ table: summary, tokens });
    });
    actions.appendChild(share);
  }
  li.appendChild(actions);
  if (summary.move) li.appendChild(el("span", "table-move", tn("lobby.moves", summary.move)));
  return li;
}

function totemSetName(totems) {
  const known = { beginner: "beginner", dragon: "dragon", "cat-plus-three": "cat_plus_three", "random-four": "random_four" };
  if (known[totems]) return t(`lobby.totems.short.${known[totems]}`);
  return totems.split(",").map((k) => t(`totem.${k.trim()}`)).join(t("list.sep"));
}

function fillList(list, summaries, emptyKey, options = () => ({})) {
  list.replaceChildren();
  if (!summaries.length) {
    list.appendChild(el("li", "empty", t(emptyKey)));
    return;
  }
  for (const summary of summaries) list.appendChild(tableItem(summary, options(summary)));
}

let lastLists = null;

async function refreshLists() {
  try {
    const [open, finished] = await Promise.all([api.listTables("open"), api.listTables("finished", 20)]);
    const seats = mySeats();
    const mineIds = Object.keys(seats).sort((a, b) => seats[b].at - seats[a].at).slice(0, 8);
    const known = new Map([...open.tables, ...finished.tables].map((s) => [s.id, s]));
    const mine = [];
    for (const id of mineIds) {
      let summary = known.get(id);
      if (!summary) {
        try {
          summary = await api.table(id);
        } catch {
          continue;
        }
      }
      // closed before it started, or left (a status other than waiting, playing or finished)
      if (["waiting", "playing", "finished"].includes(summary.status)) mine.push(summary);
    }
    // games where it is this browser's turn first, then the most recent
    const myTurn = (s) => s.status === "playing" && (s.to_move || []).includes(seats[s.id]?.player);
    mine.sort((a, b) => Number(myTurn(b)) - Number(myTurn(a)));
    lastLists = { open: open.tables, finished: finished.tables, mine };
    renderLists();
  } catch (err) {
    toast(errorText(err), "error");
  }
}

function renderLists() {
  if (!lastLists) return;
  const seats = mySeats();
  const mineOf = (s) => ({ mine: seats[s.id]?.player ?? null });
  fillList($("#my-tables"), lastLists.mine, "lobby.none_mine", mineOf);
  // the server lists only tables one may join or watch; hide any other status too
  const open = lastLists.open.filter((s) => !seats[s.id] && ["waiting", "playing"].includes(s.status));
  fillList($("#open-tables"), open, "lobby.none_open", mineOf);
  fillList($("#finished-tables"), lastLists.finished, "lobby.none_finished", mineOf);
}

// ----------------------------------------------------------------- start

async function main() {
  await initI18n();
  ({ levels: botLevels } = await api.bots());
  installTooltips();
  $("#lang-slot").appendChild(languageSwitcher());
  buildSeatRows();
  buildCustomTotems();
  document.querySelectorAll("input[name=players]").forEach((input) => input.addEventListener("change", buildSeatRows));
  $("#totem-set").addEventListener("change", () => ($("#custom-totems").hidden = $("#totem-set").value !== "custom"));
  $("#create-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const error = $("#create-error");
    error.hidden = true;
    const button = $("#create-button");
    button.disabled = true;
    try {
      const body = formBody();
      const created = await create(body);
      const needsLinks = created.tokens.some((tk) => tk.player !== 0) || created.table.seats.some((s) => s.kind === "open");
      if (needsLinks) {
        showCreated(created);
        refreshLists();
      } else {
        location.href = `table.html?t=${encodeURIComponent(created.table.id)}`;
      }
    } catch (err) {
      error.textContent = err.code ? errorText(err) : err.message;
      error.hidden = false;
    } finally {
      button.disabled = false;
    }
  });
  $("#quick-game").addEventListener("click", async (event) => {
    const button = event.currentTarget;
    button.disabled = true; // one click, one table
    try {
      const created = await create({
        options: { players: 2, totems: "beginner", tie_break: "bga" },
        seats: [{ type: "human", name: myName() || t("lobby.default_name") }, { type: "bot", level: "greedy" }],
        clock: "none",
        listed: false, // a game against a bot is private: it never shows among open tables
      });
      location.href = `table.html?t=${encodeURIComponent(created.table.id)}`;
    } catch (err) {
      toast(errorText(err), "error");
      button.disabled = false;
    }
  });
  // the page's buttons stay disabled until here: a click before the handlers are
  // attached would do nothing (or submit the form as a plain page load)
  $("#quick-game").disabled = false;
  $("#create-button").disabled = false;
  onLanguageChange(() => {
    applyI18n(document);
    buildSeatRows();
    buildCustomTotems();
    renderLists();
  });
  await refreshLists();
  setInterval(() => document.visibilityState === "visible" && refreshLists(), REFRESH_MS);
}

main();
