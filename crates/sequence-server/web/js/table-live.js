// What a table page shows around the game itself: the move log (with the
// moves since the reader's last turn), the turn clock, the notice of a
// seat marked away (with "I'm back"), the end-of-game panel, the hint of
// a practice game, and the "your turn" signals (title, icon, sound,
// notification).
import { t, tn, num } from "./i18n.js";
import { h } from "./cards.js";
import { logEntries, sinceLastTurn, seatToAct, seatTeam, seatName } from "./table-state.js";
import { logPanel, spacesOf, lastMoveLine, notation } from "./movelog.js";
import { gameOf } from "./games.js";
import { guardMove } from "./learn/help.js";
import { clockBadge } from "./clock.js";
import { endPanel, endKind, seriesLine } from "./endgame.js";
import { turnSignal, effect } from "./notify.js";
import { animationOf, soundOf } from "./feel.js";
import { banner } from "./main.js";
import { tableTitle } from "./lobby.js";

/** How long the note "not your turn" stays, in ms. */
export const OFF_TURN_MS = 4000;

/** The note "not your turn yet" shortly after a card or the board was
 * touched out of turn (`st.offTurnAt`, table-actions.js), else null. */
function offTurnNote(st, view, seatName) {
  if (!st.offTurnAt || Date.now() - st.offTurnAt > OFF_TURN_MS || myDecision(view) || view.status !== "playing") return null;
  const who = seatToAct(view);
  return h("p", { class: "notice off-turn", id: "not-your-turn", role: "status" },
    who === null ? t("status.not_your_turn_plain") : t("status.not_your_turn", { who: seatName(who) }));
}

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
    offTurnNote: offTurnNote(st, v, seatName),
    anim: animationOf(st.changes),
    // the running score, during the games after the first
    series: over ? null : seriesLine(info, seatName),
    ...hintMarks(st, v, mine),
  };
}

/** The game part of the page: "waiting for players", or the game drawn
 * by its module (games.js) with the move log, after the end panel. */
export function gamePart(st, view, info, actions, render) {
  if (view.status === "waiting" || info.status === "waiting") {
    return h("section", { class: "waiting card-panel", "aria-live": "polite" },
      h("h2", {}, t("table.waiting")), h("p", {}, t("table.waiting_hint")));
  }
  const name = (s) => seatName(info, s);
  const extras = gameExtras(st, view, info, actions, name);
  const ctx = {
    ui: st.ui,
    info,
    seatName: name,
    sendMove: guardMove(st, actions.sendMove, render),
    rerender: render,
    extras,
    clockOffset: st.clockOffset,
    notice: st.notice && st.notice.text,
    offTurn: actions.offTurn,
    offTurnNote: extras.offTurnNote,
  };
  const section = gameOf(view.game).render(view, ctx);
  section.append(extras.log);
  return h("div", { class: "game-wrap" }, extras.end, section);
}

/** A suggested move in words, as advice (what to do, not what was
 * done): "Place a chip on e5 with the 7 of hearts". */
export function adviceText(m, game, seatName) {
  return gameOf(game).advice(m, seatName);
}

/** Where the best hint shows on the table: the space (classic), the
 * pile and the card to play (Stacks). */
function hintMarks(st, v, mine) {
  const hint = mine && st.hint && st.hint.at === v.move_number && !st.hint.loading ? st.hint : null;
  const m = hint && hint.moves[0] && hint.moves[0].move;
  if (!m) return {};
  return {
    hintSpace: m.at || m.remove || null,
    hintPile: m.to || null,
    hintCard: m.play || m.discard || m.card || m.dead || null,
    hintFrom: m.from === "discard" ? "discard" : "hand",
  };
}

/** The hint button and its answer (practice games, our decision). */
function hintBox(st, v, info, actions, mine, seatName) {
  if (!mine || !isPractice(info, st.seat)) return null;
  const hint = st.hint && st.hint.at === v.move_number ? st.hint : null;
  return h("div", { class: "hint-box", id: "hint-box" },
    h("button", { type: "button", id: "hint", class: "small", disabled: hint && hint.loading, onclick: actions.hint }, t(hint && hint.loading ? "hint.thinking" : "hint.button")),
    hint && !hint.loading && hint.moves.length ? h("p", { class: "hint", id: "hint-shown" }, t(gameOf(v.game).adviceWhere)) : null,
    hint && !hint.loading ? h("ol", { class: "hint-list", id: "hint-list" }, hint.moves.map((m) => h("li", {},
      adviceText(m.move, v.game, seatName), " ",
      h("code", { class: "log-code", dir: "ltr" }, notation({ move: m.move }, v.game)), " ", h("span", { class: "hint-win" }, t("hint.win", { p: num(Math.round(m.win * 100)) }))))) : null);
}

/** The "your turn" signals for view `v`, and the sounds of what the new
 * moves did (the end of the game: a win or a loss of ours). */
export function signals(st, v, info) {
  soundOf(st.heard);
  st.heard = null;
  const over = info.status === "over" && v.status !== "playing";
  if (over && st.endHeard !== info.game_no && st.view && st.changes) {
    const kind = endKind(v, info, st.seat);
    if (kind === "won" || kind === "lost") effect(kind === "won" ? "win" : "lose");
  }
  if (over) st.endHeard = info.game_no;
  const mine = info.status === "playing" && myDecision(v);
  const what = v.block_window && mine ? t("stacks.block_title") : t("status.your_turn");
  turnSignal(mine, `${tableTitle(info)} – ${t("app.title")}`, what);
  // the operators closed the table (sequence admin close): why
  if (info.closed) banner(t("table.closed", { reason: info.closed }));
}
