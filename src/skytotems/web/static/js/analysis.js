// The post-game analysis in the replay viewer (docs/analysis.md, "In the browser"):
// "Analyse" queues the server's job (POST /api/tables/{id}/analysis), its progress is
// polled, then each analysed decision shows the played and the best move (on the altar
// and in words), the loss with its interval, its mark, a graph of each player's expected
// final score, and jumps to the mistakes. The server computes everything; this only shows it.

import { $, el } from "./dom.js";
import { t } from "./i18n.js";
import { api } from "./net.js";
import { actionText } from "./ui/action-text.js";
import { SEAT_COLOURS } from "./ui/chips.js";

const POLL_MS = 1000;
const SVG = "http://www.w3.org/2000/svg";
const cellOf = (c) => `${c[0]},${c[1]}`;

/** The cells an action names on its player's altar (none: a slot, a card, a pass...). */
export function actionCells(action) {
  if (action.cells) return action.cells.map(cellOf);
  if (action.cell) return [cellOf(action.cell)];
  return [];
}

const fmt = (x) => (Math.round(x * 10) / 10).toFixed(1);

export class AnalysisPanel {
  /** `screen`: the replay's TableScreen; `go(move)`: show the replay at a move. */
  constructor(tableId, screen, go) {
    this.tableId = tableId;
    this.screen = screen;
    this.go = go;
    this.job = null;
    this.byMove = new Map(); // move -> decision
    this.current = 0;
    this.box = $("#analysis-panel");
    this.box.hidden = false;
    // the record the server's route offers as a download, for `skytotems analyse`
    $("#analysis-record").href = `/api/tables/${encodeURIComponent(tableId)}/record`;
    $("#analysis-start").addEventListener("click", () => this.start());
    $("#analysis-next-mistake").addEventListener("click", () => this.jumpMistake(1));
    $("#analysis-prev-mistake").addEventListener("click", () => this.jumpMistake(-1));
  }

  async load() {
    try {
      const job = await api.analysis(this.tableId);
      if (job.status !== "none") this.setJob(job);
    } catch (err) {
      this.message(t("error.generic", { message: err.message }));
    }
  }

  async start() {
    $("#analysis-start").disabled = true;
    try {
      this.setJob(await api.analyse(this.tableId));
    } catch (err) {
      $("#analysis-start").disabled = false;
      if (err.status === 429) this.message(t("analysis.rate_limited", { seconds: err.retryAfter ?? "?" }));
      else this.message(t("error.generic", { message: err.message }));
    }
  }

  message(text) {
    const box = $("#analysis-message");
    box.hidden = !text;
    box.textContent = text || "";
  }

  setJob(job) {
    this.job = job;
    $("#analysis-start").hidden = true;
    this.message("");
    const progress = $("#analysis-progress-box");
    if (job.status === "queued" || job.status === "running") {
      progress.hidden = false;
      const bar = $("#analysis-progress");
      bar.max = job.total || 1;
      bar.value = job.done;
      $("#analysis-progress-text").textContent = job.total
        ? t("analysis.progress", { done: job.done, total: job.total })
        : t("analysis.queued");
      clearTimeout(this.timer);
      this.timer = setTimeout(() => this.poll(), POLL_MS);
      return;
    }
    progress.hidden = true;
    if (job.status === "failed") {
      this.message(t("analysis.failed", { message: job.error || "" }));
      return;
    }
    this.byMove = new Map(job.result.decisions.map((d) => [d.move, d]));
    this.box.dataset.analysed = "true";
    $("#analysis-result").hidden = false;
    this.render();
  }

  async poll() {
    try {
      this.setJob(await api.analysis(this.tableId));
    } catch (err) {
      this.timer = setTimeout(() => this.poll(), POLL_MS * 3); // a network blip: keep trying
    }
  }

  mistakes() {
    return [...this.byMove.values()].filter((d) => d.mark).map((d) => d.move).sort((a, b) => a - b);
  }

  jumpMistake(direction) {
    const marks = this.mistakes();
    const target = direction > 0 ? marks.find((m) => m > this.current) : marks.reverse().find((m) => m < this.current);
    if (target === undefined) {
      $("#analysis-decision").textContent = t("analysis.no_more_mistakes");
      return;
    }
    this.go(target);
  }

  /** The replay now shows the position before action `move`: that decision's verdict. */
  show(move) {
    this.current = move;
    if (this.job?.status === "done") this.render();
  }

  render() {
    if (this.job?.status !== "done") return;
    this.renderTotals();
    this.renderGraph();
    const decision = this.byMove.get(this.current);
    const box = $("#analysis-decision");
    box.replaceChildren();
    box.dataset.mark = decision?.mark || "";
    this.screen.analysisMarks = null;
    if (!decision) {
      box.textContent = t("analysis.none");
    } else {
      const deck = this.screen.deck;
      const name = this.screen.seatName(decision.seat);
      const same = JSON.stringify(decision.played) === JSON.stringify(decision.best);
      box.appendChild(el("p", "analysis-says-played", t("analysis.decision", { name, played: actionText(decision.played, deck) })));
      box.appendChild(el("p", "analysis-says-best", same ? t("analysis.best_same") : t("analysis.best", { best: actionText(decision.best, deck) })));
      const [low, high] = decision.loss_ci95;
      const loss = el("p", "analysis-loss", t("analysis.loss", { loss: fmt(decision.loss), low: fmt(low), high: fmt(high) }));
      loss.dataset.loss = String(decision.loss);
      box.appendChild(loss);
      if (decision.mark) box.appendChild(el("p", `analysis-mark mark-${decision.mark}`, t(`analysis.mark.${decision.mark}`)));
      const marks = new Map();
      for (const key of actionCells(decision.played)) marks.set(key, "played");
      for (const key of actionCells(decision.best)) marks.set(key, marks.get(key) === "played" ? "both" : "best");
      this.screen.analysisMarks = { seat: decision.seat, marks };
      if (marks.size) box.appendChild(el("p", "analysis-legend", t("analysis.legend")));
      this.screen.ui.focusSeat = decision.seat;
    }
    this.screen.render();
    const marks = this.mistakes();
    $("#analysis-next-mistake").disabled = !marks.some((m) => m > this.current);
    $("#analysis-prev-mistake").disabled = !marks.some((m) => m < this.current);
  }

  renderTotals() {
    const result = this.job.result;
    const list = $("#analysis-totals");
    list.replaceChildren();
    for (const seat of Object.keys(result.total_loss)) {
      list.appendChild(
        el("li", "", t("analysis.totals", {
          name: this.screen.seatName(Number(seat)),
          loss: fmt(result.total_loss[seat]),
          mistakes: result.mistakes[seat],
          blunders: result.blunders[seat],
        })),
      );
    }
  }

  /** Each seat's expected final score after its played move (best − loss), by move;
   *  mistakes are dots; a click goes to the nearest analysed move. */
  renderGraph() {
    const svg = $("#analysis-graph");
    const decisions = this.job.result.decisions;
    const width = 300;
    const height = 120;
    const pad = 6;
    svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
    svg.replaceChildren();
    svg.appendChild(Object.assign(document.createElementNS(SVG, "title"), { textContent: t("analysis.graph") }));
    if (!decisions.length) return;
    const moves = decisions.map((d) => d.move);
    const values = decisions.map((d) => d.expected - d.loss);
    const [x0, x1] = [Math.min(...moves), Math.max(...moves, Math.min(...moves) + 1)];
    const [y0, y1] = [Math.min(...values), Math.max(...values, Math.min(...values) + 1)];
    const x = (m) => pad + ((m - x0) / (x1 - x0)) * (width - 2 * pad);
    const y = (v) => height - pad - ((v - y0) / (y1 - y0)) * (height - 2 * pad);
    const now = document.createElementNS(SVG, "line");
    for (const [k, v] of Object.entries({ x1: x(this.current), x2: x(this.current), y1: 0, y2: height, class: "analysis-now" })) now.setAttribute(k, v);
    svg.appendChild(now);
    const seats = [...new Set(decisions.map((d) => d.seat))].sort();
    for (const seat of seats) {
      const mine = decisions.filter((d) => d.seat === seat);
      const line = document.createElementNS(SVG, "polyline");
      line.setAttribute("points", mine.map((d) => `${x(d.move).toFixed(1)},${y(d.expected - d.loss).toFixed(1)}`).join(" "));
      line.setAttribute("class", `analysis-line seat-${seat}`);
      line.style.stroke = SEAT_COLOURS[seat % SEAT_COLOURS.length];
      svg.appendChild(line);
      for (const d of mine.filter((d) => d.mark)) {
        const dot = document.createElementNS(SVG, "circle");
        for (const [k, v] of Object.entries({ cx: x(d.move), cy: y(d.expected - d.loss), r: d.mark === "blunder" ? 4 : 3, class: `analysis-dot seat-${seat} mark-${d.mark}` })) dot.setAttribute(k, v);
        dot.style.fill = SEAT_COLOURS[seat % SEAT_COLOURS.length];
        svg.appendChild(dot);
      }
    }
    svg.onclick = (event) => {
      const box = svg.getBoundingClientRect();
      const m = x0 + ((event.clientX - box.left) / box.width * width - pad) / (width - 2 * pad) * (x1 - x0);
      const nearest = moves.reduce((a, b) => (Math.abs(b - m) < Math.abs(a - m) ? b : a));
      this.go(nearest);
    };
  }
}
