// The table screen: holds one view (and the viewer's local selections) and draws it
// through its parts: the board (render/board.js), the large altar (render/main-altar.js),
// the viewer's cards (render/hand.js), the players (render/players.js), the score sheet
// (render/scoresheet.js), the status bar (ui/status.js), the waiting panel (ui/waiting.js)
// and the clocks (ui/clocks.js). Clicks on the targets that `ui/decision.js` derives
// from the legal actions come back to `run`. Used by the live table (table.js) and the
// replay viewer (replay.js) alike.

import { $ } from "./dom.js";
import { t } from "./i18n.js";
import { renderBoard } from "./render/board.js";
import { renderMyCards, renderStartChoice } from "./render/hand.js";
import { applyZoom, renderMainAltar, renderPool, scrollAltarIntoView } from "./render/main-altar.js";
import { renderPlayers } from "./render/players.js";
import { renderScoreSheet } from "./render/scoresheet.js";
import { measureSources, travelNewPieces } from "./render/travel.js";
import { tickClocks } from "./ui/clocks.js";
import { interaction } from "./ui/decision.js";
import { focusKey, restoreFocus } from "./ui/focus.js";
import { renderStatus, renderTopbar } from "./ui/status.js";
import { renderWaiting } from "./ui/waiting.js";

export { formatClock } from "./ui/clocks.js";
export { soloBandKey } from "./render/scoresheet.js";

// Where the focus waits when the target it was on is gone and nothing is the viewer's
// to do (another seat plays): the status bar's text, which says who is playing. The
// viewer's next decision takes it from there to its first target.
const PARKING = "status-text";

// the next sensible target of a decision, first found first
const NEXT_TARGETS = [
  "[data-action=confirm]",
  "[data-action=confirm-card]",
  "[data-action=pick-card]",
  "#main-altar .cell-target",
  ".slot.target",
  ".bag-item.target",
  "#status-buttons .btn-primary",
  "#status-buttons .btn",
];

/**
 * The screen. `hooks`:
 *   send(action)             play an action (live mode only)
 *   undo(to)                 undo ("last" or "turn")
 *   takeover(player)
 *   join(name)               take an open seat
 */
export class TableScreen {
  constructor(root, hooks = {}) {
    this.root = root;
    this.hooks = hooks;
    this.deck = new Map();
    this.summary = null; // the table summary (names, status, clock)
    this.player = null; // my player index (null: spectator)
    this.mySeats = []; // engine seats I play
    this.view = null;
    this.extra = {}; // {status, clocks, undo, replay}
    this.ui = { design: null, totemKind: null, totemCells: [], startCard: null, focusSeat: null, zoom: 1, showHeights: true, turns: 0 };
    this.busy = false;
    this.pieceKeys = new Map(); // seat -> Set of piece keys drawn (for appear animations)
    this.highlight = null; // {seat, cells} hovered in the log
    this.model = null;
    this.clockTimer = setInterval(() => tickClocks(this), 500);
    this.bindStatic();
  }

  // ------------------------------------------------------------------ setup

  bindStatic() {
    $("#zoom-in", this.root)?.addEventListener("click", () => this.zoom(1.25));
    $("#zoom-out", this.root)?.addEventListener("click", () => this.zoom(0.8));
    $("#zoom-fit", this.root)?.addEventListener("click", () => this.zoom(0));
    $("#toggle-heights", this.root)?.addEventListener("click", () => {
      this.ui.showHeights = !this.ui.showHeights;
      this.render();
    });
    $("#rotate-altar", this.root)?.addEventListener("click", () => {
      this.ui.turns = (this.ui.turns + 1) % 4;
      this.render();
    });
    $("#back-to-mine", this.root)?.addEventListener("click", () => {
      this.ui.focusSeat = null;
      this.render();
    });
    // a phone turned sideways, a window resized: the altar fits its panel again
    window.addEventListener("resize", () => applyZoom(this));
    const scroll = $("#altar-scroll", this.root);
    scroll?.addEventListener(
      "wheel",
      (event) => {
        if (!event.ctrlKey) return;
        event.preventDefault();
        this.zoom(event.deltaY < 0 ? 1.1 : 0.9);
      },
      { passive: false },
    );
    $("#open-scoresheet", this.root)?.addEventListener("click", () => this.showScoreSheet(true));
    $("#close-scoresheet", this.root)?.addEventListener("click", () => this.showScoreSheet(false));
    $("#scoresheet", this.root)?.addEventListener("keydown", (event) => {
      if (event.key === "Escape") this.showScoreSheet(false);
      // a modal dialog: Tab stays on its one control
      if (event.key === "Tab") {
        event.preventDefault();
        $("#close-scoresheet", this.root)?.focus();
      }
    });
  }

  setDeck(deckJson) {
    this.deck = new Map((deckJson?.cards || []).map((c) => [c.id, c]));
  }

  setCards(cards) {
    for (const card of cards || []) this.deck.set(card.id, card);
  }

  setSummary(summary) {
    this.summary = summary;
  }

  setPlayer(player, seats) {
    this.player = player;
    this.mySeats = seats || [];
  }

  // ----------------------------------------------------------------- names

  seatName(seat) {
    const view = this.view;
    if (view?.solo) return t("player.solo_altar", { n: seat + 1 });
    const info = this.summary?.seats?.[seat];
    if (!info) return t("player.seat", { n: seat + 1 });
    if (info.kind === "bot") return this.botName(seat, info);
    if (info.kind === "open" && !info.name) return t("player.open");
    return info.name || t("player.seat", { n: seat + 1 });
  }

  /** A bot's name in the reader's language; numbered when the table has several. */
  botName(player, info) {
    const level = t(`bot.level.${info.level || "random"}`);
    const bots = (this.summary?.seats || []).filter((s) => s.kind === "bot").length;
    return bots > 1 ? t("player.bot_numbered", { n: player + 1, level }) : t("player.bot", { level });
  }

  playerName(player) {
    const info = this.summary?.seats?.[player];
    if (!info) return t("player.seat", { n: player + 1 });
    if (info.kind === "bot") return this.botName(player, info);
    return info.name || t("player.open");
  }

  names() {
    const n = this.view?.seats_count || this.summary?.seats?.length || 0;
    return Array.from({ length: n }, (_, s) => this.seatName(s));
  }

  playerNames() {
    return (this.summary?.seats || []).map((_, p) => this.playerName(p));
  }

  logContext() {
    return {
      names: this.names(),
      playerNames: this.playerNames(),
      cards: this.deck,
      me: new Set(this.mySeats),
      solo: Boolean(this.view?.solo) || this.summary?.options?.players === 1,
    };
  }

  isMine(seat) {
    return this.mySeats.includes(seat);
  }

  // ------------------------------------------------------------------ state

  /** Show a new view. extra: {status, clocks, undo, replay: bool, animate: bool} */
  update(view, extra = {}) {
    const previous = this.view;
    this.view = view;
    this.extra = { ...this.extra, ...extra };
    if (view.deck) this.setCards(view.deck);
    this.setBusy(false);
    // local selections only survive while the same decision is pending
    const decisionKey = JSON.stringify([view.decision?.kind, view.decision?.seats, view.move]);
    if (this.decisionKey !== decisionKey) {
      // a decision of the viewer's own unpins whatever altar they were looking at
      if (view.legal_actions?.length) this.ui.focusSeat = null;
      const pool = view.decision?.context?.pool || [];
      if (!pool.includes(this.ui.design)) this.ui.design = null;
      this.ui.totemKind = null;
      this.ui.totemCells = [];
      if (view.decision?.kind !== "choose_start") this.ui.startCard = null;
    }
    this.decisionKey = decisionKey;
    this.animate = extra.animate !== false && previous !== null;
    this.render();
  }

  setBusy(busy) {
    this.busy = busy;
    this.root.classList.toggle("busy", busy);
    this.root.dataset.mine = this.model?.mine && !busy ? "1" : "0";
  }

  /** The seat whose altar is drawn large. */
  mainSeat() {
    const view = this.view;
    if (this.ui.focusSeat !== null && this.ui.focusSeat < view.seats_count) return this.ui.focusSeat;
    if (view.solo) {
      const acting = view.legal_actions[0]?.seat;
      if (acting !== undefined) return acting;
      return view.current ?? 0;
    }
    // while another seat acts alone, its altar is brought forward (issue 15: see the
    // others play); the viewer's own altar comes back with their next decision
    const acting = view.decision?.seats || [];
    if (view.phase !== "over" && acting.length === 1 && !this.isMine(acting[0]) && !this.extra.replay) return acting[0];
    if (view.viewer !== null && view.viewer !== undefined) return view.viewer;
    return acting[0] ?? view.current ?? 0;
  }

  render() {
    const view = this.view;
    if (!view) return;
    const focused = focusKey(this.root);
    const sources = this.animate ? measureSources(this.root) : null;
    const model = this.extra.replay ? interaction({ ...view, legal_actions: [] }) : interaction(view, this.ui);
    this.model = model;
    this.root.dataset.phase = view.phase;
    this.root.dataset.mine = model.mine && !this.busy ? "1" : "0";
    this.root.dataset.move = String(view.move);
    this.root.dataset.decision = model.kind || "";
    document.body.dataset.turn = model.mine ? "mine" : view.phase === "over" ? "over" : "other";
    renderTopbar(this);
    renderStatus(this, model);
    renderBoard(this, model);
    renderMainAltar(this, model);
    travelNewPieces($("#main-altar", this.root), sources);
    renderPool(this, model);
    renderStartChoice(this, model);
    renderMyCards(this, model);
    renderPlayers(this);
    renderWaiting(this);
    if (view.phase === "over") renderScoreSheet(this);
    restoreFocus(this.root, focused, { mine: model.mine && !this.busy, next: NEXT_TARGETS, parking: PARKING });
    // an altar brought forward (another seat acting, or the viewer's own again) is shown
    // whole, once everything drawn after it has moved it; another seat's stays whole
    // while it acts, as its altar grows or the lines above it change (a CI run found a
    // bot's altar 2 px under a phone's log drawer after its turn went on)
    const seat = this.mainSeat();
    const othersActing = this.ui.focusSeat === null && !this.mySeats.includes(seat);
    if (this.shownSeat !== undefined && (seat !== this.shownSeat || othersActing) && !this.extra.replay) {
      scrollAltarIntoView(this);
    }
    this.shownSeat = seat;
    tickClocks(this);
  }

  /** Carry out a model entry: send its action, or change a local selection. */
  run(spec) {
    if (this.busy || this.extra.replay) return;
    if (spec.action) {
      this.setBusy(true);
      this.hooks.send?.(spec.action);
      return;
    }
    const command = spec.command;
    if (!command) return;
    if (command.type === "totem-kind") {
      this.ui.totemKind = command.kind;
      this.ui.totemCells = [];
    } else if (command.type === "totem-cell") {
      const cells = this.ui.totemCells;
      this.ui.totemCells = cells.includes(command.key) ? cells.filter((k) => k !== command.key) : [...cells, command.key];
    } else if (command.type === "totem-cancel") {
      this.ui.totemKind = null;
      this.ui.totemCells = [];
    } else if (command.type === "select-design") {
      this.ui.design = command.design;
    } else if (command.type === "start-card") {
      this.ui.startCard = command.card;
    }
    this.render();
  }

  zoom(factor) {
    this.ui.zoom = factor === 0 ? 1 : Math.min(3, Math.max(0.5, this.ui.zoom * factor));
    applyZoom(this);
  }
  defaultMainSeat() {
    const saved = this.ui.focusSeat;
    this.ui.focusSeat = null;
    const seat = this.mainSeat();
    this.ui.focusSeat = saved;
    return seat;
  }

  /** Open or close the score sheet, a modal dialog: the focus goes into it (its Close
   * button) and comes back to the status bar's "Score sheet" (which opens it again), or
   * in a replay where it was. */
  showScoreSheet(open) {
    const overlay = $("#scoresheet", this.root);
    if (!overlay || overlay.hidden === !open) return;
    overlay.hidden = !open;
    if (open) {
      this.focusBeforeSheet = document.activeElement;
      $("#close-scoresheet", this.root)?.focus({ preventScroll: true });
      return;
    }
    const back = this.focusBeforeSheet;
    const kept = back?.isConnected && back !== document.body ? back : null;
    // a replay goes back to its controls (the slider); a live game to "Score sheet"
    const target = (this.extra.replay && kept) || $("[data-action=scoresheet]", this.root) || kept;
    target?.focus({ preventScroll: true });
  }
}
