// The post-game analysis in the replay viewer (docs/analysis.md, "In the browser"):
// "Analyse" queues the server's job (POST /api/tables/{id}/analysis), its progress is
// polled, then each analysed decision shows the played and the best move (on the altar
// and in words), the loss with its interval, its mark, a graph of each player's expected
// final score, and jumps to the mistakes. The server computes everything; this only shows it.

import { $, el } from "./dom.js";
import { formatNumber, t } from "./i18n.js";
import { rememberedPlayer } from "./mine.js";
import { api } from "./net.js";
import { scrollAltarIntoView } from "./render/main-altar.js";
import { actionCells, actionText } from "./ui/action-text.js";
import { SEAT_COLOURS } from "./ui/chips.js";

const POLL_MS = 1000;
const SVG = "http://www.w3.org/2000/svg";

// losses to a tenth of a point, in the UI language's digits ("113.8", pt "113,8")
const fmt = (x) => formatNumber(x, 1);
// an interval's ends to the hundredth: a marked loss's lower end may be 0.05 (above 0)
const fmtEnd = (x) => formatNumber(x, 2);
const seatColour = (seat) => SEAT_COLOURS[seat % SEAT_COLOURS.length];

/** An SVG element with its attributes (and text). */
function svgNode(name, attrs, text) {
  const node = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (text !== undefined) node.textContent = text;
  return node;
}

export class AnalysisPanel {
  /** `screen`: the replay's TableScreen; `go(move)`: show the replay at a move. */
  constructor(tableId, screen, go, moves) {
    this.tableId = tableId;
    this.moves = moves; // the game's moves, forced ones included (the replay's count)
    this.screen = screen;
    this.go = go;
    this.job = null;
    this.byMove = new Map(); // move -> decision
    this.current = 0;
    this.mistakesOf = null; // the seat whose mistakes the jumps visit, null: everyone's
    this.seats = []; // the seats the shown analysis covers
    this.level = null; // the analysis level shown, null: the server's default
    this.looks = 0; // counts load()s: only the latest one's answer is shown
    this.box = $("#analysis-panel");
    this.box.hidden = false;
    // the record the server's route offers as a download, for `skytotems analyse`
    $("#analysis-record").href = `/api/tables/${encodeURIComponent(tableId)}/record`;
    // "Analyse" waits for the first look to say which depth is shown (a trial: pressed
    // before, it asked for the server's default while the box showed another depth)
    $("#analysis-start").disabled = true;
    $("#analysis-start").addEventListener("click", () => this.start());
    $("#analysis-level").addEventListener("change", (event) => this.chooseLevel(event.target.value));
    $("#analysis-next-mistake").addEventListener("click", () => this.jumpMistake(1));
    $("#analysis-prev-mistake").addEventListener("click", () => this.jumpMistake(-1));
    $("#analysis-mistakes-of").addEventListener("change", (event) => {
      const value = event.target.value;
      this.mistakesOf = value === "" ? null : Number(value);
      this.render();
    });
  }

  async load() {
    const look = ++this.looks;
    // a depth chosen while an earlier look still waits for the server wins over its answer
    const stale = () => look !== this.looks;
    try {
      let job = await api.analysis(this.tableId, this.level);
      if (stale()) return;
      if (this.level === null && job.status === "none") {
        // nobody asked at the default depth: a result at another one (asked for before,
        // by anyone) rather than an empty panel after a reload
        for (const option of $("#analysis-level").options) {
          if (option.value === job.level) continue;
          const other = await api.analysis(this.tableId, option.value);
          if (stale()) return;
          if (other.status !== "none") {
            job = other;
            break;
          }
        }
      }
      // the server says which level is its default (a job nobody asked for names it too)
      this.level = job.level;
      $("#analysis-level").value = job.level;
      $("#analysis-start").disabled = false;
      if (job.status !== "none") this.setJob(job);
    } catch (err) {
      if (stale()) return;
      $("#analysis-start").disabled = false; // the server's default, then
      this.message(t("error.generic", { message: err.message }));
    }
  }

  /** Another level: its job if there is one (another viewer may have asked), else the
   *  button that asks for it. */
  chooseLevel(level) {
    clearTimeout(this.timer);
    this.level = level;
    this.job = null;
    this.byMove = new Map();
    delete this.box.dataset.analysed;
    $("#analysis-result").hidden = true;
    $("#analysis-progress-box").hidden = true;
    $("#analysis-start").hidden = false;
    $("#analysis-start").disabled = false;
    this.message("");
    this.screen.analysisMarks = null;
    this.screen.render();
    return this.load();
  }

  async start() {
    $("#analysis-start").disabled = true;
    try {
      this.setJob(await api.analyse(this.tableId, this.level));
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
    if (this.level && job.level !== this.level) return; // an answer about a level left since
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
    // a player sees their own mistakes first (the seat this browser played, if any)
    this.seats = Object.keys(job.result.total_loss).map(Number); // the seats analysed
    const mine = rememberedPlayer(this.tableId);
    if (this.mistakesOf === null && this.seats.length > 1 && this.seats.includes(mine)) this.mistakesOf = mine;
    this.box.dataset.analysed = "true";
    $("#analysis-result").hidden = false;
    this.render();
  }

  async poll() {
    try {
      this.setJob(await api.analysis(this.tableId, this.level));
    } catch (err) {
      this.timer = setTimeout(() => this.poll(), POLL_MS * 3); // a network blip: keep trying
    }
  }

  /** The marked decisions' moves, of the chosen seat (or everyone's), in order. */
  mistakes() {
    return [...this.byMove.values()]
      .filter((d) => d.mark && (this.mistakesOf === null || d.seat === this.mistakesOf))
      .map((d) => d.move)
      .sort((a, b) => a - b);
  }

  jumpMistake(direction) {
    const marks = this.mistakes();
    const target = direction > 0 ? marks.find((m) => m > this.current) : marks.reverse().find((m) => m < this.current);
    if (target === undefined) {
      $("#analysis-decision").textContent = t("analysis.no_more_mistakes");
      return;
    }
    // the decision's moves are drawn on the altar: on a phone it is screens above
    Promise.resolve(this.go(target)).then(() => scrollAltarIntoView(this.screen));
  }

  /** The replay now shows the position before action `move`: that decision's verdict. */
  show(move) {
    this.current = move;
    if (this.job?.status === "done") this.render();
  }

  render() {
    if (this.job?.status !== "done") return;
    this.renderTotals();
    this.renderMistakesOf();
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
      const loss = el("p", "analysis-loss", t("analysis.loss", { loss: fmt(decision.loss), low: fmtEnd(low), high: fmtEnd(high) }));
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
    // why the replay counts more moves than the analysis has decisions
    $("#analysis-covered").textContent = t("analysis.covered", { decisions: result.decisions.length, moves: this.moves });
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

  /** The choice of whose mistakes the jumps visit: everyone, or one player. */
  renderMistakesOf() {
    const select = $("#analysis-mistakes-of");
    select.closest("label").hidden = this.seats.length < 2;
    const options = [["", t("analysis.everyone")], ...this.seats.map((s) => [String(s), this.screen.seatName(s)])];
    select.replaceChildren(...options.map(([value, text]) => {
      const option = el("option", "", text);
      option.value = value;
      return option;
    }));
    select.value = this.mistakesOf === null ? "" : String(this.mistakesOf);
  }

  /** Each seat's expected final score after its played move (best − loss), by move,
   *  on a score scale (left) and a move scale (bottom), with a legend naming each line's
   *  player in its colour; mistakes are dots. A click goes to the nearest analysed
   *  move; on the focused graph the arrow keys go to the previous or next one. */
  renderGraph() {
    const svg = $("#analysis-graph");
    const decisions = this.job.result.decisions;
    // drawn at the graph's size on screen (one unit a pixel), so its labels are the size
    // the stylesheet says, not shrunk with the panel (on a phone they were about 7 px)
    const box = svg.getBoundingClientRect();
    const [width, height] = [Math.round(box.width) || 320, Math.round(box.height) || 140];
    const [left, right, top, bottom] = [38, 8, 8, 32]; // room for the scales' labels
    svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
    svg.replaceChildren();
    svg.appendChild(svgNode("title", {}, t("analysis.graph")));
    this.renderLegend(decisions);
    if (!decisions.length) return;
    const moves = [...new Set(decisions.map((d) => d.move))].sort((a, b) => a - b);
    const values = decisions.map((d) => d.expected - d.loss);
    const [x0, x1] = [moves[0], Math.max(moves.at(-1), moves[0] + 1)];
    const y0 = Math.floor(Math.min(...values));
    const y1 = Math.max(Math.ceil(Math.max(...values)), y0 + 1);
    const x = (m) => left + ((m - x0) / (x1 - x0)) * (width - left - right);
    const y = (v) => height - bottom - ((v - y0) / (y1 - y0)) * (height - top - bottom);
    // the scales: score at the bottom, middle and top; the first and last move
    const scales = svgNode("g", { class: "analysis-scale", "aria-hidden": "true" });
    for (const v of [...new Set([y0, Math.round((y0 + y1) / 2), y1])]) {
      scales.appendChild(svgNode("line", { x1: left, x2: width - right, y1: y(v), y2: y(v), class: "analysis-grid" }));
      scales.appendChild(svgNode("text", { x: left - 4, y: y(v) + 3, "text-anchor": "end" }, formatNumber(v)));
    }
    for (const m of [...new Set([moves[0], moves.at(-1)])]) {
      scales.appendChild(svgNode("text", { x: x(m), y: height - bottom + 13, "text-anchor": "middle" }, formatNumber(m)));
    }
    scales.appendChild(svgNode("text", { x: (left + width - right) / 2, y: height - 3, "text-anchor": "middle", class: "analysis-axis-title" }, t("analysis.axis_move")));
    scales.appendChild(svgNode("text", { x: 12, y: (top + height - bottom) / 2, "text-anchor": "middle", class: "analysis-axis-title", transform: `rotate(-90 12 ${(top + height - bottom) / 2})` }, t("analysis.axis_score")));
    svg.appendChild(scales);
    svg.appendChild(svgNode("line", { x1: x(this.current), x2: x(this.current), y1: top, y2: height - bottom, class: "analysis-now" }));
    const seats = [...new Set(decisions.map((d) => d.seat))].sort();
    for (const seat of seats) {
      const colour = seatColour(seat);
      const mine = decisions.filter((d) => d.seat === seat);
      const line = svgNode("polyline", {
        points: mine.map((d) => `${x(d.move).toFixed(1)},${y(d.expected - d.loss).toFixed(1)}`).join(" "),
        class: `analysis-line seat-${seat}`,
      });
      line.style.stroke = colour;
      svg.appendChild(line);
      for (const d of mine.filter((d) => d.mark)) {
        const dot = svgNode("circle", { cx: x(d.move), cy: y(d.expected - d.loss), r: d.mark === "blunder" ? 4 : 3, class: `analysis-dot seat-${seat} mark-${d.mark}` });
        dot.style.fill = colour;
        svg.appendChild(dot);
      }
    }
    // the keyboard: a slider over the analysed moves
    svg.setAttribute("aria-valuemin", String(moves[0]));
    svg.setAttribute("aria-valuemax", String(moves.at(-1)));
    svg.setAttribute("aria-valuenow", String(this.current));
    svg.setAttribute("aria-valuetext", t("analysis.graph_value", { move: this.current }));
    svg.onkeydown = (event) => {
      const later = moves.find((m) => m > this.current);
      const earlier = moves.filter((m) => m < this.current).at(-1);
      const targets = { ArrowRight: later, ArrowUp: later, ArrowLeft: earlier, ArrowDown: earlier, Home: moves[0], End: moves.at(-1) };
      if (!(event.key in targets)) return;
      event.preventDefault();
      event.stopPropagation(); // not the replay's own arrow keys (one move at a time)
      if (targets[event.key] !== undefined) this.go(targets[event.key]);
    };
    svg.onclick = (event) => {
      const box = svg.getBoundingClientRect();
      const m = x0 + (((event.clientX - box.left) / box.width) * width - left) / (width - left - right) * (x1 - x0);
      const nearest = moves.reduce((a, b) => (Math.abs(b - m) < Math.abs(a - m) ? b : a));
      this.go(nearest);
    };
  }

  /** Each line's player, in its colour (the graph's legend, as text beside it). */
  renderLegend(decisions) {
    const legend = $("#analysis-graph-legend");
    legend.replaceChildren();
    for (const seat of [...new Set(decisions.map((d) => d.seat))].sort()) {
      const item = el("li", `seat-${seat}`);
      const swatch = el("span", "analysis-swatch");
      swatch.style.background = seatColour(seat);
      item.append(swatch, this.screen.seatName(seat));
      legend.appendChild(item);
    }
  }
}
