// help.html: the rules in our own words, every text from the translation files.
// A section body is plain text: blank lines separate paragraphs, lines starting
// with "- " are list items, **words** are bold.

import { initI18n, languageSwitcher, onLanguageChange, t } from "./i18n.js";
import { COMMON, RARE, designIcon, totemIcon } from "./pieces.js";
import { installTooltips } from "./ui/tooltip.js";

export const SECTIONS = [
  "goal", "components", "setup", "turn", "placement", "totems", "cards", "round", "end",
  "scoring", "solo", "options", "screen",
];
const TOTEM_ORDER = ["bird", "wolf", "horse", "dragon", "cat"];

function inline(parent, text) {
  const parts = text.split(/(\*\*[^*]+\*\*)/);
  for (const part of parts) {
    if (part.startsWith("**") && part.endsWith("**")) {
      const strong = document.createElement("strong");
      strong.textContent = part.slice(2, -2);
      parent.appendChild(strong);
    } else if (part) {
      parent.appendChild(document.createTextNode(part));
    }
  }
}

function body(text) {
  const fragment = document.createDocumentFragment();
  for (const block of text.split(/\n\s*\n/)) {
    const lines = block.split("\n").filter((l) => l.trim());
    if (lines.length && lines.every((l) => l.trim().startsWith("- "))) {
      const ul = document.createElement("ul");
      for (const line of lines) {
        const li = document.createElement("li");
        inline(li, line.trim().slice(2));
        ul.appendChild(li);
      }
      fragment.appendChild(ul);
    } else if (lines.length) {
      const p = document.createElement("p");
      inline(p, lines.join(" "));
      fragment.appendChild(p);
    }
  }
  return fragment;
}

function totemTable() {
  const table = document.createElement("table");
  table.className = "totem-table";
  const head = document.createElement("tr");
  for (const key of ["help.col.totem", "help.col.where", "help.col.score", "help.col.blessing"]) {
    const th = document.createElement("th");
    th.textContent = t(key);
    head.appendChild(th);
  }
  table.appendChild(head);
  for (const kind of TOTEM_ORDER) {
    const tr = document.createElement("tr");
    const name = document.createElement("td");
    name.appendChild(totemIcon(kind, 26));
    const strong = document.createElement("strong");
    strong.textContent = ` ${t(`totem.${kind}`)}`;
    name.appendChild(strong);
    tr.appendChild(name);
    for (const key of [`totem.${kind}.rule`, `totem.${kind}.score`, `totem.${kind}.blessing`]) {
      const td = document.createElement("td");
      td.textContent = t(key);
      tr.appendChild(td);
    }
    table.appendChild(tr);
  }
  return table;
}

function designLegend() {
  const box = document.createElement("div");
  box.className = "design-legend";
  for (const design of [...COMMON, ...RARE]) {
    const span = document.createElement("span");
    span.className = "chip";
    span.appendChild(designIcon(design, 24));
    span.appendChild(document.createTextNode(` ${t(`design.${design}`)} · ${t(RARE.includes(design) ? "help.rare_short" : "help.common_short")}`));
    box.appendChild(span);
  }
  return box;
}

function render() {
  const main = document.getElementById("help");
  main.replaceChildren();
  const intro = document.createElement("section");
  const h1 = document.createElement("h1");
  h1.textContent = t("help.title");
  intro.appendChild(h1);
  intro.appendChild(body(t("help.intro")));
  const toc = document.createElement("nav");
  toc.className = "help-toc";
  for (const id of SECTIONS) {
    const a = document.createElement("a");
    a.href = `#${id}`;
    a.textContent = t(`help.${id}.title`);
    toc.appendChild(a);
  }
  intro.appendChild(toc);
  main.appendChild(intro);
  for (const id of SECTIONS) {
    const section = document.createElement("section");
    section.id = id;
    const h2 = document.createElement("h2");
    h2.textContent = t(`help.${id}.title`);
    section.appendChild(h2);
    section.appendChild(body(t(`help.${id}.body`)));
    if (id === "components") section.appendChild(designLegend());
    if (id === "totems") section.appendChild(totemTable());
    main.appendChild(section);
  }
  document.title = t("help.page_title");
}

async function main() {
  await initI18n();
  installTooltips();
  document.getElementById("lang-slot").appendChild(languageSwitcher());
  render();
  onLanguageChange(render);
  if (location.hash) document.querySelector(location.hash)?.scrollIntoView();
}

main();
