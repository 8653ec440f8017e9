// Pedestal designs and totem kinds: colours and glyphs (colour is never the only cue).
// Glyph paths live in a 24×24 box; `glyphSvg` draws one anywhere.

export const COMMON = ["red", "orange", "yellow", "green", "blue", "purple"];
export const RARE = ["cat", "wolf", "bird", "horse"];
export const DESIGNS = [...COMMON, ...RARE];
export const TOTEMS = ["bird", "wolf", "horse", "dragon", "cat"];

export const isRare = (design) => RARE.includes(design);

// base colour, light (top face) and dark (right face) shades, and the glyph's ink
export const DESIGN_COLOURS = {
  red: { base: "#d64545", light: "#ef7a6f", dark: "#a52f32", ink: "#fff4ef" },
  orange: { base: "#ec8a2a", light: "#f7b15e", dark: "#b9651a", ink: "#fff7ea" },
  yellow: { base: "#efc531", light: "#f8dd6e", dark: "#bf9a1c", ink: "#5b4300" },
  green: { base: "#4aa85a", light: "#7dcb85", dark: "#337c40", ink: "#f1fff1" },
  blue: { base: "#3b7fd4", light: "#6fa6ea", dark: "#2a5ea3", ink: "#eef6ff" },
  purple: { base: "#8a57c9", light: "#b18ae3", dark: "#64389c", ink: "#f8f0ff" },
  cat: { base: "#23a79b", light: "#5fd0c4", dark: "#157a71", ink: "#fffbe6" },
  wolf: { base: "#5f6b7d", light: "#8f9aab", dark: "#414b5a", ink: "#fffbe6" },
  bird: { base: "#e0609e", light: "#f291c0", dark: "#ac3f74", ink: "#fffbe6" },
  horse: { base: "#95603a", light: "#c08a5f", dark: "#6c4226", ink: "#fffbe6" },
};

export const TOTEM_COLOURS = {
  bird: "#e0609e",
  wolf: "#5f6b7d",
  horse: "#95603a",
  dragon: "#2f8a63",
  cat: "#23a79b",
};

// One path per glyph, drawn filled (evenodd) in a 24×24 box.
export const GLYPHS = {
  // common designs: simple, distinct shapes
  red: "M12 4a8 8 0 1 0 0.01 0Z", // a full disc (sun)
  orange: "M12 3.5 21 19.5H3Z", // a triangle (flame)
  yellow:
    "M12 2.8l2.6 6 6.5.5-5 4.2 1.6 6.4L12 16.4 6.3 19.9l1.6-6.4-5-4.2 6.5-.5Z", // a star
  green: "M4 20C4 10 10 4 20 4 20 14 14 20 4 20Z", // a leaf
  blue: "M12 2.5C16 8 19 11.5 19 15a7 7 0 0 1-14 0c0-3.5 3-7 7-12.5Z", // a drop
  purple: "M15.5 3.2A9 9 0 1 0 20.8 15 7 7 0 0 1 15.5 3.2Z", // a crescent moon
  // rare designs and totems: animals
  cat:
    "M4.5 9.5V2.8l5 4.2q2.5-.7 5 0l5-4.2v6.7q1.8 3 .8 6.5Q18.6 21 12 21T3.7 16q-1-3.5.8-6.5Z" +
    "M8.3 12.2a1.4 1.4 0 1 0 .01 0ZM15.7 12.2a1.4 1.4 0 1 0 .01 0ZM10.6 16.2h2.8L12 17.8Z",
  wolf:
    "M3 2.5l6 5.5h6l6-5.5-1.5 9.5L12 22 4.5 12Z" +
    "M8 11.2l2.4 1.4-2.4.8ZM16 11.2l-2.4 1.4 2.4.8ZM10.7 17.4h2.6L12 19Z",
  bird: "M1.5 8.5q6-2 10.5 4.5 4.5-6.5 10.5-4.5-5.5 1.2-8.3 7.3L12 19l-2.2-3.2Q7 9.7 1.5 8.5Z",
  horse:
    "M6 22l1.5-8.5Q5 11.5 4.2 8.6L8.6 2.5l1.8 2.1Q16.5 4.6 19.5 10l1.3 4.3q-.6 2.5-3 1.6" +
    "L14.5 13.8 15 22ZM12.2 8a1.1 1.1 0 1 0 .01 0Z",
  dragon:
    "M2.5 21q1-8 7.5-11.5 3-1.6 5-1.4l1.2-4.6 1.6 4.4 2.7-3.1-.9 4.6 2.4 2.2-3 1.5" +
    "q-3.5.5-5.8 2.4-2.6 2.3-3.2 6.5ZM15.6 9.6a1 1 0 1 0 .01 0Z",
};

// Short letters used where a glyph cannot be drawn (e.g. plain-text exports).
export const DESIGN_LETTER = {
  red: "r", orange: "o", yellow: "y", green: "g", blue: "b", purple: "p",
  cat: "C", wolf: "W", bird: "B", horse: "H",
};

const SVG_NS = "http://www.w3.org/2000/svg";

/** An SVG element with attributes (the only DOM helper the renderers need). */
export function svgEl(name, attrs = {}, children = []) {
  const el = document.createElementNS(SVG_NS, name);
  for (const [key, value] of Object.entries(attrs)) {
    if (value !== undefined && value !== null) el.setAttribute(key, String(value));
  }
  for (const child of children) if (child) el.appendChild(child);
  return el;
}

/** A glyph path scaled to `size` and centred on (cx, cy). */
export function glyphPath(name, cx, cy, size, fill, extra = {}) {
  const s = size / 24;
  return svgEl("path", {
    d: GLYPHS[name],
    fill,
    "fill-rule": "evenodd",
    transform: `translate(${cx - size / 2} ${cy - size / 2}) scale(${s})`,
    ...extra,
  });
}

/** A small stand-alone square icon of a design: a rounded tile with its glyph. */
export function designIcon(design, size = 18) {
  const c = DESIGN_COLOURS[design];
  const svg = svgEl("svg", {
    class: `design-icon design-${design}${isRare(design) ? " rare" : ""}`,
    viewBox: "0 0 24 24",
    width: size,
    height: size,
    "aria-hidden": "true",
  });
  svg.appendChild(
    svgEl("rect", {
      x: 1, y: 1, width: 22, height: 22, rx: 5,
      fill: c.base,
      stroke: isRare(design) ? "#f4c542" : c.dark,
      "stroke-width": isRare(design) ? 2.2 : 1.2,
    }),
  );
  svg.appendChild(glyphPath(design, 12, 12, 15, c.ink));
  return svg;
}

/** A round emblem of a totem kind (its colour, a gold ring and the animal's glyph). */
export function totemIcon(kind, size = 22) {
  const svg = svgEl("svg", {
    class: `totem-icon totem-${kind}`,
    viewBox: "0 0 24 24",
    width: size,
    height: size,
    "aria-hidden": "true",
  });
  svg.appendChild(
    svgEl("circle", { cx: 12, cy: 12, r: 11, fill: TOTEM_COLOURS[kind], stroke: "#f4c542", "stroke-width": 1.6 }),
  );
  svg.appendChild(glyphPath(kind, 12, 12, 15, "#fffbe6"));
  return svg;
}
