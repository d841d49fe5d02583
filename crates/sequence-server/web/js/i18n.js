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

/** A right-to-left letter (Hebrew, Arabic and Persian letters; not their
 * digits, which take the direction around them). */
const RTL_LETTER = /[\u05d0-\u05ea\u0620-\u064a\u066e-\u06d5\u06e5\u06e6\u06ee\u06ef\u06fa-\u06ff\u0750-\u077f\ufb1d-\ufdff\ufe70-\ufefc]/;
/** A left-to-right letter of the page's languages (Latin, Greek, Cyrillic,
 * Georgian, Kannada). */
const LTR_LETTER = /[A-Za-z\u00c0-\u02af\u0370-\u03ff\u0400-\u052f\u10a0-\u10ff\u1c90-\u1cbf\u0c80-\u0cff]/;

/** `value` isolated from the words around it (for a right-to-left page):
 * between U+2067 and U+2069 (right to left) when its first letter is
 * right-to-left, U+2066 … U+2069 when it is left-to-right, U+2068 …
 * U+2069 (first strong) when it has none. The first letter is looked for
 * inside isolates the value already holds: a value made of filled values,
 * such as a card name (rank and suit, each isolated), has no letter outside them, and a
 * first-strong isolate alone would lay it out left to right, its words
 * swapped. */
export function isolate(value) {
  const s = String(value);
  const rtl = s.search(RTL_LETTER);
  const ltr = s.search(LTR_LETTER);
  const open = rtl < 0 && ltr < 0 ? "\u2068" : ltr < 0 || (rtl >= 0 && rtl < ltr) ? "\u2067" : "\u2066";
  return `${open}${s}\u2069`;
}

/** Fills the `{name}` placeholders of `s` from `params` for a page in
 * `lang`. In a right-to-left language each value is isolated
 * ([`isolate`]): a Latin name, a space such as `g۴` or two numbers in a
 * row ("Bot ۳" then "۵ red") would otherwise be reordered with the words
 * around them. Also used by the learning and account pages' words. */
export function fillIn(s, params, lang = current) {
  const iso = RTL.has(lang);
  return String(s).replace(/\{(\w+)\}/g, (m, k) => (k in params ? (iso ? isolate(params[k]) : String(params[k])) : m));
}

/** Whether the page's language is written right to left. */
export function isRtl() {
  return RTL.has(current);
}

/** Whether `key` has a string (in the current language or English). */
export function has(key) {
  return key in strings || key in fallback;
}

/** The string for `key` with `{placeholders}` filled from `params`. */
export function t(key, params = {}) {
  let s = strings[key] ?? fallback[key] ?? key;
  if (typeof s !== "string") s = s.other ?? key;
  return fillIn(s, params);
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
  if (typeof forms === "string") return fillIn(forms, params);
  if (!forms) return key;
  const s = forms[pluralCategory(count)] ?? forms.other ?? key;
  return fillIn(s, params);
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
