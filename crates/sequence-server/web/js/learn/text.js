// The words of the learning pages (rules help, the table's "?"): their own
// language files, i18n/learn/<lang>.json, loaded when first needed so that
// the other pages do not carry them. `lt(key, params)` looks a key up in
// the page's language, then English, and fills `{name}` placeholders as
// i18n.js does (each value isolated in a right-to-left language). The
// pages' styles (learn.css) are loaded the same way.
import { language, fillIn } from "../i18n.js";

const cache = new Map(); // lang -> strings
let current = {};
let fallback = {};

async function load(lang) {
  if (cache.has(lang)) return cache.get(lang);
  const res = await fetch(`/i18n/learn/${lang}.json`, { cache: "no-cache" });
  if (!res.ok) throw new Error(`i18n/learn/${lang}.json: HTTP ${res.status}`);
  const m = await res.json();
  cache.set(lang, m);
  return m;
}

/** Loads the learning words of the page's language (and English, the
 * fallback) and the learning styles; resolves once both are there. */
export async function loadLearnText() {
  ensureStyle();
  fallback = await load("en");
  const lang = language();
  current = lang === "en" ? fallback : await load(lang).catch(() => fallback);
}

/** Whether the words of the page's language are loaded. */
export function learnTextReady() {
  return cache.has("en") && (language() === "en" || cache.has(language()));
}

/** The learning string `key` with `{placeholders}` filled from `params`
 * (the key itself when no language has it). */
export function lt(key, params = {}) {
  const lang = language();
  const strings = cache.get(lang) || current;
  const s = strings[key] ?? fallback[key] ?? key;
  return fillIn(s, params, lang);
}

/** Adds learn.css to the page once. */
export function ensureStyle() {
  if (document.getElementById("learn-css")) return;
  const link = document.createElement("link");
  link.id = "learn-css";
  link.rel = "stylesheet";
  link.href = "/learn.css";
  document.head.append(link);
}
