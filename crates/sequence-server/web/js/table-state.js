// The state of a table page and what it knows about the table: which
// views to accept, the game's move log (the server's: each view carries its
// newest entries, the rest is read once from GET …/log), and questions
// answered from the server's table info (a seat's name and team) rather
// than from the rules.
import { t, num } from "./i18n.js";
import { unescapeText } from "./api.js";
import { changesBetween } from "./feel.js";
import { gameOf } from "./games.js";

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
    moves: [], // the game's move log by index `i` (docs/api.md "Move log")
    logSize: 0, // entries the server's log has
    clockOffset: 0, // server time minus this browser's, in ms
    notice: null, // {text}: about our own last move (a Block), until the next one
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
    st.moves = [];
    st.logSize = 0;
    st.notice = null;
  }
  for (const e of view.log || []) if (typeof e.i === "number") st.moves[e.i] = e;
  if (typeof view.log_size === "number") st.logSize = view.log_size;
  if (view.table && typeof view.table.now_ms === "number") st.clockOffset = view.table.now_ms - Date.now();
  if (st.notice && view.status !== "playing") st.notice = null;
  // what the new moves changed: animated, and heard (table-live.js)
  const changes = changesBetween(old, view);
  if (changes) st.changes = changes;
  st.heard = changes;
  st.view = view;
  st.info = view.table || st.info;
  return true;
}

/** Whether entries of the log are missing (a page opened mid-game, or
 * views missed while disconnected): then the whole log is read once. */
export function logHasGaps(st) {
  for (let i = 0; i < st.logSize; i++) if (!st.moves[i]) return true;
  return false;
}

/** The log entries known, oldest first. */
export function logEntries(st) {
  return st.moves.filter(Boolean);
}

/** The entries since `seat`'s last move (its own excluded), oldest
 * first: what happened since that seat last played. For a spectator
 * (`seat` null), since the last move of the seat to act now. */
export function sinceLastTurn(entries, seat, toAct) {
  const who = seat === null || seat === undefined ? toAct : seat;
  let k = entries.length - 1;
  while (k >= 0 && entries[k].seat !== who) k--;
  return entries.slice(k + 1).filter((e) => e.seat !== who);
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

/** While the seat `s` to act is one its person left: the status line
 * (the game waits for someone to take it; at a timed table a bot takes
 * it when the time runs out), else null. */
export function leftSeatStatus(info, s, name) {
  const seat = seatInfo(info, s);
  if (!seat || seat.kind !== "left") return null;
  return t(info.turn_seconds ? "status.left_waiting_timed" : "status.left_waiting", { who: name });
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
  return gameOf(view.game).toAct(view);
}
