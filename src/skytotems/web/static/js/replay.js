// The replay viewer (table.html?t=ID&replay=1): steps forward and back through a
// finished game. Each position comes from the server (GET /api/tables/{id}/replay/{move},
// docs/web-needs.md); the browser only draws it and the events that led to it.

import { AnalysisPanel } from "./analysis.js";
import { t } from "./i18n.js";
import { onLanguageChange } from "./i18n.js";
import { GameLog } from "./log.js";
import { api } from "./net.js";
import { TableScreen } from "./screen.js";

const PLAY_MS = 700;

export async function startReplay(tableId) {
  document.body.classList.add("replay");
  const root = document.getElementById("table-root");
  const controls = document.getElementById("replay-controls");
  controls.hidden = false;
  const screen = new TableScreen(root, {});
  const log = new GameLog(document.getElementById("log"));
  const steps = new Map(); // move -> {view, events, action}
  let moves = 0;
  let current = 0;
  let playing = null;

  try {
    const summary = await api.table(tableId);
    screen.setSummary(summary);
    if (summary.status !== "finished") {
      showMessage(t("replay.not_finished"));
      return;
    }
    // the record names the deck the game was played with (card names and missions)
    const record = await api.record(tableId).catch(() => null);
    if (record?.deck) screen.setDeck(record.deck);
    // the score sheet's statistics the live table shows too (clouds gained)
    api.stats(tableId).then((stats) => {
      screen.extra.stats = stats;
      screen.render();
    }).catch(() => {});
    const first = await api.replayStep(tableId, 0);
    moves = first.moves;
    steps.set(0, first);
  } catch (err) {
    showMessage(err.status === 404 || err.status === 405 ? t("replay.unavailable") : t("error.generic", { message: err.message }));
    return;
  }

  const slider = document.getElementById("replay-slider");
  slider.max = String(moves);
  const counter = document.getElementById("replay-counter");
  const analysis = new AnalysisPanel(tableId, screen, (move) => (stop(), go(() => move)), moves);
  // Moves asked for run one after another, each counting from where the one before it
  // landed: five quick clicks on ▶ step five moves even when positions arrive late.
  let queue = Promise.resolve();
  const enqueue = (task) => (queue = queue.then(task).catch(() => {}));
  const go = (where, options) => enqueue(() => show(where(current), options));
  const jumpTurn = (direction) => enqueue(() => showTurn(direction));

  async function fetchStep(move) {
    if (!steps.has(move)) steps.set(move, await api.replayStep(tableId, move));
    return steps.get(move);
  }

  function rebuildLog() {
    log.clear();
    for (let m = 1; m <= current; m++) {
      const step = steps.get(m);
      if (step) log.add(step.events, screen.logContext());
    }
  }

  async function show(move, { animate = false } = {}) {
    move = Math.max(0, Math.min(moves, move));
    const step = await fetchStep(move);
    const forwardOne = move === current + 1;
    current = move;
    screen.update(step.view, { replay: true, moves, status: "finished", animate: animate && forwardOne });
    if (forwardOne) log.add(step.events, screen.logContext());
    else rebuildLog();
    slider.value = String(move);
    counter.textContent = t("replay.counter", { move, moves });
    analysis.show(move);
    // keep the next few positions ready
    for (let m = move + 1; m <= Math.min(moves, move + 3); m++) fetchStep(m).catch(() => {});
  }

  function turnStarts() {
    const marks = [];
    for (const [move, step] of steps) if (step.events.some((e) => e.type === "turn_started")) marks.push(move);
    return marks.sort((a, b) => a - b);
  }

  async function showTurn(direction) {
    // walk move by move until a turn starts (positions are cached as we go)
    let move = current + direction;
    while (move > 0 && move < moves) {
      const step = await fetchStep(move);
      if (step.events.some((e) => e.type === "turn_started")) break;
      move += direction;
    }
    await show(move, { animate: direction > 0 && move === current + 1 });
  }

  function stop() {
    clearInterval(playing);
    playing = null;
    document.getElementById("replay-play").textContent = t("replay.play");
  }

  const on = (id, handler) => document.getElementById(id).addEventListener("click", handler);
  const next = (move) => move + 1;
  const previous = (move) => move - 1;
  on("replay-first", () => (stop(), go(() => 0)));
  on("replay-prev-turn", () => (stop(), jumpTurn(-1)));
  on("replay-prev", () => (stop(), go(previous)));
  on("replay-next", () => (stop(), go(next, { animate: true })));
  on("replay-next-turn", () => (stop(), jumpTurn(1)));
  on("replay-last", () => (stop(), go(() => moves)));
  on("replay-play", () => {
    if (playing) return stop();
    document.getElementById("replay-play").textContent = t("replay.pause");
    playing = setInterval(() => {
      if (current >= moves) return stop();
      go(next, { animate: true });
    }, PLAY_MS);
  });
  slider.addEventListener("input", () => (stop(), go(() => Number(slider.value))));
  document.addEventListener("keydown", (event) => {
    // the slider moves itself on these keys (and says so with an input event)
    if (event.target instanceof HTMLInputElement) return;
    if (event.key === "ArrowRight") go(next, { animate: true });
    else if (event.key === "ArrowLeft") go(previous);
    else if (event.key === "Home") go(() => 0);
    else if (event.key === "End") go(() => moves);
  });
  onLanguageChange(() => {
    screen.render();
    rebuildLog();
    counter.textContent = t("replay.counter", { move: current, moves });
    analysis.render();
  });
  await go(() => 0);
  await analysis.load();
  window.skytotems = { screen, turnStarts, analysis };

  function showMessage(text) {
    const box = document.getElementById("replay-message");
    box.hidden = false;
    box.textContent = text;
  }
}
