// puzzles.html: a position and a question; the player plays the turn on the altar.
// Every target comes from the server's legal actions (the table screen's decision layer,
// ui/decision.js); whether the moves are right is decided by the server against the
// puzzle's proof, and solved puzzles are remembered in this browser (localStorage).

import { $, button, el } from "./dom.js";
import { initI18n, languageSwitcher, onLanguageChange, t, tn } from "./i18n.js";
import { api } from "./net.js";
import { designIcon } from "./pieces.js";
import { renderAltar } from "./render/altar.js";
import { cardName, missionText } from "./render/cards.js";
import { altarTargets } from "./render/targets.js";
import { actionCells, actionText } from "./ui/action-text.js";
import { interaction } from "./ui/decision.js";
import { focusKey, restoreFocus } from "./ui/focus.js";

const SOLVED_KEY = "skytotems.puzzles.solved";

// After a move the focus goes to the next sensible target (as on the table screen,
// ui/focus.js), so a keyboard player never restarts from the list of puzzles; once the
// puzzle is over it waits on the verdict.
const NEXT_TARGETS = [
  "[data-action=confirm]",
  "#puzzle-altar .cell-target",
  "#puzzle-board .pool-item",
  "#puzzle-board .slot.target",
  "[data-action=choose-design]",
  "[data-action=reveal]",
  "#puzzle-actions .btn-primary",
  "#puzzle-actions .btn",
];
const PARKING = "puzzle-feedback";

const state = { list: [], puzzle: null, view: null, moves: [], ui: {}, feedback: null };

function solvedSet() {
  try {
    return new Set(JSON.parse(localStorage.getItem(SOLVED_KEY) || "[]"));
  } catch {
    return new Set();
  }
}

function markSolved(id) {
  const solved = solvedSet();
  solved.add(id);
  localStorage.setItem(SOLVED_KEY, JSON.stringify([...solved]));
}

function renderList() {
  const solved = solvedSet();
  const list = $("#puzzle-list");
  list.replaceChildren();
  state.list.forEach((p, i) => {
    const item = el("li");
    // what each asks, in a few words (the full question shows once it is open)
    const asks = t(`puzzles.asks.${p.question}`);
    const label = `${t("puzzles.item", { n: i + 1, level: t(`puzzles.level.${p.level}`), asks })}${solved.has(p.id) ? " ✓" : ""}`;
    const b = button(label, { className: "btn btn-small puzzle-item", dataAction: "open-puzzle", onClick: () => open(p.id, "list") });
    b.dataset.puzzle = p.id;
    b.dataset.solved = String(solved.has(p.id));
    if (state.puzzle && state.puzzle.id === p.id) b.setAttribute("aria-current", "true");
    item.appendChild(b);
    list.appendChild(item);
  });
  $("#puzzle-progress").textContent = t("puzzles.progress", { solved: state.list.filter((p) => solved.has(p.id)).length, total: state.list.length });
  // the open puzzle's row in view of the phone's scroll box (a link to puzzle 30)
  const current = list.querySelector("[aria-current='true']");
  if (current && list.scrollHeight > list.clientHeight) {
    const box = list.getBoundingClientRect();
    const row = current.getBoundingClientRect();
    if (row.top < box.top || row.bottom > box.bottom) list.scrollTop += row.top - box.top - 4;
  }
  markMoreBelow();
}

/** On a phone the list scrolls in a short box: while rows are hidden below, its foot
 * fades out (data-more), so that a row cut by the box reads as "more below". */
function markMoreBelow() {
  const list = $("#puzzle-list");
  list.dataset.more = String(list.scrollTop + list.clientHeight < list.scrollHeight - 1);
}

function designName(design) {
  return t(`design.${design}`);
}

function run(spec) {
  if (spec.action) {
    play(spec.action);
    return;
  }
  const command = spec.command;
  if (!command) return;
  if (command.type === "totem-kind") state.ui = { totemKind: command.kind, totemCells: [] };
  else if (command.type === "totem-cancel") state.ui = {};
  else if (command.type === "totem-cell") {
    const cells = state.ui.totemCells || [];
    state.ui.totemCells = cells.includes(command.key) ? cells.filter((k) => k !== command.key) : [...cells, command.key];
  } else if (command.type === "select-design") state.ui = { design: command.design };
  render();
}

function renderBoard(model) {
  const board = $("#puzzle-board");
  board.replaceChildren();
  const view = state.view;
  // the slots: a slot lights up when taking it is legal
  const slots = el("div", "puzzle-slots");
  view.slots.forEach((designs, i) => {
    const label = el("span");
    label.appendChild(el("span", "slot-name", t("puzzles.slot", { n: i + 1 })));
    for (const d of designs) label.appendChild(designIcon(d, 20));
    const action = model.slots.get(i);
    const b = button(label, { className: `btn btn-small slot${action ? " target" : ""}`, dataAction: "slot", disabled: !action, onClick: () => action && play(action) });
    b.dataset.slot = String(i);
    slots.appendChild(b);
  });
  board.appendChild(slots);
  if (model.pool) {
    const tray = el("div", "puzzle-pool");
    tray.appendChild(el("span", "pool-title", t("board.pool")));
    for (const design of model.pool.designs) {
      const b = button(designIcon(design, 26), {
        className: `pool-item${design === model.pool.selected ? " selected" : ""}`,
        dataAction: "pool-design",
        onClick: () => run({ command: { type: "select-design", design } }),
      });
      b.dataset.design = design;
      b.setAttribute("aria-label", t("a11y.pool_item", { design: designName(design) }));
      tray.appendChild(b);
    }
    board.appendChild(tray);
  }
  if (model.bagDesigns.size) {
    const bag = el("div", "puzzle-bag");
    for (const [design, action] of model.bagDesigns) {
      const label = el("span");
      label.append(designIcon(design, 20), ` ${designName(design)}`);
      const b = button(label, { className: "btn btn-small", dataAction: "choose-design", onClick: () => play(action) });
      b.dataset.design = design;
      bag.appendChild(b);
    }
    board.appendChild(bag);
  }
  // the seat's face-down goals: what each asks, and a reveal button when it is legal
  const goals = view.seats[state.puzzle.seat].goals || [];
  if (goals.length) {
    const list = el("ul", "puzzle-goals");
    for (const goal of goals) {
      const card = view.deck.find((c) => c.id === goal.card);
      const item = el("li", "puzzle-goal");
      item.appendChild(el("span", "goal-text", t("puzzles.goal", { card: card ? cardName(card) : goal.card, mission: card ? missionText(card) : "", points: tn("unit.points", goal.points) })));
      const action = model.goals.get(goal.card);
      if (action) {
        const b = button(t("puzzles.reveal", { card: card ? cardName(card) : goal.card }), { className: "btn btn-small", dataAction: "reveal", onClick: () => play(action) });
        b.dataset.card = goal.card;
        item.appendChild(b);
      }
      list.appendChild(item);
    }
    board.appendChild(list);
  }
}

/** Draw the page; `keepFocus`: give the focus back afterwards (not on the first load,
 *  where it stays at the top of the page). */
function render({ keepFocus = true } = {}) {
  const puzzle = state.puzzle;
  const root = $("main.puzzles");
  const focused = keepFocus ? focusKey(root) : null;
  renderList();
  if (!puzzle) return;
  const view = state.view;
  const seat = puzzle.seat;
  $("#puzzle-title").textContent = t("puzzles.title", { n: state.list.findIndex((p) => p.id === puzzle.id) + 1, level: t(`puzzles.level.${puzzle.level}`) });
  $("#puzzle-question").textContent = t(`puzzles.question.${puzzle.question}`);
  const model = interaction(view, state.ui);
  const prompt = model.prompt ? t(model.prompt.key, { ...model.prompt.params, design: model.prompt.params?.design ? designName(model.prompt.params.design) : undefined, kind: model.prompt.params?.kind ? t(`totem.${model.prompt.params.kind}`) : undefined }) : "";
  $("#puzzle-prompt").textContent = state.feedback?.finished ? "" : prompt;
  const feedback = $("#puzzle-feedback");
  feedback.textContent = state.feedback ? state.feedback.text : "";
  feedback.dataset.state = state.feedback ? state.feedback.kind : "";
  const targets = altarTargets(view.altars[seat], model.cells, state.ui, run);
  const svg = $("#puzzle-altar");
  // a hint's cells are outlined as the analysis outlines a best move (green)
  const hinted = state.feedback?.cells || [];
  const marks = hinted.length ? new Map(hinted.map((key) => [key, "best"])) : null;
  renderAltar(svg, view.altars[seat], { targets, marks, showHeights: true, minWidth: 4 * 64, minHeight: 220 });
  const score = t("puzzles.altar_label", { points: tn("unit.points", view.seats[seat].score.total) });
  svg.setAttribute("aria-label", score);
  $("#puzzle-score").textContent = score;
  renderBoard(model);
  const actions = $("#puzzle-actions");
  actions.replaceChildren();
  for (const spec of model.buttons) {
    const params = { ...spec.params };
    if (params.design) params.design = designName(params.design);
    if (params.kind) params.kind = t(`totem.${params.kind}`);
    const b = button(t(spec.key, params), { className: `btn${spec.primary ? " btn-primary" : ""}`, dataAction: spec.dataAction, onClick: () => run(spec) });
    actions.appendChild(b);
  }
  $("#puzzle").dataset.moves = String(state.moves.length); // drawn after the server's verdict
  $("#puzzle-undo").disabled = state.moves.length === 0;
  $("#puzzle-hint").disabled = Boolean(state.feedback?.finished);
  restoreFocus(root, focused, { mine: !state.feedback?.finished, next: NEXT_TARGETS, parking: PARKING });
}

/** Show puzzle `id`; `from`: "list" (its title takes the focus, so the next Tab is in
 *  the puzzle), "load" (the page's first puzzle: the focus is left alone). */
async function open(id, from = "") {
  const puzzle = await api.puzzle(id);
  state.puzzle = puzzle;
  state.view = puzzle.view;
  state.moves = [];
  state.ui = {};
  state.feedback = null;
  history.replaceState(null, "", `?p=${encodeURIComponent(id)}`);
  render({ keepFocus: from === "" });
  if (from === "list") $("#puzzle-title").focus();
}

async function check() {
  const result = await api.checkPuzzle(state.puzzle.id, state.moves);
  state.view = result.view;
  state.ui = {};
  if (result.solved) {
    markSolved(state.puzzle.id);
    state.feedback = { kind: "solved", finished: true, text: t("puzzles.solved", { points: tn("unit.points", result.points) }) };
  } else if (result.finished) {
    state.feedback = { kind: "wrong", finished: true, text: t("puzzles.finished_short", { points: tn("unit.points", result.points ?? 0), best: tn("unit.points", result.best) }) };
  } else if (!result.correct) {
    state.feedback = { kind: "wrong", finished: false, text: t("puzzles.wrong") };
  } else {
    state.feedback = state.moves.length ? { kind: "right", finished: false, text: t("puzzles.right") } : null;
  }
  render();
}

async function play(action) {
  state.moves.push(action);
  try {
    await check();
  } catch (err) {
    state.moves.pop();
    state.feedback = { kind: "error", text: String(err.message || err) };
    render();
  }
}

async function hint() {
  const result = await api.puzzleHint(state.puzzle.id, state.moves);
  if (result.action) {
    // its cells are outlined on the altar until the next verdict replaces this feedback
    const cells = actionCells(result.action);
    const move = actionText(result.action, new Map(state.view.deck.map((c) => [c.id, c])));
    state.feedback = { kind: "hint", finished: false, cells, text: t(cells.length ? "puzzles.hint_on_altar" : "puzzles.hint", { move }) };
  } else {
    state.feedback = { kind: "wrong", finished: false, text: t("puzzles.hint_none") };
  }
  render();
}

async function main() {
  await initI18n();
  $("#lang-slot").appendChild(languageSwitcher());
  onLanguageChange(() => render());
  state.list = (await api.puzzles()).puzzles;
  $("#puzzle-hint").addEventListener("click", () => state.puzzle && hint());
  $("#puzzle-undo").addEventListener("click", () => {
    if (!state.puzzle || !state.moves.length) return;
    state.moves.pop();
    check();
  });
  $("#puzzle-reset").addEventListener("click", () => state.puzzle && open(state.puzzle.id));
  $("#puzzle-list").addEventListener("scroll", markMoreBelow, { passive: true });
  addEventListener("resize", markMoreBelow);
  const wanted = new URLSearchParams(location.search).get("p");
  const solved = solvedSet();
  const first = state.list.find((p) => p.id === wanted) || state.list.find((p) => !solved.has(p.id)) || state.list[0];
  if (first) await open(first.id, "load");
  else render();
  document.body.dataset.ready = "true";
}

main();
