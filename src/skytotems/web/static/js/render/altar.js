// An altar drawn in isometric SVG: cloud cells, columns of stacked pedestal cubes (each
// with its design's colour and glyph), totems standing on their cells, and the
// clickable targets the decision layer asks for. Nothing here knows a rule: it draws
// the view's `altar` object and the targets it is given.

import { t, tn } from "../i18n.js";
import { DESIGN_COLOURS, GLYPHS, TOTEM_COLOURS, glyphPath, isRare, svgEl } from "../pieces.js";

export const CW = 64; // width of a cell's rhombus
export const CH = 32; // height of a cell's rhombus
export const PH = 19; // height of one pedestal
const INSET = 0.09; // gap around a cube inside its cell
const SLAB = 0.45; // thickness of a cloud, in pedestal heights
const CAP = 0.32; // thickness of a totem's base plate

export const cellKey = (cell) => `${cell[0]},${cell[1]}`;

/** Where cell (x, y) is drawn after `turns` quarter turns of the altar (clockwise on
 *  screen). Only the drawing turns: every element keeps its notation key (data-cell). */
export function turnCell(cell, turns) {
  let [x, y] = cell;
  for (let i = 0; i < ((turns % 4) + 4) % 4; i++) [x, y] = [-y - 1, x];
  return [x, y];
}

/** The altar object with every cell turned; `keyOf` maps a drawn key back to notation. */
function turnedAltar(altar, turns) {
  const keyOf = new Map();
  const turn = (cell) => {
    const drawn = turnCell(cell, turns);
    keyOf.set(cellKey(drawn), cellKey(cell));
    return drawn;
  };
  const turned = {
    ...altar,
    clouds: altar.clouds.map(turn),
    covered: altar.covered.map(turn),
    columns: altar.columns.map((c) => ({ ...c, cell: turn(c.cell) })),
    totems: altar.totems.map((totem) => ({ ...totem, cells: totem.cells.map(turn) })),
  };
  return { turned, keyOf, turn };
}

/** True when point p lies inside the convex polygon `poly` (either winding). */
function insideConvex(p, poly) {
  let sign = 0;
  for (let i = 0; i < poly.length; i++) {
    const [ax, ay] = poly[i];
    const [bx, by] = poly[(i + 1) % poly.length];
    const cross = (bx - ax) * (p[1] - ay) - (by - ay) * (p[0] - ax);
    if (Math.abs(cross) < 1e-9) continue;
    if (sign === 0) sign = Math.sign(cross);
    else if (Math.sign(cross) !== sign) return false;
  }
  return true;
}

/** The screen outline of a column of height h standing on cell (x, y). */
function silhouette(x, y, h) {
  return [iso(x, y, h), iso(x + 1, y, h), iso(x + 1, y, 0), iso(x + 1, y + 1, 0), iso(x, y + 1, 0), iso(x, y + 1, h)];
}

function iso(x, y, z = 0) {
  return [((x - y) * CW) / 2, ((x + y) * CH) / 2 - z * PH];
}

function points(list) {
  return list.map(([x, y]) => `${x.toFixed(1)},${y.toFixed(1)}`).join(" ");
}

function rhombus(x0, y0, x1, y1, z) {
  return [iso(x0, y0, z), iso(x1, y0, z), iso(x1, y1, z), iso(x0, y1, z)];
}

/** The three visible faces of a box from (x0,y0,z0) to (x1,y1,z1). */
function boxFaces(x0, y0, x1, y1, z0, z1) {
  return {
    top: rhombus(x0, y0, x1, y1, z1),
    left: [iso(x0, y1, z1), iso(x1, y1, z1), iso(x1, y1, z0), iso(x0, y1, z0)],
    right: [iso(x1, y0, z1), iso(x1, y1, z1), iso(x1, y1, z0), iso(x1, y0, z0)],
  };
}

/** A glyph painted onto the front-left face of a cube (skewed with the face). */
function leftFaceGlyph(design, x0, x1, y1, z0, z1, ink) {
  const width = (x1 - x0) * 0.62;
  const height = (z1 - z0) * 0.8;
  const [ox, oy] = iso(x0 + (x1 - x0 - width) / 2, y1, z1 - (z1 - z0 - height) / 2);
  const a = (width * CW) / 2 / 24;
  const b = (width * CH) / 2 / 24;
  const d = (height * PH) / 24;
  return svgEl("path", {
    d: GLYPHS[design],
    fill: ink,
    "fill-rule": "evenodd",
    transform: `matrix(${a} ${b} 0 ${d} ${ox} ${oy})`,
    class: "face-glyph",
  });
}

/** A glyph lying flat on a top face. */
function topFaceGlyph(design, cx, cy, z, size, ink) {
  // unit x goes (CW/2, CH/2) on screen, unit y goes (-CW/2, CH/2)
  const s = size / 24;
  const [ox, oy] = iso(cx - size / 2, cy - size / 2, z);
  return svgEl("path", {
    d: GLYPHS[design],
    fill: ink,
    "fill-rule": "evenodd",
    transform: `matrix(${(s * CW) / 2} ${(s * CH) / 2} ${(-s * CW) / 2} ${(s * CH) / 2} ${ox} ${oy})`,
    class: "top-glyph",
  });
}

function cube(design, x, y, level, key) {
  const c = DESIGN_COLOURS[design];
  const x0 = x + INSET;
  const y0 = y + INSET;
  const x1 = x + 1 - INSET;
  const y1 = y + 1 - INSET;
  const faces = boxFaces(x0, y0, x1, y1, level, level + 1);
  const rare = isRare(design);
  const g = svgEl("g", {
    class: `cube design-${design}${rare ? " rare" : ""}`,
    "data-key": key,
  });
  const edge = rare ? "#f4c542" : "rgba(40,30,60,0.35)";
  g.appendChild(svgEl("polygon", { points: points(faces.left), fill: c.base, stroke: edge, "stroke-width": rare ? 1.3 : 0.7 }));
  g.appendChild(svgEl("polygon", { points: points(faces.right), fill: c.dark, stroke: edge, "stroke-width": rare ? 1.3 : 0.7 }));
  g.appendChild(svgEl("polygon", { points: points(faces.top), fill: c.light, stroke: edge, "stroke-width": rare ? 1.3 : 0.7 }));
  g.appendChild(leftFaceGlyph(design, x0, x1, y1, level, level + 1, c.ink));
  g.appendChild(topFaceGlyph(design, x + 0.5, y + 0.5, level + 1, 0.56, c.ink));
  return g;
}

function designName(design) {
  return t(`design.${design}`);
}

function columnTip(stack, covered) {
  const kind = stack[0];
  const names = stack.map(designName);
  let text = t("tip.column", {
    height: stack.length,
    kind: designName(kind),
    stack: names.join(" · "),
  });
  const points = stack.reduce((sum, d) => sum + (isRare(d) ? 2 : 1), 0);
  text += "\n" + tn("tip.column_points", points);
  if (covered) text += "\n" + t("tip.covered");
  return text;
}

function cloudTip(covered) {
  return covered ? t("tip.cloud_covered") : t("tip.cloud");
}

function totemTip(totem) {
  const kind = t(`totem.${totem.kind}`);
  return t("tip.totem", {
    kind,
    cells: totem.cells.length,
    height: totem.height,
    points: totem.points,
  }) + "\n" + t(`totem.${totem.kind}.blessing`);
}

/**
 * Draw `altar` (a view's altar object) into `svg`, replacing what was there.
 * opts:
 *   targets: Map cellKey -> {style, onClick, tip, ghost, selected}
 *   mini: boolean (small, no labels, no targets)
 *   showHeights: boolean
 *   previousKeys: Set of piece keys drawn last time (new pieces get the "appear" class)
 *   highlight: Set of cellKeys to flash (from the log)
 *   marks: Map cellKey -> "played" | "best" | "both" (the analysis of a replayed decision)
 * Returns the Set of piece keys drawn.
 */
export function renderAltar(svg, notationAltar, opts = {}) {
  const turns = opts.mini ? 0 : opts.turns || 0;
  const { turned: altar, keyOf, turn } = turnedAltar(notationAltar, turns);
  const notation = (key) => keyOf.get(key) || key;
  const targets = new Map();
  for (const [key, target] of opts.mini ? [] : opts.targets || []) {
    targets.set(cellKey(turn(key.split(",").map(Number))), target);
  }
  const previous = opts.previousKeys || null;
  const keys = new Set();
  const clouds = new Set(altar.clouds.map(cellKey));
  const covered = new Set(altar.covered.map(cellKey));
  const stacks = new Map(altar.columns.map((c) => [cellKey(c.cell), c.stack]));
  const capOf = new Map(); // cellKey -> totem
  for (const totem of altar.totems) for (const cell of totem.cells) capOf.set(cellKey(cell), totem);

  // every cell that needs drawing, back to front
  const cells = new Map();
  for (const c of altar.clouds) cells.set(cellKey(c), c);
  for (const c of altar.columns) cells.set(cellKey(c.cell), c.cell);
  for (const totem of altar.totems) for (const c of totem.cells) cells.set(cellKey(c), c);
  for (const key of targets.keys()) cells.set(key, key.split(",").map(Number));
  const order = [...cells.values()].sort((a, b) => a[0] + a[1] - (b[0] + b[1]) || a[0] - b[0]);

  while (svg.firstChild) svg.removeChild(svg.firstChild);
  const defs = svgEl("defs");
  defs.appendChild(
    svgEl("linearGradient", { id: "cloud-top", x1: "0", y1: "0", x2: "0", y2: "1" }, [
      svgEl("stop", { offset: "0", "stop-color": "#ffffff" }),
      svgEl("stop", { offset: "1", "stop-color": "#e6eefb" }),
    ]),
  );
  svg.appendChild(defs);
  const ground = svgEl("g", { class: "layer-ground" });
  const solid = svgEl("g", { class: "layer-columns" });
  const marks = svgEl("g", { class: "layer-marks" });
  const figures = svgEl("g", { class: "layer-totems" });
  const labels = svgEl("g", { class: "layer-labels" });
  svg.append(ground, solid, marks, figures, labels);

  const mark = (el, key) => {
    keys.add(key);
    el.dataset.key = key;
    if (previous && !previous.has(key)) el.classList.add("appear");
    return el;
  };

  // bounds of what is drawn, for the viewBox
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  const grow = (list) => {
    for (const [px, py] of list) {
      minX = Math.min(minX, px);
      maxX = Math.max(maxX, px);
      minY = Math.min(minY, py);
      maxY = Math.max(maxY, py);
    }
  };

  // clouds: a soft slab with its outer edges showing
  for (const cell of order) {
    const key = cellKey(cell);
    if (!clouds.has(key)) continue;
    const [x, y] = cell;
    const g = mark(svgEl("g", { class: `cloud${covered.has(key) ? " covered" : ""}` }), `cl:${notation(key)}`);
    g.dataset.cell = notation(key);
    g.dataset.tip = cloudTip(covered.has(key));
    const faces = boxFaces(x, y, x + 1, y + 1, -SLAB, 0);
    if (!clouds.has(`${x},${y + 1}`)) g.appendChild(svgEl("polygon", { points: points(faces.left), class: "cloud-side-left" }));
    if (!clouds.has(`${x + 1},${y}`)) g.appendChild(svgEl("polygon", { points: points(faces.right), class: "cloud-side-right" }));
    g.appendChild(svgEl("polygon", { points: points(faces.top), class: "cloud-top" }));
    // a few puffs on outer edges make the tile read as a cloud
    if (!opts.mini) {
      if (!clouds.has(`${x},${y + 1}`)) {
        for (const f of [0.25, 0.75]) {
          const [px, py] = iso(x + f, y + 1, -SLAB / 2);
          g.appendChild(svgEl("ellipse", { cx: px, cy: py, rx: 9, ry: 6, class: "cloud-puff" }));
        }
      }
      if (!clouds.has(`${x + 1},${y}`)) {
        for (const f of [0.25, 0.75]) {
          const [px, py] = iso(x + 1, y + f, -SLAB / 2);
          g.appendChild(svgEl("ellipse", { cx: px, cy: py, rx: 9, ry: 6, class: "cloud-puff" }));
        }
      }
    }
    ground.appendChild(g);
    grow([...faces.top, ...faces.left, ...faces.right]);
  }

  // A target is two parts. Its body (the whole column, so a click anywhere on it counts)
  // is drawn in depth order with the columns; its mark (the glowing top face, and the
  // ghost piece) lies in a layer above every column, so a target behind a taller one,
  // even another target, still shows and is clicked where it glows. While targets are
  // shown the other pieces let clicks through and fade a little.
  const targetEls = new Map(); // cellKey -> [body or null, mark group]
  for (const [key, target] of targets) {
    const [x, y] = key.split(",").map(Number);
    const h = (stacks.get(key) || []).length;
    const g = svgEl("g", {
      class: `target cell-target style-${target.style}${target.selected ? " selected" : ""}${target.candidate ? " candidate" : ""}`,
      role: "button",
      tabindex: "0",
    });
    g.dataset.cell = notation(key);
    g.dataset.tip = target.tip || "";
    if (target.label) g.setAttribute("aria-label", target.label);
    let body = null;
    if (h > 0) {
      body = svgEl("g", { class: "cell-target-body" });
      body.dataset.cell = notation(key);
      body.dataset.tip = target.tip || "";
      const outline = [iso(x, y, h), iso(x + 1, y, h), iso(x + 1, y, 0), iso(x + 1, y + 1, 0), iso(x, y + 1, 0), iso(x, y + 1, h)];
      body.appendChild(svgEl("polygon", { points: points(outline), class: "cell-hit" }));
    }
    if (target.ghost) {
      const ghost = cube(target.ghost, x, y, h, "");
      ghost.classList.add("ghost");
      g.appendChild(ghost);
    }
    const z = h === 0 && !clouds.has(key) ? 0 : h;
    g.appendChild(svgEl("polygon", { points: points(rhombus(x + 0.03, y + 0.03, x + 0.97, y + 0.97, z)), class: "mark" }));
    grow(rhombus(x, y, x + 1, y + 1, 0));
    for (const part of body ? [g, body] : [g]) {
      if (target.onClick) {
        part.addEventListener("click", (event) => {
          event.stopPropagation();
          target.onClick();
        });
      }
      part.addEventListener("pointerenter", () => g.classList.add("hover"));
      part.addEventListener("pointerleave", () => g.classList.remove("hover"));
    }
    if (target.onClick) {
      g.addEventListener("keydown", (event) => {
        if (event.key === "Enter" || event.key === " ") {
          event.preventDefault();
          target.onClick();
        }
      });
    }
    targetEls.set(key, [body, g]);
  }
  const placeTarget = (key) => {
    const parts = targetEls.get(key);
    if (!parts) return;
    if (parts[0]) solid.appendChild(parts[0]);
    marks.appendChild(parts[1]);
  };
  svg.classList.toggle("targeting", targetEls.size > 0);

  // Each totem's emblem stands on a pole above the middle of its cells; one that would
  // cover an emblem (or its points) placed before it stands on a taller pole.
  const r = opts.mini ? 14 : 17;
  const placed = [];
  for (const totem of altar.totems) {
    const top = Math.max(...totem.cells.map((c) => (stacks.get(cellKey(c)) || []).length)) + CAP;
    const cx = totem.cells.reduce((sum, c) => sum + c[0] + 0.5, 0) / totem.cells.length;
    const cy = totem.cells.reduce((sum, c) => sum + c[1] + 0.5, 0) / totem.cells.length;
    const [bx, by] = iso(cx, cy, top);
    const reach = opts.mini ? 2 * r : 2 * r + 24; // a disc and (not mini) its badge
    const covers = (lift) => placed.some((p) => Math.abs(p.bx - bx) < reach && Math.abs(p.by - p.lift - (by - lift)) < 2 * r + 2);
    const low = opts.mini ? 22 : 30;
    let lift = low;
    while (covers(lift) && lift < low + 6 * r) lift += r;
    placed.push({ bx, by, lift });
  }
  // A height label is drawn only where its column's top shows: not where a column (or
  // totem plate) in front covers the middle of that top, nor under a totem's emblem.
  const emblems = placed.map(({ bx, by, lift }) => [[bx - 20, by - lift - 20], [bx + 20, by - lift - 20], [bx + 20, by + 4], [bx - 20, by + 4]]);
  const topVisible = (x, y, h) => {
    const centre = iso(x + 0.5, y + 0.5, h);
    for (const other of order) {
      const [a, b] = other;
      if (a + b < x + y || (a + b === x + y && a <= x)) continue; // drawn before: behind
      const k = cellKey(other);
      const height = (stacks.get(k) || []).length + (capOf.has(k) ? CAP : 0);
      if (height > 0 && insideConvex(centre, silhouette(a, b, height))) return false;
    }
    return !emblems.some((box) => insideConvex(centre, box));
  };

  // columns (and totem plates) back to front
  for (const cell of order) {
    const key = cellKey(cell);
    const [x, y] = cell;
    const stack = stacks.get(key) || [];
    const totem = capOf.get(key);
    if (!stack.length && !totem) {
      placeTarget(key);
      continue;
    }
    const column = svgEl("g", { class: "column" });
    column.dataset.cell = notation(key);
    if (stack.length) column.dataset.tip = columnTip(stack, covered.has(key));
    stack.forEach((design, level) => {
      const piece = cube(design, x, y, level, "");
      mark(piece, `p:${notation(key)}:${level}:${design}`);
      column.appendChild(piece);
      grow(boxFaces(x, y, x + 1, y + 1, level, level + 1).top);
    });
    if (totem) {
      const h = stack.length;
      const faces = boxFaces(x + 0.04, y + 0.04, x + 0.96, y + 0.96, h, h + CAP);
      const colour = TOTEM_COLOURS[totem.kind];
      const plate = svgEl("g", { class: `totem-plate totem-${totem.kind}` });
      plate.appendChild(svgEl("polygon", { points: points(faces.left), fill: colour, class: "plate-side" }));
      plate.appendChild(svgEl("polygon", { points: points(faces.right), fill: colour, class: "plate-side dark" }));
      plate.appendChild(svgEl("polygon", { points: points(faces.top), fill: colour, class: "plate-top" }));
      plate.dataset.tip = totemTip(totem);
      mark(plate, `tp:${totem.kind}:${totem.cells.map((c) => notation(cellKey(c))).join("|")}:${notation(key)}`);
      column.appendChild(plate);
      grow(faces.top);
    }
    solid.appendChild(column);
    placeTarget(key);
    if (opts.showHeights && stack.length && !totem && !opts.mini && topVisible(x, y, stack.length)) {
      const [lx, ly] = iso(x + 0.5, y + 0.5, stack.length);
      const label = svgEl("g", { class: "height-label", transform: `translate(${lx} ${ly - 1})` });
      label.dataset.cell = notation(key);
      label.appendChild(svgEl("circle", { r: 7.5 }));
      const text = svgEl("text", { "text-anchor": "middle", dy: "3.6" });
      text.textContent = String(stack.length);
      label.appendChild(text);
      labels.appendChild(label);
    }
  }

  // totems: each emblem where it was placed above
  altar.totems.forEach((totem, i) => {
    const { bx, by, lift } = placed[i];
    const key = `t:${totem.kind}:${totem.cells.map((c) => notation(cellKey(c))).join("|")}`;
    const g = mark(svgEl("g", { class: `totem totem-${totem.kind}` }), key);
    g.dataset.tip = totemTip(totem);
    g.appendChild(svgEl("line", { x1: bx, y1: by, x2: bx, y2: by - lift, class: "totem-pole" }));
    g.appendChild(svgEl("ellipse", { cx: bx, cy: by, rx: 9, ry: 4.5, class: "totem-foot" }));
    g.appendChild(svgEl("circle", { cx: bx, cy: by - lift, r, fill: TOTEM_COLOURS[totem.kind], class: "totem-disc" }));
    g.appendChild(glyphPath(totem.kind, bx, by - lift, r * 1.25, "#fffbe6"));
    if (!opts.mini) {
      const badge = svgEl("g", { class: "totem-points", transform: `translate(${bx + r * 0.9} ${by - lift + r * 0.75})` });
      badge.appendChild(svgEl("rect", { x: -11, y: -8, width: 22, height: 15, rx: 7 }));
      const text = svgEl("text", { "text-anchor": "middle", dy: "3.5" });
      text.textContent = String(totem.points);
      badge.appendChild(text);
      g.appendChild(badge);
    }
    figures.appendChild(g);
    grow([[bx - r - 4, by - lift - r - 4], [bx + r + 16, by]]);
  });

  if (opts.highlight) {
    for (const el of svg.querySelectorAll("[data-cell]")) {
      if (opts.highlight.has(el.dataset.cell)) el.classList.add("flash");
    }
  }
  if (opts.marks) {
    const shown = new Set();
    for (const el of svg.querySelectorAll("[data-cell]")) {
      const mark = opts.marks.get(el.dataset.cell);
      if (mark) {
        el.classList.add(`analysis-${mark}`);
        shown.add(el.dataset.cell);
      }
    }
    // a move onto a cell that is not on the altar yet (a cloud placed beside it): its spot
    for (const [key, mark] of opts.marks) {
      if (shown.has(key)) continue;
      const [x, y] = turn(key.split(",").map(Number));
      const top = rhombus(x, y, x + 1, y + 1, 0);
      const spot = svgEl("polygon", { points: points(top), class: `analysis-spot analysis-${mark}` });
      spot.dataset.cell = key;
      ground.appendChild(spot);
      grow(top);
    }
  }

  if (!Number.isFinite(minX)) {
    grow(rhombus(0, 0, 2, 2, 0));
  }
  const pad = opts.mini ? 6 : 18;
  // a small altar sits in a frame of a minimum size, so cells keep a steady size
  if (opts.minWidth && maxX - minX < opts.minWidth) {
    const extra = (opts.minWidth - (maxX - minX)) / 2;
    minX -= extra;
    maxX += extra;
  }
  if (opts.minHeight && maxY - minY < opts.minHeight) {
    const extra = (opts.minHeight - (maxY - minY)) / 2;
    minY -= extra;
    maxY += extra;
  }
  const width = maxX - minX + 2 * pad;
  const height = maxY - minY + 2 * pad;
  svg.setAttribute("viewBox", `${(minX - pad).toFixed(1)} ${(minY - pad).toFixed(1)} ${width.toFixed(1)} ${height.toFixed(1)}`);
  svg.dataset.naturalWidth = String(Math.round(width));
  svg.dataset.naturalHeight = String(Math.round(height));
  return keys;
}
