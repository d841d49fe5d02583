// The bots' thinking, away from the page (a Web Worker), so that the page
// never freezes while a level-5 bot searches. A message names the game by
// its record (the worker takes it up with the engine) and asks for a bot's
// move or a hint for one seat; the engine decides from that seat's view
// only. `unwritten` are the moves since the record's last entry that it
// does not write (declines in an open Stacks Block window, S5b). Answers: {id, move} / {id, hint} / {id, error}.
import init, { Game } from "../../wasm/sequence.js";

const ready = init();

self.onmessage = async (e) => {
  const { id, record, unwritten, seat, level, seed, hint, iterations, top } = e.data;
  try {
    await ready;
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
