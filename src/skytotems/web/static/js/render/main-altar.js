// The large altar of the table screen: the altar drawn with its clickable targets, its
// title, zoom, and the tray of pedestals waiting to be placed.

import { $, button, el } from "../dom.js";
import { t, tn } from "../i18n.js";
import { designIcon } from "../pieces.js";
import { playerChip } from "../ui/chips.js";
import { renderAltar } from "./altar.js";
import { renderAltarGrid } from "./altar-grid.js";
import { fillHoard } from "./players.js";
import { altarTargets } from "./targets.js";

const REDUCED_MOTION = matchMedia("(prefers-reduced-motion: reduce)");

export function renderMainAltar(screen, model) {
  const view = screen.view;
  const seat = screen.mainSeat();
  const svg = $("#main-altar", screen.root);
  const acting = model.mine && model.seat === seat;
  const targets = acting && !screen.extra.replay ? altarTargets(view.altars[seat], model.cells, screen.ui, (spec) => screen.run(spec)) : new Map();
  const highlight = screen.highlight && screen.highlight.seat === seat ? new Set(screen.highlight.cells) : null;
  const marks = screen.analysisMarks && screen.analysisMarks.seat === seat ? screen.analysisMarks.marks : null;
  const keys = renderAltar(svg, view.altars[seat], {
    targets,
    marks,
    showHeights: screen.ui.showHeights,
    turns: screen.ui.turns,
    previousKeys: screen.animate ? screen.pieceKeys.get(seat) : null,
    highlight,
    minWidth: 4 * 64,
    minHeight: 220,
  });
  screen.pieceKeys.set(seat, keys);
  applyZoom(screen);
  // title
  const title = $("#altar-title", screen.root);
  title.replaceChildren();
  title.appendChild(playerChip(screen.seatName(seat), seat));
  const score = view.seats[seat].score;
  const scoreEl = el("span", "score", tn("unit.points", score.total));
  scoreEl.dataset.tip = t("tip.score", score);
  title.appendChild(scoreEl);
  svg.setAttribute("aria-label", t("altar.label_of", { name: screen.seatName(seat) }));
  renderAltarGrid($("#altar-grid", screen.root), view.altars[seat], t("grid.caption", { name: screen.seatName(seat) }));
  renderAltarSwitch(screen, seat);
  const back = $("#back-to-mine", screen.root);
  const mine = view.viewer !== null && view.viewer !== undefined && !view.solo ? view.viewer : null;
  back.hidden = screen.ui.focusSeat === null || mine === null || seat === mine;
  // own hoard strip under the altar
  const hoard = $("#main-hoard", screen.root);
  fillHoard(screen, hoard, view.altars[seat].hoard);
  $("#toggle-heights", screen.root)?.classList.toggle("on", screen.ui.showHeights);
}

/** Scroll the large altar whole into view if it is not: on a phone the page above it can
 * push it under the log drawer (its scroll-margin keeps it above the drawer). */
export function scrollAltarIntoView(screen) {
  const box = $("#altar-scroll", screen.root);
  const rect = box.getBoundingClientRect();
  const drawer = $(".rail > .log-panel");
  const floor = drawer && getComputedStyle(drawer).position === "fixed" ? drawer.getBoundingClientRect().top : innerHeight;
  if (rect.top >= 0 && rect.bottom <= floor) return;
  box.scrollIntoView({ block: "nearest", behavior: REDUCED_MOTION.matches ? "auto" : "smooth" });
}

export function applyZoom(screen) {
  const svg = $("#main-altar", screen.root);
  const scroll = $("#altar-scroll", screen.root);
  if (!svg || !scroll) return;
  const natural = Number(svg.dataset.naturalWidth || 400);
  const naturalH = Number(svg.dataset.naturalHeight || 300);
  // "fit": as large as the panel allows, but never tiny cubes nor giant ones
  const availW = scroll.clientWidth || 600;
  const availH = Math.max(scroll.clientHeight || 360, 260);
  const fit = Math.min(availW / natural, availH / naturalH, 2.2);
  const scale = Math.max(fit, 0.45) * screen.ui.zoom;
  svg.style.width = `${Math.round(natural * scale)}px`;
  svg.style.height = `${Math.round(naturalH * scale)}px`;
  $("#zoom-level", screen.root) && ($("#zoom-level", screen.root).textContent = `${Math.round(screen.ui.zoom * 100)}%`);
}

export function renderPool(screen, model) {
  const view = screen.view;
  const tray = $("#pool-tray", screen.root);
  tray.replaceChildren();
  const pool = view.pool || [];
  tray.hidden = !pool.length;
  if (!pool.length) return;
  const owner = view.decision?.seats?.[0];
  const ownerIsMain = owner === undefined || owner === screen.mainSeat();
  tray.appendChild(el("span", "pool-title", ownerIsMain ? t("board.pool") : t("board.pool_of", { name: screen.seatName(owner) })));
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
    item.setAttribute("aria-label", t("a11y.pool_item", { design: t(`design.${design}`) }));
    if (model.pool?.selectable) item.setAttribute("aria-pressed", String(isSelected));
    if (model.pool?.selectable && !screen.extra.replay) {
      item.addEventListener("click", () => screen.run({ command: { type: "select-design", design } }));
    } else {
      item.disabled = !model.pool;
    }
    tray.appendChild(item);
  });
}

/** One button per altar (the one shown is pressed, the acting ones marked): one tap
 *  shows another altar; the shown altar follows the acting player until then. */
function renderAltarSwitch(screen, shown) {
  const box = $("#altar-switch", screen.root);
  if (!box) return;
  const view = screen.view;
  box.replaceChildren();
  box.hidden = view.seats_count < 2;
  const acting = new Set(view.phase === "over" ? [] : view.decision?.seats || []);
  for (let seat = 0; seat < view.seats_count; seat++) {
    const label = el("span");
    label.appendChild(playerChip(screen.seatName(seat), seat));
    if (acting.has(seat)) label.appendChild(el("span", "acting-mark", ` ${t("altar.acting")}`));
    const b = button(label, {
      className: `btn btn-small altar-tab${acting.has(seat) ? " acting" : ""}`,
      dataAction: "show-altar",
      onClick: () => {
        screen.ui.focusSeat = seat === screen.defaultMainSeat() ? null : seat;
        screen.render();
      },
    });
    b.dataset.seat = String(seat);
    b.setAttribute("aria-pressed", String(seat === shown));
    box.appendChild(b);
  }
}
