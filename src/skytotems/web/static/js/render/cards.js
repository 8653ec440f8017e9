// Altar cards: the mission (goal) half and the starting-altar half, drawn as HTML.
// Mission texts are built from the deck's parametrised mission (type + numbers) through
// the translation files, so a replaced deck still reads well in every language.

import { has, t, tn } from "../i18n.js";
import { svgEl, totemIcon } from "../pieces.js";
import { renderAltar } from "./altar.js";

const START_TILE = [[0, 0], [1, 0], [0, 1], [1, 1]];

export function cardName(card) {
  const key = `card.${card.id}`;
  return has(key) ? t(key) : card.name;
}

/** The mission in words, from its type and parameters. */
export function missionText(card) {
  const m = card.mission || {};
  const kind = m.kind ? t(`totem.${m.kind}`) : "";
  switch (m.type) {
    case "totem_over_rare_column":
      return t("mission.totem_over_rare_column", { kind });
    case "totem_count":
      return t("mission.totem_count", { kind, min: m.min });
    case "rare_designs":
      return t(m.include_hoard ? "mission.rare_designs_hoard" : "mission.rare_designs", { min: m.min });
    case "column_kinds":
      return t("mission.column_kinds", {
        designs: (m.designs || []).map((d) => t(`design.${d}`)).join(t("list.sep")),
        count: (m.designs || []).length,
      });
    case "tall_columns":
      return tn("mission.tall_columns", m.count, { height: m.height });
    case "same_kind_tall_columns":
      return t("mission.same_kind_tall_columns", { count: m.count, height: m.height });
    case "cloud_cells":
      return t("mission.cloud_cells", { min: m.min });
    case "totem_kinds":
      return t("mission.totem_kinds", { min: m.min });
    case "rare_pedestals":
      return t(m.include_hoard ? "mission.rare_pedestals_hoard" : "mission.rare_pedestals", { min: m.min });
    case "equal_square":
      return t("mission.equal_square", { size: m.size, min: m.min_height });
    case "staircase":
      return t("mission.staircase", { length: m.length, min: m.min_start });
    case "courtyard":
      return t("mission.courtyard");
    case "all_rare_column":
      return t("mission.all_rare_column", { height: m.height });
    default:
      return t("mission.unknown");
  }
}

function startAltar(card) {
  return {
    clouds: START_TILE,
    columns: (card.start?.columns || []).map((c) => ({ cell: c.cell, stack: c.stack })),
    totems: [],
    hoard: [],
    covered: [],
  };
}

function startTip(card) {
  const stacks = (card.start?.columns || []).map((c) =>
    c.stack.map((d) => t(`design.${d}`)).join(" · "),
  );
  let text = t("card.start_tip", { stacks: stacks.join(" / ") });
  if (card.start?.cloud) text += "\n" + t("card.start_cloud");
  return text;
}

/**
 * One card as an element. options:
 *   mode: "hand" (starting choice), "goal" (own face-down goal), "revealed",
 *         "start" (the starting card shown face up)
 *   revealable, selected, points, onClick, actionLabel,
 *   actionName (the button's accessible name, saying which card it acts on)
 */
export function cardElement(card, options = {}) {
  const mode = options.mode || "goal";
  const el = document.createElement("article");
  el.className = `card mode-${mode}`;
  el.dataset.card = card.id;
  if (options.revealable) el.classList.add("revealable");
  if (options.selected) el.classList.add("selected");

  const head = document.createElement("header");
  if (card.tag) head.appendChild(totemIcon(card.tag, 20));
  const name = document.createElement("span");
  name.className = "card-name";
  name.textContent = cardName(card);
  head.appendChild(name);
  el.appendChild(head);
  if (mode === "start") {
    // a starting card lays out the first pedestals; it never scores as a goal
    el.dataset.tip = `${cardName(card)}\n${startTip(card)}`;
  } else {
    const points = document.createElement("span");
    points.className = "card-points";
    points.textContent = String(card.points);
    points.dataset.tip = tn("card.points_tip", card.points);
    head.appendChild(points);
    const mission = document.createElement("p");
    mission.className = "card-mission";
    mission.textContent = missionText(card);
    el.appendChild(mission);
    el.dataset.tip = `${cardName(card)} (${tn("unit.points", card.points)})\n${missionText(card)}`;
  }

  if (mode === "hand" || mode === "start") {
    const start = document.createElement("div");
    start.className = "card-start";
    start.dataset.tip = startTip(card);
    const svg = svgEl("svg", { class: "start-altar" });
    renderAltar(svg, startAltar(card), { mini: true });
    start.appendChild(svg);
    if (card.start?.cloud) {
      const cloud = document.createElement("span");
      cloud.className = "start-cloud";
      cloud.textContent = t("card.plus_cloud");
      start.appendChild(cloud);
    }
    el.appendChild(start);
  }

  if (mode === "revealed") {
    const check = document.createElement("span");
    check.className = "card-check";
    check.textContent = "✓";
    check.setAttribute("aria-label", t("card.revealed"));
    check.dataset.tip = t("card.revealed");
    el.appendChild(check);
  }

  if (options.onClick) {
    const button = document.createElement("button");
    button.type = "button";
    button.className = `btn card-action ${options.actionClass || ""}`;
    button.textContent = options.actionLabel || t("card.choose");
    if (options.actionName) button.setAttribute("aria-label", options.actionName);
    button.dataset.card = card.id; // the focus stays with this card when it is drawn again
    if (options.dataAction) button.dataset.action = options.dataAction;
    button.addEventListener("click", (event) => {
      event.stopPropagation();
      options.onClick();
    });
    el.appendChild(button);
    if (options.clickWhole) {
      el.addEventListener("click", () => options.onClick());
      el.classList.add("clickable");
    }
  } else if (mode === "goal" && !options.revealable) {
    const hint = document.createElement("p");
    hint.className = "card-hint";
    hint.textContent = t(options.hintKey || "card.not_yet");
    el.appendChild(hint);
  }
  return el;
}

/** A face-down card of another player (only how many they hold is public). */
export function cardBack(count) {
  const el = document.createElement("div");
  el.className = "card-back";
  el.textContent = "?";
  el.dataset.tip = tn("card.hidden_goals", count);
  return el;
}
