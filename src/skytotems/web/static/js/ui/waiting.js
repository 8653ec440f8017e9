// The panel of a table still waiting for players: open seats, invite links, joining,
// and cancelling the table.

import { $, button, el } from "../dom.js";
import { t, tn } from "../i18n.js";

/** "Cancel screen table", asked twice: the second step says what closing means (the
 *  step survives re-renders in `ui.cancelAsked`). */
export function cancelNode(screen) {
  const node = el("div", "cancel-table");
  const again = () => renderWaiting(screen);
  if (!screen.ui.cancelAsked) {
    node.appendChild(
      button(t("waiting.cancel"), {
        className: "btn btn-small",
        dataAction: "cancel-table",
        onClick: () => {
          screen.ui.cancelAsked = true;
          again();
        },
      }),
    );
    return node;
  }
  node.append(
    el("p", "", t("waiting.cancel_confirm")),
    button(t("waiting.cancel_yes"), {
      className: "btn btn-small btn-danger",
      dataAction: "cancel-table-confirm",
      onClick: () => {
        screen.ui.cancelAsked = false;
        screen.hooks.cancel();
      },
    }),
    button(t("waiting.cancel_no"), {
      className: "btn btn-small",
      onClick: () => {
        screen.ui.cancelAsked = false;
        again();
      },
    }),
  );
  return node;
}

export function renderWaiting(screen) {
  const box = $("#waiting", screen.root);
  if (!box) return;
  box.replaceChildren();
  const summary = screen.summary;
  const waiting = screen.extra.status === "waiting" && !screen.extra.replay;
  box.hidden = !waiting;
  if (!waiting || !summary) return;
  box.appendChild(el("h2", "", t("waiting.title")));
  const open = summary.seats.filter((s) => s.kind === "open");
  box.appendChild(el("p", "", tn("waiting.open_seats", open.length)));
  if (screen.hooks.inviteLinks) {
    const links = screen.hooks.inviteLinks();
    if (links.length) {
      const list = el("ul", "invite-list");
      for (const link of links) {
        const li = el("li");
        li.appendChild(el("span", "", link.label));
        const input = el("input", "invite-link");
        input.readOnly = true;
        input.value = link.url;
        li.appendChild(input);
        li.appendChild(button(t("button.copy"), { className: "btn btn-small", onClick: () => navigator.clipboard?.writeText(link.url) }));
        list.appendChild(li);
      }
      box.appendChild(list);
    }
  }
  if (screen.player !== null && screen.hooks.cancel) box.appendChild(cancelNode(screen));
  if (screen.player === null && open.length && screen.hooks.join) {
    const form = el("form", "join-form");
    const input = el("input");
    input.name = "name";
    input.required = true;
    input.maxLength = 40;
    input.placeholder = t("lobby.your_name");
    input.value = screen.hooks.defaultName?.() || "";
    form.appendChild(input);
    form.appendChild(button(t("button.join"), { className: "btn btn-primary", dataAction: "join" }));
    form.querySelector("button").type = "submit";
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      if (input.value.trim()) screen.hooks.join(input.value.trim());
    });
    box.appendChild(form);
  }
}
