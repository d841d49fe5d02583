// The classic board as SVG: 10×10 spaces, each showing its card (rank and
// suit symbol; the layout is the server's, C2 or a random board),
// corners marked, chips told apart by colour *and* shape (blue ring, green
// triangle, red cross), locked chips ringed in gold, completed sequences
// drawn as lines, the last move outlined, the other moves since the
// reader's last turn numbered in order, and playable spaces lit for the
// selected card. The board is one stop for Tab (the
// first lit space, else the last move); arrow keys move over all spaces,
// `n` / `N` to the next / previous lit one, Enter or Space plays. Spaces
// have spoken labels; keyboard focus is a black-and-white ring drawn over
// everything (a mouse click leaves none).
import { svg, cardName, rankText, isRed, SUIT_SYMBOL } from "./cards.js";
import { layoutGrid, spaceName, parseSpace, spaceLabel } from "./layout.js";
import { t, num, list } from "./i18n.js";
import { setStop } from "./focus.js";
import { animate } from "./feel.js";

const S = 100; // space size in SVG units
const M = 34; // margin for the coordinate labels
const CHIP = { B: "blue", G: "green", R: "red" };

/** Chip team name of a board character (`B`/`b` → "blue"), or null. */
export function chipOf(ch) {
  return CHIP[String(ch).toUpperCase()] || null;
}

function chipShape(team, cx, cy, locked) {
  const g = svg("g", { class: `chip chip-${team}${locked ? " locked" : ""}`, "aria-hidden": "true" });
  g.append(svg("circle", { cx, cy, r: 31, class: "chip-disc" }));
  if (team === "blue") {
    g.append(svg("circle", { cx, cy, r: 14, class: "chip-mark", fill: "none", "stroke-width": 7 }));
  } else if (team === "green") {
    g.append(svg("path", { d: `M${cx} ${cy - 17} L${cx + 16} ${cy + 12} L${cx - 16} ${cy + 12} Z`, class: "chip-mark fill" }));
  } else {
    g.append(svg("path", { d: `M${cx - 12} ${cy - 12} L${cx + 12} ${cy + 12} M${cx + 12} ${cy - 12} L${cx - 12} ${cy + 12}`, class: "chip-mark", "stroke-width": 7 }));
  }
  if (locked) g.append(svg("circle", { cx, cy, r: 36, class: "lock-ring", fill: "none" }));
  return g;
}

/**
 * Draws the board into `host` (replacing its content).
 * `state`: { layout (the view's 10 rows of card codes), board (10 strings
 * as in the view JSON), sequences ([team, first, last]), lastAt (space
 * name or null), recent (Map space → {order, kind}: the moves since the
 * reader's last turn), targets (Map space → "place" | "remove"), hinted
 * (a space the hint suggests), focus (space name to focus after drawing),
 * anim (feel.js: the chips just placed and removed and the sequences just
 * made, with the animation's age in ms) }.
 * `onSpace(name)` is called when a lit space is chosen.
 */
export function drawBoard(host, state, onSpace) {
  const grid = layoutGrid(state.layout);
  const root = svg("svg", {
    viewBox: `${-M} ${-M} ${10 * S + M} ${10 * S + M}`,
    class: "board",
    role: "grid",
    "aria-label": t("board.label"),
  });
  drawCoordinates(root);
  const spaces = [];
  for (let r = 0; r < 10; r++) {
    const rowEl = svg("g", { role: "row" });
    for (let c = 0; c < 10; c++) {
      const g = drawSpace(state, grid, r, c, onSpace);
      rowEl.append(g);
      spaces.push(g);
    }
    root.append(rowEl);
  }
  drawSequences(root, state);
  // One Tab stop; arrow keys move focus over every space, n / N between
  // the lit ones (roving focus).
  root.dataset.roving = "board";
  const lit = spaces.filter((g) => g.classList.contains("target"));
  setStop(root, lit[0] || spaces.find((g) => g.dataset.space === state.lastAt) || spaces[0]);
  root.addEventListener("keydown", (e) => boardKey(e, root, spaces, lit));
  host.replaceChildren(root);
  if (state.focus) {
    const f = root.querySelector(`[data-space="${state.focus}"]`);
    if (f) f.focus();
  }
  return root;
}

/** The column letters and row numbers around the board. */
function drawCoordinates(root) {
  for (let c = 0; c < 10; c++) {
    root.append(svg("text", { x: c * S + S / 2, y: -10, class: "coord", "text-anchor": "middle" }, String.fromCharCode(97 + c)));
  }
  for (let r = 0; r < 10; r++) {
    root.append(svg("text", { x: -M / 2, y: r * S + S / 2 + 8, class: "coord", "text-anchor": "middle" }, num(r + 1)));
  }
}

/** The space in row `r`, column `c` ([`drawBoard`]'s `state`; `grid`, the
 * layout's card codes): its card, chip, marks and focus rings, chosen by a
 * click or Enter / Space when lit. */
function drawSpace(state, grid, r, c, onSpace) {
  const name = spaceName(r, c);
  const code = grid[r][c];
  const corner = code === "XX";
  const ch = (state.board && state.board[r] && state.board[r][c]) || ".";
  const team = chipOf(ch);
  const locked = team && ch === ch.toLowerCase();
  const target = state.targets && state.targets.get(name);
  const recent = state.recent && state.recent.get(name);
  const x = c * S, y = r * S;
  const g = svg("g", {
    class: "space" + (corner ? " corner" : "") + (target ? ` target ${target}` : "") + (state.lastAt === name ? " last" : "") + (recent ? " recent" : ""),
    role: "gridcell",
    "data-space": name,
    "data-chip": team ? ch : "",
    tabindex: "-1",
    "data-member": "",
  });
  const label = [spaceLabel(name), corner ? t("space.corner") : cardName(code)];
  if (team) label.push(t(locked ? "chip.locked" : "chip.plain", { team: t(`team.${team}`) }));
  else if (!corner) label.push(t("space.empty"));
  if (target === "place") label.push(t("space.can_place"));
  if (target === "remove") label.push(t("space.can_remove"));
  if (state.lastAt === name) label.push(t("space.last_move"));
  else if (recent) label.push(t("space.recent_move", { n: num(recent.order) }));
  g.setAttribute("aria-label", list(label));
  g.append(svg("rect", { x: x + 3, y: y + 3, width: S - 6, height: S - 6, rx: 8, class: "card-bg" }));
  if (corner) {
    g.append(svg("text", { x: x + S / 2, y: y + S / 2 + 16, class: "corner-star", "text-anchor": "middle", "aria-hidden": "true" }, "★"));
  } else {
    const colour = isRed(code) ? "red" : "black";
    g.append(svg("text", { x: x + 12, y: y + 30, class: `rank ${colour}`, "aria-hidden": "true" }, rankText(code)));
    g.append(svg("text", { x: x + S - 12, y: y + 30, class: `suit-small ${colour}`, "text-anchor": "end", "aria-hidden": "true" }, SUIT_SYMBOL[code[1]]));
    g.append(svg("text", { x: x + S / 2, y: y + 82, class: `suit ${colour}`, "text-anchor": "middle", "aria-hidden": "true" }, SUIT_SYMBOL[code[1]]));
  }
  const anim = state.anim;
  if (team) {
    const chip = chipShape(team, x + S / 2, y + S / 2 + 4, locked);
    if (anim && anim.placed.has(name)) animate(chip, "chip-in", anim.age);
    g.append(chip);
  } else if (anim && anim.removed.has(name)) {
    // the chip just removed fades away
    g.append(animate(chipShape(chipOf(anim.removed.get(name)), x + S / 2, y + S / 2 + 4, false), "chip-out", anim.age));
  }
  if (target) g.append(svg("rect", { x: x + 4, y: y + 4, width: S - 8, height: S - 8, rx: 8, class: "hl", "aria-hidden": "true" }));
  if (recent && state.lastAt !== name) g.append(svg("rect", { x: x + 2, y: y + 2, width: S - 4, height: S - 4, rx: 9, class: "recent-ring", "aria-hidden": "true" }));
  if (state.lastAt === name) g.append(svg("rect", { x: x + 1, y: y + 1, width: S - 2, height: S - 2, rx: 9, class: "last-ring", "aria-hidden": "true" }));
  if (recent) {
    g.append(svg("circle", { cx: x + S - 16, cy: y + S - 16, r: 14, class: `recent-badge ${recent.kind}`, "aria-hidden": "true" }));
    g.append(svg("text", { x: x + S - 16, y: y + S - 8, class: "recent-n", "text-anchor": "middle", "aria-hidden": "true" }, num(recent.order)));
  }
  if (state.hinted === name) g.append(svg("rect", { x: x + 6, y: y + 6, width: S - 12, height: S - 12, rx: 8, class: "hint-ring", "aria-hidden": "true" }));
  // keyboard focus: drawn last, over the lit and last-move marks
  g.append(svg("rect", { x: x + 4, y: y + 4, width: S - 8, height: S - 8, rx: 9, class: "focus-ring", "aria-hidden": "true" }));
  g.append(svg("rect", { x: x + 11, y: y + 11, width: S - 22, height: S - 22, rx: 5, class: "focus-ring inner", "aria-hidden": "true" }));
  g.addEventListener("click", () => {
    if (g.classList.contains("target")) onSpace(name);
  });
  g.addEventListener("keydown", (e) => {
    if ((e.key === "Enter" || e.key === " ") && g.classList.contains("target")) {
      e.preventDefault();
      onSpace(name);
    }
  });
  return g;
}

/** Completed sequences: a line from the first to the last space. */
function drawSequences(root, state) {
  for (const [team, first, last] of state.sequences || []) {
    const a = parseSpace(first), b = parseSpace(last);
    if (!a || !b) continue;
    const p = (rc) => [rc[1] * S + S / 2, rc[0] * S + S / 2 + 4];
    const [x1, y1] = p(a), [x2, y2] = p(b);
    const line = svg("line", { x1, y1, x2, y2, class: `seq-line seq-${team}`, "aria-hidden": "true" });
    if (state.anim && state.anim.sequences.has(JSON.stringify([team, first, last]))) animate(line, "seq-new", state.anim.age);
    root.append(line);
  }
}

/** A key on the board `root` (`spaces` in reading order, `lit` those
 * lit): arrow keys move focus over every space, n / N between the lit
 * ones. */
function boardKey(e, root, spaces, lit) {
  const cur = e.target.closest && e.target.closest(".space");
  if (!cur) return;
  let next = null;
  if (e.key === "n" || e.key === "N") {
    if (!lit.length) return;
    const i = lit.indexOf(cur);
    const step = e.key === "n" ? 1 : -1;
    const from = i >= 0 ? i : (step > 0 ? -1 : 0);
    next = lit[(from + step + lit.length) % lit.length];
  } else {
    const rc = parseSpace(cur.dataset.space);
    const d = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] }[e.key];
    if (!d || !rc) return;
    // The board is never mirrored (also in right-to-left languages).
    const r = Math.min(9, Math.max(0, rc[0] + d[0]));
    const c = Math.min(9, Math.max(0, rc[1] + d[1]));
    next = spaces[r * 10 + c];
  }
  e.preventDefault();
  setStop(root, next);
  next.focus();
}
