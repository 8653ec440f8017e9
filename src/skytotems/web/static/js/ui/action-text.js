// An action in words, in the reader's language: the analysis (played and best move) and
// the puzzles' hint say moves with it.

import { t } from "../i18n.js";
import { cardName } from "../render/cards.js";

const cellOf = (c) => `${c[0]},${c[1]}`;

/** The cells an action names on its player's altar (none: a slot, a card, a pass...):
 *  the analysis outlines the played and best moves there, a puzzle's hint its move. */
export function actionCells(action) {
  if (action.cells) return action.cells.map(cellOf);
  if (action.cell) return [cellOf(action.cell)];
  return [];
}

/** `action` (its wire form) in words; `deck`: the view's cards by id (a Map). */
export function actionText(action, deck) {
  const cell = action.cell ? cellOf(action.cell) : "";
  const card = (id) => {
    const found = deck.get(id);
    return found ? cardName(found) : id;
  };
  switch (action.type) {
    case "choose_start":
      return t("action.choose_start", { card: card(action.card) });
    case "take_slot":
      return t("action.take_slot", { slot: action.slot + 1 });
    case "build_totem":
      return t("action.build_totem", { totem: t(`totem.${action.kind}`), cells: action.cells.map(cellOf).join(" ") });
    case "place_pedestal":
      return t("action.place_pedestal", { design: t(`design.${action.design}`), cell });
    case "return_pedestal":
      return t("action.return_pedestal", { design: t(`design.${action.design}`) });
    case "reveal":
      return t("action.reveal", { card: card(action.card) });
    case "choose_design":
      return t("action.choose_design", { design: t(`design.${action.design}`) });
    case "place_cloud":
    case "choose_cat":
    case "wolf_take":
      return t(`action.${action.type}`, { cell });
    default:
      return t(`action.${action.type}`);
  }
}
