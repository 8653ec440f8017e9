// Small DOM helpers shared by the table screen's parts.

export const $ = (selector, root = document) => root.querySelector(selector);

export function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

export function button(label, { className = "btn", onClick, dataAction, tip, disabled } = {}) {
  const b = el("button", className);
  b.type = "button";
  if (label instanceof Node) b.appendChild(label);
  else b.textContent = label;
  if (dataAction) b.dataset.action = dataAction;
  if (tip) b.dataset.tip = tip;
  if (disabled) b.disabled = true;
  if (onClick) b.addEventListener("click", onClick);
  return b;
}
