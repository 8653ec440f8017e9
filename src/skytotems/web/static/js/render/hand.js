// The viewer's own cards: the starting-card choice of the setup and the goal cards
// (hidden, revealable, revealed) beside the altar.

import { $, el } from "../dom.js";
import { t } from "../i18n.js";
import { cardElement, cardName } from "./cards.js";

export function renderStartChoice(screen, model) {
  const view = screen.view;
  const panel = $("#start-choice", screen.root);
  panel.replaceChildren();
  const show =
    view.phase === "setup" &&
    view.decision?.kind === "choose_start" &&
    screen.extra.status !== "waiting" &&
    screen.extra.status !== "expired" &&
    (model.start !== null || screen.mySeats.length > 0);
  panel.hidden = !show;
  if (!show) return;
  if (model.start) {
    const seat = model.start.seat;
    const hand = view.seats[seat].hand || [...model.start.cards.keys()];
    panel.appendChild(el("h2", "", view.solo ? t("start.title_solo", { n: seat + 1 }) : t("start.title")));
    panel.appendChild(el("p", "start-help", t("start.help")));
    const row = el("div", "start-cards");
    for (const id of hand) {
      const card = screen.deck.get(id);
      if (!card) continue;
      const action = model.start.cards.get(id);
      const selected = model.start.selected === id;
      row.appendChild(
        cardElement(card, {
          mode: "hand",
          selected,
          clickWhole: true,
          actionLabel: selected ? t("start.chosen_here") : t("start.choose"),
          actionName: selected ? t("button.start_with", { card: cardName(card) }) : t("a11y.pick_start", { card: cardName(card) }),
          actionClass: selected ? "btn-primary" : "",
          dataAction: selected ? "confirm-card" : "pick-card",
          onClick: () => (selected ? screen.run({ action }) : screen.run({ command: { type: "start-card", card: id } })),
        }),
      );
    }
    panel.appendChild(row);
  } else {
    const mine = screen.mySeats.find((s) => view.seats[s]?.start_card);
    panel.appendChild(el("h2", "", t("start.waiting")));
    if (mine !== undefined) {
      const card = screen.deck.get(view.seats[mine].start_card);
      if (card) {
        const row = el("div", "start-cards");
        row.appendChild(cardElement(card, { mode: "start" }));
        panel.appendChild(row);
      }
    }
  }
}

export function renderMyCards(screen, model) {
  const view = screen.view;
  const box = $("#my-cards", screen.root);
  box.replaceChildren();
  const startBox = $("#my-start", screen.root);
  startBox.replaceChildren();
  const seats = view.solo ? [screen.mainSeat()] : screen.mySeats.filter((s) => s < view.seats_count);
  const section = $("#my-panel", screen.root);
  section.hidden = !seats.length;
  for (const seat of seats) {
    const entry = view.seats[seat];
    if (!entry) continue;
    const goals = entry.goals || [];
    if (view.phase === "setup" && !entry.start_card) continue;
    for (const goal of goals) {
      const card = screen.deck.get(goal.card);
      if (!card) continue;
      const action = model.goals.get(goal.card);
      const canClick = action && model.seat === seat && !screen.extra.replay;
      const node = cardElement(card, {
        mode: "goal",
        revealable: goal.revealable,
        onClick: canClick ? () => screen.run({ action }) : null,
        actionLabel: t("card.reveal", { points: goal.points }),
        actionName: t("a11y.reveal_card", { card: cardName(card), points: goal.points }),
        hintKey: view.phase === "over" ? "card.never_revealed" : "card.not_yet",
        actionClass: "btn-gold target",
        dataAction: "reveal",
      });
      box.appendChild(node);
    }
    for (const id of entry.revealed) {
      const card = screen.deck.get(id);
      if (card) box.appendChild(cardElement(card, { mode: "revealed" }));
    }
    if (entry.start_card) {
      const card = screen.deck.get(entry.start_card);
      if (card) {
        const start = cardElement(card, { mode: "start" });
        start.classList.add("compact");
        startBox.appendChild(start);
      }
    }
  }
  // the starting card under its own heading: it is no goal and scores nothing
  box.hidden = box.childElementCount === 0;
  $("#my-cards-title", screen.root).hidden = box.hidden;
  startBox.hidden = startBox.childElementCount === 0;
  $("#my-start-title", screen.root).hidden = startBox.hidden;
  section.hidden = box.hidden && startBox.hidden;
}
