// Spaces of the classic board: names (`e5`: column a–j, row 1–10, as in
// the rules and records) and their text. The board's layout itself (which
// card is on which space, C2, or a random board) comes from the server:
// the classic view's `layout`.
import { num } from "./i18n.js";

/** The 10×10 grid of card codes (`XX` on corners) of the view's `layout`
 * (10 rows of codes); empty spaces when there is none. */
export function layoutGrid(layout) {
  const rows = Array.isArray(layout) && layout.length === 10 ? layout : Array(10).fill("");
  return rows.map((r) => {
    const codes = String(r).trim().split(/\s+/);
    return Array.from({ length: 10 }, (_, i) => codes[i] || "XX");
  });
}

/** Space name (`"e5"`: column a–j, row 1–10) of 0-based row and column. */
export function spaceName(row, col) {
  return String.fromCharCode(97 + col) + (row + 1);
}

/** [row, col] (0-based) of a space name such as `"e5"`, or null. */
export function parseSpace(name) {
  const m = /^([a-j])(10|[1-9])$/.exec(String(name || "").toLowerCase());
  if (!m) return null;
  return [Number(m[2]) - 1, m[1].charCodeAt(0) - 97];
}

/** A space's name for text: its column letter as on the board and its row
 * in the page's digits (`g۴` in Persian), isolated (U+2068 … U+2069) so
 * that it keeps its order inside a sentence of either direction. */
export function spaceLabel(name) {
  const rc = parseSpace(name);
  if (!rc) return String(name || "");
  return `\u2068${String.fromCharCode(97 + rc[1])}${num(rc[0] + 1)}\u2069`;
}
