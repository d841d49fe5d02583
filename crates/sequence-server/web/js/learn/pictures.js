// Pictures for the rules help, drawn with the table's own code: the
// classic board by board.js's drawBoard (on the server's official layout,
// C2) cut down to the spaces a picture is about, hand cards by cards.js's
// faces, Stacks piles with the table's pile markup and card faces.
import { h, svg, classicCardFace, stacksCardFace } from "../cards.js";
import { num } from "../i18n.js";
import { drawBoard } from "../board.js";
import { parseSpace } from "../layout.js";

const S = 100; // a space's size in board.js's SVG units

/** The 10 board rows of a view (`.` empty, `*` a corner) with the chips of
 * `chips` ({space: "B"|"G"|"R", lower case for a chip in a sequence}). */
function boardRows(chips) {
  const rows = Array.from({ length: 10 }, (_, r) => Array.from({ length: 10 }, (_, c) => ((r === 0 || r === 9) && (c === 0 || c === 9) ? "*" : ".")));
  for (const [space, ch] of Object.entries(chips || {})) {
    const rc = parseSpace(space);
    if (rc) rows[rc[0]][rc[1]] = ch;
  }
  return rows.map((r) => r.join(""));
}

/**
 * A part of the classic board as a picture (an SVG with role img).
 * `spec`: { layout (the official board's rows), chips ({space: char}),
 * sequences ([team, first, last]), targets ({space: "place"|"remove"}),
 * marked ([space]: a dashed ring, "look here"), rows [first, last] and
 * cols [first, last] (0-based, the part shown), label (its spoken text) }.
 */
export function boardPicture(spec) {
  const host = h("div", { class: "learn-board" });
  const root = drawBoard(host, {
    layout: spec.layout,
    board: boardRows(spec.chips),
    sequences: spec.sequences || [],
    lastAt: null,
    targets: new Map(Object.entries(spec.targets || {})),
  }, () => {});
  // a picture, not a control: no focus stops, one spoken label
  root.setAttribute("role", "img");
  root.setAttribute("aria-label", spec.label || "");
  root.removeAttribute("data-roving");
  for (const el of root.querySelectorAll("[role], [tabindex]")) {
    el.removeAttribute("role");
    el.removeAttribute("tabindex");
    el.removeAttribute("aria-label");
  }
  for (const space of spec.marked || []) {
    const rc = parseSpace(space);
    const g = rc && root.querySelector(`[data-space="${space}"]`);
    if (g) g.append(svg("rect", { x: rc[1] * S + 5, y: rc[0] * S + 5, width: S - 10, height: S - 10, rx: 10, class: "learn-mark" }));
  }
  const [r0, r1] = spec.rows || [0, 9];
  const [c0, c1] = spec.cols || [0, 9];
  // only the part shown is drawn (nothing hidden outside the picture)
  for (const el of root.querySelectorAll(".coord")) el.remove();
  for (const g of root.querySelectorAll("[data-space]")) {
    const rc = parseSpace(g.dataset.space);
    if (!rc || rc[0] < r0 || rc[0] > r1 || rc[1] < c0 || rc[1] > c1) g.remove();
  }
  root.setAttribute("viewBox", `${c0 * S} ${r0 * S} ${(c1 - c0 + 1) * S} ${(r1 - r0 + 1) * S}`);
  root.classList.add("learn-cut");
  // about as large as the table's board on a laptop: 4.2rem a space
  host.style.maxWidth = `${(c1 - c0 + 1) * 4.2}rem`;
  return host;
}

/** A classic hand card as drawn in the hand (`dead` adds the badge with
 * its text `deadText`). */
export function handCardPicture(code, label, dead = false, deadText = "") {
  return h("span", { class: `learn-card hand-card${dead ? " dead" : ""}`, role: "img", "aria-label": label },
    classicCardFace(code),
    dead ? h("span", { class: "dead-badge", "aria-hidden": "true" }, deadText) : null);
}

/** A Stacks card face with its spoken `label`. */
export function stacksCardPicture(code, label) {
  return h("span", { class: "learn-scard scard", role: "img", "aria-label": label }, stacksCardFace(code));
}

/** A Stacks pile as the table draws it: its name, its cards, the number on
 * top (`top`, or none for a free place), `lit` as a pile the selected card
 * may go on. */
export function pilePicture(colour, name, cards, top, freeText, lit = false) {
  return h("div", { class: `pile pile-${colour}${lit ? " target" : ""}`, role: "img", "aria-label": name },
    h("span", { class: "pile-name", "aria-hidden": "true" }, name),
    h("span", { class: "pile-cards", "aria-hidden": "true" },
      cards.length ? cards.map((c, i) => h("span", { class: "pcard", style: `--i:${i}` }, stacksCardFace(c))) : h("span", { class: "pile-empty" }, freeText)),
    h("span", { class: "pile-top", "aria-hidden": "true" }, top ? num(top) : ""));
}
