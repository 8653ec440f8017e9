// The players' column: one panel per seat with its name, score, clock, mini altar,
// cards and hoard.

import { $, button, el } from "../dom.js";
import { t, tn } from "../i18n.js";
import { designIcon, svgEl } from "../pieces.js";
import { SEAT_COLOURS, playerChip } from "../ui/chips.js";
import { takeableSeats } from "../ui/clocks.js";
import { renderAltar } from "./altar.js";
import { cardBack, cardName } from "./cards.js";

export function renderPlayers(screen) {
  const view = screen.view;
  const list = $("#players", screen.root);
  list.replaceChildren();
  const main = screen.mainSeat();
  for (let seat = 0; seat < view.seats_count; seat++) {
    const entry = view.seats[seat];
    const scoreBefore = screen.lastScores?.[seat];
    const scored = screen.animate && scoreBefore !== undefined && scoreBefore !== entry.score.total;
    const panel = el("section", `player-panel${seat === main ? " is-main" : ""}${view.decision?.seats?.includes(seat) ? " acting" : ""}${screen.isMine(seat) ? " me" : ""}${scored ? " scored" : ""}`);
    panel.dataset.seat = String(seat);
    panel.style.setProperty("--seat-colour", SEAT_COLOURS[seat % SEAT_COLOURS.length]);
    const head = el("header", "player-head");
    head.appendChild(playerChip(screen.seatName(seat), seat));
    if (view.start_player === seat) {
      const marker = el("span", "start-marker", "★");
      marker.dataset.tip = t("tip.start_player");
      marker.setAttribute("aria-label", t("tip.start_player"));
      head.appendChild(marker);
    }
    const score = el("span", "player-score", String(entry.score.total));
    score.dataset.tip = t("tip.score", entry.score);
    head.appendChild(score);
    if (!view.solo || seat === 0) {
      const clock = el("span", "clock");
      clock.dataset.player = String(view.solo ? 0 : seat);
      head.appendChild(clock);
    }
    panel.appendChild(head);
    // a human whose clock ran out may be handed to a bot by another player
    const seatInfo = screen.summary?.seats?.[seat];
    if (takeableSeats(screen).includes(seat)) {
      panel.appendChild(button(t("button.takeover"), {
        className: "btn btn-small", dataAction: "takeover", tip: t("tip.takeover"),
        onClick: () => screen.hooks.takeover(seat),
      }));
    }

    const body = el("div", "player-body");
    const mini = svgEl("svg", { class: "mini-altar", role: "button", tabindex: "0" });
    mini.dataset.tip = t("tip.mini_altar", { name: screen.seatName(seat) });
    mini.setAttribute("aria-label", t("a11y.show_altar", { name: screen.seatName(seat) }));
    const miniKeys = renderAltar(mini, view.altars[seat], {
      mini: true,
      previousKeys: screen.animate ? screen.pieceKeys.get(`mini${seat}`) : null,
    });
    screen.pieceKeys.set(`mini${seat}`, miniKeys);
    const focus = () => {
      screen.ui.focusSeat = seat === screen.defaultMainSeat() ? null : seat;
      screen.render();
      $("#main-altar", screen.root)?.scrollIntoView({ block: "nearest", behavior: "smooth" });
    };
    mini.addEventListener("click", focus);
    mini.addEventListener("keydown", (e) => (e.key === "Enter" || e.key === " ") && focus());
    body.appendChild(mini);

    const info = el("div", "player-info");
    const cards = el("div", "player-cards");
    if (entry.start_card && screen.deck.get(entry.start_card)) {
      const start = el("span", "mini-card start");
      start.textContent = cardName(screen.deck.get(entry.start_card));
      start.dataset.tip = t("card.start_label") + "\n" + cardName(screen.deck.get(entry.start_card));
      cards.appendChild(start);
    }
    for (const id of entry.revealed) {
      const card = screen.deck.get(id);
      const chip = el("span", "mini-card revealed", `✓ ${card ? cardName(card) : id}`);
      chip.dataset.tip = card ? `${cardName(card)} (${tn("unit.points", card.points)})` : id;
      cards.appendChild(chip);
    }
    if (entry.goal_count && !screen.isMine(seat) && !view.solo) cards.appendChild(cardBack(entry.goal_count));
    if (view.phase === "setup") {
      cards.appendChild(el("span", `setup-state${entry.chosen ? " done" : ""}`, entry.chosen ? t("start.has_chosen") : t("start.choosing")));
    }
    info.appendChild(cards);
    const hoard = el("div", "hoard-strip");
    fillHoard(screen, hoard, view.altars[seat].hoard);
    info.appendChild(hoard);
    if (seatInfo?.kind === "bot") {
      const badge = el("span", "bot-badge", t("player.bot_badge"));
      badge.dataset.tip = t("tip.bot", { level: t(`bot.level.${seatInfo.level}`) });
      info.appendChild(badge);
    }
    body.appendChild(info);
    panel.appendChild(body);
    list.appendChild(panel);
  }
  screen.lastScores = view.seats.map((entry) => entry.score.total);
}

export function fillHoard(screen, container, hoard) {
  if (!container) return;
  container.replaceChildren();
  container.hidden = !hoard.length;
  if (!hoard.length) return;
  container.appendChild(el("span", "hoard-title", t("board.hoard")));
  for (const d of hoard) container.appendChild(designIcon(d, 20));
  container.dataset.tip = t("tip.hoard", { designs: hoard.map((d) => t(`design.${d}`)).join(t("list.sep")) });
}
