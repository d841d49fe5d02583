// The join page of a table with free seats (an invite link): a name (a
// guest's; signed in, the account's name is used), the seat to take (with
// its team), or just watching. The page polls the table while it shows
// this form (table.js), and draws it again when a seat was taken
// meanwhile, keeping what was typed and chosen.
import { t, num, SEP } from "./i18n.js";
import { h } from "./cards.js";
import { api, savedName, saveName, saveSeat } from "./api.js";
import { banner } from "./main.js";
import { refusalText } from "./errors.js";
import { tableTitle } from "./lobby.js";
import { seatsList } from "./table-panels.js";
import { account } from "./accounts/session.js";

/** How often the join form reads the table again (ms). */
const POLL_MS = 3000;

/** The seats of table info `info` a person may take. */
export function freeSeats(info) {
  return info.seats.filter((s) => s.kind === "free" || s.kind === "left").map((s) => s.seat);
}

/** The joining of table `st.id` shown in `app`: `offer()` shows the join
 * form for `st.info` and keeps it up to date; `stop()` stops reading the
 * table. Joined, the seat is kept (`st.seat`, `st.token`, localStorage)
 * and `connect()` opens the game; watching calls `connect()` too; a join
 * refused because the table changed calls `restart()` (the table is read
 * again). */
export function joiner(app, st, connect, restart) {
  let timer = null;
  const id = st.id;

  function offer() {
    renderJoin(app, st, st.info, join, watch);
    timer = setTimeout(poll, POLL_MS);
  }

  /** While the join form shows, reads the table again: a seat taken
   * meanwhile leaves the form (drawn again, the person told when it was
   * the seat they had chosen); a table that filled up is watched. */
  async function poll() {
    if (st.stopped || !document.getElementById("join")) return;
    let info;
    try {
      info = await api.table(id);
    } catch {
      info = null; // tried again at the next poll
    }
    if (st.stopped || !document.getElementById("join")) return;
    if (info) {
      const had = freeSeats(st.info);
      const now = freeSeats(info);
      st.info = info;
      if (!now.length) {
        banner(t("join.table_filled"));
        connect();
        return;
      }
      if (had.join() !== now.join()) {
        const chosen = Number(document.getElementById("join-seat").value);
        if (!now.includes(chosen)) banner(t("join.seat_taken", { n: num(chosen + 1) }));
        renderJoin(app, st, info, join, watch);
      }
    }
    timer = setTimeout(poll, POLL_MS);
  }

  /** Watches instead of joining. */
  function watch() {
    clearTimeout(timer);
    connect();
  }

  async function join(name, seat) {
    const me = account();
    if (!name && !me) {
      banner(t("lobby.need_name"));
      return;
    }
    if (!me) saveName(name);
    clearTimeout(timer);
    try {
      const r = await api.join(id, name, seat);
      saveSeat(id, r.seat, r.token);
      st.seat = r.seat;
      st.token = r.token;
      banner("");
      connect();
    } catch (err) {
      // the seat was taken first: say which, counted as the page counts
      // seats (the API counts from 0), and draw the form again
      if (err.code === "seat.taken" && seat !== undefined) banner(t("join.seat_taken", { n: num(seat + 1) }));
      else banner(err.status === 0 ? t("error.unreachable") : t("error.refused", { message: refusalText(err) }));
      if (err.status === 409) restart();
      else timer = setTimeout(poll, POLL_MS);
    }
  }

  return { offer, stop: () => clearTimeout(timer) };
}

/** Shows the join form for table info `info` in `app`. `onJoin(name,
 * seat)` and `onWatch()` are called with the person's choice. Drawn again
 * over a form already shown, it keeps the name typed, the seat chosen
 * (when it is still free) and the focus. */
export function renderJoin(app, st, info, onJoin, onWatch) {
  const me = account();
  const before = {
    name: document.getElementById("join-name"),
    seat: document.getElementById("join-seat"),
    focus: document.activeElement && document.activeElement.id,
  };
  const name = me ? null : h("input", { id: "join-name", required: true, maxlength: "32", value: before.name ? before.name.value : savedName(), autocomplete: "nickname" });
  const free = info.seats.filter((s) => s.kind === "free" || s.kind === "left");
  const seatSel = h("select", { id: "join-seat" }, free.map((s) => h("option", { value: String(s.seat) },
    t("lobby.seat_n", { n: num(s.seat + 1) }) + (s.team ? ` — ${t(`team.${s.team}`)}` : ""))));
  if (before.seat && free.some((s) => String(s.seat) === before.seat.value)) seatSel.value = before.seat.value;
  const taken = info.seats.filter((s) => s.kind === "human" || s.kind === "bot").length;
  const submit = (e) => {
    e.preventDefault();
    const seat = Number(seatSel.value);
    onJoin(name ? name.value.trim() : "", Number.isFinite(seat) ? seat : undefined);
  };
  const who = me
    ? h("p", { class: "field as-account", id: "join-as" }, t("lobby.playing_as", { name: "\u2068" + me.name + "\u2069" }))
    : h("div", { class: "field" }, h("label", { for: "join-name" }, t("lobby.your_name")), name);
  app.replaceChildren(h("div", { class: "join" },
    h("form", { class: "card-panel", onsubmit: submit },
      h("h2", {}, t("table.join_title", { name: tableTitle(info) })),
      h("p", { id: "join-taken" }, t(`game.${info.game}`), SEP, t("lobby.seats_taken", { taken: num(taken), players: num(info.players) })),
      seatsList(st, info, null, null),
      who,
      h("div", { class: "field" }, h("label", { for: "join-seat" }, t("table.seat")), seatSel),
      h("div", { class: "buttons" },
        h("button", { type: "submit", class: "primary", id: "join" }, t("table.join")),
        h("button", { type: "button", id: "watch", onclick: onWatch }, t("table.watch"))))));
  const again = before.focus && document.getElementById(before.focus);
  if (again) again.focus();
  else (name || document.getElementById("join")).focus();
}
