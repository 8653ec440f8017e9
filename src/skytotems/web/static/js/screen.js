// The table screen: draws one view (altars, board, cards, players, status bar) and wires
// the clickable targets that `ui/decision.js` derives from the legal actions. Used by
// the live table (table.js) and the replay viewer (replay.js) alike.

import { t, tNodes, tn } from "./i18n.js";
import { DESIGNS, designIcon, isRare, totemIcon } from "./pieces.js";
import { renderAltar } from "./render/altar.js";
import { cardBack, cardElement, cardName } from "./render/cards.js";
import { interaction } from "./ui/decision.js";
import { SEAT_COLOURS, designChip, playerChip, totemChip } from "./ui/chips.js";
import { svgEl } from "./pieces.js";

const $ = (selector, root = document) => root.querySelector(selector);

function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

function button(label, { className = "btn", onClick, dataAction, tip, disabled } = {}) {
  const b = el("button", className);
  b.type = "button";
  if (label instanceof Node) b.appendChild(label);
  else b.textContent = label;
  if (dataAction) b.dataset.action = dataAction;
  if (tip) b.dataset.tip = tip;
  if (disabled) b.disabled = true;
  if (onClick) b.addEventListener("click", onClick);
  return b;
}

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

export function soloBandKey(band) {
  return `solo.band.${String(band).toLowerCase().replace(/[^a-z]+/g, "_")}`;
}

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
    this.ui = { design: null, totemKind: null, totemCells: [], startCard: null, focusSeat: null, zoom: 1, showHeights: true };
    this.busy = false;
    this.pieceKeys = new Map(); // seat -> Set of piece keys drawn (for appear animations)
    this.highlight = null; // {seat, cells} hovered in the log
    this.model = null;
    this.clockTimer = setInterval(() => this.tickClocks(), 500);
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
    $("#back-to-mine", this.root)?.addEventListener("click", () => {
      this.ui.focusSeat = null;
      this.render();
    });
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
    if (view.viewer !== null && view.viewer !== undefined) return view.viewer;
    return view.decision?.seats?.[0] ?? view.current ?? 0;
  }

  render() {
    const view = this.view;
    if (!view) return;
    const model = this.extra.replay ? interaction({ ...view, legal_actions: [] }) : interaction(view, this.ui);
    this.model = model;
    this.root.dataset.phase = view.phase;
    this.root.dataset.mine = model.mine && !this.busy ? "1" : "0";
    this.root.dataset.move = String(view.move);
    this.root.dataset.decision = model.kind || "";
    document.body.dataset.turn = model.mine ? "mine" : view.phase === "over" ? "over" : "other";
    this.renderTopbar();
    this.renderStatus(model);
    this.renderBoard(model);
    this.renderMainAltar(model);
    this.renderPool(model);
    this.renderStartChoice(model);
    this.renderMyCards(model);
    this.renderPlayers();
    this.renderWaiting();
    if (view.phase === "over") this.renderScoreSheet();
    this.tickClocks();
  }

  // ---------------------------------------------------------------- pieces

  renderTopbar() {
    const view = this.view;
    const round = document.getElementById("round-info");
    if (!round) return;
    round.replaceChildren();
    const phaseKey = {
      setup: "phase.setup",
      play: "phase.play",
      final: "phase.final",
      last_reveals: "phase.last_reveals",
      over: "phase.over",
    }[view.phase] || "phase.play";
    round.appendChild(el("span", "phase", t(phaseKey, { round: view.round })));
  }

  renderStatus(model) {
    const view = this.view;
    const text = $("#status-text", this.root);
    const buttons = $("#status-buttons", this.root);
    text.replaceChildren();
    buttons.replaceChildren();
    const bar = $("#status", this.root);
    bar.classList.toggle("my-turn", model.mine);
    const status = this.extra.status;
    if (this.extra.replay) {
      text.appendChild(this.replayStatus());
    } else if (status === "waiting") {
      text.appendChild(document.createTextNode(t("status.waiting")));
    } else if (status === "expired") {
      text.appendChild(document.createTextNode(t("status.expired")));
    } else if (view.phase === "over") {
      text.appendChild(this.overStatus());
      buttons.appendChild(button(t("button.scoresheet"), { className: "btn btn-primary", onClick: () => this.showScoreSheet(true), dataAction: "scoresheet" }));
      const replay = el("a", "btn", t("button.replay"));
      replay.href = `table.html?t=${encodeURIComponent(this.summary?.id || "")}&replay=1`;
      replay.dataset.action = "replay";
      buttons.appendChild(replay);
    } else if (model.mine) {
      text.appendChild(this.promptNode(model.prompt));
      for (const spec of model.buttons) buttons.appendChild(this.modelButton(spec));
      if (model.goals.size) {
        buttons.appendChild(el("span", "hint", t("status.may_reveal")));
      }
    } else {
      text.appendChild(this.waitingNode());
    }
    const undo = this.extra.undo;
    if (!this.extra.replay && undo && view.phase !== "over" && this.player !== null) {
      if (undo.last) buttons.appendChild(button(`↶ ${t("button.undo")}`, { className: "btn btn-quiet", onClick: () => this.hooks.undo?.("last"), dataAction: "undo", tip: t("tip.undo") }));
      if (undo.turn) buttons.appendChild(button(`⟲ ${t("button.restart_turn")}`, { className: "btn btn-quiet", onClick: () => this.hooks.undo?.("turn"), dataAction: "undo-turn", tip: t("tip.restart_turn") }));
    }
    for (const b of buttons.querySelectorAll("button")) if (this.busy) b.disabled = true;
  }

  replayStatus() {
    const view = this.view;
    const span = el("span");
    span.appendChild(document.createTextNode(t("replay.status", { move: view.move, moves: this.extra.moves ?? view.move })));
    return span;
  }

  overStatus() {
    const view = this.view;
    if (view.solo && typeof view.solo === "object") {
      return tNodes("status.solo_over", { total: view.solo.total, band: t(soloBandKey(view.solo.band)) });
    }
    const places = view.places || [];
    const winners = places.map((p, s) => (p === 1 ? s : null)).filter((s) => s !== null);
    const span = el("span");
    winners.forEach((s, i) => {
      if (i) span.appendChild(document.createTextNode(t("list.sep")));
      span.appendChild(playerChip(this.seatName(s), s));
    });
    return tNodes(winners.length > 1 ? "status.over_shared" : "status.over", { players: span });
  }

  promptNode(prompt) {
    if (!prompt) return document.createTextNode("");
    const params = { ...(prompt.params || {}) };
    if (params.design) params.design = designChip(params.design);
    if (params.first) params.first = designChip(params.first);
    if (params.kind) params.kind = totemChip(params.kind);
    if (this.view.solo && this.model?.seat !== null && this.model?.seat !== undefined && this.model.kind !== "choose_start") {
      const wrap = el("span");
      wrap.appendChild(playerChip(this.seatName(this.model.seat), this.model.seat));
      wrap.appendChild(document.createTextNode(" "));
      wrap.appendChild(tNodes(prompt.key, params));
      return wrap;
    }
    return tNodes(prompt.key, params);
  }

  waitingNode() {
    const view = this.view;
    const decision = view.decision;
    if (!decision) return document.createTextNode("");
    const who = el("span");
    decision.seats.forEach((seat, i) => {
      if (i) who.appendChild(document.createTextNode(t("list.sep")));
      who.appendChild(playerChip(this.seatName(seat), seat));
    });
    let key = `wait.${decision.kind}`;
    if (decision.kind === "turn" && decision.context?.mode === "final") key = "wait.turn_final";
    const node = el("span");
    if (decision.kind === "choose_start" && this.mySeats.some((s) => !decision.seats.includes(s))) {
      node.appendChild(tNodes("wait.choose_start_others", { players: who }));
    } else {
      node.appendChild(tNodes(key, { player: who }));
    }
    if (this.player === null && !this.extra.replay) {
      node.appendChild(el("span", "spectating", t("status.spectating")));
    }
    return node;
  }

  modelButton(spec) {
    const params = { ...(spec.params || {}) };
    if (params.design) params.design = designChip(params.design);
    if (params.kind) params.kind = totemChip(params.kind);
    if (params.card) params.card = cardName(this.deck.get(params.card) || { id: params.card, name: params.card });
    const label = tNodes(spec.key, params);
    const className = `btn${spec.primary ? " btn-primary" : ""}${spec.command?.type === "totem-kind" ? " btn-totem" : ""}`;
    return button(label, {
      className,
      dataAction: spec.dataAction,
      tip: spec.tipKey ? t(spec.tipKey) : spec.kind ? t(`totem.${spec.kind}.rule`) : undefined,
      onClick: () => this.run(spec),
    });
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

  renderBoard(model) {
    const view = this.view;
    // round track
    const track = $("#round-track", this.root);
    track.replaceChildren();
    track.dataset.tip = t("tip.round", { round: view.round });
    for (let r = 1; r <= 10; r++) {
      const pip = el("span", `pip${r < view.round ? " done" : ""}${r === view.round ? " now" : ""}`, String(r));
      track.appendChild(pip);
    }
    const final = el("span", `pip final${view.phase === "final" || view.phase === "last_reveals" || view.phase === "over" ? " now" : ""}`);
    final.appendChild(totemIcon("cat", 14));
    final.dataset.tip = t("tip.final_round");
    track.appendChild(final);

    // slots (one that changed since the last view flashes)
    const slots = $("#slots", this.root);
    slots.replaceChildren();
    const before = this.lastSlots || [];
    this.lastSlots = view.slots.map((d) => d.join(","));
    view.slots.forEach((designs, index) => {
      const action = model.slots.get(index);
      const changed = this.animate && before[index] !== undefined && before[index] !== designs.join(",");
      const slot = el("div", `slot${action ? " target" : ""}${designs.length ? "" : " empty"}${changed ? " changed" : ""}`);
      slot.dataset.slot = String(index);
      const label = el("span", "slot-label", t("board.slot", { n: index + 1 }));
      slot.appendChild(label);
      const pieces = el("div", "slot-pieces");
      for (const d of designs) {
        const icon = designIcon(d, 26);
        pieces.appendChild(icon);
      }
      if (!designs.length) pieces.appendChild(el("span", "slot-empty", t("board.slot_empty")));
      slot.appendChild(pieces);
      slot.dataset.tip = designs.length
        ? t("tip.slot", { n: index + 1, designs: designs.map((d) => t(`design.${d}`)).join(t("list.sep")) })
        : t("tip.slot_empty", { n: index + 1 });
      if (action) {
        slot.tabIndex = 0;
        slot.setAttribute("role", "button");
        slot.addEventListener("click", () => this.run({ action }));
        slot.addEventListener("keydown", (e) => (e.key === "Enter" || e.key === " ") && this.run({ action }));
        slot.dataset.tip += "\n" + t("tip.take_slot");
      }
      slots.appendChild(slot);
    });

    // bag
    const bag = $("#bag", this.root);
    bag.replaceChildren();
    const head = el("div", "bag-head");
    head.appendChild(el("span", "bag-title", t("board.bag")));
    head.appendChild(el("span", "bag-total", tn("board.bag_total", view.bag_total)));
    bag.appendChild(head);
    const grid = el("div", "bag-grid");
    for (const d of DESIGNS) {
      const count = view.bag[d] ?? 0;
      const action = model.bagDesigns.get(d);
      const item = el("div", `bag-item${count ? "" : " none"}${action ? " target" : ""}${isRare(d) ? " rare" : ""}`);
      item.dataset.design = d;
      item.appendChild(designIcon(d, 20));
      item.appendChild(el("span", "count", String(count)));
      item.dataset.tip = t("tip.bag_design", { design: t(`design.${d}`), count }) + "\n" + t(isRare(d) ? "tip.rare_points" : "tip.common_points");
      if (action) {
        item.tabIndex = 0;
        item.setAttribute("role", "button");
        item.addEventListener("click", () => this.run({ action }));
        item.addEventListener("keydown", (e) => (e.key === "Enter" || e.key === " ") && this.run({ action }));
      }
      grid.appendChild(item);
    }
    bag.appendChild(grid);
    if (model.drawBag) {
      bag.appendChild(button(t("button.draw_bag"), { className: "btn btn-primary target draw-bag", onClick: () => this.run({ action: model.drawBag }), dataAction: "draw", tip: t("tip.draw_bag") }));
    }
  }

  renderMainAltar(model) {
    const view = this.view;
    const seat = this.mainSeat();
    const svg = $("#main-altar", this.root);
    const acting = model.mine && model.seat === seat;
    const targets = new Map();
    if (acting && !this.extra.replay) {
      for (const [key, spec] of model.cells) {
        const tip = this.targetTip(spec);
        targets.set(key, { ...spec, tip, onClick: () => this.run(spec) });
      }
    }
    const highlight = this.highlight && this.highlight.seat === seat ? new Set(this.highlight.cells) : null;
    const keys = renderAltar(svg, view.altars[seat], {
      targets,
      showHeights: this.ui.showHeights,
      previousKeys: this.animate ? this.pieceKeys.get(seat) : null,
      highlight,
      minWidth: 4 * 64,
      minHeight: 220,
    });
    this.pieceKeys.set(seat, keys);
    this.applyZoom();
    // title
    const title = $("#altar-title", this.root);
    title.replaceChildren();
    title.appendChild(playerChip(this.seatName(seat), seat));
    const score = view.seats[seat].score;
    const scoreEl = el("span", "score", tn("unit.points", score.total));
    scoreEl.dataset.tip = t("tip.score", score);
    title.appendChild(scoreEl);
    const back = $("#back-to-mine", this.root);
    const mine = view.viewer !== null && view.viewer !== undefined && !view.solo ? view.viewer : null;
    back.hidden = this.ui.focusSeat === null || mine === null || seat === mine;
    // own hoard strip under the altar
    const hoard = $("#main-hoard", this.root);
    this.fillHoard(hoard, view.altars[seat].hoard);
    $("#toggle-heights", this.root)?.classList.toggle("on", this.ui.showHeights);
  }

  targetTip(spec) {
    switch (spec.style) {
      case "place":
        return t("tip.target_place", { design: t(`design.${spec.ghost}`) });
      case "cloud":
        return t("tip.target_cloud");
      case "cat":
        return t("tip.target_cat");
      case "wolf":
        return t("tip.target_wolf");
      case "totem":
        return t(spec.selected ? "tip.target_totem_selected" : "tip.target_totem");
      default:
        return "";
    }
  }

  fillHoard(container, hoard) {
    if (!container) return;
    container.replaceChildren();
    container.hidden = !hoard.length;
    if (!hoard.length) return;
    container.appendChild(el("span", "hoard-title", t("board.hoard")));
    for (const d of hoard) container.appendChild(designIcon(d, 20));
    container.dataset.tip = t("tip.hoard", { designs: hoard.map((d) => t(`design.${d}`)).join(t("list.sep")) });
  }

  zoom(factor) {
    this.ui.zoom = factor === 0 ? 1 : Math.min(3, Math.max(0.5, this.ui.zoom * factor));
    this.applyZoom();
  }

  applyZoom() {
    const svg = $("#main-altar", this.root);
    const scroll = $("#altar-scroll", this.root);
    if (!svg || !scroll) return;
    const natural = Number(svg.dataset.naturalWidth || 400);
    const naturalH = Number(svg.dataset.naturalHeight || 300);
    // "fit": as large as the panel allows, but never tiny cubes nor giant ones
    const availW = scroll.clientWidth || 600;
    const availH = Math.max(scroll.clientHeight || 360, 260);
    const fit = Math.min(availW / natural, availH / naturalH, 2.2);
    const scale = Math.max(fit, 0.45) * this.ui.zoom;
    svg.style.width = `${Math.round(natural * scale)}px`;
    svg.style.height = `${Math.round(naturalH * scale)}px`;
    $("#zoom-level", this.root) && ($("#zoom-level", this.root).textContent = `${Math.round(this.ui.zoom * 100)}%`);
  }

  renderPool(model) {
    const view = this.view;
    const tray = $("#pool-tray", this.root);
    tray.replaceChildren();
    const pool = view.pool || [];
    tray.hidden = !pool.length;
    if (!pool.length) return;
    const owner = view.decision?.seats?.[0];
    const ownerIsMain = owner === undefined || owner === this.mainSeat();
    tray.appendChild(el("span", "pool-title", ownerIsMain ? t("board.pool") : t("board.pool_of", { name: this.seatName(owner) })));
    const selected = model.pool?.selected ?? null;
    const seen = new Set();
    pool.forEach((design) => {
      const isSelected = design === selected && !seen.has(design);
      seen.add(design);
      const item = el("button", `pool-item${isSelected ? " selected" : ""}${model.pool?.selectable ? " selectable" : ""}`);
      item.type = "button";
      item.dataset.design = design;
      item.appendChild(designIcon(design, 34));
      item.dataset.tip = t("tip.pool_item", { design: t(`design.${design}`) });
      if (model.pool?.selectable && !this.extra.replay) {
        item.addEventListener("click", () => this.run({ command: { type: "select-design", design } }));
      } else {
        item.disabled = !model.pool;
      }
      tray.appendChild(item);
    });
  }

  renderStartChoice(model) {
    const view = this.view;
    const panel = $("#start-choice", this.root);
    panel.replaceChildren();
    const show =
      view.phase === "setup" &&
      view.decision?.kind === "choose_start" &&
      this.extra.status !== "waiting" &&
      this.extra.status !== "expired" &&
      (model.start !== null || this.mySeats.length > 0);
    panel.hidden = !show;
    if (!show) return;
    if (model.start) {
      const seat = model.start.seat;
      const hand = view.seats[seat].hand || [...model.start.cards.keys()];
      panel.appendChild(el("h2", "", view.solo ? t("start.title_solo", { n: seat + 1 }) : t("start.title")));
      panel.appendChild(el("p", "start-help", t("start.help")));
      const row = el("div", "start-cards");
      for (const id of hand) {
        const card = this.deck.get(id);
        if (!card) continue;
        const action = model.start.cards.get(id);
        const selected = model.start.selected === id;
        row.appendChild(
          cardElement(card, {
            mode: "hand",
            selected,
            clickWhole: true,
            actionLabel: selected ? t("start.chosen_here") : t("start.choose"),
            actionClass: selected ? "btn-primary" : "",
            dataAction: selected ? "confirm-card" : "pick-card",
            onClick: () => (selected ? this.run({ action }) : this.run({ command: { type: "start-card", card: id } })),
          }),
        );
      }
      panel.appendChild(row);
    } else {
      const mine = this.mySeats.find((s) => view.seats[s]?.start_card);
      panel.appendChild(el("h2", "", t("start.waiting")));
      if (mine !== undefined) {
        const card = this.deck.get(view.seats[mine].start_card);
        if (card) {
          const row = el("div", "start-cards");
          row.appendChild(cardElement(card, { mode: "start" }));
          panel.appendChild(row);
        }
      }
    }
  }

  renderMyCards(model) {
    const view = this.view;
    const box = $("#my-cards", this.root);
    box.replaceChildren();
    const seats = view.solo ? [this.mainSeat()] : this.mySeats.filter((s) => s < view.seats_count);
    const section = $("#my-panel", this.root);
    section.hidden = !seats.length;
    for (const seat of seats) {
      const entry = view.seats[seat];
      if (!entry) continue;
      const goals = entry.goals || [];
      if (view.phase === "setup" && !entry.start_card) continue;
      for (const goal of goals) {
        const card = this.deck.get(goal.card);
        if (!card) continue;
        const action = model.goals.get(goal.card);
        const canClick = action && model.seat === seat && !this.extra.replay;
        const node = cardElement(card, {
          mode: "goal",
          revealable: goal.revealable,
          onClick: canClick ? () => this.run({ action }) : null,
          actionLabel: t("card.reveal", { points: goal.points }),
          hintKey: view.phase === "over" ? "card.never_revealed" : "card.not_yet",
          actionClass: "btn-gold target",
          dataAction: "reveal",
        });
        box.appendChild(node);
      }
      for (const id of entry.revealed) {
        const card = this.deck.get(id);
        if (card) box.appendChild(cardElement(card, { mode: "revealed" }));
      }
      if (entry.start_card) {
        const card = this.deck.get(entry.start_card);
        if (card) {
          const start = cardElement(card, { mode: "start" });
          start.classList.add("compact");
          const label = el("div", "card-label", t("card.start_label"));
          start.prepend(label);
          box.appendChild(start);
        }
      }
    }
    section.hidden = box.childElementCount === 0;
  }

  renderPlayers() {
    const view = this.view;
    const list = $("#players", this.root);
    list.replaceChildren();
    const main = this.mainSeat();
    for (let seat = 0; seat < view.seats_count; seat++) {
      const entry = view.seats[seat];
      const scoreBefore = this.lastScores?.[seat];
      const scored = this.animate && scoreBefore !== undefined && scoreBefore !== entry.score.total;
      const panel = el("section", `player-panel${seat === main ? " is-main" : ""}${view.decision?.seats?.includes(seat) ? " acting" : ""}${this.isMine(seat) ? " me" : ""}${scored ? " scored" : ""}`);
      panel.dataset.seat = String(seat);
      panel.style.setProperty("--seat-colour", SEAT_COLOURS[seat % SEAT_COLOURS.length]);
      const head = el("header", "player-head");
      head.appendChild(playerChip(this.seatName(seat), seat));
      if (view.start_player === seat) {
        const marker = el("span", "start-marker", "★");
        marker.dataset.tip = t("tip.start_player");
        marker.setAttribute("aria-label", t("tip.start_player"));
        head.appendChild(marker);
      }
      const score = el("span", "player-score", String(entry.score.total));
      score.dataset.tip = t("tip.score", entry.score);
      head.appendChild(score);
      if (!view.solo || seat === 0) {
        const clock = el("span", "clock");
        clock.dataset.player = String(view.solo ? 0 : seat);
        head.appendChild(clock);
      }
      panel.appendChild(head);
      // a human whose clock ran out may be handed to a bot by another player
      const clockInfo = this.extra.clocks?.players?.[seat];
      const seatInfo = this.summary?.seats?.[seat];
      if (
        this.hooks.takeover && this.player !== null && !this.isMine(seat) && !view.solo &&
        clockInfo && clockInfo.remaining_ms <= 0 && seatInfo?.kind === "human" &&
        this.extra.status === "playing"
      ) {
        panel.appendChild(button(t("button.takeover"), {
          className: "btn btn-small", dataAction: "takeover", tip: t("tip.takeover"),
          onClick: () => this.hooks.takeover(seat),
        }));
      }

      const body = el("div", "player-body");
      const mini = svgEl("svg", { class: "mini-altar", role: "button", tabindex: "0" });
      mini.dataset.tip = t("tip.mini_altar", { name: this.seatName(seat) });
      const miniKeys = renderAltar(mini, view.altars[seat], {
        mini: true,
        previousKeys: this.animate ? this.pieceKeys.get(`mini${seat}`) : null,
      });
      this.pieceKeys.set(`mini${seat}`, miniKeys);
      const focus = () => {
        this.ui.focusSeat = seat === this.defaultMainSeat() ? null : seat;
        this.render();
        $("#main-altar", this.root)?.scrollIntoView({ block: "nearest", behavior: "smooth" });
      };
      mini.addEventListener("click", focus);
      mini.addEventListener("keydown", (e) => (e.key === "Enter" || e.key === " ") && focus());
      body.appendChild(mini);

      const info = el("div", "player-info");
      const cards = el("div", "player-cards");
      if (entry.start_card && this.deck.get(entry.start_card)) {
        const start = el("span", "mini-card start");
        start.textContent = cardName(this.deck.get(entry.start_card));
        start.dataset.tip = t("card.start_label") + "\n" + cardName(this.deck.get(entry.start_card));
        cards.appendChild(start);
      }
      for (const id of entry.revealed) {
        const card = this.deck.get(id);
        const chip = el("span", "mini-card revealed", `✓ ${card ? cardName(card) : id}`);
        chip.dataset.tip = card ? `${cardName(card)} (${tn("unit.points", card.points)})` : id;
        cards.appendChild(chip);
      }
      if (entry.goal_count && !this.isMine(seat) && !view.solo) cards.appendChild(cardBack(entry.goal_count));
      if (view.phase === "setup") {
        cards.appendChild(el("span", `setup-state${entry.chosen ? " done" : ""}`, entry.chosen ? t("start.has_chosen") : t("start.choosing")));
      }
      info.appendChild(cards);
      const hoard = el("div", "hoard-strip");
      this.fillHoard(hoard, view.altars[seat].hoard);
      info.appendChild(hoard);
      if (seatInfo?.kind === "bot") {
        const badge = el("span", "bot-badge", t("player.bot_badge"));
        badge.dataset.tip = t("tip.bot", { level: t(`bot.level.${seatInfo.level}`) });
        info.appendChild(badge);
      }
      body.appendChild(info);
      panel.appendChild(body);
      list.appendChild(panel);
    }
    this.lastScores = view.seats.map((entry) => entry.score.total);
  }

  defaultMainSeat() {
    const saved = this.ui.focusSeat;
    this.ui.focusSeat = null;
    const seat = this.mainSeat();
    this.ui.focusSeat = saved;
    return seat;
  }

  /** "Cancel this table", asked twice: the second step says what closing means (the
   *  step survives re-renders in `ui.cancelAsked`). */
  cancelNode() {
    const node = el("div", "cancel-table");
    const again = () => this.renderWaiting();
    if (!this.ui.cancelAsked) {
      node.appendChild(
        button(t("waiting.cancel"), {
          className: "btn btn-small",
          dataAction: "cancel-table",
          onClick: () => {
            this.ui.cancelAsked = true;
            again();
          },
        }),
      );
      return node;
    }
    node.append(
      el("p", "", t("waiting.cancel_confirm")),
      button(t("waiting.cancel_yes"), {
        className: "btn btn-small btn-danger",
        dataAction: "cancel-table-confirm",
        onClick: () => {
          this.ui.cancelAsked = false;
          this.hooks.cancel();
        },
      }),
      button(t("waiting.cancel_no"), {
        className: "btn btn-small",
        onClick: () => {
          this.ui.cancelAsked = false;
          again();
        },
      }),
    );
    return node;
  }

  renderWaiting() {
    const box = $("#waiting", this.root);
    if (!box) return;
    box.replaceChildren();
    const summary = this.summary;
    const waiting = this.extra.status === "waiting" && !this.extra.replay;
    box.hidden = !waiting;
    if (!waiting || !summary) return;
    box.appendChild(el("h2", "", t("waiting.title")));
    const open = summary.seats.filter((s) => s.kind === "open");
    box.appendChild(el("p", "", tn("waiting.open_seats", open.length)));
    if (this.hooks.inviteLinks) {
      const links = this.hooks.inviteLinks();
      if (links.length) {
        const list = el("ul", "invite-list");
        for (const link of links) {
          const li = el("li");
          li.appendChild(el("span", "", link.label));
          const input = el("input", "invite-link");
          input.readOnly = true;
          input.value = link.url;
          li.appendChild(input);
          li.appendChild(button(t("button.copy"), { className: "btn btn-small", onClick: () => navigator.clipboard?.writeText(link.url) }));
          list.appendChild(li);
        }
        box.appendChild(list);
      }
    }
    if (this.player !== null && this.hooks.cancel) box.appendChild(this.cancelNode());
    if (this.player === null && open.length && this.hooks.join) {
      const form = el("form", "join-form");
      const input = el("input");
      input.name = "name";
      input.required = true;
      input.maxLength = 40;
      input.placeholder = t("lobby.your_name");
      input.value = this.hooks.defaultName?.() || "";
      form.appendChild(input);
      form.appendChild(button(t("button.join"), { className: "btn btn-primary", dataAction: "join" }));
      form.querySelector("button").type = "submit";
      form.addEventListener("submit", (event) => {
        event.preventDefault();
        if (input.value.trim()) this.hooks.join(input.value.trim());
      });
      box.appendChild(form);
    }
  }

  // ----------------------------------------------------------------- clocks

  tickClocks() {
    const clocks = this.extra.clocks;
    for (const node of this.root.querySelectorAll(".clock")) {
      if (!clocks || this.extra.replay || this.view?.phase === "over") {
        node.hidden = true;
        continue;
      }
      const info = clocks.players?.[Number(node.dataset.player)];
      if (!info) {
        node.hidden = true;
        continue;
      }
      node.hidden = false;
      const elapsed = info.running ? Date.now() - (this.extra.clocksReceived || Date.now()) : 0;
      const remaining = info.remaining_ms - elapsed;
      node.textContent = formatClock(remaining);
      node.classList.toggle("running", info.running);
      node.classList.toggle("low", remaining < 30000);
      node.dataset.tip = t(clocks.mode === "24h" || clocks.mode === "72h" ? "tip.clock_turn" : "tip.clock_bank");
    }
  }

  // ------------------------------------------------------------- score sheet

  renderScoreSheet() {
    const view = this.view;
    const box = $("#scoresheet-body", this.root);
    if (!box || !view.score_sheets) return;
    box.replaceChildren();
    const sheets = view.score_sheets;
    const places = view.places || [];
    const tableEl = el("table", "scoresheet");
    const thead = el("thead");
    const headRow = el("tr");
    headRow.appendChild(el("th", "", ""));
    sheets.forEach((sheet) => {
      const th = el("th");
      th.appendChild(playerChip(this.seatName(sheet.seat), sheet.seat));
      if (!view.solo) th.appendChild(el("div", `place place-${places[sheet.seat]}`, t("score.place", { n: places[sheet.seat] })));
      headRow.appendChild(th);
    });
    thead.appendChild(headRow);
    tableEl.appendChild(thead);
    const tbody = el("tbody");
    const row = (labelNode, cells, className = "") => {
      const tr = el("tr", className);
      const th = el("th");
      th.appendChild(labelNode);
      tr.appendChild(th);
      for (const cell of cells) {
        const td = el("td");
        if (cell instanceof Node) td.appendChild(cell);
        else td.textContent = String(cell);
        tr.appendChild(td);
      }
      tbody.appendChild(tr);
    };
    for (const kind of view.kinds) {
      row(totemChip(kind), sheets.map((s) => s.totems[kind] ?? 0));
    }
    const pointsWithCount = (points, count) => {
      const span = el("span");
      span.appendChild(document.createTextNode(String(points)));
      span.appendChild(el("small", "", ` (${count})`));
      return span;
    };
    row(document.createTextNode(t("score.common")), sheets.map((s) => pointsWithCount(s.common_points, s.common_pedestals)));
    row(document.createTextNode(t("score.rare")), sheets.map((s) => pointsWithCount(s.rare_points, s.rare_pedestals)));
    row(
      document.createTextNode(t("score.cards")),
      sheets.map((s) => {
        const span = el("span");
        span.appendChild(document.createTextNode(String(s.cards)));
        if (s.revealed.length) {
          const names = s.revealed.map((id) => (this.deck.get(id) ? cardName(this.deck.get(id)) : id));
          span.appendChild(el("small", "card-list", names.join(t("list.sep"))));
        }
        return span;
      }),
    );
    row(document.createTextNode(t("score.total")), sheets.map((s) => s.total), "total");
    tableEl.appendChild(tbody);
    box.appendChild(tableEl);
    if (view.solo && typeof view.solo === "object") {
      const band = el("p", "solo-band");
      band.appendChild(tNodes("score.solo", { total: view.solo.total, band: t(soloBandKey(view.solo.band)) }));
      box.appendChild(band);
    }
    // statistics
    const stats = el("table", "stats");
    const sbody = el("tbody");
    const statRow = (label, values) => {
      const tr = el("tr");
      tr.appendChild(el("th", "", label));
      for (const v of values) tr.appendChild(el("td", "", String(v)));
      sbody.appendChild(tr);
    };
    const extraStats = this.extra.stats?.players;
    statRow(t("stats.totems"), sheets.map((s) => s.totem_count));
    statRow(t("stats.pedestals"), sheets.map((s) => s.common_pedestals + s.rare_pedestals));
    if (extraStats) statRow(t("stats.clouds"), extraStats.map((p) => p.clouds));
    statRow(t("stats.columns"), view.altars.map((a) => a.columns.length));
    statRow(t("stats.tallest"), view.altars.map((a) => Math.max(0, ...a.columns.map((c) => c.stack.length))));
    statRow(t("stats.cards_revealed"), sheets.map((s) => s.revealed.length));
    statRow(t("stats.hidden_goals"), view.seats.map((s) => (s.goals || []).map((g) => (this.deck.get(g.card) ? cardName(this.deck.get(g.card)) : g.card)).join(t("list.sep")) || "—"));
    stats.appendChild(sbody);
    box.appendChild(el("h3", "", t("stats.title")));
    box.appendChild(stats);
    if (!this.scoreSheetShown && !this.extra.replay) {
      this.scoreSheetShown = true;
      this.showScoreSheet(true);
    }
  }

  showScoreSheet(open) {
    const overlay = $("#scoresheet", this.root);
    if (overlay) overlay.hidden = !open;
  }
}
