// The status bar and the top bar's round: what the table asks of the viewer (prompt and
// buttons from the decision model), who is being waited for, or how the game ended.

import { $, button, el } from "../dom.js";
import { t, tNodes } from "../i18n.js";
import { cardName } from "../render/cards.js";
import { soloBandKey } from "../render/scoresheet.js";
import { designChip, playerChip, totemChip } from "./chips.js";
import { outOfTimeSeats, takeableSeats } from "./clocks.js";

export function renderTopbar(screen) {
  const view = screen.view;
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

export function renderStatus(screen, model) {
  const view = screen.view;
  const text = $("#status-text", screen.root);
  const buttons = $("#status-buttons", screen.root);
  text.replaceChildren();
  buttons.replaceChildren();
  const bar = $("#status", screen.root);
  bar.classList.toggle("my-turn", model.mine);
  const status = screen.extra.status;
  const scoreSheetButton = () =>
    button(t("button.scoresheet"), { className: "btn btn-primary", onClick: () => screen.showScoreSheet(true), dataAction: "scoresheet" });
  if (screen.extra.replay) {
    text.appendChild(replayStatus(screen));
    // the last position is the game's end: say who won and offer the sheet
    if (view.phase === "over") {
      text.appendChild(document.createTextNode(" · "));
      text.appendChild(overStatus(screen));
      buttons.appendChild(scoreSheetButton());
    }
  } else if (status === "waiting") {
    text.appendChild(document.createTextNode(t("status.waiting")));
  } else if (status === "expired") {
    text.appendChild(document.createTextNode(t("status.expired")));
  } else if (view.phase === "over") {
    text.appendChild(overStatus(screen));
    buttons.appendChild(scoreSheetButton());
    const replay = el("a", "btn", t("button.replay"));
    replay.href = `table.html?t=${encodeURIComponent(screen.summary?.id || "")}&replay=1`;
    replay.dataset.action = "replay";
    buttons.appendChild(replay);
  } else if (model.mine) {
    text.appendChild(promptNode(screen, model.prompt));
    for (const spec of model.buttons) buttons.appendChild(modelButton(screen, spec));
    if (model.goals.size) {
      buttons.appendChild(el("span", "hint", t("status.may_reveal")));
    }
    // a forced choice is shown, never made for the player (issue 15, bug 9)
    if (model.single) buttons.appendChild(el("span", "hint single-choice", t("status.single_choice")));
  } else {
    text.appendChild(waitingNode(screen));
  }
  if (view.phase !== "over") timeOutStatus(screen, text, buttons);
  const undo = screen.extra.undo;
  if (!screen.extra.replay && undo && view.phase !== "over" && screen.player !== null) {
    if (undo.last) buttons.appendChild(button(`↶ ${t("button.undo")}`, { className: "btn btn-quiet", onClick: () => screen.hooks.undo?.("last"), dataAction: "undo", tip: t("tip.undo") }));
    if (undo.turn) buttons.appendChild(button(`⟲ ${t("button.restart_turn")}`, { className: "btn btn-quiet", onClick: () => screen.hooks.undo?.("turn"), dataAction: "undo-turn", tip: t("tip.restart_turn") }));
  }
  for (const b of buttons.querySelectorAll("button")) if (screen.busy) b.disabled = true;
}

/** Who has run out of time, and a take-over button for each seat the viewer may hand
 * to a bot, in view in the status bar. */
function timeOutStatus(screen, text, buttons) {
  const out = outOfTimeSeats(screen);
  if (!out.length) return;
  const who = el("span");
  out.forEach((seat, i) => {
    if (i) who.appendChild(document.createTextNode(t("list.sep")));
    who.appendChild(playerChip(screen.seatName(seat), seat));
  });
  const note = el("span", "time-out-note");
  note.appendChild(tNodes("status.time_out", { players: who }));
  text.appendChild(note);
  for (const seat of takeableSeats(screen)) {
    buttons.appendChild(button(t("button.takeover_player", { name: screen.seatName(seat) }), {
      className: "btn", dataAction: "takeover-status", tip: t("tip.takeover"),
      onClick: () => screen.hooks.takeover(seat),
    }));
  }
}

export function replayStatus(screen) {
  const view = screen.view;
  const span = el("span");
  span.appendChild(document.createTextNode(t("replay.status", { move: view.move, moves: screen.extra.moves ?? view.move })));
  return span;
}

export function overStatus(screen) {
  const view = screen.view;
  if (view.solo && typeof view.solo === "object") {
    return tNodes("status.solo_over", { total: view.solo.total, band: t(soloBandKey(view.solo.band)) });
  }
  const places = view.places || [];
  const winners = places.map((p, s) => (p === 1 ? s : null)).filter((s) => s !== null);
  const span = el("span");
  winners.forEach((s, i) => {
    if (i) span.appendChild(document.createTextNode(t("list.sep")));
    span.appendChild(playerChip(screen.seatName(s), s));
  });
  return tNodes(winners.length > 1 ? "status.over_shared" : "status.over", { players: span });
}

export function promptNode(screen, prompt) {
  if (!prompt) return document.createTextNode("");
  const params = { ...(prompt.params || {}) };
  if (params.design) params.design = designChip(params.design);
  if (params.first) params.first = designChip(params.first);
  if (params.kind) params.kind = totemChip(params.kind);
  if (screen.view.solo && screen.model?.seat !== null && screen.model?.seat !== undefined && screen.model.kind !== "choose_start") {
    // "Altar 2 — Your turn: …": which altar the solo player is playing, then the prompt
    return tNodes("prompt.solo_altar", {
      altar: playerChip(screen.seatName(screen.model.seat), screen.model.seat),
      prompt: tNodes(prompt.key, params),
    });
  }
  return tNodes(prompt.key, params);
}

export function waitingNode(screen) {
  const view = screen.view;
  const decision = view.decision;
  if (!decision) return document.createTextNode("");
  const who = el("span");
  decision.seats.forEach((seat, i) => {
    if (i) who.appendChild(document.createTextNode(t("list.sep")));
    who.appendChild(playerChip(screen.seatName(seat), seat));
  });
  let key = `wait.${decision.kind}`;
  if (decision.kind === "turn" && decision.context?.mode === "final") key = "wait.turn_final";
  const node = el("span");
  if (decision.kind === "choose_start" && screen.mySeats.some((s) => !decision.seats.includes(s))) {
    node.appendChild(tNodes("wait.choose_start_others", { players: who }));
  } else {
    node.appendChild(tNodes(key, { player: who }));
  }
  if (screen.player === null && !screen.extra.replay) {
    node.appendChild(el("span", "spectating", t("status.spectating")));
  }
  return node;
}

export function modelButton(screen, spec) {
  const params = { ...(spec.params || {}) };
  if (params.design) params.design = designChip(params.design);
  if (params.kind) params.kind = totemChip(params.kind);
  if (params.card) params.card = cardName(screen.deck.get(params.card) || { id: params.card, name: params.card });
  const label = tNodes(spec.key, params);
  const className = `btn${spec.primary ? " btn-primary" : ""}${spec.command?.type === "totem-kind" ? " btn-totem" : ""}`;
  return button(label, {
    className,
    dataAction: spec.dataAction,
    tip: spec.tipKey ? t(spec.tipKey) : spec.kind ? t(`totem.${spec.kind}.rule`) : undefined,
    onClick: () => screen.run(spec),
  });
}
