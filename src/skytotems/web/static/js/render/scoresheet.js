// The score sheet of a finished game (and its statistics), shown in an overlay.

import { $, el } from "../dom.js";
import { t, tNodes } from "../i18n.js";
import { playerChip, totemChip } from "../ui/chips.js";
import { cardName } from "./cards.js";

/** The translation key of a solo band ("Go Down in History" -> solo.band.go_down_in_history). */
export function soloBandKey(band) {
  return `solo.band.${String(band).toLowerCase().replace(/[^a-z]+/g, "_")}`;
}

export function renderScoreSheet(screen) {
  const view = screen.view;
  const box = $("#scoresheet-body", screen.root);
  if (!box || !view.score_sheets) return;
  box.replaceChildren();
  const sheets = view.score_sheets;
  const places = view.places || [];
  const tableEl = el("table", "scoresheet");
  const thead = el("thead");
  const headRow = el("tr");
  headRow.appendChild(el("th", "", ""));
  sheets.forEach((sheet) => {
    const th = el("th");
    th.appendChild(playerChip(screen.seatName(sheet.seat), sheet.seat));
    if (!view.solo) th.appendChild(el("div", `place place-${places[sheet.seat]}`, t("score.place", { n: places[sheet.seat] })));
    headRow.appendChild(th);
  });
  thead.appendChild(headRow);
  tableEl.appendChild(thead);
  const tbody = el("tbody");
  const row = (labelNode, cells, className = "") => {
    const tr = el("tr", className);
    const th = el("th");
    th.appendChild(labelNode);
    tr.appendChild(th);
    for (const cell of cells) {
      const td = el("td");
      if (cell instanceof Node) td.appendChild(cell);
      else td.textContent = String(cell);
      tr.appendChild(td);
    }
    tbody.appendChild(tr);
  };
  for (const kind of view.kinds) {
    row(totemChip(kind), sheets.map((s) => s.totems[kind] ?? 0));
  }
  const pointsWithCount = (points, count) => {
    const span = el("span");
    span.appendChild(document.createTextNode(String(points)));
    span.appendChild(el("small", "", ` (${count})`));
    return span;
  };
  row(document.createTextNode(t("score.common")), sheets.map((s) => pointsWithCount(s.common_points, s.common_pedestals)));
  row(document.createTextNode(t("score.rare")), sheets.map((s) => pointsWithCount(s.rare_points, s.rare_pedestals)));
  row(
    document.createTextNode(t("score.cards")),
    sheets.map((s) => {
      const span = el("span");
      span.appendChild(document.createTextNode(String(s.cards)));
      if (s.revealed.length) {
        const names = s.revealed.map((id) => (screen.deck.get(id) ? cardName(screen.deck.get(id)) : id));
        span.appendChild(el("small", "card-list", names.join(t("list.sep"))));
      }
      return span;
    }),
  );
  row(document.createTextNode(t("score.total")), sheets.map((s) => s.total), "total");
  tableEl.appendChild(tbody);
  box.appendChild(tableEl);
  if (view.solo && typeof view.solo === "object") {
    const band = el("p", "solo-band");
    band.appendChild(tNodes("score.solo", { total: view.solo.total, band: t(soloBandKey(view.solo.band)) }));
    box.appendChild(band);
  }
  // statistics
  const stats = el("table", "stats");
  const sbody = el("tbody");
  const statRow = (label, values) => {
    const tr = el("tr");
    tr.appendChild(el("th", "", label));
    for (const v of values) tr.appendChild(el("td", "", String(v)));
    sbody.appendChild(tr);
  };
  const extraStats = screen.extra.stats?.players;
  statRow(t("stats.totems"), sheets.map((s) => s.totem_count));
  statRow(t("stats.pedestals"), sheets.map((s) => s.common_pedestals + s.rare_pedestals));
  if (extraStats) statRow(t("stats.clouds"), extraStats.map((p) => p.clouds));
  statRow(t("stats.columns"), view.altars.map((a) => a.columns.length));
  statRow(t("stats.tallest"), view.altars.map((a) => Math.max(0, ...a.columns.map((c) => c.stack.length))));
  statRow(t("stats.cards_revealed"), sheets.map((s) => s.revealed.length));
  statRow(t("stats.hidden_goals"), view.seats.map((s) => (s.goals || []).map((g) => (screen.deck.get(g.card) ? cardName(screen.deck.get(g.card)) : g.card)).join(t("list.sep")) || "—"));
  stats.appendChild(sbody);
  box.appendChild(el("h3", "", t("stats.title")));
  box.appendChild(stats);
  // shown by itself once: when the game ends (live) or the replay first reaches the end
  if (!screen.scoreSheetShown) {
    screen.scoreSheetShown = true;
    screen.showScoreSheet(true);
  }
}
