// What a person at a table can do, each as one function over the table
// state `st`: make a move, chat, give a seat to a bot, start a rematch,
// leave, copy the invite link, fetch a finished game's record. `page` holds
// the page's callbacks: render() and show(view) (take a new view).
import { t } from "./i18n.js";
import { api, forgetSeat } from "./api.js";
import { banner, navigate } from "./main.js";

export function tableActions(st, page) {
  const refused = (err) => banner(err.status === 0 ? t("error.unreachable") : t("error.refused", { message: err.message }));

  /** Sends `move` for the view shown. One move per view: a second click
   * before the view moves on is ignored. The WebSocket may bring the next
   * view before the HTTP answer does; then the next move may go at once.
   * `notice` (optional) is shown once the move is accepted. */
  async function sendMove(move, notice = null) {
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
      if (err.status === 0) banner(t("error.unreachable"));
      else banner(t("error.move_refused", { message: err.message }));
      if (st.sentAt === at) st.sentAt = null;
      st.focusHand = false;
      page.render();
    }
  }

  async function giveToBot(seat) {
    try {
      await api.bot(st.id, st.token, seat, "level:2");
    } catch (err) {
      refused(err);
    }
  }

  async function rematch() {
    try {
      await api.rematch(st.id, st.token);
    } catch (err) {
      refused(err);
    }
  }

  async function leave() {
    if (!confirm(t("table.leave_confirm"))) return;
    try {
      await api.leave(st.id, st.token);
    } catch (err) {
      refused(err);
      return;
    }
    forgetSeat(st.id);
    navigate(null);
  }

  async function copyInvite(link) {
    try {
      await navigator.clipboard.writeText(link);
      banner(t("table.copied"), "info");
    } catch {
      document.getElementById("invite-link").select();
    }
  }

  /** Sends a chat line; false when the connection is down. */
  function chat(text) {
    if (st.socket && st.socket.send({ type: "chat", text })) return true;
    banner(t("error.connection_lost"));
    return false;
  }

  /** Fetches the record of the finished current game once (it lists
   * every move: the recent moves and the winning move come from it). */
  async function fetchRecord() {
    const n = st.info && st.info.game_no;
    if (!n || st.info.status !== "over" || n in st.records) return;
    st.records[n] = null;
    try {
      st.records[n] = await fetch(api.recordUrl(st.id, n)).then((r) => (r.ok ? r.json() : null));
    } catch {
      st.records[n] = null;
    }
    // a failure is not retried (null): the moves seen are listed instead
    if (st.records[n]) page.render();
  }

  return { sendMove, giveToBot, rematch, leave, copyInvite, chat, fetchRecord };
}
