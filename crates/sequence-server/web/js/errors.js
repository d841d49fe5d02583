// Refusals in the page's language: the server sends a refused move's
// stable code (`C6.space_taken`, `S5.steal_from_self`, `notation.missing`;
// docs/api.md "Error codes of refused moves") besides its English message.
// A code with a translation (`code.<code>` in the language files) is shown
// in words; any other refusal is said by its HTTP status in the page's
// language (`status.<n>`), so that no English sentence of the server
// stands in a translated page; in English the server's own words, which
// say more.
import { t, has, language } from "./i18n.js";

/** The words for a refusal `err` ({code, message, status}, an ApiError
 * or a WebSocket error message). */
export function refusalText(err) {
  const code = err && err.code;
  if (code && has(`code.${code}`)) return t(`code.${code}`);
  const message = (err && (err.message || err.error)) || "";
  if (language() === "en" && message) return message;
  const status = err && Number(err.status);
  if (status && has(`refusal.${status}`)) return t(`refusal.${status}`);
  if (status >= 500) return t("refusal.500");
  return t("refusal.other");
}
