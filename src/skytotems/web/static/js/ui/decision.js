// From the view's decision and legal actions to what the player can click.
// The browser never computes a rule: every target below is named by a legal action,
// and clicking a target sends that very action back (or narrows a multi-step choice,
// such as the cells of a totem, among legal actions).

import { cellKey } from "../render/altar.js";

const TOTEM_SIZE = { bird: 3, wolf: 3, horse: 2, dragon: 3, cat: 1 };

function sameCells(a, b) {
  return a.length === b.length && a.every((key) => b.includes(key));
}

/** The decision kind as its owner sees it. Views give the owner's form; should one
 * give the public form (the end-of-turn prompt reads "turn" with acted: true), the
 * legal actions still tell the prompt apart. */
export function effectiveKind(view) {
  const decision = view.decision;
  if (!decision) return null;
  const types = new Set(view.legal_actions.map((a) => a.type));
  if (decision.kind === "turn" && types.has("end_turn")) return "end_turn";
  return decision.kind;
}

/**
 * What the viewer may do now.
 *   view: the server's view; ui: local selections {design, totemKind, totemCells, startCard}
 * Returns {
 *   mine, seat, kind, prompt: {key, params},
 *   buttons: [{key, params, action|command, primary, dataAction, tipKey}],
 *   cells: Map cellKey -> {style, action|command, ghost, selected, candidate},
 *   slots: Map slot -> action, drawBag: action|null, bagDesigns: Map design -> action,
 *   pool: {designs, selected, selectable} | null,
 *   goals: Map card -> action, start: {seat, cards: Map card -> action, selected} | null,
 *   totemKinds: Map kind -> [actions], single: action|null
 * }
 */
export function interaction(view, ui = {}) {
  const legal = view.legal_actions || [];
  const model = {
    mine: legal.length > 0,
    seat: legal.length ? legal[0].seat : null,
    kind: effectiveKind(view),
    prompt: null,
    buttons: [],
    cells: new Map(),
    slots: new Map(),
    drawBag: null,
    bagDesigns: new Map(),
    pool: null,
    goals: new Map(),
    start: null,
    totemKinds: new Map(),
    single: legal.length === 1 ? legal[0] : null,
  };
  if (!model.mine) return model;
  const seat = model.seat;
  const mineNow = legal.filter((a) => a.seat === seat);
  const of = (type) => mineNow.filter((a) => a.type === type);
  for (const action of of("reveal")) model.goals.set(action.card, action);
  const context = view.decision.context || {};

  switch (model.kind) {
    case "choose_start": {
      const cards = new Map(of("choose_start").map((a) => [a.card, a]));
      const selected = cards.has(ui.startCard) ? ui.startCard : null;
      model.start = { seat, cards, selected };
      model.prompt = { key: view.solo ? "prompt.choose_start_solo" : "prompt.choose_start", params: { altar: seat + 1 } };
      if (selected) {
        model.buttons.push({ key: "button.start_with", params: { card: selected }, action: cards.get(selected), primary: true, dataAction: "confirm" });
      }
      model.single = null; // the starting card is always the player's own choice
      break;
    }
    case "turn":
    case "dragon_build": {
      for (const action of of("take_slot")) model.slots.set(action.slot, action);
      model.drawBag = of("draw_from_bag")[0] || null;
      for (const action of of("build_totem")) {
        if (!model.totemKinds.has(action.kind)) model.totemKinds.set(action.kind, []);
        model.totemKinds.get(action.kind).push(action);
      }
      const pass = of("pass")[0];
      if (model.kind === "dragon_build") {
        model.prompt = { key: model.drawBag ? "prompt.dragon_draw" : "prompt.dragon" };
      } else if (context.mode === "final") {
        model.prompt = { key: model.totemKinds.size ? "prompt.turn_final" : "prompt.turn_final_none" };
      } else {
        const base = context.mode === "extra" ? "prompt.turn_extra" : "prompt.turn";
        model.prompt = { key: model.drawBag ? `${base}_draw` : base };
      }
      if (ui.totemKind && model.totemKinds.has(ui.totemKind)) {
        totemChoice(model, ui);
      } else {
        for (const [kind, actions] of model.totemKinds) {
          model.buttons.push({ key: "button.build", params: { kind }, command: { type: "totem-kind", kind }, kind, count: actions.length, dataAction: `totem-${kind}` });
        }
      }
      if (pass) model.buttons.push({ key: "button.pass", action: pass, primary: !model.totemKinds.size, dataAction: "pass" });
      break;
    }
    case "place_pedestal": {
      const pool = context.pool || [];
      const places = of("place_pedestal");
      const returns = new Map(of("return_pedestal").map((a) => [a.design, a]));
      const designs = [...new Set(pool)];
      const selected = designs.includes(ui.design) ? ui.design : designs[0];
      model.pool = { designs: pool, selected, selectable: designs.length > 1 };
      for (const action of places) {
        if (action.design !== selected) continue;
        model.cells.set(cellKey(action.cell), { style: "place", action, ghost: selected });
      }
      // a pedestal no cell can take can only go back: say so and make that the main button
      const nowhere = model.cells.size === 0;
      model.prompt = { key: nowhere ? "prompt.place_pedestal_none" : "prompt.place_pedestal", params: { design: selected, count: pool.length } };
      const ret = returns.get(selected);
      if (ret) model.buttons.push({ key: "button.return", params: { design: selected }, action: ret, primary: nowhere, dataAction: "return", tipKey: "tip.return" });
      // the pool pedestal may be chosen freely: a one-option shortcut would hide that
      model.single = null;
      break;
    }
    case "place_cloud": {
      for (const action of of("place_cloud")) model.cells.set(cellKey(action.cell), { style: "cloud", action });
      const why = context.why || "return";
      model.prompt = { key: `prompt.cloud_${why}`, params: { remaining: context.remaining ?? 1 } };
      break;
    }
    case "choose_design": {
      for (const action of of("choose_design")) model.bagDesigns.set(action.design, action);
      if (context.purpose === "cat") {
        model.prompt = context.first
          ? { key: "prompt.design_cat_second", params: { first: context.first } }
          : { key: "prompt.design_cat" };
      } else {
        model.prompt = { key: "prompt.design_reward" };
      }
      break;
    }
    case "choose_cat": {
      for (const action of of("choose_cat")) model.cells.set(cellKey(action.cell), { style: "cat", action });
      model.prompt = { key: "prompt.choose_cat" };
      break;
    }
    case "wolf_blessing": {
      for (const action of of("wolf_take")) model.cells.set(cellKey(action.cell), { style: "wolf", action });
      const stop = of("wolf_stop")[0];
      model.prompt = { key: model.cells.size ? "prompt.wolf" : "prompt.wolf_none" };
      if (stop) model.buttons.push({ key: "button.wolf_stop", action: stop, primary: !model.cells.size, dataAction: "stop" });
      break;
    }
    case "end_turn": {
      const end = of("end_turn")[0];
      // with the table's confirmation of every turn the prompt comes with nothing to
      // reveal too: it still waits for the player's click (RULES.md §11)
      model.prompt = { key: model.goals.size ? "prompt.end_turn" : "prompt.end_turn_confirm" };
      if (end) model.buttons.push({ key: "button.end_turn", action: end, primary: true, dataAction: "end_turn" });
      model.single = null;
      break;
    }
    case "last_reveal": {
      const end = of("end_turn")[0];
      model.prompt = { key: model.goals.size ? "prompt.last_reveal" : "prompt.last_reveal_confirm" };
      if (end) model.buttons.push({ key: "button.done", action: end, primary: true, dataAction: "done" });
      model.single = null;
      break;
    }
    default:
      model.prompt = { key: "prompt.unknown" };
  }
  return model;
}

/** Cells of a totem being chosen: narrow the legal options by the cells clicked so far. */
function totemChoice(model, ui) {
  const kind = ui.totemKind;
  const options = model.totemKinds.get(kind).map((action) => ({ action, cells: action.cells.map(cellKey) }));
  const chosen = (ui.totemCells || []).filter((key) => options.some((o) => o.cells.includes(key)));
  const fits = options.filter((o) => chosen.every((key) => o.cells.includes(key)));
  const resolved = fits.length === 1 ? fits[0] : fits.find((o) => sameCells(o.cells, chosen)) || null;
  model.slots.clear();
  model.drawBag = null;
  if (resolved) {
    for (const key of resolved.cells) {
      model.cells.set(key, { style: "totem", selected: true, command: { type: "totem-cell", key } });
    }
    model.prompt = { key: "prompt.totem_confirm", params: { kind } };
    model.buttons.push({ key: "button.build_here", params: { kind }, action: resolved.action, primary: true, dataAction: "confirm" });
  } else {
    for (const option of fits) {
      for (const key of option.cells) {
        const isChosen = chosen.includes(key);
        model.cells.set(key, { style: "totem", selected: isChosen, candidate: !isChosen, command: { type: "totem-cell", key } });
      }
    }
    model.prompt = { key: chosen.length ? "prompt.totem_more" : "prompt.totem_cells", params: { kind, size: TOTEM_SIZE[kind] ?? 3 } };
  }
  model.buttons.push({ key: "button.cancel", command: { type: "totem-cancel" }, dataAction: "cancel" });
  model.single = null;
}
