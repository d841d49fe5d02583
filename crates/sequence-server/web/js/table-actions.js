// What a person at a table can do, each as one function over the table
// state `st`: make a move, chat, give a seat to a bot, start a rematch,
// leave, copy the invite link, read the
// whole move log, come back after being away, ask for a hint (practice
// games), give a team the table-talk penalty (C10, the host). `page` holds
// the page's callbacks: render() and show(view) (take a new view).
import { t } from "./i18n.js";
import { api, forgetSeat } from "./api.js";
import { banner, navigate } from "./main.js";
import { refusalText, refusedBanner } from "./errors.js";
import { logHasGaps } from "./table-state.js";
import { OFF_TURN_MS } from "./table-live.js";
import { takeReaction, reactionsLeft } from "./reactions.js";
import { effect } from "./notify.js";
import { renderChat } from "./table-panels.js";

/** The actions over table state `st`, `page` the page's callbacks (see
 * the head of this file). */
export function tableActions(st, page) {
  const bound = (f) => (...args) => f(st, page, ...args);
  return {
    sendMove: bound(sendMove),
    giveToBot: bound(giveToBot),
    rematch: bound(rematch),
    leave: bound(leave),
    copyInvite: bound(copyInvite),
    chat: bound(chat),
    fetchLog: bound(fetchLog),
    back: bound(back),
    hint: bound(hint),
    penalty: bound(penalty),
    offTurn: bound(offTurn),
    react: bound(react),
    heard: bound(heard),
  };
}

/** Says in the banner why the server refused an action at table `st`. */
function refused(st, err) {
  banner(refusedBanner(err, st.id));
}

/** Sends `move` for the view shown. One move per view: a second click
 * before the view moves on is ignored. The WebSocket may bring the next
 * view before the HTTP answer does; then the next move may go at once.
 * `notice` (optional) is shown once the move is accepted. */
async function sendMove(st, page, move, notice = null) {
  if (!st.token || !st.view || st.sentAt === st.view.move_number) return;
  const m = { ...move };
  delete m.seat;
  const at = st.view.move_number;
  st.sentAt = at;
  // The selection is used up by this move (a late answer must not clear
  // a selection made for the next one).
  st.ui = {};
  st.notice = null;
  const active = document.activeElement;
  st.focusHand = !!(active && active.closest && active.closest(".game"));
  try {
    const v = await api.move(st.id, st.token, at, m);
    banner("");
    // a notice stays until our next move (or the end of the game)
    st.notice = notice ? { text: notice } : null;
    if (v) page.show(v);
    else page.render();
  } catch (err) {
    if (st.sentAt === at) st.sentAt = null;
    st.focusHand = false;
    if (err.status === 409 && err.moveNumber !== null && err.moveNumber !== at) {
      // the game moved on without this page (updates missed): read it
      // again and say so; the move is not made for the new position
      await resync(st, page);
      return;
    }
    if (err.status === 0) banner(t("error.unreachable"));
    else banner(t("error.move_refused", { message: refusalText(err) }));
    page.render();
  }
}

/** The page missed updates (a move was refused for a position the
 * game has left): reads the view again, opens a new connection (the
 * old one may be dead without knowing it) and says the game moved on. */
async function resync(st, page) {
  try {
    const v = await api.view(st.id, st.token);
    if (v) page.show(v);
  } catch (err) {
    refused(st, err);
    return;
  }
  page.reconnect();
  banner(t("error.moved_on"), "info", 8000);
}

/** A card or the board was touched when it is not our turn: a short
 * note says whose turn it is (table-live.js; it goes by itself). */
function offTurn(st, page) {
  if (!st.view || st.view.status !== "playing" || !st.token) return;
  st.offTurnAt = Date.now();
  page.render();
  clearTimeout(st.offTurnTimer);
  st.offTurnTimer = setTimeout(page.render, OFF_TURN_MS + 100);
}

async function giveToBot(st, page, seat) {
  try {
    await api.bot(st.id, st.token, seat, "level:2");
  } catch (err) {
    refused(st, err);
  }
}

async function rematch(st, page) {
  try {
    await api.rematch(st.id, st.token);
  } catch (err) {
    refused(st, err);
  }
}

async function leave(st, page) {
  if (!confirm(t("table.leave_confirm"))) return;
  try {
    await api.leave(st.id, st.token);
  } catch (err) {
    refused(st, err);
    return;
  }
  forgetSeat(st.id);
  navigate(null);
}

/** Copies the invite link; a short note beside the button says so
 * and goes away by itself. */
async function copyInvite(st, page, link) {
  let copied = false;
  try {
    await navigator.clipboard.writeText(link);
    copied = true;
  } catch {
    const input = document.getElementById("invite-link");
    if (input) {
      input.select();
      try {
        copied = document.execCommand("copy");
      } catch {
        copied = false;
      }
    }
  }
  const note = document.getElementById("invite-note");
  if (!note) return;
  note.textContent = t(copied ? "table.copied" : "table.copy_by_hand");
  clearTimeout(st.inviteTimer);
  st.inviteTimer = setTimeout(() => {
    const n = document.getElementById("invite-note");
    if (n) n.textContent = "";
  }, 2500);
}

/** Sends a chat line; false when the connection is down. */
function chat(st, page, text) {
  if (st.socket && st.socket.send({ type: "chat", text })) return true;
  banner(t("error.connection_lost"));
  return false;
}

/** Reads the whole move log once when entries are missing (a page
 * opened mid-game, views missed while disconnected). */
async function fetchLog(st, page) {
  if (st.logFetching || !logHasGaps(st) || !st.info) return;
  st.logFetching = true;
  const game = st.info.game_no;
  try {
    const r = await api.log(st.id, game);
    if (st.info && st.info.game_no === game) {
      for (const e of r.log || []) if (typeof e.i === "number" && !st.moves[e.i]) st.moves[e.i] = e;
      page.render();
    }
  } catch {
    // the entries the views carry are still shown
  } finally {
    st.logFetching = false;
  }
}

/** Our seat was marked away (timeouts in a row): we are back. */
async function back(st, page) {
  if (!st.token || st.backSent) return;
  st.backSent = true;
  try {
    await api.back(st.id, st.token);
  } catch (err) {
    refused(st, err);
  } finally {
    st.backSent = false;
  }
}

/** The search's best moves for our decision (practice games only). */
async function hint(st, page) {
  if (!st.token || !st.view) return;
  const at = st.view.move_number;
  st.hint = { at, loading: true, moves: [] };
  page.render();
  try {
    const r = await api.hint(st.id, st.token);
    if (st.hint && st.hint.at === at) st.hint = { at, loading: false, moves: r.moves || [] };
  } catch (err) {
    st.hint = null;
    refused(st, err);
  }
  page.render();
}

/** The host gives team `team` the table-talk penalty (C10). */
async function penalty(st, page, team) {
  if (!confirm(t("penalty.confirm", { team: t(`team.${team}`) }))) return;
  try {
    await api.penalty(st.id, st.token, team);
  } catch (err) {
    refused(st, err);
  }
}

/** Sends quick reaction `name` (reactions.js); the buttons rest a
 * second after. */
function react(st, page, name) {
  if (!st.socket || !st.socket.send({ type: "reaction", reaction: name })) {
    banner(t("error.connection_lost"));
    return;
  }
  st.reactedAt = Date.now();
  page.render();
  setTimeout(page.render, 1050);
}

/** A chat line or a reaction came from the server: the line goes into
 * the chat; the reaction shows beside its seat for a while, with its
 * sound, unless muted. */
function heard(st, page, msg) {
  if (msg.type === "chat") {
    st.chat.push(msg);
    if (st.chat.length > 100) st.chat.shift();
    renderChat(st);
    return;
  }
  if (!takeReaction(st, msg)) return;
  effect("reaction");
  page.render();
  clearTimeout(st.reactionTimer);
  st.reactionTimer = setTimeout(page.render, reactionsLeft(st) + 50);
}
