// A profile, `/u/NAME`: ratings per kind of game (provisional marked) with
// a chart of each over time drawn here as SVG, games played and won per
// kind, streaks, the last games (result, partners, opponents, replay and
// analysis), the learning progress (learn/profile-progress.js), and
// head-to-head against a chosen player.
import { refusalText } from "../errors.js";
import { h } from "../cards.js";
import { num, SEP, language } from "../i18n.js";
import { request } from "../api.js";
import { at } from "./text.js";
import { dateText } from "./pages.js";
import { gameList, tableBox } from "./lists.js";
import { progressSection } from "../learn/profile-progress.js";

const SVG = "http://www.w3.org/2000/svg";
const COLOURS = ["#2f6fd6", "#c0392b", "#2e8b57", "#8e44ad", "#d4880f"];

function svg(tag, attrs, ...children) {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
  el.append(...children);
  return el;
}

/** A line chart of each kind's rating after each rated game. */
function chart(history) {
  const pts = history.flatMap((s) => s.points);
  if (!pts.length) return h("p", { class: "acc-muted", id: "chart-none" }, at("prof.no_rated"));
  const W = 640, H = 220, P = 36;
  const xs = pts.map((p) => p[0]), ys = pts.map((p) => p[1]);
  const [x0, x1] = [Math.min(...xs), Math.max(...xs)];
  const [y0, y1] = [Math.min(...ys) - 20, Math.max(...ys) + 20];
  const X = (x) => (x1 === x0 ? W / 2 : P + ((x - x0) / (x1 - x0)) * (W - 2 * P));
  const Y = (y) => H - P - ((y - y0) / Math.max(1, y1 - y0)) * (H - 2 * P);
  const g = svg("svg", { viewBox: `0 0 ${W} ${H}`, class: "acc-chart", id: "rating-chart", role: "img", "aria-label": at("prof.chart") });
  // the grid's ratings, each far enough from the last to be read (one
  // rated game gives one rating: one line, not three labels on one spot)
  const ticks = [];
  for (const y of [y0 + 20, (y0 + y1) / 2, y1 - 20]) if (ticks.every((u) => Math.abs(Y(u) - Y(y)) >= 14)) ticks.push(y);
  for (const y of ticks) {
    g.append(svg("line", { x1: P, x2: W - P, y1: Y(y), y2: Y(y), class: "acc-grid" }));
    g.append(svg("text", { x: 2, y: Y(y) + 4, class: "acc-axis" }, num(Math.round(y))));
  }
  history.forEach((s, i) => {
    const colour = COLOURS[i % COLOURS.length];
    g.append(svg("polyline", { points: s.points.map((p) => `${X(p[0])},${Y(p[1])}`).join(" "), fill: "none", stroke: colour, "stroke-width": 2 }));
    for (const p of s.points) g.append(svg("circle", { cx: X(p[0]), cy: Y(p[1]), r: 3, fill: colour }));
  });
  const legend = h("p", { class: "acc-legend" }, history.map((s, i) => h("span", { class: "acc-key", "data-colour": i % COLOURS.length }, at(`kind.${s.kind}`))));
  return h("div", {}, g, legend);
}

function ratingsTable(ratings) {
  if (!ratings.length) return h("p", { class: "acc-muted" }, at("prof.unrated"));
  return tableBox(h("table", { class: "acc-table", id: "ratings" },
    h("tr", {}, h("th", {}, at("prof.kind")), h("th", {}, at("prof.rating")), h("th", {}, at("prof.games"))),
    ratings.map((r) => h("tr", { "data-kind": r.kind },
      h("td", {}, at(`kind.${r.kind}`)),
      h("td", { class: "acc-rating" }, `${num(r.rating)}${r.provisional ? at("prof.provisional_mark") : ""} ± ${num(r.deviation)}`, r.provisional ? h("span", { class: "acc-muted" }, ` (${at("prof.provisional")})`) : ""),
      h("td", {}, num(r.games))))));
}

function statsTable(stats) {
  if (!stats.length) return h("p", { class: "acc-muted" }, at("prof.no_games"));
  return tableBox(h("table", { class: "acc-table", id: "stats" },
    h("tr", {}, ...["prof.kind", "prof.played", "prof.won", "prof.lost", "prof.drawn"].map((k) => h("th", {}, at(k)))),
    stats.map((s) => h("tr", {}, h("td", {}, at(`kind.${s.kind}`)), ...[s.played, s.won, s.lost, s.drawn].map((n) => h("td", {}, num(n)))))), true);
}

/** Head-to-head against the player named in the form. */
function headToHead(name, vs) {
  const out = h("div", { id: "h2h-out" });
  const input = h("input", { id: "h2h-name", type: "text", value: vs || "" });
  const show = async (other) => {
    out.replaceChildren();
    try {
      const r = await request("GET", `/api/users/${encodeURIComponent(name)}/vs/${encodeURIComponent(other)}`);
      const sum = r.counts.reduce((a, c) => [a[0] + c.won, a[1] + c.lost, a[2] + c.drawn], [0, 0, 0]);
      out.append(h("p", { id: "h2h-counts" }, at("prof.h2h_counts", { name: r.name, other: r.opponent, won: num(sum[0]), lost: num(sum[1]), drawn: num(sum[2]) })), gameList(r.games));
    } catch (err) {
      out.append(h("p", { class: "acc-note" }, err.status === 404 ? at("prof.not_found", { name: other }) : refusalText(err)));
    }
  };
  const f = h("form", { class: "acc-inline", id: "h2h" }, h("label", { for: "h2h-name" }, at("prof.h2h"), input), h("button", { type: "submit" }, at("prof.h2h_go")));
  f.addEventListener("submit", (e) => {
    e.preventDefault();
    if (input.value.trim()) show(input.value.trim());
  });
  if (vs) show(vs);
  return h("section", {}, h("h2", {}, at("prof.h2h_title")), f, out);
}

/** Draws the profile of `name` into `el`. */
export async function showProfile(el, name, vs) {
  let p;
  try {
    p = await request("GET", `/api/users/${encodeURIComponent(name)}`);
  } catch (err) {
    el.append(h("section", { class: "acc-page" }, h("h1", {}, err.status === 404 ? at("prof.not_found", { name }) : refusalText(err))));
    return;
  }
  el.append(
    // the language it is drawn in (a test waits for it after a switch)
    h("section", { class: "acc-page", id: "profile", "data-acc-lang": language() },
      h("h1", { id: "profile-name" }, p.name),
      h("p", { class: "acc-muted" }, at("prof.since", { date: dateText(p.created_ms) }), SEP,
        h("a", { href: `/games?player=${encodeURIComponent(p.name)}` }, at("prof.all_games")), SEP,
        h("a", { href: "/leaderboard" }, at("board.title"))),
      h("h2", {}, at("prof.ratings")), ratingsTable(p.ratings), chart(p.history),
      h("h2", {}, at("prof.stats")), statsTable(p.stats),
      h("p", { id: "streak" }, at("prof.streak", { current: num(p.streak.current), best: num(p.streak.best) })),
      h("h2", {}, at("prof.recent")), gameList(p.recent),
      progressSection(p.name),
      headToHead(p.name, vs)));
}
