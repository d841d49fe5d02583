// Puzzle progress kept in this browser: the ids of the solved puzzles of
// each game under `sequence.puzzles.<game>` in localStorage (a JSON list).
const KEY = (game) => `sequence.puzzles.${game}`;

/** The ids of the puzzles of `game` solved in this browser. */
export function solvedSet(game) {
  try {
    const list = JSON.parse(localStorage.getItem(KEY(game)) || "[]");
    return new Set(Array.isArray(list) ? list.filter((x) => typeof x === "string") : []);
  } catch {
    return new Set();
  }
}

/** Records puzzle `id` of `game` as solved. */
export function markSolved(game, id) {
  const s = solvedSet(game);
  s.add(id);
  try {
    localStorage.setItem(KEY(game), JSON.stringify([...s]));
  } catch {
    // storage full or refused: the page still says it is solved
  }
}
