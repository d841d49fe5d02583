// Drawing and naming cards: classic playing cards ("7H", "TS", "JD") and
// Sequence Stacks cards ("B3", "RW", "SKIP", …).
import { t, num, list } from "./i18n.js";

const SVGNS = "http://www.w3.org/2000/svg";
export const SUIT_SYMBOL = { S: "♠", H: "♥", D: "♦", C: "♣" };
const SUIT_KEY = { S: "suit.spades", H: "suit.hearts", D: "suit.diamonds", C: "suit.clubs" };

/** Creates an SVG element with attributes. */
export function svg(tag, attrs = {}, text) {
  const el = document.createElementNS(SVGNS, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
  if (text !== undefined) el.textContent = text;
  return el;
}

/** Creates an HTML element with attributes and children. */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
    else if (k === "class") el.className = v;
    // through the CSSOM: the Content-Security-Policy refuses style attributes
    else if (k === "style") el.style.cssText = v;
    else el.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c instanceof Node ? c : String(c));
  }
  return el;
}

export function rankText(code) {
  const r = code[0];
  return r === "T" ? "10" : r;
}

export function isRed(code) {
  return code[1] === "H" || code[1] === "D";
}

export function isJack(code) {
  return code[0] === "J";
}

/** One-eyed jacks (spades, hearts) remove a chip (C6). */
export function isOneEyed(code) {
  return code === "JS" || code === "JH";
}

/** The spoken name of a classic card, e.g. "7 of hearts"; a jack's says
 * its kind ("jack of clubs, two-eyed") unless `eyes` is false — for a
 * sentence that says the kind itself ("the {jack} is a two-eyed jack"),
 * which would otherwise say it twice. */
export function cardName(code, eyes = true) {
  if (!code || code === "XX") return t("space.corner");
  const rank = t(`rank.${code[0]}`);
  const suit = t(SUIT_KEY[code[1]]);
  const name = t("card.name", { rank, suit });
  return eyes && isJack(code) ? list([name, t(isOneEyed(code) ? "card.one_eyed" : "card.two_eyed")]) : name;
}

/** A hand card (classic) as HTML: rank and suit symbol, jacks marked by
 * their eye count. */
export function classicCardFace(code) {
  const face = h("span", { class: "face " + (isRed(code) ? "red" : "black"), "aria-hidden": "true" },
    h("span", { class: "rank" }, rankText(code)),
    h("span", { class: "suit" }, SUIT_SYMBOL[code[1]] || "?"));
  if (isJack(code)) {
    face.append(h("span", { class: "eyes" }, isOneEyed(code) ? "◐" : "◉"));
  }
  return face;
}

// ---- Sequence Stacks ----

// Action-card icons drawn as SVG (no font needed): Skip a slashed circle,
// Reverse two arrows, Steal-a-Card a card with an arrow, Steal-a-Chip a chip
// with an arrow, Block a stop octagon.
const ACTION_ICON = {
  SKIP: '<circle cx="12" cy="12" r="9"/><path d="M5.5 18.5 18.5 5.5"/>',
  REVERSE: '<path d="M4 9h14l-4-4M20 15H6l4 4"/>',
  "STEAL-CARD": '<rect x="3" y="4" width="10" height="15" rx="2"/><path d="M21 12h-7l3-3M14 12l3 3"/>',
  "STEAL-CHIP": '<circle cx="8" cy="12" r="5"/><path d="M22 12h-8l3-3M14 12l3 3"/>',
  BLOCK: '<path d="M8 3h8l5 5v8l-5 5H8l-5-5V8z"/><path d="M7 12h10"/>',
};
const ACTION_KEY = { SKIP: "skip", REVERSE: "reverse", "STEAL-CARD": "steal_card", "STEAL-CHIP": "steal_chip", BLOCK: "block" };

export function stacksColour(code) {
  return code[0] === "B" && code.length === 2 ? "blue" : code[0] === "R" && code.length === 2 ? "red" : "action";
}

/** The spoken name of a Stacks card, e.g. "blue 3", "red wild", "Skip". */
export function stacksCardName(code) {
  if (ACTION_KEY[code]) return t(`stacks.card.${ACTION_KEY[code]}`);
  const colour = t(code[0] === "B" ? "colour.blue" : "colour.red");
  if (code[1] === "W") return t("stacks.card.wild", { colour });
  return t("stacks.card.number", { colour, n: num(Number(code[1])) });
}

/** A Stacks card face as HTML. */
export function stacksCardFace(code) {
  const kind = stacksColour(code);
  let big;
  if (kind === "action") {
    big = svg("svg", { viewBox: "0 0 24 24", class: "action-icon", fill: "none", stroke: "currentColor", "stroke-width": "2.2", "stroke-linecap": "round", "stroke-linejoin": "round" });
    big.innerHTML = ACTION_ICON[code] || "";
  } else big = code[1] === "W" ? "★" : num(Number(code[1]));
  const small = kind === "action" ? t(`stacks.short.${ACTION_KEY[code]}`) : (code[1] === "W" ? t("stacks.short.wild") : "");
  return h("span", { class: `sface ${kind}`, "aria-hidden": "true" },
    h("span", { class: "big" }, big),
    small ? h("span", { class: "small" }, small) : null);
}
