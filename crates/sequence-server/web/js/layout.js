// The official board of RULES.md C2 (row 1 first), the same grid as
// crates/sequence-classic/src/layout.rs OFFICIAL_ROWS. `XX` marks a corner.
import { num } from "./i18n.js";

export const OFFICIAL_ROWS = [
  "XX 2S 3S 4S 5S 6S 7S 8S 9S XX",
  "6C 5C 4C 3C 2C AH KH QH TH TS",
  "7C AS 2D 3D 4D 5D 6D 7D 9H QS",
  "8C KS 6C 5C 4C 3C 2C 8D 8H KS",
  "9C QS 7C 6H 5H 4H AH 9D 7H AS",
  "TC TS 8C 7H 2H 3H KH TD 6H 2D",
  "QC 9S 9C 8H 9H TH QH QD 5H 3D",
  "KC 8S TC QC KC AC AD KD 4H 4D",
  "AC 7S 6S 5S 4S 3S 2S 2H 3H 5D",
  "XX AD KD QD TD 9D 8D 7D 6D XX",
];

/** The 10×10 grid of card codes (`XX` on corners) for a table's options:
 * `options.board` (C11 random layout) when present, else the official one. */
export function layoutGrid(options) {
  const rows = options && Array.isArray(options.board) && options.board.length === 10
    ? options.board : OFFICIAL_ROWS;
  return rows.map((r) => r.trim().split(/\s+/));
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
