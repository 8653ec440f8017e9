// The players' clocks: counted down in the browser between two states from the server.

import { t } from "../i18n.js";

export function formatClock(ms) {
  const negative = ms < 0;
  let s = Math.floor(Math.abs(ms) / 1000);
  const h = Math.floor(s / 3600);
  s -= h * 3600;
  const m = Math.floor(s / 60);
  s -= m * 60;
  const pad = (n) => String(n).padStart(2, "0");
  const text = h ? `${h}:${pad(m)}:${pad(s)}` : `${m}:${pad(s)}`;
  return negative ? `-${text}` : text;
}

/** The human seats out of time that `screen`'s player may hand to a bot. */
export function takeableSeats(screen) {
  const players = screen.extra.clocks?.players;
  if (!players || !screen.hooks.takeover || screen.player === null || screen.view?.solo) return [];
  if (screen.extra.status !== "playing" || screen.extra.replay) return [];
  return players
    .map((info, seat) => ({ info, seat }))
    .filter(({ info, seat }) =>
      (info.out || info.remaining_ms <= 0) && !screen.isMine(seat) && screen.summary?.seats?.[seat]?.kind === "human")
    .map(({ seat }) => seat);
}

/** The human seats whose time has run out (the server keeps it; a bot's seat is left out). */
export function outOfTimeSeats(screen) {
  const players = screen.extra.clocks?.players;
  if (!players || screen.extra.replay || screen.extra.status !== "playing") return [];
  return players
    .map((info, seat) => (info.out && screen.summary?.seats?.[seat]?.kind === "human" ? seat : null))
    .filter((seat) => seat !== null);
}

export function tickClocks(screen) {
  const clocks = screen.extra.clocks;
  for (const node of screen.root.querySelectorAll(".clock")) {
    if (!clocks || screen.extra.replay || screen.view?.phase === "over") {
      node.hidden = true;
      continue;
    }
    const info = clocks.players?.[Number(node.dataset.player)];
    if (!info) {
      node.hidden = true;
      continue;
    }
    node.hidden = false;
    const elapsed = info.running ? Date.now() - (screen.extra.clocksReceived || Date.now()) : 0;
    // out of time stays 0:00 (the server keeps it so); a clock never shows less
    const remaining = info.out ? 0 : Math.max(0, info.remaining_ms - elapsed);
    node.textContent = formatClock(remaining);
    node.classList.toggle("running", info.running);
    node.classList.toggle("out", Boolean(info.out) || remaining <= 0);
    node.classList.toggle("low", remaining < 30000);
    node.dataset.tip = t(clocks.mode === "24h" || clocks.mode === "72h" ? "tip.clock_turn" : "tip.clock_bank");
  }
}
