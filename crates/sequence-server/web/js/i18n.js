// Translations: every user-visible string lives in i18n/<lang>.json.
// `t(key, params)` looks a key up in the chosen language, then in English,
// and fills `{name}` placeholders from `params`; `tn(key, count, params)`
// picks the plural form of a counted string (`{"one": …, "other": …}`,
// Ukrainian also `few`/`many`) by the language's plural rules.

export const LANGUAGES = ["en", "ka", "fa", "uk", "kn"];
const RTL = new Set(["fa"]);
const STORE_KEY = "sequence.lang";

let current = "en";
let strings = {};
let fallback = {};

async function load(lang) {
  const res = await fetch(`/i18n/${lang}.json`, { cache: "no-cache" });
  if (!res.ok) throw new Error(`i18n/${lang}.json: HTTP ${res.status}`);
  return res.json();
}

/** The language to start with: the saved choice, else the first of the
 * browser's languages we have, else English. */
export function preferredLanguage() {
  const saved = localStorage.getItem(STORE_KEY);
  if (saved && LANGUAGES.includes(saved)) return saved;
  for (const l of navigator.languages || [navigator.language || "en"]) {
    const base = String(l).toLowerCase().split("-")[0];
    if (LANGUAGES.includes(base)) return base;
  }
  return "en";
}

/** Loads `lang`, sets `<html lang dir>` and remembers the choice. */
export async function setLanguage(lang, remember = false) {
  if (!LANGUAGES.includes(lang)) lang = "en";
  if (!Object.keys(fallback).length) fallback = await load("en");
  strings = lang === "en" ? fallback : await load(lang).catch(() => fallback);
  current = lang;
  document.documentElement.lang = lang;
  document.documentElement.dir = RTL.has(lang) ? "rtl" : "ltr";
  if (remember) localStorage.setItem(STORE_KEY, lang);
}

export function language() {
  return current;
}

/** Fills `{name}` placeholders. In a right-to-left language each value is
 * isolated (U+2068 … U+2069): a Latin name, a space such as `g۴` or two
 * numbers in a row ("Bot ۳" then "۵ red") would otherwise be reordered
 * with the words around them. */
function fill(s, params) {
  const iso = RTL.has(current);
  return s.replace(/\{(\w+)\}/g, (m, k) => (k in params ? (iso ? `\u2068${params[k]}\u2069` : String(params[k])) : m));
}

/** Whether `key` has a string (in the current language or English). */
export function has(key) {
  return key in strings || key in fallback;
}

/** The string for `key` with `{placeholders}` filled from `params`. */
export function t(key, params = {}) {
  let s = strings[key] ?? fallback[key] ?? key;
  if (typeof s !== "string") s = s.other ?? key;
  return fill(s, params);
}

/** The plural category of `count` in the current language ("one", "few",
 * "many", "other" …, by `Intl.PluralRules`). */
function pluralCategory(count) {
  try {
    return new Intl.PluralRules(current).select(count);
  } catch {
    return count === 1 ? "one" : "other";
  }
}

/** The form of the plural string `key` (`{"one": …, "other": …}` in the
 * language file) for `count`, with `{placeholders}` filled from `params`
 * (pass the count formatted by `num` among them). */
export function tn(key, count, params = {}) {
  let forms = strings[key];
  if (forms === undefined || forms === null) forms = fallback[key];
  if (typeof forms === "string") return fill(forms, params);
  if (!forms) return key;
  const s = forms[pluralCategory(count)] ?? forms.other ?? key;
  return fill(s, params);
}

/** What separates two facts on one line ("12 moves — 5 min"): an em
 * dash, which no language of the page reads as a digit (a middle dot
 * "·" looks like the Persian zero "۰", a bar like the Persian one "۱",
 * a slash like the Persian decimal sign). */
export const SEP = " \u2014 ";

/** Formats a number in the current language's digits and signs (Persian:
 * "۱٬۶۶۲"); `options` as `Intl.NumberFormat`'s, e.g. `{ style: "percent" }`
 * for 0.5 as "50%" ("۵۰٪" in Persian). */
export function num(n, options) {
  try {
    return new Intl.NumberFormat(current, options).format(n);
  } catch {
    return String(n);
  }
}

/** The comma between the items of a list where it is not the Latin one:
 * the Persian comma "،" (U+060C). */
const COMMA = { fa: "\u060c " };

/** The question mark of the current language where it is not the Latin
 * one: the Persian "؟" (U+061F). */
const QUESTION = { fa: "\u061f" };

/** The current language's question mark (the table's "?" button). */
export function questionMark() {
  return QUESTION[current] ?? "?";
}

/** `items` joined as a list in the current language ("a, b"; in Persian
 * "a، b"). No "and" before the last: these are a move's notes, a card and
 * its kind, rule ids. */
export function list(items) {
  return items.join(COMMA[current] ?? ", ");
}
