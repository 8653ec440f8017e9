// Keeping the keyboard focus across a re-render: what had it before, so the same target
// (or, once it is gone, the next sensible one) gets it back and a player on the keyboard
// never restarts from the top of the page after a move. Used by the table screen
// (screen.js) and the puzzles page (puzzles.js), each with its own list of targets.

// A card's button names its card before its action, so choosing a starting card keeps
// the focus on that card ("Start with ...").
const FOCUS_KEYS = ["card", "cell", "slot", "design", "action", "seat", "puzzle"];

const usable = (node) => node && !node.disabled && node.isConnected && node.getClientRects().length > 0;

/** What has the focus under `root` now; null when the focus is outside it (a menu, the
 *  log: leave it), {lost: true} when nothing has it. Call before re-rendering. */
export function focusKey(root) {
  const active = document.activeElement;
  if (!active || active === document.body) return { lost: true };
  if (!root.contains(active)) return null;
  for (const key of FOCUS_KEYS) {
    if (active.dataset?.[key] !== undefined) return { key, value: active.dataset[key], id: active.id };
  }
  return active.id ? { id: active.id } : { lost: true };
}

/**
 * After re-rendering: give the focus back (`before` from focusKey).
 *   mine:    the viewer has a decision to make: a lost focus goes to its first target
 *   next:    selectors of a decision's targets, the first found first
 *   parking: id of where the focus waits when its target is gone and nothing is the
 *            viewer's to do; the viewer's next decision takes it from there
 */
export function restoreFocus(root, before, { mine, next, parking }) {
  if (!before) return;
  const active = document.activeElement;
  const parked = active?.id === parking;
  if (active && active !== document.body && usable(active) && !(parked && mine)) return;
  let target = null;
  if (before.id && before.id !== parking) target = document.getElementById(before.id);
  if (!usable(target)) target = null;
  if (!target && before.key) {
    const attr = before.key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
    const value = CSS.escape(before.value);
    target = [...root.querySelectorAll(`[data-${attr}="${value}"][tabindex], button[data-${attr}="${value}"]`)].find(usable) || null;
  }
  if (!target && mine) {
    for (const selector of next) {
      target = [...root.querySelectorAll(selector)].find(usable);
      if (target) break;
    }
  }
  if (!target && !before.lost && !parked) {
    document.getElementById(parking)?.focus({ preventScroll: true });
    return;
  }
  target?.focus({ preventScroll: !before.key && !before.id });
}
