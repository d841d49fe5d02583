// A table page (`/?table=ID`): join or watch, then the live game over the
// WebSocket. The parts: table-state.js (what the page knows), table-actions.js
// (what a person can do), table-panels.js (seats, actions, invite, chat),
// join.js (the join form), classic.js / stacks.js (the game), focus.js
// (keyboard focus across redraws). The seat token is kept in localStorage,
// so a reload keeps the seat.
import { t, num, SEP } from "./i18n.js";
import { h } from "./cards.js";
import { api, savedSeat, forgetSeat, TableSocket } from "./api.js";
import { banner, connection, navigate, newPractice } from "./main.js";
import { isLocal } from "./practice/local.js";
import { practiceElsewhere } from "./practice/missing.js";
import { tableTitle } from "./lobby.js";
import { newTableState, acceptView, seatName } from "./table-state.js";
import { tableActions } from "./table-actions.js";
import { sidebar, renderChat } from "./table-panels.js";
import { joiner, freeSeats } from "./join.js";
import { accountReady } from "./accounts/session.js";
import { saveFocus, restoreFocus } from "./focus.js";
import { refusalText, refusedBanner } from "./errors.js";
import { gamePart, signals } from "./table-live.js";
import { startClocks, stopClocks } from "./clock.js";
import { clearTurnSignal } from "./notify.js";
import { learnParts, markStep } from "./learn/help.js";

export function showTable(app, id) {
  const st = newTableState(id);
  const page = { render, show, reconnect: () => connect() };
  const actions = tableActions(st, page);
  const joining = joiner(app, st, () => connect(), () => start());

  /** Loads the table's info: a table with a free seat offers to join. */
  async function start() {
    joining.stop();
    try {
      st.info = await api.table(id);
    } catch (err) {
      app.replaceChildren(notLoaded(id, err, start));
      return;
    }
    if (freeSeats(st.info).length) {
      // signed in, the form asks no name: known before it is drawn
      await accountReady();
      if (!st.stopped) joining.offer();
    } else connect();
  }

  /** The saved token no longer works (the seat was left or given away):
   * forget it and offer to join again. */
  function seatLost() {
    st.socket.fatal = true;
    forgetSeat(id);
    st.token = null;
    st.seat = null;
    banner(t("error.seat_lost"));
    st.socket.close();
    start();
  }

  function onMessage(msg) {
    if (st.stopped) return;
    if (msg.type === "welcome") {
      if (st.token && msg.seat !== null && msg.seat !== undefined) st.seat = msg.seat;
    } else if (msg.type === "view" && msg.view) {
      show(msg.view);
    } else if (msg.type === "chat" || msg.type === "reaction") {
      actions.heard(msg);
    } else if (msg.type === "error") {
      if (msg.status === 401 && st.token) seatLost();
      else banner(refusedBanner(msg, id));
    }
  }

  function connect() {
    openSocket(app, st, onMessage);
  }

  /** Takes a view from the server and shows it. */
  function show(view) {
    if (!acceptView(st, view)) return;
    // The shown view (this seat's own information only), for tests and
    // for curious users in the browser console.
    window.sequenceView = view;
    render();
    actions.fetchLog();
    signals(st, view, st.info);
  }

  function render() {
    if (st.stopped || !st.view) return;
    const focus = saveFocus();
    const toHand = st.focusHand && st.sentAt !== st.view.move_number;
    const learn = learnParts(st, (s) => seatName(st.info, s), render);
    if (toHand) st.focusHand = false;
    app.replaceChildren(h("div", { class: `table-page game-${st.view.game}` },
      heading(st.info, learn.button), learn.panels,
      h("div", { class: "table-body" }, gamePart(st, st.view, st.info, actions, render), sidebar(st, st.view, actions, render))));
    markStep(app, st);
    renderChat(st);
    restoreFocus(app, focus, toHand);
  }

  const saved = savedSeat(id);
  if (saved) {
    st.seat = saved.seat;
    st.token = saved.token;
    connect();
  } else {
    start();
  }

  startClocks(() => st.info && st.info.deadline_ms ? { deadline: st.info.deadline_ms, offset: st.clockOffset } : null);
  // Any action of a person marked away brings the seat back.
  const backOnAction = () => {
    const me = st.info && st.seat !== null && st.info.seats[st.seat];
    if (me && me.away && st.token) actions.back();
  };
  app.addEventListener("pointerdown", backOnAction);
  app.addEventListener("keydown", backOnAction);

  return {
    stop() {
      st.stopped = true;
      joining.stop();
      if (st.socket) st.socket.close();
      stopClocks();
      clearTurnSignal(t("app.title"));
      app.removeEventListener("pointerdown", backOnAction);
      app.removeEventListener("keydown", backOnAction);
    },
    // without a view: the join form, or what was said of a missing table, again
    rerender: () => (st.view ? render() : start()),
  };
}

/** What the page shows when table `id`'s info could not be read (`err`,
 * the refusal): a practice game this browser does not hold, no such
 * table, or (the reason in the banner) a button to `retry`. */
function notLoaded(id, err, retry) {
  if (err.status === 404 && isLocal(id)) return practiceElsewhere(newPractice);
  if (err.status === 404) return noSuchTable();
  banner(refusedBanner(err, id));
  return h("div", { class: "card-panel" }, h("button", { type: "button", onclick: retry }, t("error.retry")));
}

/** Opens the table's WebSocket (closing the one before), its state in the
 * connection sign and the banner; "loading" until the first view. */
function openSocket(app, st, onMessage) {
  if (st.socket) st.socket.close();
  st.socket = new TableSocket(st.id, st.token, {
    onState(state) {
      if (st.stopped) return;
      connection(state);
      if (state === "lost") {
        st.connLost = true;
        banner(t("error.connection_lost"));
      } else if (state === "open" && st.connLost) {
        // the connection is back: its message goes (not another one)
        st.connLost = false;
        banner("");
      }
    },
    onMessage,
  });
  if (!st.view) app.replaceChildren(h("p", { class: "hint loading" }, t("lobby.loading")));
}

/** The table's title and game (and game number after the first). */
function heading(info, help) {
  return h("div", { class: "table-head" },
    h("h1", {}, tableTitle(info)),
    h("span", { class: "tgame" }, t(`game.${info.game}`), info.game_no > 1 ? `${SEP}${t("table.game_no", { n: num(info.game_no) })}` : ""), help);
}

/** The panel of a table that is not there: "no such table" and the way to
 * the lobby. */
export function noSuchTable() {
  return h("div", { class: "card-panel", id: "table-missing" }, h("h2", {}, t("table.not_found")),
    h("button", { type: "button", id: "table-to-lobby", onclick: () => navigate(null) }, t("table.back_to_lobby")));
}
