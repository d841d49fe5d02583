// The games the browser UI knows, one entry each: what the page does
// differently per game goes through `gameOf(kind)` (the view drawn, the
// words of a move, what changed, who the sides are), so a game missing
// here fails with a clear error rather than being drawn as another game.
// A new game: its module (its view drawn, as classic.js and stacks.js draw
// theirs), its words, and one entry here. The pages that teach a game
// (learn/: rules, tutorial, puzzles) list their games themselves.
import { h, cardName, stacksCardName, classicCardFace, stacksCardFace } from "./cards.js";
import { renderClassic, classicStatus, describeMove, classicAdvice } from "./classic.js";
import { renderStacks, stacksStatus, describeStacksMove, stacksAdvice } from "./stacks.js";
import { classicNotes, stacksNotes, classicNotation, stacksNotation } from "./movelog.js";
import { boardChanges, pileChanges } from "./feel.js";

/**
 * Per game (the API's `game`):
 * - `render(view, ctx)`: the game's part of the table page (classic.js,
 *   stacks.js);
 * - `seatExtra(view, seat)`: what the seat list shows of a seat;
 * - `describe(move, seatName)`, `advice(move, seatName)`: a move done and
 *   a move suggested, in words; `notes(entry, seatName, out)`: what a log
 *   entry did besides its move (pushed to `out`); `notation(move)`: the
 *   move as the record writes it; `cardName(code)`, `miniCard(code)`: a
 *   card in words and as a small face;
 * - `changes(ch, old, view)`: what changed between two positions, added
 *   to `ch` (feel.js);
 * - `teams`: the sides are teams (the winner a colour), else seats;
 * - `surface`: what the game is played on, "board" or "piles";
 *   `adviceWhere`: the words that say where a hint shows;
 * - `seatDefault`: who sits in a seat of a new table (the lobby);
 * - `tableTalk`: the host may give the table-talk penalty (C10);
 * - `toAct(view)`: the seat that must decide now.
 */
const GAMES = {
  classic: {
    render: renderClassic, seatExtra: (v, s) => classicStatus.seatExtra(v, s), toAct: (v) => v.turn, changes: boardChanges,
    describe: describeMove, advice: classicAdvice, notes: classicNotes, notation: classicNotation, cardName: (code) => cardName(code),
    miniCard: (code) => h("span", { class: "mini-card", "data-card": code }, classicCardFace(code)),
    teams: true, surface: "board", adviceWhere: "advice.on_board", seatDefault: "human", tableTalk: true,
  },
  stacks: {
    // a Block window gives the decision to other seats (S5b)
    render: renderStacks, seatExtra: (v, s) => stacksStatus.seatExtra(v, s), toAct: (v) => v.to_act, changes: pileChanges,
    describe: describeStacksMove, advice: stacksAdvice, notes: stacksNotes, notation: stacksNotation, cardName: (code) => stacksCardName(code),
    miniCard: (code) => h("span", { class: "mini-card", "data-card": code, title: stacksCardName(code) }, stacksCardFace(code)),
    teams: false, surface: "piles", adviceWhere: "advice.on_piles", seatDefault: "level:2", tableTalk: false,
  },
};

/** The entry of game `kind` ("classic", "stacks"); throws for a game
 * this page does not know. */
export function gameOf(kind) {
  const g = Object.prototype.hasOwnProperty.call(GAMES, kind) ? GAMES[kind] : null;
  if (!g) throw new Error(`unknown game ${JSON.stringify(kind)}: web/js/games.js lists the games the page can show`);
  return g;
}
