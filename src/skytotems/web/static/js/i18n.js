// Every text the player reads comes from i18n/<lang>.json through this module.
//   t("key", {name: "Ann"})           -> "…Ann…"      (placeholders are {name})
//   tn("key", 3, {...})               -> plural form: key.one / key.other
//   tNodes("key", {design: node})     -> a fragment, placeholders replaced by nodes
//   formatNumber(113.8, 1)            -> "113.8" (pt: "113,8")
//   applyI18n(root)                   -> fills [data-i18n], [data-i18n-attr]

export const LANGUAGES = ["en", "ja", "pt"];
const STORAGE_KEY = "skytotems.lang";

let current = "en";
let table = {};
let fallback = {};
const listeners = new Set();

function pickInitialLanguage() {
  const fromUrl = new URLSearchParams(location.search).get("lang");
  if (fromUrl && LANGUAGES.includes(fromUrl)) return fromUrl;
  const stored = localStorage.getItem(STORAGE_KEY);
  if (stored && LANGUAGES.includes(stored)) return stored;
  for (const wanted of navigator.languages || [navigator.language || "en"]) {
    const short = String(wanted).slice(0, 2).toLowerCase();
    if (LANGUAGES.includes(short)) return short;
  }
  return "en";
}

async function fetchLanguage(lang) {
  const url = new URL(`../i18n/${lang}.json`, import.meta.url);
  const response = await fetch(url);
  if (!response.ok) throw new Error(`cannot load ${lang}.json`);
  return response.json();
}

/** Load the language chosen before (or the browser's) and the English fallback. */
export async function initI18n() {
  fallback = await fetchLanguage("en");
  await setLanguage(pickInitialLanguage(), { quiet: true });
}

export async function setLanguage(lang, { quiet = false } = {}) {
  if (!LANGUAGES.includes(lang)) lang = "en";
  table = lang === "en" ? fallback : await fetchLanguage(lang);
  current = lang;
  localStorage.setItem(STORAGE_KEY, lang);
  document.documentElement.lang = lang;
  applyI18n(document);
  if (!quiet) for (const listener of listeners) listener(lang);
}

export const language = () => current;
export const onLanguageChange = (listener) => listeners.add(listener);

export function has(key) {
  return key in table || key in fallback;
}

function lookup(key) {
  if (key in table) return table[key];
  if (key in fallback) return fallback[key];
  console.warn(`i18n: missing key ${key}`);
  return key;
}

function fill(text, params) {
  return text.replace(/\{(\w+)\}/g, (whole, name) =>
    params && name in params ? String(params[name]) : whole,
  );
}

export function t(key, params) {
  return fill(lookup(key), params);
}

/** Plural forms: `key.one` for 1, `key.other` otherwise ({count} is filled in). */
export function tn(key, count, params = {}) {
  const form = count === 1 ? `${key}.one` : `${key}.other`;
  return t(form, { ...params, count });
}

/** `x` written as the UI language writes numbers ("113.8", pt "113,8"), with exactly
 *  `digits` decimals. */
export function formatNumber(x, digits = 0) {
  return new Intl.NumberFormat(current, { minimumFractionDigits: digits, maximumFractionDigits: digits }).format(x);
}

/** Like t, but placeholders may be DOM nodes (design chips, player names...). */
export function tNodes(key, params = {}) {
  return nodesFromText(lookup(key), params);
}

export function nodesFromText(text, params = {}) {
  const fragment = document.createDocumentFragment();
  const parts = text.split(/(\{\w+\})/);
  for (const part of parts) {
    const match = part.match(/^\{(\w+)\}$/);
    if (match && match[1] in params) {
      const value = params[match[1]];
      if (value instanceof Node) fragment.appendChild(value);
      else fragment.appendChild(document.createTextNode(String(value)));
    } else if (part) {
      fragment.appendChild(document.createTextNode(part));
    }
  }
  return fragment;
}

/** Join items with the language's list separator ("a, b and c"). */
export function listText(items) {
  if (items.length === 0) return "";
  if (items.length === 1) return items[0];
  return t("list.join", { head: items.slice(0, -1).join(t("list.sep")), last: items.at(-1) });
}

/** Fill every [data-i18n] (text) and [data-i18n-attr="attr:key;attr:key"] under root. */
export function applyI18n(root) {
  for (const el of root.querySelectorAll("[data-i18n]")) {
    el.textContent = t(el.dataset.i18n);
  }
  for (const el of root.querySelectorAll("[data-i18n-attr]")) {
    for (const pair of el.dataset.i18nAttr.split(";")) {
      const [attr, key] = pair.split(":");
      if (attr && key) el.setAttribute(attr.trim(), t(key.trim()));
    }
  }
}

/** A <select> that switches the language everywhere on the page. */
export function languageSwitcher() {
  const select = document.createElement("select");
  select.className = "lang-switch";
  select.id = "lang-switch";
  select.dataset.i18nAttr = "aria-label:lang.label;title:lang.label";
  select.setAttribute("aria-label", t("lang.label"));
  const names = { en: "English", ja: "日本語", pt: "Português" };
  for (const lang of LANGUAGES) {
    const option = document.createElement("option");
    option.value = lang;
    option.textContent = names[lang];
    option.lang = lang;
    select.appendChild(option);
  }
  select.value = current;
  select.addEventListener("change", () => setLanguage(select.value));
  onLanguageChange((lang) => (select.value = lang));
  return select;
}
