// Small inline pieces of text: a design with its icon, a totem, a player's name.

import { t } from "../i18n.js";
import { designIcon, isRare, totemIcon } from "../pieces.js";

// dark enough for text on every panel (WCAG AA, 4.5:1 and more)
export const SEAT_COLOURS = ["#2a62c0", "#b8391f", "#1f7a47", "#8e3fb0"];

export function designChip(design) {
  const span = document.createElement("span");
  span.className = `chip design-chip design-${design}`;
  span.appendChild(designIcon(design, 16));
  const name = document.createElement("span");
  name.textContent = t(`design.${design}`);
  span.appendChild(name);
  span.dataset.tip = t(isRare(design) ? "tip.design_rare" : "tip.design_common", {
    design: t(`design.${design}`),
  });
  return span;
}

export function designsChips(designs) {
  const span = document.createElement("span");
  span.className = "chips";
  if (!designs.length) {
    span.textContent = t("log.nothing");
    return span;
  }
  designs.forEach((d) => span.appendChild(designChip(d)));
  return span;
}

export function totemChip(kind) {
  const span = document.createElement("span");
  span.className = `chip totem-chip totem-${kind}`;
  span.appendChild(totemIcon(kind, 16));
  const name = document.createElement("span");
  name.textContent = t(`totem.${kind}`);
  span.appendChild(name);
  span.dataset.tip = t(`totem.${kind}.rule`);
  return span;
}

/** A player's name: user content, so marked as such (it is never translated). */
export function playerChip(name, seat) {
  const span = document.createElement("span");
  span.className = "chip player-chip";
  span.dataset.userContent = "";
  span.style.setProperty("--seat-colour", SEAT_COLOURS[seat % SEAT_COLOURS.length]);
  span.textContent = name;
  span.translate = false;
  return span;
}
