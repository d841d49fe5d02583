// Lists of games (a profile's last games, `/games` filtered by kind,
// result, opponent and dates) and the leaderboards (`/leaderboard/KIND`:
// the best 100 established ratings of players active in 30 days).
import { refusalText } from "../errors.js";
import { h } from "../cards.js";
import { num, SEP } from "../i18n.js";
import { request } from "../api.js";
import { at } from "./text.js";
import { account } from "./session.js";
import { dateText } from "./pages.js";

export const KINDS = ["classic-1v1", "classic-teams", "classic-3sides", "stacks-1v1", "stacks-multi"];

/** The names of `list` (WHO objects), accounts linked to their profiles,
 * as one flat list of nodes and text. */
function who(list) {
  return list.flatMap((p, i) => [i ? ", " : "", p.account ? h("a", { href: `/u/${encodeURIComponent(p.account)}` }, p.name) : p.deleted ? at("games.deleted") : p.bot ? at("games.bot", { name: p.name }) : p.name]);
}

/** `table` (its first row the headings) in a box of its own that scrolls
 * sideways when the table is wider than the screen, so that the page
 * never does. With `stack`, on a phone each row is drawn as a small card
 * of "heading: value" lines instead (accounts.css; each cell carries its
 * heading as `data-label`), so that a table of many columns fits. */
export function tableBox(table, stack = false) {
  if (stack) {
    const [head, ...rows] = [...table.rows];
    const labels = [...head.cells].map((c) => c.textContent);
    for (const r of rows) [...r.cells].forEach((c, i) => c.setAttribute("data-label", labels[i] || ""));
    table.classList.add("acc-stack");
  }
  return h("div", { class: "acc-table-box" }, table);
}

/** A list of games (the API's GAME objects). */
export function gameList(games) {
  if (!games.length) return h("p", { class: "acc-muted" }, at("prof.no_games"));
  return h("ul", { class: "acc-games" }, games.map((g) => {
    const change = g.rating_after !== null && g.rating_after !== undefined ? g.rating_after - g.rating_before : null;
    return h("li", { class: `acc-game ${g.result}`, "data-table": g.table },
      h("span", { class: "acc-result" }, at(`result.${g.result}`)), " ",
      at(`kind.${g.kind}`), SEP,
      ...(g.opponents.length ? [at("games.vs"), " ", ...who(g.opponents)] : []),
      ...(g.partners.length ? [SEP, at("games.with"), " ", ...who(g.partners)] : []),
      SEP, g.rated ? at("games.rated") : at("games.casual"),
      change !== null ? h("span", { class: "acc-change" }, ` ${num(g.rating_after)} (${change >= 0 ? "+" : "–"}${num(Math.abs(change))})`) : "",
      ...(g.left ? [SEP, at("games.left")] : []),
      SEP, dateText(g.ended_ms), SEP,
      h("a", { href: g.replay, class: "acc-replay" }, at("games.replay")), SEP,
      h("a", { href: g.analysis }, at("games.analysis")));
  }));
}

/** A select of `values` (with "any" first) named `id`. */
function select(id, values, chosen, label) {
  return h("select", { id, name: id }, h("option", { value: "" }, at("games.any")),
    values.map((v) => h("option", { value: v, selected: v === chosen }, label(v))));
}

/** `/games?player=&kind=&result=&opponent=&from=&to=`: the games of a
 * player (default: me), filtered. */
export async function showGames(el, params) {
  const me = account();
  const player = params.get("player") || (me && me.name);
  if (!player) {
    el.append(h("section", { class: "acc-page" }, h("p", {}, h("a", { href: "/account" }, at("acc.sign_in")))));
    return;
  }
  const date = (k) => params.get(k) || "";
  const f = h("form", { class: "acc-inline", id: "games-filter", method: "get", action: "/games" },
    h("input", { type: "hidden", name: "player", value: player }),
    h("label", {}, at("prof.kind"), select("kind", KINDS, params.get("kind"), (k) => at(`kind.${k}`))),
    h("label", {}, at("games.result"), select("result", ["win", "loss", "draw"], params.get("result"), (r) => at(`result.${r}`))),
    h("label", {}, at("games.opponent"), h("input", { type: "text", name: "opponent", id: "opponent", value: params.get("opponent") || "" })),
    h("label", {}, at("games.from"), h("input", { type: "date", name: "from", value: date("from") })),
    h("label", {}, at("games.to"), h("input", { type: "date", name: "to", value: date("to") })),
    h("button", { type: "submit", id: "games-go" }, at("games.apply")));
  const q = new URLSearchParams();
  for (const k of ["kind", "result", "opponent"]) if (params.get(k)) q.set(k, params.get(k));
  if (date("from")) q.set("from", String(Date.parse(date("from"))));
  if (date("to")) q.set("to", String(Date.parse(date("to")) + 86400000));
  const section = h("section", { class: "acc-page", id: "games-page" }, h("h1", {}, at("games.title", { name: player })), f);
  el.append(section);
  try {
    const r = await request("GET", `/api/users/${encodeURIComponent(player)}/games?${q}`);
    section.append(gameList(r.games));
  } catch (err) {
    section.append(h("p", { class: "acc-note" }, refusalText(err)));
  }
}

/** `/leaderboard/KIND`. */
export async function showLeaderboard(el, kind) {
  const tabs = h("p", { class: "acc-tabs" }, KINDS.map((k) => h("a", { href: `/leaderboard/${k}`, class: k === kind ? "current" : "" }, at(`kind.${k}`))));
  const section = h("section", { class: "acc-page", id: "leaderboard" }, h("h1", {}, at("board.title")), tabs, h("p", { class: "acc-muted" }, at("board.note")));
  el.append(section);
  try {
    const r = await request("GET", `/api/leaderboard/${encodeURIComponent(kind)}`);
    section.append(r.players.length
      ? tableBox(h("table", { class: "acc-table" },
        h("tr", {}, h("th", {}, at("board.rank")), h("th", {}, at("board.player")), h("th", {}, at("prof.rating")), h("th", {}, at("prof.games"))),
        r.players.map((p) => h("tr", {}, h("td", {}, num(p.rank)), h("td", {}, h("a", { href: `/u/${encodeURIComponent(p.name)}` }, p.name)), h("td", {}, num(p.rating)), h("td", {}, num(p.games))))))
      : h("p", { id: "board-empty" }, at("board.empty")));
  } catch (err) {
    section.append(h("p", { class: "acc-note" }, refusalText(err)));
  }
}
