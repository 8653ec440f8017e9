// Tooltips for every piece and card: any element with data-tip="..." gets one,
// on mouse hover, on keyboard focus, or on a long press on a touch screen.

let box = null;
let pressTimer = null;

function ensureBox() {
  if (!box) {
    box = document.createElement("div");
    box.className = "tooltip";
    box.setAttribute("role", "tooltip");
    box.hidden = true;
    document.body.appendChild(box);
  }
  return box;
}

function tipOf(target) {
  const el = target instanceof Element ? target.closest("[data-tip]") : null;
  return el && el.dataset.tip ? el : null;
}

function show(el, x, y) {
  const tip = ensureBox();
  tip.textContent = el.dataset.tip;
  tip.hidden = false;
  const margin = 12;
  const rect = tip.getBoundingClientRect();
  let left = x + margin;
  let top = y + margin;
  if (left + rect.width > innerWidth - 4) left = Math.max(4, x - rect.width - margin);
  if (top + rect.height > innerHeight - 4) top = Math.max(4, y - rect.height - margin);
  tip.style.left = `${left}px`;
  tip.style.top = `${top}px`;
}

export function hideTooltip() {
  if (box) box.hidden = true;
}

export function installTooltips() {
  document.addEventListener("pointermove", (event) => {
    if (event.pointerType === "touch") return;
    const el = tipOf(event.target);
    if (el) show(el, event.clientX, event.clientY);
    else hideTooltip();
  });
  document.addEventListener("pointerdown", (event) => {
    clearTimeout(pressTimer);
    if (event.pointerType !== "touch") return;
    const el = tipOf(event.target);
    hideTooltip();
    if (el) pressTimer = setTimeout(() => show(el, event.clientX, event.clientY - 40), 450);
  });
  document.addEventListener("pointerup", () => clearTimeout(pressTimer));
  document.addEventListener("scroll", hideTooltip, true);
  document.addEventListener("focusin", (event) => {
    const el = tipOf(event.target);
    if (!el || event.target.matches(":not(:focus-visible)")) return;
    const rect = el.getBoundingClientRect();
    show(el, rect.left, rect.bottom);
  });
  document.addEventListener("focusout", hideTooltip);
}
