// The move log: every move of the game in words and in the record's
// notation, newest first, from the server's log (docs/api.md "Move log":
// each entry has the move as the record writes it and what it did in
// public — sequences made, the chip removed, a pile completed, the chip
// taken or the Block that cancelled it, a card taken from a discard pile,
// a move the server made for a seat out of time). The entries since the
// reader's last turn are marked; the page also lights them on the board.
import { t, tn, num, SEP, list } from "./i18n.js";
import { h } from "./cards.js";
import { placeName } from "./stacks.js";
import { stacksCardName } from "./cards.js";
import { gameOf } from "./games.js";

/** The notes of an entry: what the move did besides itself, in words. */
function notes(e, game, seatName) {
  const out = [];
  gameOf(game).notes(e, seatName, out);
  if (e.reshuffled) out.push(t("log.reshuffled"));
  if (e.won !== undefined && e.won !== null) out.push(t("log.won"));
  if (e.draw) out.push(t("log.draw"));
  if (e.auto === "timeout") out.push(t("log.auto_timeout"));
  if (e.auto === "away") out.push(t("log.auto_away"));
  return out;
}

/** Classic (games.js): the sequences made, the chip removed, sequences
 * broken. */
export function classicNotes(e, seatName, out) {
  const made = (e.sequences || []).length;
  if (made) out.push(tn("log.sequences_made", made, { n: num(made) }));
  if (e.removed) out.push(t("log.removed", { team: t(`team.${e.removed}`) }));
  if ((e.broken || []).length) out.push(tn("log.broken", e.broken.length, { n: num(e.broken.length) }));
}

/** Stacks (games.js): the pile completed and the chip taken (or the
 * Block that cancelled it, or the window still open), the card taken from
 * a discard pile, the Block played. */
export function stacksNotes(e, seatName, out) {
  if (e.completed) out.push(t("log.completed", { place: placeName(e.completed) }));
  if (e.completed && e.chip) out.push(t("log.chip_taken", { colour: t(`colour.${e.chip}`) }));
  if (e.completed && e.blocked_by !== undefined && e.blocked_by !== null) out.push(t("log.blocked_by", { who: seatName(e.blocked_by) }));
  if (e.completed && e.window) out.push(t("log.window_open"));
  if (e.took) out.push(t("log.took", { card: stacksCardName(e.took) }));
  if (e.blocked) out.push(t("log.blocked", { who: seatName(e.blocked.seat), colour: t(`colour.${e.blocked.colour}`) }));
}

/** An entry in words: the move, then its notes. */
export function entryText(e, game, seatName) {
  const m = { ...(e.move || {}), seat: e.seat };
  let base;
  if (m.penalty) base = t("log.penalty", { who: seatName(e.seat), card: gameOf(game).cardName(m.penalty) });
  else base = gameOf(game).describe(m, seatName);
  const n = notes(e, game, seatName);
  return n.length ? `${base} (${list(n)})` : base;
}

/** The move in the record's notation (RECORD.md, RECORD-STACKS.md):
 * card and space codes, as a record writes them. */
export function notation(e, game) {
  const m = e.move || {};
  if (m.penalty) return `penalty ${m.penalty}`;
  return gameOf(game).notation(m);
}

/** Classic (games.js): a move in the record's notation. */
export function classicNotation(m) {
  if (m.at) return `${m.card} ${m.at}${(m.declare || []).map((w) => ` [${w[0]}–${w[1]}]`).join("")}`;
  if (m.remove) return `${m.card} ×${m.remove}`;
  if (m.dead) return `dead ${m.dead}`;
  if (m.discard) return `discard ${m.discard}`;
  if (m.pass) return "pass";
  return "";
}

/** Stacks (games.js): a move in the record's notation. */
export function stacksNotation(m) {
  const from = m.from === "discard" ? " (discard)" : "";
  if (m.play && m.to) return `${m.play}${from} → ${m.to}`;
  if (m.play === "STEAL-CHIP") return `${m.play}${from} ${m.colour}`;
  if (m.play) return `${m.play}${from}`;
  if (m.discard) return `discard ${m.discard}`;
  if (m.end) return "end";
  if (m.pass) return "pass";
  return "";
}

/** The spaces of classic entries, for the board: Map space → order
 * (1 = oldest) of the moves since the reader's last turn. */
export function spacesOf(entries) {
  const out = new Map();
  entries.forEach((e, k) => {
    const m = e.move || {};
    const sp = m.at || m.remove;
    if (sp) out.set(sp, { order: k + 1, kind: m.remove ? "remove" : "place" });
  });
  return out;
}

/**
 * The move log panel: entries newest first, those in `since` (entries
 * since the reader's last turn) marked. `opts`: { game, seatName(seat),
 * me (our seat or null), teamOf(seat) (colour or null), current (index
 * shown in a replay, or undefined), onPick(i) (a replay jumps there),
 * id }.
 */
export function logPanel(entries, since, opts) {
  const sinceSet = new Set(since.map((e) => e.i));
  const items = [...entries].reverse().map((e) => {
    const team = opts.teamOf ? opts.teamOf(e.seat) : null;
    const cls = ["log-entry"];
    if (sinceSet.has(e.i)) cls.push("since");
    if (e.seat === opts.me) cls.push("mine");
    if (e.auto) cls.push("auto");
    if (opts.current === e.i) cls.push("current");
    const body = [
      h("span", { class: "log-n" }, num(e.i + 1)),
      team ? h("span", { class: `chip-icon small chip-${team}`, "aria-hidden": "true" }) : null,
      h("span", { class: "log-text" }, entryText(e, opts.game, opts.seatName)),
      h("code", { class: "log-code", dir: "ltr" }, notation(e, opts.game)),
    ];
    const li = h("li", { class: cls.join(" "), "data-i": String(e.i) },
      opts.onPick ? h("button", { type: "button", class: "log-pick", onclick: () => opts.onPick(e.i), "aria-current": opts.current === e.i ? "step" : null }, body) : h("div", { class: "log-row" }, body));
    return li;
  });
  return h("section", { class: "panel move-log", id: opts.id || "move-log", "aria-labelledby": "move-log-h" },
    h("h2", { id: "move-log-h" }, t("log.title"),
      since.length && opts.me !== null && opts.me !== undefined ? h("span", { class: "log-since-count" }, SEP, tn("log.since_count", since.length, { n: num(since.length) })) : null),
    items.length ? h("ol", { class: "log-list", reversed: true, "aria-label": t("log.title") }, items) : h("p", { class: "hint" }, t("log.empty")));
}

/** A short line for the status panel: the last move, in words. */
export function lastMoveLine(entries, game, seatName) {
  const e = entries[entries.length - 1];
  if (!e) return null;
  return h("p", { class: "last-line", id: "last-move" }, h("span", { class: "label" }, t("log.last")), " ", entryText(e, game, seatName));
}
