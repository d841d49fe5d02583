// The analysis graph of a replay (like lichess's computer analysis): for
// each position of a finished game, every side's chance to win as the
// server's search estimated it from what the seat to move could see there,
// drawn under the board; the moves that lost their side the most are
// marked and listed. One point per position; a click on the graph goes to
// that position. The numbers are the server's (docs/api.md "Analysis").
import { t, num } from "./i18n.js";
import { h, svg } from "./cards.js";

const W = 1000;
const H = 220;
const PAD = 14;

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

/**
 * The graph for analysis `a` ({sides, points}); `k` the position shown,
 * `onPick(k)` to go to a position, `sideName(side)` for labels.
 */
export function analysisGraph(a, k, onPick, sideName) {
  const pts = a.points || [];
  const n = Math.max(1, pts.length - 1);
  const x = (i) => PAD + (i / n) * (W - 2 * PAD);
  const y = (c) => PAD + (1 - c) * (H - 2 * PAD);
  const root = svg("svg", { viewBox: `0 0 ${W} ${H}`, class: "analysis-graph", role: "img", "aria-label": t("analysis.graph_label") });
  root.append(svg("rect", { x: 0, y: 0, width: W, height: H, class: "ana-bg" }));
  root.append(svg("line", { x1: PAD, x2: W - PAD, y1: y(0.5), y2: y(0.5), class: "ana-mid" }));
  const sides = a.sides || [];
  // one line per side through the positions where its chance is known
  for (const side of sides) {
    let d = "";
    pts.forEach((p, i) => {
      const c = chanceOf(p, side, sides);
      if (c === null) return;
      d += `${d ? "L" : "M"}${x(i).toFixed(1)} ${y(c).toFixed(1)} `;
    });
    if (d) root.append(svg("path", { d, class: `ana-line side-${sideColour(side)}` }));
  }
  // one point per position: the chance of the first side when it is
  // known there (two sides), else of the side to move
  pts.forEach((p, i) => {
    const first = sides.length === 2 ? sides[0] : (p.final ? sides[0] : p.side);
    const c = chanceOf(p, first, sides);
    const cy = y(c === null ? 0.5 : c);
    const dot = svg("circle", { cx: x(i), cy, r: 5, class: `ana-point side-${sideColour(first)}`, "data-k": String(i) });
    dot.append(svg("title", {}, `${num(i)}: ${c === null ? "?" : num(Math.round(c * 100))} %`));
    root.append(dot);
  });
  for (const m of worstMoves(pts)) {
    const c = chanceOf(pts[m.k + 1], pts[m.k].side, sides);
    root.append(svg("circle", { cx: x(m.k + 1), cy: y(c === null ? 0.5 : c), r: 11, class: "ana-mistake", "data-k": String(m.k + 1) }));
  }
  root.append(svg("line", { x1: x(k), x2: x(k), y1: PAD / 2, y2: H - PAD / 2, class: "ana-now" }));
  root.addEventListener("click", (e) => {
    const r = root.getBoundingClientRect();
    const rel = (e.clientX - r.left) / r.width * W;
    const i = Math.round(((rel - PAD) / (W - 2 * PAD)) * n);
    onPick(Math.max(0, Math.min(pts.length - 1, i)));
  });
  const legend = h("p", { class: "ana-legend" }, sides.map((side) => h("span", { class: `ana-key side-${sideColour(side)}` },
    h("span", { class: "ana-swatch", "aria-hidden": "true" }), " ", sideName(side), " ")));
  return h("div", { class: "analysis-graph-wrap" }, legend, root);
}

/** The list of the worst moves: "Move 23, Ann: -35 % (better: …)"; a
 * click goes there. `entries` is the log (entry k is the move from
 * position k to k + 1). */
export function mistakesList(a, entries, seatName, onPick, moveText) {
  const worst = worstMoves(a.points || []);
  if (!worst.length) return h("p", { class: "hint", id: "mistakes" }, t("analysis.no_mistakes"));
  return h("ol", { class: "mistakes", id: "mistakes" }, worst.map((m) => {
    const e = entries[m.k];
    const best = (a.points[m.k].best || [])[0];
    return h("li", {}, h("button", { type: "button", class: "link", onclick: () => onPick(m.k + 1) },
      t("analysis.mistake", { n: num(m.k + 1), who: e ? seatName(e.seat) : "?", loss: num(Math.round(m.loss * 100)) })),
    best ? h("span", { class: "hint" }, " ", t("analysis.better", { move: moveText(best, a.points[m.k].seat) })) : null);
  }));
}
