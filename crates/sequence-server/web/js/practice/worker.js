// The bots' thinking, away from the page (a Web Worker), so that the page
// never freezes while a level-5 bot searches. A message names the game by
// its record (the worker takes it up with the engine) and asks for a bot's
// move or a hint for one seat; the engine decides from that seat's view
// only. `unwritten` are the moves since the record's last entry that it
// does not write (declines in an open Stacks Block window, S5b). Or it
// asks for the analysis of a finished game (the server's, a position at a
// time, with progress reports {id, progress: {done, total}}).
// Answers: {id, move} / {id, hint} / {id, analysis} / {id, error}.
import init, { Game, Analysis } from "../../wasm/sequence.js";

const ready = init();

/** The analysis of a finished game's record, reporting its progress. */
function analyse(id, record, iterations, seed) {
  const a = new Analysis(record, iterations, seed);
  try {
    let told = 0;
    self.postMessage({ id, progress: { done: 0, total: a.total } });
    while (!a.step()) {
      if (performance.now() - told > 200) {
        told = performance.now();
        self.postMessage({ id, progress: { done: a.done, total: a.total } });
      }
    }
    return JSON.parse(a.result());
  } finally {
    a.free();
  }
}

self.onmessage = async (e) => {
  const { id, record, unwritten, seat, level, seed, hint, iterations, top } = e.data;
  try {
    await ready;
    if (e.data.analyse) {
      self.postMessage({ id, analysis: analyse(id, record, iterations, seed) });
      return;
    }
    const g = Game.fromRecord(record, seed);
    try {
      for (const mv of unwritten || []) g.play(JSON.stringify(mv));
      if (hint) self.postMessage({ id, hint: JSON.parse(g.hint(seat, iterations, top, seed)) });
      else self.postMessage({ id, move: JSON.parse(g.botMove(seat, level, seed)) });
    } finally {
      g.free();
    }
  } catch (err) {
    self.postMessage({ id, error: String((err && err.message) || err) });
  }
};
