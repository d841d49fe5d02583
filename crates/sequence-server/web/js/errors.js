// Refusals in the page's language: the server sends a refused move's
// stable code (`C6.space_taken`, `S5.steal_from_self`, `notation.missing`;
// docs/api.md "Error codes of refused moves") besides its English message.
// A code with a translation (`code.<code>` in the language files) is shown
// in words; any other refusal shows the server's message.
import { t, has } from "./i18n.js";

/** The words for a refusal `err` ({code, message}, an ApiError or a
 * WebSocket error message). */
export function refusalText(err) {
  const code = err && err.code;
  if (code && has(`code.${code}`)) return t(`code.${code}`);
  return (err && (err.message || err.error)) || "";
}
