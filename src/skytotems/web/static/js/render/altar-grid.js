// The altar as a table for screen readers (and anyone who prefers text): one row per y,
// one column per x of the notation, each cell saying what stands there (cloud, column
// with its designs from the bottom up and its height, totem). It reads the view's altar
// object only, like the drawing.

import { el } from "../dom.js";
import { t } from "../i18n.js";
import { cellKey } from "./altar.js";

function describeCell(key, { clouds, covered, stacks, totems }) {
  const parts = [];
  const stack = stacks.get(key);
  if (stack?.length) {
    parts.push(t("grid.column", { height: stack.length, designs: stack.map((d) => t(`design.${d}`)).join(t("list.sep")) }));
  } else if (clouds.has(key)) {
    parts.push(t("grid.cloud"));
  }
  const totem = totems.get(key);
  if (totem) parts.push(t("grid.totem", { kind: t(`totem.${totem.kind}`) }));
  if (covered.has(key)) parts.push(t("grid.covered"));
  return parts.join("; ");
}

/** Fill `container` with the table of `altar`, captioned `caption`. */
export function renderAltarGrid(container, altar, caption) {
  container.replaceChildren();
  const cells = [...altar.clouds, ...altar.columns.map((c) => c.cell), ...altar.totems.flatMap((k) => k.cells)];
  if (!cells.length) return;
  const xs = cells.map((c) => c[0]);
  const ys = cells.map((c) => c[1]);
  const [x0, x1, y0, y1] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
  const facts = {
    clouds: new Set(altar.clouds.map(cellKey)),
    covered: new Set(altar.covered.map(cellKey)),
    stacks: new Map(altar.columns.map((c) => [cellKey(c.cell), c.stack])),
    totems: new Map(altar.totems.flatMap((k) => k.cells.map((c) => [cellKey(c), k]))),
  };
  const table = el("table", "altar-grid");
  table.appendChild(el("caption", "", caption));
  const head = el("tr");
  head.appendChild(el("th", "", t("grid.corner")));
  for (let x = x0; x <= x1; x++) {
    const th = el("th", "", t("grid.x", { x }));
    th.scope = "col";
    head.appendChild(th);
  }
  const thead = el("thead");
  thead.appendChild(head);
  table.appendChild(thead);
  const body = el("tbody");
  for (let y = y0; y <= y1; y++) {
    const row = el("tr");
    const th = el("th", "", t("grid.y", { y }));
    th.scope = "row";
    row.appendChild(th);
    for (let x = x0; x <= x1; x++) {
      const key = `${x},${y}`;
      const td = el("td", "", describeCell(key, facts) || "—");
      td.dataset.cell = key;
      row.appendChild(td);
    }
    body.appendChild(row);
  }
  table.appendChild(body);
  container.appendChild(table);
}
