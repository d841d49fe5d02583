// The side panels of a table page: the seats (names, "you" and "partner",
// connection, whose turn, hand sizes and discard tops), the table's
// actions (records to download, rematch, leave), the invite link, and the
// chat. Each takes the table state `st` and the actions of table-actions.js.
import { t, num } from "./i18n.js";
import { h } from "./cards.js";
import { api, unescapeText } from "./api.js";
import { levelName } from "./lobby.js";
import { seatName, isPartner, seatToAct } from "./table-state.js";
import { classicStatus } from "./classic.js";
import { stacksStatus } from "./stacks.js";

/** The list of seats; `view` (null on the join page) adds whose turn it
 * is and each seat's public game facts. */
export function seatsList(st, info, view, actions) {
  const toAct = seatToAct(view);
  return h("ul", { class: "seats", "aria-label": t("table.seats") }, info.seats.map((s) => {
    const turn = toAct === s.seat;
    const parts = [];
    if (s.kind === "bot") parts.push(t("table.bot", { level: levelName(s.level) }));
    if (s.kind === "free") parts.push(t("table.free_seat"));
    if (s.kind === "left") parts.push(t("table.left_seat"));
    if (s.timed_out) parts.push(t("table.timed_out"));
    const extra = view && view.game ? (view.game === "stacks" ? stacksStatus.seatExtra(view, s.seat) : classicStatus.seatExtra(view, s.seat)) : null;
    const conn = s.kind === "free" ? null : (s.connected ? "online" : "offline");
    const who = s.seat === st.seat ? t("table.you") : isPartner(info, st.seat, s.seat) ? t("table.partner") : null;
    return h("li", { class: `seat-row${turn ? " turn" : ""}${s.seat === st.seat ? " me" : ""}${who && s.seat !== st.seat ? " partner" : ""}`, "data-seat": String(s.seat) },
      s.team ? h("span", { class: `chip-icon chip-${s.team}`, title: t(`team.${s.team}`), "aria-hidden": "true" }) : null,
      h("span", { class: "sname" }, seatName(info, s.seat), who ? h("span", { class: "you" }, ` (${who})`) : null),
      conn ? h("span", { class: `dot ${conn}`, role: "img", "aria-label": t(`table.${conn}`), title: t(`table.${conn}`) }) : null,
      parts.length ? h("span", { class: "skind" }, parts.join(" · ")) : null,
      turn ? h("span", { class: "turn-mark" }, t("table.to_play")) : null,
      extra,
      actions ? hostSeatControls(st, info, s, actions) : null);
  }));
}

function hostSeatControls(st, info, s, actions) {
  if (!st.token || st.seat !== info.host || s.seat === info.host) return null;
  const canBot = s.kind === "left" || s.kind === "free" || s.timed_out || (info.status === "playing" && s.kind === "human" && !s.connected);
  if (!canBot) return null;
  return h("button", { type: "button", class: "small", onclick: () => actions.giveToBot(s.seat) }, t("table.give_to_bot"));
}

/** Links to the records of the table's games that are over: every game
 * before the current one (`?game=N`) and the current one once it ends. */
function recordLinks(st, info) {
  const over = info.status === "over";
  const earlier = [];
  for (let n = 1; n < info.game_no; n++) earlier.push(n);
  const link = (n, current) => h("a", {
    class: current ? "button" : "record-link",
    id: current ? "download" : `download-${n}`,
    href: api.recordUrl(st.id, n),
    download: `sequence-${st.id}-${n}.json`,
    "aria-label": current ? null : t("table.record_of", { n: num(n) }),
  }, current ? t("table.download") : t("table.game_no", { n: num(n) }));
  return [
    over ? link(info.game_no, true) : null,
    earlier.length ? h("p", { class: "records" }, t("table.records"), " ", earlier.flatMap((n, i) => [i ? " · " : "", link(n, false)])) : null,
  ];
}

function tableButtons(st, info, actions) {
  const over = info.status === "over";
  const isHost = st.token && st.seat === info.host;
  const [current, earlier] = recordLinks(st, info);
  return [
    h("div", { class: "buttons table-actions" },
      current,
      over && isHost ? h("button", { type: "button", id: "rematch", class: "primary", onclick: actions.rematch }, t("table.rematch")) : null,
      over && st.token && !isHost ? h("p", { class: "hint" }, t("table.rematch_host")) : null,
      st.token ? h("button", { type: "button", id: "leave", onclick: actions.leave }, t("table.leave")) : null,
      !st.token ? h("span", { class: "hint" }, t("table.watching")) : null),
    earlier,
  ];
}

function inviteBox(st, actions) {
  const invite = `${location.origin}/?table=${st.id}`;
  return h("div", { class: "invite" },
    h("label", { for: "invite-link" }, t("table.invite")),
    h("div", { class: "invite-row" },
      h("input", { id: "invite-link", dir: "ltr", readonly: true, value: invite, onfocus: (e) => e.target.select() }),
      h("button", { type: "button", onclick: () => actions.copyInvite(invite) }, t("table.copy"))));
}

function chatPanel(st, actions) {
  const form = st.token ? h("form", { class: "chat-form", onsubmit: (e) => {
    e.preventDefault();
    const input = document.getElementById("chat-input");
    const text = input.value.trim();
    if (text && actions.chat(text)) input.value = "";
  } },
    h("label", { for: "chat-input", class: "sr-only" }, t("chat.message")),
    h("input", { id: "chat-input", maxlength: "280", placeholder: t("chat.placeholder"), autocomplete: "off" }),
    h("button", { type: "submit" }, t("chat.send"))) : h("p", { class: "hint" }, t("chat.spectators"));
  return h("section", { class: "panel chat", "aria-labelledby": "chat-h" },
    h("h2", { id: "chat-h" }, t("chat.title")),
    h("ul", { id: "chat-log", class: "chat-log", "aria-live": "polite" }), form);
}

/** Fills the chat log (after a render, or when a line arrives). */
export function renderChat(st) {
  const log = document.getElementById("chat-log");
  if (!log) return;
  log.replaceChildren(...st.chat.map((m) => h("li", {},
    h("b", {}, unescapeText(m.name) || t("table.seat_n", { n: num((m.seat ?? 0) + 1) })), ": ", unescapeText(m.text))));
  log.scrollTop = log.scrollHeight;
}

/** The side column of a table page. */
export function sidebar(st, view, actions) {
  const info = st.info;
  return h("aside", { class: "side" },
    h("section", { class: "panel" }, h("h2", {}, t("table.seats")), seatsList(st, info, view, actions)),
    h("section", { class: "panel" }, tableButtons(st, info, actions), inviteBox(st, actions)),
    chatPanel(st, actions));
}

