// The side panels of a table page: the seats (names, "you" and "partner",
// connection, whose turn, away, hand sizes and discard tops), the table's
// actions (records and replays of earlier games, leave, the host's
// table-talk penalty in team games), the turn signals (sound, browser
// notifications), the invite link, and the chat. Each takes the table
// state `st` and the actions of table-actions.js.
import { t, num, SEP } from "./i18n.js";
import { h } from "./cards.js";
import { api, unescapeText } from "./api.js";
import { levelName } from "./lobby.js";
import { seatName, isPartner, seatToAct, tableTeams } from "./table-state.js";
import { soundOn, setSound, notifyPermission, askNotify } from "./notify.js";
import { gameOf } from "./games.js";
import { reactionBar, reactionBubble } from "./reactions.js";

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
    if (s.away) parts.push(t("table.away"));
    else if (s.timed_out) parts.push(t("table.timed_out"));
    const extra = view && view.game ? gameOf(view.game).seatExtra(view, s.seat) : null;
    const conn = s.kind === "free" ? null : (s.connected ? "online" : "offline");
    const who = s.seat === st.seat ? t("table.you") : isPartner(info, st.seat, s.seat) ? t("table.partner") : null;
    return h("li", { class: `seat-row${turn ? " turn" : ""}${s.seat === st.seat ? " me" : ""}${who && s.seat !== st.seat ? " partner" : ""}`, "data-seat": String(s.seat) },
      s.team ? h("span", { class: `chip-icon chip-${s.team}`, title: t(`team.${s.team}`), "aria-hidden": "true" }) : null,
      h("span", { class: "sname" }, seatName(info, s.seat), who ? h("span", { class: "you" }, ` (${who})`) : null),
      conn ? h("span", { class: `dot ${conn}`, role: "img", "aria-label": t(`table.${conn}`), title: t(`table.${conn}`) }) : null,
      parts.length ? h("span", { class: "skind" }, parts.join(SEP)) : null,
      turn ? h("span", { class: "turn-mark" }, t("table.to_play")) : null,
      reactionBubble(st, s.seat, seatName(info, s.seat)),
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

/** Links to the records and replays of the table's earlier games
 * (`?game=N`; the current one's are in the end panel once it is over). */
function earlierGames(st, info) {
  const earlier = [];
  for (let n = 1; n < info.game_no; n++) earlier.push(n);
  if (!earlier.length) return null;
  return h("ul", { class: "records", "aria-label": t("table.records") }, earlier.map((n) => h("li", {},
    h("span", {}, t("table.game_no", { n: num(n) }), ": "),
    h("a", { class: "record-link", id: `download-${n}`, href: api.recordUrl(st.id, n), download: `sequence-${st.id}-${n}.json`, "aria-label": t("table.record_of", { n: num(n) }) }, t("table.record")),
    SEP,
    h("a", { class: "record-link", id: `replay-${n}`, href: api.replayUrl(st.id, n), "aria-label": t("table.replay_of", { n: num(n) }) }, t("end.replay")))));
}

/** The host's table-talk penalty (C10), in a game with teams of two or
 * more: every member of the team named discards a card of their choice
 * and plays on one card short. */
function penaltyBox(st, info, actions) {
  const isHost = st.token && st.seat === info.host;
  // at a table in this browser the bots never talk (docs/wasm.md)
  if (!isHost || info.local || info.status !== "playing" || !gameOf(info.game).tableTalk) return null;
  const teams = tableTeams(info).filter((team) => info.seats.filter((s) => s.team === team).length > 1);
  if (!teams.length) return null;
  const sel = h("select", { id: "penalty-team" }, teams.map((team) => h("option", { value: team }, t(`team.${team}`))));
  return h("details", { class: "penalty-box" },
    h("summary", {}, t("penalty.title")),
    h("p", { class: "hint" }, t("penalty.explain")),
    h("div", { class: "invite-row" },
      h("label", { for: "penalty-team", class: "sr-only" }, t("penalty.team")), sel,
      h("button", { type: "button", id: "penalty", onclick: () => actions.penalty(sel.value) }, t("penalty.give"))));
}

/** Sound and browser notifications for "your turn" (seats only). */
function signalBox(st, render) {
  if (!st.token) return null;
  const on = soundOn();
  const perm = notifyPermission();
  return h("div", { class: "buttons signals" },
    h("button", { type: "button", id: "sound", class: "small", "aria-pressed": on ? "true" : "false", onclick: () => {
      setSound(!on);
      render();
    } }, t(on ? "notify.sound_on" : "notify.sound_off")),
    perm === "default" ? h("button", { type: "button", id: "notify", class: "small", onclick: async () => {
      await askNotify();
      render();
    } }, t("notify.ask")) : null,
    perm === "granted" ? h("span", { class: "hint" }, t("notify.granted")) : null);
}

function tableButtons(st, info, actions, render) {
  // a tutorial is a lesson of one learner with a bot: no one to talk to,
  // and it is left by its own link (learn/tutorial.js), kept to resume
  const lesson = Boolean(info.tutorial);
  return [
    h("div", { class: "buttons table-actions" },
      st.token && !lesson ? h("button", { type: "button", id: "leave", onclick: actions.leave }, t("table.leave")) : null,
      !st.token ? h("span", { class: "hint" }, t("table.watching")) : null),
    signalBox(st, render),
    actions.react && !lesson ? reactionBar(st, actions.react, render) : null,
    penaltyBox(st, info, actions),
    earlierGames(st, info),
  ];
}

function inviteBox(st, actions) {
  const invite = `${location.origin}/?table=${st.id}`;
  return h("div", { class: "invite" },
    h("label", { for: "invite-link" }, t("table.invite")),
    h("div", { class: "invite-row" },
      h("input", { id: "invite-link", dir: "ltr", readonly: true, value: invite, onfocus: (e) => e.target.select() }),
      h("button", { type: "button", id: "copy-invite", onclick: () => actions.copyInvite(invite) }, t("table.copy"))),
    h("span", { class: "invite-note hint", id: "invite-note", role: "status", "aria-live": "polite" }));
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
export function sidebar(st, view, actions, render) {
  const info = st.info;
  return h("aside", { class: "side" },
    h("section", { class: "panel" }, h("h2", {}, t("table.seats")), seatsList(st, info, view, actions)),
    h("section", { class: "panel" }, tableButtons(st, info, actions, render), info.local || info.tutorial ? null : inviteBox(st, actions)),
    info.tutorial ? null : chatPanel(st, actions));
}

