// The game log: each engine or server event as a sentence, through the translation files.
// Events come filtered for the viewer (docs/wire-format.md, Events).

import { t, tNodes, tn } from "./i18n.js";
import { designChip, designsChips, playerChip, totemChip } from "./ui/chips.js";
import { cardName } from "./render/cards.js";

/**
 * Turn one event into a log entry, or null when it says nothing worth reading.
 * ctx: {names: [seat -> name], playerNames: [player -> name], cards: Map id -> card,
 *       me: Set of my seats, solo: boolean}
 * Returns {node, seat, cells: [cellKey], kind: "turn"|"round"|"info"|...}
 */
export function describe(event, ctx) {
  const p = (seat) => playerChip(ctx.names[seat] ?? t("player.seat", { n: seat + 1 }), seat);
  const pp = (player) => playerChip(ctx.playerNames[player] ?? t("player.seat", { n: player + 1 }), player);
  const card = (id) => {
    const found = ctx.cards.get(id);
    const span = document.createElement("strong");
    span.className = "card-ref";
    span.textContent = found ? cardName(found) : id;
    return span;
  };
  const cellOf = (c) => `${c[0]},${c[1]}`;
  const entry = (key, params, extra = {}) => ({ node: tNodes(key, params), ...extra });
  switch (event.type) {
    case "totem_set":
      return entry("log.totem_set", { kinds: kindsNode(event.kinds) }, { kind: "info" });
    case "start_player":
      return entry("log.start_player", { player: p(event.seat) }, { seat: event.seat });
    case "cards_dealt":
      return null;
    case "start_chosen":
      return event.card
        ? entry("log.start_chosen_own", { player: p(event.seat), card: card(event.card) }, { seat: event.seat })
        : entry("log.start_chosen", { player: p(event.seat) }, { seat: event.seat });
    case "start_cards_revealed": {
      const list = document.createElement("span");
      event.cards.forEach((id, seat) => {
        if (seat) list.appendChild(document.createTextNode(t("list.sep")));
        list.appendChild(p(seat));
        list.appendChild(document.createTextNode(t("log.colon")));
        list.appendChild(card(id));
      });
      return entry("log.start_cards", { list });
    }
    case "pedestals_drawn": {
      const params = { player: p(event.seat), designs: designsChips(event.designs) };
      if (event.source === "start") return entry("log.drawn_start", params, { seat: event.seat });
      if (event.source === "draw") {
        return event.designs.length
          ? entry("log.drawn_bag", params, { seat: event.seat })
          : entry("log.drawn_nothing", params, { seat: event.seat });
      }
      if (event.source === "bird") return entry("log.drawn_bird", params, { seat: event.seat });
      if (event.source === "hoard") return null; // hoard_added says it
      return null; // wolf: each pedestal_placed says it
    }
    case "slot_filled":
      return entry("log.slot_filled", { slot: event.slot + 1, designs: designsChips(event.designs) }, { kind: "minor" });
    case "slot_taken":
      return entry("log.slot_taken", { player: p(event.seat), slot: event.slot + 1, designs: designsChips(event.designs) }, { seat: event.seat });
    case "pedestal_placed": {
      if (event.source === "start") return null;
      const key = event.source === "wolf" ? "log.placed_wolf" : "log.placed";
      return entry(key, { player: p(event.seat), design: designChip(event.design) }, { seat: event.seat, cells: [cellOf(event.cell)] });
    }
    case "pedestal_returned":
      return entry("log.returned", { player: p(event.seat), design: designChip(event.design) }, { seat: event.seat });
    case "cloud_placed":
      return entry("log.cloud", { player: p(event.seat) }, { seat: event.seat, cells: [cellOf(event.cell)] });
    case "totem_built":
      return entry(event.kind === "cat" ? "log.cat_arrives" : "log.totem_built", {
        player: p(event.seat),
        totem: totemChip(event.kind),
        height: event.height,
        points: tn("unit.points", event.points),
      }, { seat: event.seat, cells: event.cells.map(cellOf), kind: "highlight" });
    case "hoard_added":
      return entry("log.hoard", { player: p(event.seat), design: designChip(event.design) }, { seat: event.seat });
    case "card_revealed":
      return entry("log.revealed", { player: p(event.seat), card: card(event.card), points: tn("unit.points", event.points) }, { seat: event.seat, kind: "highlight" });
    case "design_chosen":
      return entry(event.purpose === "cat" ? "log.chosen_cat" : "log.chosen_reward", { player: p(event.seat), design: designChip(event.design) }, { seat: event.seat });
    case "nothing_gained":
      return entry("log.nothing_gained", { player: p(event.seat) }, { seat: event.seat });
    case "turn_started": {
      const key = { normal: "log.turn", extra: "log.turn_extra", final: "log.turn_final" }[event.mode] || "log.turn";
      return entry(key, { player: p(event.seat), round: event.round }, { seat: event.seat, kind: "turn" });
    }
    case "turn_ended":
      return null;
    case "passed":
      return entry("log.passed", { player: p(event.seat) }, { seat: event.seat });
    case "round_ended":
      return entry("log.round_ended", { round: event.round, player: p(event.next_start_player) }, { kind: "round" });
    case "phase_started":
      return entry(`log.phase_${event.phase}`, {}, { kind: "round" });
    case "game_ended": {
      if (ctx.solo) {
        return entry("log.game_ended_solo", { total: event.totals.reduce((a, b) => a + b, 0) }, { kind: "round" });
      }
      const best = Math.min(...event.places);
      const winners = event.places.map((place, seat) => (place === best ? seat : null)).filter((s) => s !== null);
      const span = document.createElement("span");
      winners.forEach((seat, i) => {
        if (i) span.appendChild(document.createTextNode(t("list.sep")));
        span.appendChild(p(seat));
      });
      return entry(winners.length > 1 ? "log.game_ended_shared" : "log.game_ended", { players: span }, { kind: "round" });
    }
    // the server's own events
    case "player_joined":
      return entry("log.joined", { player: playerChip(event.name, event.player) }, { kind: "info" });
    case "table_expired":
      return entry("log.table_expired", {}, { kind: "info" });
    case "table_cancelled":
      return entry("log.table_cancelled", { player: pp(event.player) }, { kind: "info" });
    case "table_abandoned":
      return entry("log.table_abandoned", { level: t(`bot.level.${event.level}`) }, { kind: "info" });
    case "undone":
      return entry("log.undone", { player: pp(event.player) }, { kind: "info" });
    case "time_out":
      return entry("log.time_out", { player: pp(event.player) }, { kind: "info" });
    case "taken_over":
      return entry("log.taken_over", { player: pp(event.player), level: t(`bot.level.${event.level}`) }, { kind: "info" });
    default:
      return null;
  }
}

function kindsNode(kinds) {
  const span = document.createElement("span");
  span.className = "chips";
  kinds.forEach((k) => span.appendChild(totemChip(k)));
  return span;
}

/** The log panel: newest entry at the top, hovering an entry highlights its cells. */
export class GameLog {
  constructor(list, { onHover } = {}) {
    this.list = list;
    this.onHover = onHover;
    this.events = [];
  }

  clear() {
    this.list.replaceChildren();
    this.events = [];
  }

  /** Write every entry again (after a change of language). */
  rerender(ctx) {
    const events = this.events;
    this.clear();
    this.add(events, ctx);
  }

  /** Add entries for `events`; returns what was written ({seat, text}), oldest first. */
  add(events, ctx) {
    const written = [];
    for (const event of events) {
      this.events.push(event);
      const described = describe(event, ctx);
      if (!described) continue;
      const li = document.createElement("li");
      li.className = `log-entry log-${described.kind || "move"}`;
      if (described.seat !== undefined) li.dataset.seat = String(described.seat);
      li.appendChild(described.node);
      if (described.cells && this.onHover) {
        li.addEventListener("pointerenter", () => this.onHover(described.seat, described.cells));
        li.addEventListener("pointerleave", () => this.onHover(null, null));
      }
      this.list.prepend(li);
      written.push({ seat: described.seat, kind: described.kind, text: li.textContent });
    }
    while (this.list.childElementCount > 600) this.list.lastElementChild.remove();
    if (this.events.length > 3000) this.events.splice(0, this.events.length - 3000);
    return written;
  }
}
