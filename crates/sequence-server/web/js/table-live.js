// What a table page shows around the game itself: the move log (with the
// moves since the reader's last turn), the turn clock, the notice of a
// seat marked away (with "I'm back"), the end-of-game panel, the hint of
// a practice game, and the "your turn" signals (title, icon, sound,
// notification).
import { t, tn, num } from "./i18n.js";
import { h } from "./cards.js";
import { logEntries, sinceLastTurn, seatToAct, seatTeam } from "./table-state.js";
import { logPanel, spacesOf, lastMoveLine, entryText, notation } from "./movelog.js";
import { clockBadge } from "./clock.js";
import { endPanel } from "./endgame.js";
import { turnSignal } from "./notify.js";
import { tableTitle } from "./lobby.js";

/** Whether every other seat is a bot (a practice game: hints allowed). */
export function isPractice(info, me) {
  return me !== null && me !== undefined && info.seats.every((s) => s.seat === me || s.kind === "bot");
}

/** Whether our seat must decide now (its turn, or a window asks it). */
export function myDecision(view) {
  return view && view.seat !== null && view.seat !== undefined && (view.legal_moves || []).length > 0;
}

/** The extras of the game area for view `v` (see the module's docs). */
export function gameExtras(st, v, info, actions, seatName) {
  const entries = logEntries(st);
  const toAct = seatToAct(v);
  const since = v.status === "playing" || (v.status && typeof v.status === "object") ? sinceLastTurn(entries, st.seat, toAct) : [];
  const over = info.status === "over";
  const mine = myDecision(v);
  const me = st.seat;
  const away = me !== null && me !== undefined && info.seats[me] && info.seats[me].away;
  const clock = !over && info.deadline_ms ? clockBadge(info.deadline_ms, st.clockOffset, mine) : null;
  const awayNotice = away && st.token && !over ? h("div", { class: "notice away", id: "away-notice", role: "alert" },
    h("span", {}, t("away.text")), " ",
    h("button", { type: "button", id: "back", class: "primary small", onclick: actions.back }, t("away.back"))) : null;
  const timedOut = !away && me !== null && me !== undefined && info.seats[me] && info.seats[me].timeouts > 0 && st.token
    ? h("p", { class: "notice", id: "timeout-notice" }, tn("away.timeouts", info.seats[me].timeouts, { n: num(info.seats[me].timeouts), of: num(3) })) : null;
  return {
    entries,
    since,
    board: spacesOf(since),
    clock,
    notices: [awayNotice, timedOut],
    last: lastMoveLine(entries, v.game, seatName),
    log: logPanel(entries, since, { game: v.game, seatName, me, teamOf: (s) => seatTeam(info, s) }),
    end: over && v.status !== "playing" ? endPanel(st, v, info, entries, actions, seatName) : null,
    hint: hintBox(st, v, info, actions, mine, seatName),
  };
}

/** The hint button and its answer (practice games, our decision). */
function hintBox(st, v, info, actions, mine, seatName) {
  if (!mine || !isPractice(info, st.seat)) return null;
  const hint = st.hint && st.hint.at === v.move_number ? st.hint : null;
  return h("div", { class: "hint-box", id: "hint-box" },
    h("button", { type: "button", id: "hint", class: "small", disabled: hint && hint.loading, onclick: actions.hint }, t(hint && hint.loading ? "hint.thinking" : "hint.button")),
    hint && !hint.loading ? h("ol", { class: "hint-list", id: "hint-list" }, hint.moves.map((m) => h("li", {},
      entryText({ seat: st.seat, move: m.move }, v.game, seatName), " ",
      h("code", { class: "log-code", dir: "ltr" }, notation({ move: m.move }, v.game)), " ", h("span", { class: "hint-win" }, t("hint.win", { p: num(Math.round(m.win * 100)) }))))) : null);
}

/** The "your turn" signals for view `v`. */
export function signals(st, v, info) {
  const mine = info.status === "playing" && myDecision(v);
  const what = v.block_window && mine ? t("stacks.block_title") : t("status.your_turn");
  turnSignal(mine, `${tableTitle(info)} – ${t("app.title")}`, what);
}
