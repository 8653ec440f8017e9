// The board strip of the table screen: the round track, the slots and the bag, with the
// slot and bag targets the decision model names.

import { $, button, el } from "../dom.js";
import { t, tn } from "../i18n.js";
import { DESIGNS, designIcon, isRare, totemIcon } from "../pieces.js";

/** Enter or Space on a focused target (Space would otherwise scroll the page). */
function pressed(event) {
  if (event.key !== "Enter" && event.key !== " ") return false;
  event.preventDefault();
  return true;
}

export function renderBoard(screen, model) {
  const view = screen.view;
  // round track
  const track = $("#round-track", screen.root);
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
  const slots = $("#slots", screen.root);
  slots.replaceChildren();
  const before = screen.lastSlots || [];
  screen.lastSlots = view.slots.map((d) => d.join(","));
  view.slots.forEach((designs, index) => {
    const action = model.slots.get(index);
    const changed = screen.animate && before[index] !== undefined && before[index] !== designs.join(",");
    const slot = el("div", `slot${action ? " target" : ""}${designs.length ? "" : " empty"}${changed ? " changed" : ""}`);
    slot.dataset.slot = String(index);
    const label = el("span", "slot-label", t("board.slot", { n: index + 1 }));
    label.setAttribute("aria-hidden", "true");
    slot.appendChild(label);
    const pieces = el("div", "slot-pieces");
    for (const d of designs) {
      const icon = designIcon(d, 26);
      pieces.appendChild(icon);
    }
    if (!designs.length) pieces.appendChild(el("span", "slot-empty", t("board.slot_empty")));
    pieces.setAttribute("aria-hidden", "true");
    slot.appendChild(pieces);
    // read aloud: the slot and its pedestals by name (the icons are hidden from readers)
    const names = designs.map((d) => t(`design.${d}`)).join(t("list.sep"));
    const spoken = designs.length ? names : t("board.slot_empty");
    slot.appendChild(el("span", "sr-only", t(action ? "a11y.take_slot" : "a11y.slot", { n: index + 1, designs: spoken })));
    slot.dataset.tip = designs.length
      ? t("tip.slot", { n: index + 1, designs: designs.map((d) => t(`design.${d}`)).join(t("list.sep")) })
      : t("tip.slot_empty", { n: index + 1 });
    if (action) {
      slot.tabIndex = 0;
      slot.setAttribute("role", "button");
      slot.addEventListener("click", () => screen.run({ action }));
      slot.addEventListener("keydown", (e) => pressed(e) && screen.run({ action }));
      slot.dataset.tip += "\n" + t("tip.take_slot");
    }
    slots.appendChild(slot);
  });

  // bag
  const bag = $("#bag", screen.root);
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
    const shown = el("span", "count", String(count));
    shown.setAttribute("aria-hidden", "true");
    item.appendChild(shown);
    const design = t(`design.${d}`);
    item.appendChild(el("span", "sr-only", t(action ? "a11y.choose_design" : "a11y.bag_design", { design, count })));
    item.dataset.tip = t("tip.bag_design", { design: t(`design.${d}`), count }) + "\n" + t(isRare(d) ? "tip.rare_points" : "tip.common_points");
    if (action) {
      item.tabIndex = 0;
      item.setAttribute("role", "button");
      item.addEventListener("click", () => screen.run({ action }));
      item.addEventListener("keydown", (e) => pressed(e) && screen.run({ action }));
    }
    grid.appendChild(item);
  }
  bag.appendChild(grid);
  if (model.drawBag) {
    bag.appendChild(button(t("button.draw_bag"), { className: "btn btn-primary target draw-bag", onClick: () => screen.run({ action: model.drawBag }), dataAction: "draw", tip: t("tip.draw_bag") }));
  }
}
