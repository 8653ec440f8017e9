// On a phone the game log and the chat would sit thousands of pixels down the page
// (issue 15, bug 10): there the panel they share is a drawer fixed at the bottom of the
// screen. Closed, it shows its tabs and the newest line; the handle (or a tab) opens it
// over the lower part of the screen, and the handle or Escape closes it. On wider
// screens the panel stays in the rail and the handle is not shown.

import { t } from "../i18n.js";
import { hideTooltip } from "./tooltip.js";

const PHONE = "(max-width: 600px)";

export class LogDrawer {
  constructor(panel, handle) {
    this.panel = panel;
    this.handle = handle;
    this.open = false;
    this.phone = matchMedia(PHONE);
    handle.addEventListener("click", () => this.setOpen(!this.open));
    // choosing the log or the chat on a phone is asking to read it
    for (const tab of panel.querySelectorAll("[role=tab]")) {
      tab.addEventListener("click", () => {
        if (this.phone.matches) this.setOpen(true);
      });
    }
    panel.addEventListener("keydown", (event) => {
      if (event.key !== "Escape" || !this.open || !this.phone.matches) return;
      this.setOpen(false);
      handle.focus();
    });
    this.render();
  }

  setOpen(open) {
    this.open = open;
    hideTooltip(); // its tip named the other state
    this.render();
  }

  render() {
    this.panel.classList.toggle("drawer-open", this.open);
    this.handle.setAttribute("aria-expanded", String(this.open));
    const label = t(this.open ? "rail.drawer_close" : "rail.drawer_open");
    this.handle.setAttribute("aria-label", label);
    this.handle.dataset.tip = label;
    this.handle.textContent = this.open ? "▾" : "▴";
  }
}
