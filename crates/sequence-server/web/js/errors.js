// Refusals in the page's language: the server sends a refused move's
// stable code (`C6.space_taken`, `S5.steal_from_self`, `notation.missing`;
// docs/api.md "Error codes of refused moves") besides its English message.
// A code with a translation (`code.<code>` in the language files) is shown
// in words; any other refusal is said by its HTTP status in the page's
// language (`status.<n>`), so that no English sentence of the server
// stands in a translated page; in English the server's own words, which
// say more.
import { t, has, language } from "./i18n.js";
import { isLocal } from "./practice/local.js";

/** The words for a refusal `err` ({code, message, status}, an ApiError
 * or a WebSocket error message). */
export function refusalText(err) {
  const code = err && err.code;
  if (code === "http.not_api") return t("refusal.not_api", { status: err.status });
  if (code && has(`code.${code}`)) return t(`code.${code}`);
  const message = (err && (err.message || err.error)) || "";
  if (language() === "en" && message) return message;
  const status = err && Number(err.status);
  if (status && has(`refusal.${status}`)) return t(`refusal.${status}`);
  if (status >= 500) return t("refusal.500");
  return t("refusal.other");
}

/** The banner for a refusal `err` at table `id`: a practice table in this
 * browser (practice/local.js) has no server, so its refusals (a bot that
 * found no move, a stale move from another tab) are the game's own. */
export function refusedBanner(err, id = null) {
  if (isLocal(id)) {
    const code = err && err.code;
    const message = (err && (err.message || err.error)) || "";
    let words = t("refusal.local");
    if (code && has(`code.${code}`)) words = t(`code.${code}`);
    else if (language() === "en" && message) words = message;
    return t("error.local", { message: words });
  }
  return err && err.status === 0 ? t("error.unreachable") : t("error.refused", { message: refusalText(err) });
}
