// Quick reactions at a table: a few pictograms (drawn here as SVG, no
// emoji font needed) a seated player sends with one click; every page of
// the table shows the sender's pictogram beside their seat for a few
// seconds (and says it to screen readers). The server passes them on
// within each seat's allowance (the chat's rate; docs/api.md); each
// player may mute them for this table (remembered in the browser).
import { t } from "./i18n.js";
import { h, svg } from "./cards.js";

/** The reactions, as the server names them, and their pictograms (24×24,
 * drawn with lines). */
const ICONS = {
  smile: '<circle cx="12" cy="12" r="9"/><circle cx="9" cy="10" r=".6" fill="currentColor"/><circle cx="15" cy="10" r=".6" fill="currentColor"/><path d="M8 14.5q4 3.5 8 0"/>',
  frown: '<circle cx="12" cy="12" r="9"/><circle cx="9" cy="10" r=".6" fill="currentColor"/><circle cx="15" cy="10" r=".6" fill="currentColor"/><path d="M8 17q4-3.5 8 0"/>',
  star: '<path d="M12 3l2.7 5.6 6.1.9-4.4 4.3 1 6.1L12 17l-5.4 2.9 1-6.1-4.4-4.3 6.1-.9z"/>',
  wow: '<path d="M12 4v11"/><circle cx="12" cy="19.5" r="1" fill="currentColor"/>',
  think: '<path d="M7 3h10M7 21h10M8 3c0 5 8 5 8 9s-8 4-8 9M16 3c0 5-8 5-8 9s8 4 8 9"/>',
  gg: '<path d="M8 4h8v5a4 4 0 0 1-8 0zM12 13v4M8 20h8M8 6H5q0 4 3 4M16 6h3q0 4-3 4"/>',
};
export const REACTIONS = Object.keys(ICONS);

/** How long a reaction shows beside its seat, in ms. */
const SHOW_MS = 3500;

/** The pictogram of reaction `name`. */
export function reactionIcon(name) {
  const s = svg("svg", { viewBox: "0 0 24 24", class: "reaction-icon", fill: "none", stroke: "currentColor", "stroke-width": "2", "stroke-linecap": "round", "stroke-linejoin": "round", "aria-hidden": "true" });
  s.innerHTML = ICONS[name] || "";
  return s;
}

const MUTE_KEY = (id) => `sequence.mute.${id}`;

/** Whether the reader muted reactions at table `id`. */
export function muted(id) {
  try {
    return localStorage.getItem(MUTE_KEY(id)) === "1";
  } catch {
    return false;
  }
}

function setMuted(id, on) {
  try {
    if (on) localStorage.setItem(MUTE_KEY(id), "1");
    else localStorage.removeItem(MUTE_KEY(id));
  } catch {
    // storage refused: the choice lasts for this page only
  }
}

/** Takes a reaction message `msg` ({seat, reaction}) of the server: kept
 * to show beside the seat unless the reader muted them. Returns whether
 * it is shown. */
export function takeReaction(st, msg) {
  if (muted(st.id) || !ICONS[msg.reaction] || typeof msg.seat !== "number") return false;
  st.reactions = st.reactions || {};
  st.reactions[msg.seat] = { reaction: msg.reaction, at: Date.now() };
  return true;
}

/** The reaction shown beside seat `s` now, or null. */
export function reactionBubble(st, s, seatName) {
  const r = st.reactions && st.reactions[s];
  if (!r || Date.now() - r.at > SHOW_MS || muted(st.id)) return null;
  const what = t(`reaction.${r.reaction}`);
  return h("span", { class: `reaction-bubble reaction-${r.reaction}`, role: "img", "aria-label": t("reaction.said", { who: seatName, what }), title: what }, reactionIcon(r.reaction));
}

/** How long until the newest reaction shown goes away (ms), or 0. */
export function reactionsLeft(st) {
  let left = 0;
  for (const r of Object.values(st.reactions || {})) left = Math.max(left, SHOW_MS - (Date.now() - r.at));
  return Math.max(0, left);
}

/** The reaction buttons of a seated player and the mute switch (anyone
 * at the table, spectators too). `send(name)` sends one. */
export function reactionBar(st, send, render) {
  const off = muted(st.id);
  return h("div", { class: "reactions", id: "reactions", role: "group", "aria-label": t("reaction.title") },
    st.token ? REACTIONS.map((name) => h("button", {
      type: "button", class: "small reaction", "data-reaction": name, title: t(`reaction.${name}`), "aria-label": t(`reaction.${name}`),
      disabled: off || (st.reactedAt && Date.now() - st.reactedAt < 1000),
      onclick: () => send(name),
    }, reactionIcon(name))) : null,
    h("button", { type: "button", class: "small", id: "mute-reactions", "aria-pressed": off ? "true" : "false", onclick: () => {
      setMuted(st.id, !off);
      if (!off) st.reactions = {};
      render();
    } }, t(off ? "reaction.unmute" : "reaction.mute")));
}
