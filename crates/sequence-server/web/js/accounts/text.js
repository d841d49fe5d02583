// The words of the account pages (sign in, profiles, history, leaderboards):
// their own language files, i18n/accounts/<lang>.json, loaded when first
// needed. `at(key, params)` looks a key up in the page's language, then
// English, and fills `{name}` placeholders as i18n.js does (each value
// isolated in a right-to-left language). The pages' styles
// (accounts.css) are loaded the same way.
import { language, fillIn } from "../i18n.js";

const cache = new Map(); // lang -> strings

async function load(lang) {
  if (cache.has(lang)) return cache.get(lang);
  const res = await fetch(`/i18n/accounts/${lang}.json`, { cache: "no-cache" });
  if (!res.ok) throw new Error(`i18n/accounts/${lang}.json: HTTP ${res.status}`);
  const m = await res.json();
  cache.set(lang, m);
  return m;
}

/** Loads the account words of the page's language (and English) and the
 * styles; resolves once they are there. */
export async function loadAccountText() {
  if (!document.getElementById("accounts-css")) {
    const link = document.createElement("link");
    link.id = "accounts-css";
    link.rel = "stylesheet";
    link.href = "/accounts.css";
    document.head.append(link);
  }
  await load("en");
  if (language() !== "en") await load(language()).catch(() => null);
}

/** The account string `key` with `{placeholders}` filled from `params`. */
export function at(key, params = {}) {
  const lang = language();
  const s = (cache.get(lang) || {})[key] ?? (cache.get("en") || {})[key] ?? key;
  return fillIn(s, params, lang);
}
