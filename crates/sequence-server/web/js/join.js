// The join page of a table with free seats (an invite link): a name, the
// seat to take (with its team), or just watching.
import { t, num, SEP } from "./i18n.js";
import { h } from "./cards.js";
import { savedName } from "./api.js";
import { tableTitle } from "./lobby.js";
import { seatsList } from "./table-panels.js";

/** Shows the join form for table info `info` in `app`. `onJoin(name,
 * seat)` and `onWatch()` are called with the person's choice. */
export function renderJoin(app, st, info, onJoin, onWatch) {
  const name = h("input", { id: "join-name", required: true, maxlength: "32", value: savedName(), autocomplete: "nickname" });
  const free = info.seats.filter((s) => s.kind === "free" || s.kind === "left");
  const seatSel = h("select", { id: "join-seat" }, free.map((s) => h("option", { value: String(s.seat) },
    t("lobby.seat_n", { n: num(s.seat + 1) }) + (s.team ? ` — ${t(`team.${s.team}`)}` : ""))));
  const taken = info.seats.filter((s) => s.kind === "human" || s.kind === "bot").length;
  const submit = (e) => {
    e.preventDefault();
    const seat = Number(seatSel.value);
    onJoin(name.value.trim(), Number.isFinite(seat) ? seat : undefined);
  };
  app.replaceChildren(h("div", { class: "join" },
    h("form", { class: "card-panel", onsubmit: submit },
      h("h2", {}, t("table.join_title", { name: tableTitle(info) })),
      h("p", {}, t(`game.${info.game}`), SEP, t("lobby.seats_taken", { taken: num(taken), players: num(info.players) })),
      seatsList(st, info, null, null),
      h("div", { class: "field" }, h("label", { for: "join-name" }, t("lobby.your_name")), name),
      h("div", { class: "field" }, h("label", { for: "join-seat" }, t("table.seat")), seatSel),
      h("div", { class: "buttons" },
        h("button", { type: "submit", class: "primary", id: "join" }, t("table.join")),
        h("button", { type: "button", id: "watch", onclick: onWatch }, t("table.watch"))))));
  name.focus();
}
