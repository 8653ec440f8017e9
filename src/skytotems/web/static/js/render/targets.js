// The altar's clickable targets with their names: a tooltip and an accessible name
// saying what pressing one does. The table's large altar (render/main-altar.js) and the
// puzzles page (puzzles.js) draw the same targets, so they name them here, once.

import { t } from "../i18n.js";
import { cellKey } from "./altar.js";

/** A target's tooltip: what it does, without the cell (the pointer is on it). */
export function targetTip(spec) {
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

/** A target's accessible name: what pressing it does, with the cell in the notation's
 *  x,y (which turning the altar never changes) and the heights the view shows.
 *  `totemKind`: the totem being built (the decision layer's local selection). */
export function targetLabel(spec, key, height, totemKind) {
  const cell = key;
  switch (spec.style) {
    case "place":
      return t("a11y.target_place", { design: t(`design.${spec.ghost}`), cell, from: height, to: height + 1 });
    case "cloud":
      return t("a11y.target_cloud", { cell });
    case "cat":
      return t("a11y.target_cat", { cell, height });
    case "wolf":
      return t("a11y.target_wolf", { cell, from: height, to: height + 1 });
    case "totem": {
      const kind = t(`totem.${totemKind}`);
      return t(spec.selected ? "a11y.target_totem_selected" : "a11y.target_totem", { kind, cell });
    }
    default:
      return cell;
  }
}

/** The targets for renderAltar: each cell of the decision model (`cells`: cellKey ->
 *  spec) on `altar` (a view's altar object), named, and running `run(spec)` on a press.
 *  `ui`: the decision layer's local selections (the totem being built). */
export function altarTargets(altar, cells, ui, run) {
  const heights = new Map(altar.columns.map((c) => [cellKey(c.cell), c.stack.length]));
  const targets = new Map();
  for (const [key, spec] of cells) {
    const tip = targetTip(spec);
    const label = targetLabel(spec, key, heights.get(key) || 0, ui.totemKind);
    targets.set(key, { ...spec, tip, label, onClick: () => run(spec) });
  }
  return targets;
}
