// The analysis graph of a replay (like lichess's computer analysis): for
// each position of a finished game, every side's chance to win as the
// server's search estimated it from what the seat to move could see there,
// drawn under the board; the moves that lost their side the most are
// marked and listed. One point per position; a click on the graph goes to
// that position. The numbers are the server's (docs/api.md "Analysis").
import { t, num } from "./i18n.js";
import { h, svg } from "./cards.js";

const W = 1000;
const H = 260;
const PAD = 14;
const LEFT = 110; // room for the chance axis
const BOTTOM = 66; // room for the move axis

/** `side`'s chance at analysed point `p` (with `sides` sides), or null
 * when the point gives only another side's (three sides or more). */
export function chanceOf(p, side, sides) {
  if (!p) return null;
  if (p.final) {
    if (p.winner === null || p.winner === undefined) return 1 / sides.length;
    return p.winner === side ? 1 : 0;
  }
  if (typeof p.win !== "number") return null;
  if (p.side === side) return p.win;
  return sides.length === 2 ? 1 - p.win : null;
}

/** The moves that lost their side the most (at least 10 points), worst
 * first, at most `count`: [{k (the position before the move), loss}]. */
export function worstMoves(points, count = 5) {
  return points.map((p, k) => ({ k, loss: p.loss || 0 }))
    .filter((m) => m.loss >= 0.1)
    .sort((a, b) => b.loss - a.loss)
    .slice(0, count);
}

function sideColour(side) {
  if (typeof side === "string") return side;
  return ["blue", "red", "green", "purple", "orange", "teal"][Number(side) % 6];
}

/** `side`'s own estimate at point `p`: its chance where it is to move
 * (what that seat could see), the result at the end; null elsewhere. */
export function ownChance(p, side, sides) {
  if (!p) return null;
  if (p.final) return chanceOf(p, side, sides);
  return p.side === side && typeof p.win === "number" ? p.win : null;
}

/**
 * The graph for analysis `a` ({sides, points}); `k` the position shown,
 * `onPick(k)` to go to a position, `sideName(side)` for labels. Each
 * side's curve joins its own estimates only (the positions where it is to
 * move, judged from what it could see there, and the end), so that it
 * does not zig-zag between two seats' knowledge. Axes: the chance to win
 * (0, 50, 100 %) and the move number.
 */
export function analysisGraph(a, k, onPick, sideName) {
  const pts = a.points || [];
  const n = Math.max(1, pts.length - 1);
  const x = (i) => LEFT + (i / n) * (W - LEFT - PAD);
  const y = (c) => PAD + (1 - c) * (H - PAD - BOTTOM);
  const root = svg("svg", { viewBox: `0 0 ${W} ${H}`, class: "analysis-graph", role: "img", "aria-label": t("analysis.graph_label") });
  root.append(svg("rect", { x: LEFT, y: PAD, width: W - LEFT - PAD, height: H - PAD - BOTTOM, class: "ana-bg" }));
  // the axes: chance to win on the left, the move number below
  const axis = svg("g", { class: "ana-axis", "aria-hidden": "true" });
  for (const c of [0, 0.5, 1]) {
    axis.append(svg("line", { x1: LEFT - 6, x2: W - PAD, y1: y(c), y2: y(c), class: c === 0.5 ? "ana-mid" : "ana-grid" }));
    axis.append(svg("text", { x: LEFT - 10, y: y(c) + 9, "text-anchor": "end", class: "ana-tick" }, num(c, { style: "percent" })));
  }
  const step = Math.max(1, Math.ceil(n / 8 / 5) * 5);
  for (let i = 0; i <= n; i += step) {
    axis.append(svg("line", { x1: x(i), x2: x(i), y1: H - BOTTOM, y2: H - BOTTOM + 6, class: "ana-grid" }));
    axis.append(svg("text", { x: x(i), y: H - BOTTOM + 32, "text-anchor": "middle", class: "ana-tick" }, num(i)));
  }
  axis.append(svg("text", { x: 22, y: (H - BOTTOM + PAD) / 2, "text-anchor": "middle", class: "ana-title", transform: `rotate(-90 22 ${(H - BOTTOM + PAD) / 2})` }, t("analysis.axis_chance")));
  axis.append(svg("text", { x: (LEFT + W - PAD) / 2, y: H - 4, "text-anchor": "middle", class: "ana-title" }, t("analysis.axis_move")));
  root.append(axis);
  const sides = a.sides || [];
  for (const side of sides) {
    let d = "";
    pts.forEach((p, i) => {
      const c = ownChance(p, side, sides);
      if (c === null) return;
      d += `${d ? "L" : "M"}${x(i).toFixed(1)} ${y(c).toFixed(1)} `;
    });
    if (d) root.append(svg("path", { d, class: `ana-line side-${sideColour(side)}` }));
  }
  // one point per position, on the curve of the side to move there
  pts.forEach((p, i) => {
    const side = p.final ? sides[0] : p.side;
    const c = ownChance(p, side, sides);
    const dot = svg("circle", { cx: x(i), cy: y(c === null ? 0.5 : c), r: 5, class: `ana-point side-${sideColour(side)}`, "data-k": String(i) });
    dot.append(svg("title", {}, `${num(i)}: ${sideName(side)} ${c === null ? t("sign.unknown") : num(c, { style: "percent" })}`));
    root.append(dot);
  });
  // the worst moves, marked where they were made (the position before)
  for (const m of worstMoves(pts)) {
    const c = ownChance(pts[m.k], pts[m.k].side, sides);
    root.append(svg("circle", { cx: x(m.k), cy: y(c === null ? 0.5 : c), r: 11, class: "ana-mistake", "data-k": String(m.k) }));
  }
  root.append(svg("line", { x1: x(k), x2: x(k), y1: PAD / 2, y2: H - BOTTOM, class: "ana-now" }));
  root.addEventListener("click", (e) => {
    const r = root.getBoundingClientRect();
    const rel = (e.clientX - r.left) / r.width * W;
    const i = Math.round(((rel - LEFT) / (W - LEFT - PAD)) * n);
    onPick(Math.max(0, Math.min(pts.length - 1, i)));
  });
  const legend = h("p", { class: "ana-legend" }, sides.map((side) => h("span", { class: `ana-key side-${sideColour(side)}` },
    h("span", { class: "ana-swatch", "aria-hidden": "true" }), " ", sideName(side), " ")));
  return h("div", { class: "analysis-graph-wrap" }, legend, root);
}

/** The list of the worst moves: "Move 23, Ann: -35 % (better: …)"; a
 * click goes to the position before the move (where the better move
 * could have been made). `entries` is the log (entry k is the move from
 * position k to k + 1). */
export function mistakesList(a, entries, seatName, onPick, moveText) {
  const worst = worstMoves(a.points || []);
  if (!worst.length) return h("p", { class: "hint", id: "mistakes" }, t("analysis.no_mistakes"));
  return h("ol", { class: "mistakes", id: "mistakes" }, worst.map((m) => {
    const e = entries[m.k];
    const best = (a.points[m.k].best || [])[0];
    return h("li", {}, h("button", { type: "button", class: "link", "data-k": String(m.k), onclick: () => onPick(m.k, true) },
      t("analysis.mistake", { n: num(m.k + 1), who: e ? seatName(e.seat) : t("sign.unknown"), loss: num(Math.round(m.loss * 100)) })),
    best ? h("span", { class: "hint" }, " ", t("analysis.better", { move: moveText(best, a.points[m.k].seat) })) : null);
  }));
}
