// A table page (`/?table=ID`): join or watch, the live game over the
// WebSocket, seats with their connection state, chat, rematch, the record
// download, and messages when the server cannot be reached or a move is
// refused. The seat token is kept in localStorage, so a reload keeps the
// seat.
import { t, tn, num } from "./i18n.js";
import { h } from "./cards.js";
import { api, savedSeat, saveSeat, forgetSeat, savedName, saveName, unescapeText, TableSocket } from "./api.js";
import { banner, connection, navigate } from "./main.js";
import { levelName, tableTitle } from "./lobby.js";
import { renderClassic, classicStatus } from "./classic.js";
import { renderStacks, stacksStatus } from "./stacks.js";

export function showTable(app, id) {
  const st = {
    id,
    seat: null, // our seat number, null while watching
    token: null,
    view: null,
    info: null, // TableInfo
    chat: [],
    socket: null,
    stopped: false,
    ui: {}, // per-game UI state (selected card, …) kept across renders
    sentAt: null, // move_number of the move in flight
  };

  const saved = savedSeat(id);
  if (saved) {
    st.seat = saved.seat;
    st.token = saved.token;
    connect();
  } else {
    start();
  }

  async function start() {
    try {
      st.info = await api.table(id);
    } catch (err) {
      if (err.status === 404) {
        app.replaceChildren(h("div", { class: "card-panel" }, h("h2", {}, t("table.not_found")),
          h("button", { type: "button", onclick: () => navigate(null) }, t("table.back_to_lobby"))));
      } else {
        banner(err.status === 0 ? t("error.unreachable") : err.message);
        app.replaceChildren(h("div", { class: "card-panel" }, h("button", { type: "button", onclick: start }, t("error.retry"))));
      }
      return;
    }
    const open = st.info.seats.some((s) => s.kind === "free" || s.kind === "left");
    if (open) renderJoin();
    else connect();
  }

  function renderJoin() {
    const info = st.info;
    const name = h("input", { id: "join-name", required: true, maxlength: "32", value: savedName(), autocomplete: "nickname" });
    const free = info.seats.filter((s) => s.kind === "free" || s.kind === "left");
    const seatSel = h("select", { id: "join-seat" }, free.map((s) => h("option", { value: String(s.seat) },
      t("lobby.seat_n", { n: num(s.seat + 1) }) + (s.team ? ` — ${t(`team.${s.team}`)}` : ""))));
    app.replaceChildren(h("div", { class: "join" },
      h("form", { class: "card-panel", onsubmit: join },
        h("h2", {}, t("table.join_title", { name: tableTitle(info) })),
        h("p", {}, t(`game.${info.game}`), " · ", t("lobby.seats_taken", {
          taken: num(info.seats.filter((s) => s.kind === "human" || s.kind === "bot").length), players: num(info.players),
        })),
        seatsList(info, null),
        h("div", { class: "field" }, h("label", { for: "join-name" }, t("lobby.your_name")), name),
        h("div", { class: "field" }, h("label", { for: "join-seat" }, t("table.seat")), seatSel),
        h("div", { class: "buttons" },
          h("button", { type: "submit", class: "primary", id: "join" }, t("table.join")),
          h("button", { type: "button", id: "watch", onclick: () => connect() }, t("table.watch"))))));
    name.focus();
  }

  async function join(e) {
    e.preventDefault();
    const name = document.getElementById("join-name").value.trim();
    if (!name) {
      banner(t("lobby.need_name"));
      return;
    }
    saveName(name);
    const seat = Number(document.getElementById("join-seat").value);
    try {
      const r = await api.join(id, name, Number.isFinite(seat) ? seat : undefined);
      saveSeat(id, r.seat, r.token);
      st.seat = r.seat;
      st.token = r.token;
      banner("");
      connect();
    } catch (err) {
      banner(err.status === 0 ? t("error.unreachable") : t("error.refused", { message: err.message }));
      if (err.status === 409) start();
    }
  }

  function connect() {
    if (st.socket) st.socket.close();
    st.socket = new TableSocket(id, st.token, {
      onState(state) {
        if (st.stopped) return;
        connection(state);
        if (state === "lost") banner(t("error.connection_lost"));
        else if (state === "open") banner("");
      },
      onMessage(msg) {
        if (st.stopped) return;
        if (msg.type === "welcome") {
          if (st.token && msg.seat !== null && msg.seat !== undefined) st.seat = msg.seat;
        } else if (msg.type === "view" && msg.view) {
          setView(msg.view);
        } else if (msg.type === "chat") {
          st.chat.push(msg);
          if (st.chat.length > 100) st.chat.shift();
          renderChat();
        } else if (msg.type === "error") {
          if (msg.status === 401 && st.token) {
            // The saved token no longer works (the seat was left or given
            // away): forget it and offer to join again.
            st.socket.fatal = true;
            forgetSeat(id);
            st.token = null;
            st.seat = null;
            banner(t("error.seat_lost"));
            st.socket.close();
            start();
          } else {
            banner(t("error.refused", { message: msg.error || "" }));
          }
        }
      },
    });
    if (!st.view) app.replaceChildren(h("p", { class: "hint loading" }, t("lobby.loading")));
  }

  function setView(view) {
    if (st.view && view.table && st.view.table && view.table.game_no === st.view.table.game_no
      && typeof view.move_number === "number" && view.move_number < st.view.move_number) return;
    if (st.view && view.table && st.view.table && view.table.game_no !== st.view.table.game_no) st.ui = {};
    st.view = view;
    st.info = view.table || st.info;
    // The shown view (this seat's own information only), for tests and
    // for curious users in the browser console.
    window.sequenceView = view;
    render();
  }

  async function sendMove(move) {
    // One move per view: a second click before the view moves on is
    // ignored. The WebSocket may bring the next view before the HTTP answer
    // does; then the next move may go at once.
    if (!st.token || !st.view || st.sentAt === st.view.move_number) return;
    const m = { ...move };
    delete m.seat;
    const at = st.view.move_number;
    st.sentAt = at;
    // The selection is used up by this move (a late answer must not clear
    // a selection made for the next one).
    st.ui = {};
    try {
      const v = await api.move(id, st.token, at, m);
      banner("");
      if (v) setView(v);
    } catch (err) {
      if (err.status === 0) banner(t("error.unreachable"));
      else banner(t("error.move_refused", { message: err.message }));
      if (st.sentAt === at) st.sentAt = null;
      render();
    }
  }

  function seatName(info, s) {
    const seat = info && info.seats && info.seats[s];
    if (!seat) return t("table.seat_n", { n: num(s + 1) });
    if (seat.name) return unescapeText(seat.name);
    return t("table.seat_n", { n: num(s + 1) });
  }

  function seatsList(info, view) {
    return h("ul", { class: "seats", "aria-label": t("table.seats") }, info.seats.map((s) => {
      const turn = view && view.status === "playing" && (view.game === "stacks" ? view.to_act === s.seat : view.turn === s.seat);
      const parts = [];
      if (s.kind === "bot") parts.push(t("table.bot", { level: levelName(s.level) }));
      if (s.kind === "free") parts.push(t("table.free_seat"));
      if (s.kind === "left") parts.push(t("table.left_seat"));
      if (s.timed_out) parts.push(t("table.timed_out"));
      const extra = view && view.game ? (view.game === "stacks" ? stacksSeatExtra(view, s.seat) : classicSeatExtra(view, s.seat)) : null;
      const conn = s.kind === "free" ? null : (s.connected ? "online" : "offline");
      return h("li", { class: `seat-row${turn ? " turn" : ""}${s.seat === st.seat ? " me" : ""}`, "data-seat": String(s.seat) },
        s.team ? h("span", { class: `chip-icon chip-${s.team}`, title: t(`team.${s.team}`), "aria-hidden": "true" }) : null,
        h("span", { class: "sname" }, s.kind === "free" ? t("table.seat_n", { n: num(s.seat + 1) }) : seatName(info, s.seat),
          s.seat === st.seat ? h("span", { class: "you" }, ` (${t("table.you")})`) : null),
        conn ? h("span", { class: `dot ${conn}`, role: "img", "aria-label": t(`table.${conn}`), title: t(`table.${conn}`) }) : null,
        parts.length ? h("span", { class: "skind" }, parts.join(" · ")) : null,
        turn ? h("span", { class: "turn-mark" }, t("table.to_play")) : null,
        extra,
        hostSeatControls(info, s));
    }));
  }

  function hostSeatControls(info, s) {
    if (!st.token || st.seat !== info.host || s.seat === info.host) return null;
    const canBot = s.kind === "left" || s.kind === "free" || s.timed_out || (info.status === "playing" && s.kind === "human" && !s.connected);
    if (!canBot) return null;
    return h("button", { type: "button", class: "small", onclick: async () => {
      try {
        await api.bot(id, st.token, s.seat, "level:2");
      } catch (err) {
        banner(t("error.refused", { message: err.message }));
      }
    } }, t("table.give_to_bot"));
  }

  function classicSeatExtra(view, s) {
    const pile = view.discard_piles && view.discard_piles[s];
    const top = pile && pile.length ? pile[pile.length - 1] : null;
    return h("span", { class: "sinfo" },
      view.hand_sizes ? tn("table.cards_in_hand", view.hand_sizes[s] ?? 0, { n: num(view.hand_sizes[s] ?? 0) }) : "",
      top ? h("span", { class: "discard-top" }, " · ", t("table.discard_top"), " ", classicTopFace(top)) : null);
  }

  function classicTopFace(code) {
    return h("span", { class: "mini-card", "data-card": code }, classicStatus.face(code));
  }

  function stacksSeatExtra(view, s) {
    return stacksStatus.seatExtra(view, s);
  }

  function renderChat() {
    const log = document.getElementById("chat-log");
    if (!log) return;
    log.replaceChildren(...st.chat.map((m) => h("li", {},
      h("b", {}, unescapeText(m.name) || t("table.seat_n", { n: num((m.seat ?? 0) + 1) })), ": ", unescapeText(m.text))));
    log.scrollTop = log.scrollHeight;
  }

  function sidebar(view) {
    const info = st.info;
    const over = info.status === "over";
    const isHost = st.token && st.seat === info.host;
    const invite = `${location.origin}/?table=${id}`;
    const inviteBox = h("div", { class: "invite" },
      h("label", { for: "invite-link" }, t("table.invite")),
      h("div", { class: "invite-row" },
        h("input", { id: "invite-link", dir: "ltr", readonly: true, value: invite, onfocus: (e) => e.target.select() }),
        h("button", { type: "button", onclick: async () => {
          try {
            await navigator.clipboard.writeText(invite);
            banner(t("table.copied"), "info");
          } catch {
            document.getElementById("invite-link").select();
          }
        } }, t("table.copy"))));
    const chatForm = st.token ? h("form", { class: "chat-form", onsubmit: (e) => {
      e.preventDefault();
      const input = document.getElementById("chat-input");
      const text = input.value.trim();
      if (!text) return;
      if (st.socket && st.socket.send({ type: "chat", text })) input.value = "";
      else banner(t("error.connection_lost"));
    } },
      h("label", { for: "chat-input", class: "sr-only" }, t("chat.message")),
      h("input", { id: "chat-input", maxlength: "280", placeholder: t("chat.placeholder"), autocomplete: "off" }),
      h("button", { type: "submit" }, t("chat.send"))) : h("p", { class: "hint" }, t("chat.spectators"));
    const actions = h("div", { class: "buttons table-actions" },
      over ? h("a", { class: "button", id: "download", href: api.recordUrl(id, info.game_no), download: `sequence-${id}-${info.game_no}.json` }, t("table.download")) : null,
      over && isHost ? h("button", { type: "button", id: "rematch", class: "primary", onclick: async () => {
        try {
          await api.rematch(id, st.token);
        } catch (err) {
          banner(t("error.refused", { message: err.message }));
        }
      } }, t("table.rematch")) : null,
      over && st.token && !isHost ? h("p", { class: "hint" }, t("table.rematch_host")) : null,
      st.token ? h("button", { type: "button", id: "leave", onclick: async () => {
        if (!confirm(t("table.leave_confirm"))) return;
        try {
          await api.leave(id, st.token);
        } catch (err) {
          banner(t("error.refused", { message: err.message }));
          return;
        }
        forgetSeat(id);
        navigate(null);
      } }, t("table.leave")) : null,
      !st.token ? h("span", { class: "hint" }, t("table.watching")) : null);
    return h("aside", { class: "side" },
      h("section", { class: "panel" }, h("h2", {}, t("table.seats")), seatsList(info, view)),
      h("section", { class: "panel" }, actions, inviteBox),
      h("section", { class: "panel chat", "aria-labelledby": "chat-h" },
        h("h2", { id: "chat-h" }, t("chat.title")),
        h("ul", { id: "chat-log", class: "chat-log", "aria-live": "polite" }), chatForm));
  }

  function render() {
    if (st.stopped || !st.view) return;
    const view = st.view;
    const info = st.info;
    const active = document.activeElement;
    const focusKey = active && active.dataset ? active.dataset.focus || (active.dataset.space ? `space-${active.dataset.space}` : null) : null;
    const chatDraft = document.getElementById("chat-input");
    const draft = chatDraft ? chatDraft.value : "";
    const chatFocused = active && active.id === "chat-input";

    const title = h("div", { class: "table-head" },
      h("h1", {}, tableTitle(info)),
      h("span", { class: "tgame" }, t(`game.${info.game}`), info.game_no > 1 ? ` · ${t("table.game_no", { n: num(info.game_no) })}` : ""));
    let main;
    if (view.status === "waiting" || info.status === "waiting") {
      main = h("section", { class: "waiting card-panel", "aria-live": "polite" },
        h("h2", {}, t("table.waiting")), h("p", {}, t("table.waiting_hint")));
    } else {
      const ctx = {
        ui: st.ui,
        seatName: (s) => seatName(info, s),
        sendMove,
        rerender: render,
        deadline: info.deadline_ms,
      };
      main = view.game === "stacks" ? renderStacks(view, ctx) : renderClassic(view, ctx);
    }
    app.replaceChildren(h("div", { class: `table-page game-${view.game}` }, title, h("div", { class: "table-body" }, main, sidebar(view))));
    renderChat();
    const ci = document.getElementById("chat-input");
    if (ci) ci.value = draft;
    if (chatFocused && ci) ci.focus();
    else if (focusKey) {
      const el = focusKey.startsWith("space-")
        ? app.querySelector(`[data-space="${focusKey.slice(6)}"]`)
        : app.querySelector(`[data-focus="${focusKey}"]`);
      if (el) el.focus();
    }
  }

  return {
    stop() {
      st.stopped = true;
      if (st.socket) st.socket.close();
    },
    rerender: () => (st.view ? render() : st.info ? start() : null),
  };
}
