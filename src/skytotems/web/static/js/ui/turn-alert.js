// Knowing it is your turn without watching the table: the tab's title and icon change
// while a decision is the viewer's; with alerts switched on (a click, never on page load)
// a short sound plays, and a system notification shows while the tab is hidden.

import { t } from "../i18n.js";

const STORE_KEY = "skytotems.turnAlerts";
const ICON = "img/favicon.svg";
const TURN_ICON = "img/favicon-turn.svg";

function storedOn() {
  try {
    return localStorage.getItem(STORE_KEY) === "on";
  } catch {
    return false;
  }
}

/** A short two-note chime made on the spot (no sound file to fetch). */
function chime() {
  const Context = window.AudioContext || window.webkitAudioContext;
  if (!Context) return;
  const audio = new Context();
  [660, 880].forEach((frequency, i) => {
    const osc = audio.createOscillator();
    const gain = audio.createGain();
    osc.frequency.value = frequency;
    const start = audio.currentTime + i * 0.16;
    gain.gain.setValueAtTime(0.0001, start);
    gain.gain.exponentialRampToValueAtTime(0.18, start + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, start + 0.3);
    osc.connect(gain).connect(audio.destination);
    osc.start(start);
    osc.stop(start + 0.32);
  });
  setTimeout(() => audio.close(), 900);
}

/** A bell (struck through when alerts are off), drawn: no emoji font is needed. */
function bellIcon(on) {
  const ns = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(ns, "svg");
  svg.setAttribute("viewBox", "0 0 24 24");
  svg.setAttribute("width", "18");
  svg.setAttribute("height", "18");
  svg.setAttribute("aria-hidden", "true");
  const bell = document.createElementNS(ns, "path");
  bell.setAttribute("d", "M12 3a6 6 0 0 0-6 6v4l-2 3h16l-2-3V9a6 6 0 0 0-6-6Zm-2.5 15a2.5 2.5 0 0 0 5 0Z");
  bell.setAttribute("fill", "currentColor");
  svg.appendChild(bell);
  if (!on) {
    const strike = document.createElementNS(ns, "path");
    strike.setAttribute("d", "M4 3 20 21");
    strike.setAttribute("stroke", "currentColor");
    strike.setAttribute("stroke-width", "2.2");
    svg.appendChild(strike);
  }
  return svg;
}

export class TurnAlert {
  constructor(toggle) {
    this.mine = false;
    this.on = storedOn();
    this.toggle = toggle;
    this.icon = document.querySelector("link[rel~='icon']");
    toggle?.addEventListener("click", () => this.switch());
    this.renderToggle();
  }

  /** Alerts on or off: turning them on is the click that may ask for notifications. */
  switch() {
    this.on = !this.on;
    try {
      localStorage.setItem(STORE_KEY, this.on ? "on" : "off");
    } catch {
      /* private mode: the choice lasts for this page */
    }
    if (this.on && "Notification" in window && Notification.permission === "default") {
      Notification.requestPermission().catch(() => {});
    }
    this.renderToggle();
  }

  renderToggle() {
    if (!this.toggle) return;
    this.toggle.setAttribute("aria-pressed", String(this.on));
    this.toggle.replaceChildren(bellIcon(this.on));
    const label = t(this.on ? "alert.on" : "alert.off");
    this.toggle.setAttribute("aria-label", label);
    this.toggle.dataset.tip = label;
  }

  /** Called with every state shown: `mine` is true while a decision is the viewer's. */
  update(mine, promptText = "") {
    const began = mine && !this.mine;
    this.mine = mine;
    document.title = mine ? `${t("alert.title")} · ${t("app.title")}` : t("app.title");
    if (this.icon) this.icon.href = mine ? TURN_ICON : ICON;
    document.documentElement.dataset.turnAlert = mine ? "mine" : "";
    if (!began || !this.on) return;
    chime();
    if (document.hidden && "Notification" in window && Notification.permission === "granted") {
      const note = new Notification(t("alert.title"), { body: promptText, icon: TURN_ICON, tag: "skytotems-turn" });
      note.onclick = () => {
        window.focus();
        note.close();
      };
    }
  }
}
