// What makes the table feel alive: the chips placed and removed by the
// last moves drawn with a short animation, sequences lit as they form,
// a Stacks card landing on its pile, and the sound of each (notify.js:
// made by the page itself, off by default). Everything here only shows
// what the server's views say changed; nothing here knows the rules.
import { spaceName } from "./layout.js";
import { effect } from "./notify.js";
import { gameOf } from "./games.js";

/** How long a change is animated, in ms (a redraw meanwhile carries on
 * where the animation was). */
export const ANIMATION_MS = 1200;

const key = (s) => JSON.stringify(s);

/** What changed on the board (classic) or the piles (Stacks) from view
 * `old` to view `v` of the same game: `{at, placed: Set of spaces,
 * removed: Map space → chip letter, sequences: Set of keys of the new
 * sequences, piles: Set of places that took a card, completed: Set of
 * places emptied}`; null when nothing did (or `old` is another game). */
export function changesBetween(old, v) {
  if (!old || !v || old.game !== v.game || !old.table || !v.table || old.table.game_no !== v.table.game_no) return null;
  if (!(v.move_number > old.move_number)) return null;
  return positionChanges(old, v, v.game);
}

/** What changed from position `old` to `v` of game `game` (views, or a
 * replay's positions), as [`changesBetween`] gives it. */
export function positionChanges(old, v, game) {
  const ch = { at: Date.now(), placed: new Set(), removed: new Map(), sequences: new Set(), piles: new Set(), completed: new Set() };
  gameOf(game).changes(ch, old, v);
  const any = ch.placed.size || ch.removed.size || ch.sequences.size || ch.piles.size || ch.completed.size;
  return any ? ch : null;
}

/** Classic (games.js): the chips placed and removed and the sequences
 * made from `old` to `v`, added to `ch`. */
export function boardChanges(ch, old, v) {
  if (!Array.isArray(old.board) || !Array.isArray(v.board)) return;
  for (let r = 0; r < 10; r++) {
    for (let c = 0; c < 10; c++) {
      const a = (old.board[r] || "")[c] || ".";
      const b = (v.board[r] || "")[c] || ".";
      const chipA = /[a-z]/i.test(a), chipB = /[a-z]/i.test(b);
      if (!chipA && chipB) ch.placed.add(spaceName(r, c));
      else if (chipA && !chipB) ch.removed.set(spaceName(r, c), a);
    }
  }
  const before = new Set((old.sequences || []).map(key));
  for (const s of v.sequences || []) if (!before.has(key(s))) ch.sequences.add(key(s));
}

/** Stacks (games.js): the piles played on and those completed from `old`
 * to `v`, added to `ch`. */
export function pileChanges(ch, old, v) {
  const was = new Map((old.piles || []).map((p) => [p.place, p.cards.length]));
  for (const p of v.piles || []) {
    const n = was.get(p.place) ?? 0;
    if (p.cards.length > n) ch.piles.add(p.place);
    else if (n > 0 && p.cards.length === 0) ch.completed.add(p.place);
  }
}

/** The sounds of changes `ch` (when the player turned sound on). */
export function soundOf(ch) {
  if (!ch) return;
  if (ch.sequences.size || ch.completed.size) effect("sequence");
  else if (ch.removed.size) effect("remove");
  else if (ch.placed.size || ch.piles.size) effect("place");
}

/** The animation state of changes `ch` for drawing now: `{placed,
 * removed, sequences, piles, completed, age}` while it lasts, else null. */
export function animationOf(ch) {
  if (!ch) return null;
  const age = Date.now() - ch.at;
  if (age > ANIMATION_MS) return null;
  return { ...ch, age };
}

/** Starts `el`'s animation `age` ms in (a redraw carries on). */
export function animate(el, cls, age) {
  el.classList.add(cls);
  if (age > 0) el.style.animationDelay = `-${age}ms`;
  return el;
}
