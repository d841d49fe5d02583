// The state of a table page and what it knows about the table: which
// views to accept, the moves seen so far (for the "recent moves" list), and
// questions answered from the server's table info (a seat's name and team)
// rather than from the rules.
import { t, num } from "./i18n.js";
import { unescapeText } from "./api.js";

const LOG_SIZE = 8;

/** A fresh state for table `id`. */
export function newTableState(id) {
  return {
    id,
    seat: null, // our seat number, null while watching
    token: null,
    view: null,
    info: null, // TableInfo (docs/api.md)
    chat: [],
    socket: null,
    stopped: false,
    ui: {}, // per-game UI state (selected card, …) kept across renders
    sentAt: null, // move_number of the move in flight
    log: [], // recent moves, oldest first: {n, move}
    notice: null, // {text}: about our own last move (a Block), until the next one
    records: {}, // game_no → the finished game's record (fetched once)
    focusHand: false, // after our move: put keyboard focus back in the hand
  };
}

/**
 * Takes `view` as the page's view unless it is older than the one shown
 * (views can arrive from both the WebSocket and a move's HTTP answer).
 * Returns whether it was taken. A new game (rematch) clears the per-game
 * state; every new move is added to the log.
 */
export function acceptView(st, view) {
  const old = st.view;
  const sameGame = old && view.table && old.table && view.table.game_no === old.table.game_no;
  if (sameGame && typeof view.move_number === "number" && view.move_number < old.move_number) return false;
  if (old && !sameGame) {
    st.ui = {};
    st.log = [];
    st.notice = null;
  }
  if (view.last_move && (!sameGame || view.move_number > old.move_number)) {
    st.log.push({ n: view.move_number, move: view.last_move });
    if (st.log.length > LOG_SIZE) st.log.shift();
  }
  if (st.notice && view.status !== "playing") st.notice = null;
  st.view = view;
  st.info = view.table || st.info;
  return true;
}

/** The moves to list as recent, newest first: from the finished game's
 * record when there is one (it has every move), else those seen. */
export function recentMoves(st, count) {
  const rec = st.info && st.records[st.info.game_no];
  const moves = rec && Array.isArray(rec.moves) ? rec.moves.slice(-count) : st.log.slice(-count).map((e) => e.move);
  return moves.reverse();
}

/** The info of seat `s`, or null. */
function seatInfo(info, s) {
  return (info && info.seats && info.seats[s]) || null;
}

/** The name shown for seat `s`: the person's name, "Bot N" (numbered by
 * seat, in the page's language) for a bot, else "Seat N". */
export function seatName(info, s) {
  const seat = seatInfo(info, s);
  if (seat && seat.kind === "bot") return t("table.bot_name", { n: num(s + 1) });
  if (seat && seat.name && seat.kind !== "free") return unescapeText(seat.name);
  return t("table.seat_n", { n: num(s + 1) });
}

/** The team colour of seat `s` as the server gives it (classic), or null. */
export function seatTeam(info, s) {
  const seat = seatInfo(info, s);
  return (seat && seat.team) || null;
}

/** The teams of the table in seat order, as the server gives them. */
export function tableTeams(info) {
  const out = [];
  for (const s of (info && info.seats) || []) if (s.team && !out.includes(s.team)) out.push(s.team);
  return out;
}

/** Whether seat `s` plays in the same team as our seat `me` (and is not us). */
export function isPartner(info, me, s) {
  if (me === null || me === undefined || s === me) return false;
  const mine = seatTeam(info, me);
  return mine !== null && mine === seatTeam(info, s);
}

/** The seat that must decide now (Stacks: `to_act`, which a Block window
 * gives to other seats), or null when the game is not being played. */
export function seatToAct(view) {
  if (!view || view.status !== "playing") return null;
  return view.game === "stacks" ? view.to_act : view.turn;
}
