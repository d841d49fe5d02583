// The lobby: create a table (game, players, teams, bots and their levels,
// rule options, turn timer), the open tables to join and the games in
// progress to watch. The player counts and team choices below repeat rules
// C3 and S1: the server does not list them yet (see docs/web.md).
import { t, num } from "./i18n.js";
import { h } from "./cards.js";
import { api, saveSeat, savedName, saveName, unescapeText } from "./api.js";
import { banner, navigate } from "./main.js";

const CLASSIC_PLAYERS = [2, 3, 4, 6, 8, 9, 10, 12];
const STACKS_PLAYERS = [2, 3, 4, 5, 6];
const LEVELS = ["random", "level:1", "level:2", "level:3", "level:4", "level:5"];

/** Team counts allowed for a classic table (C3). */
export function teamChoices(players) {
  if (players <= 3) return [players];
  const out = [];
  if (players % 2 === 0) out.push(2);
  if (players % 3 === 0) out.push(3);
  return out;
}

/** A table's title from its info: its own name, or (`named_after`, a
 * table created without a name) "NAME's table" worded in the current
 * language, the name isolated (U+2068 … U+2069) so that a left-to-right
 * name keeps its place in a right-to-left sentence and the other way round. */
export function tableTitle(info) {
  if (info && info.named_after) {
    return t("table.default_name", { name: "\u2068" + unescapeText(info.named_after) + "\u2069" });
  }
  return unescapeText(info && info.name) || t("table.untitled");
}

export function levelName(level) {
  if (!level) return "";
  if (level === "random") return t("bot.random");
  // "level:3"; other levels the API accepts ("greedy") are shown as named
  const m = /^level:(\d+)$/.exec(level);
  return m ? t("bot.level", { n: num(Number(m[1])) }) : level;
}

export function showLobby(app) {
  let stopped = false;
  let timer = null;
  // The form's choices, kept across re-renders (changing the game or the
  // player count redraws the form). `seats[s]` is who sits in seat s.
  const form = { game: "classic", players: 2, teams: 2, seats: {}, seqLen: 5, timer: "", name: savedName(), tableName: "" };
  const seatDefault = () => (form.game === "stacks" ? "level:2" : "human");

  /** Evenly: every seat of a new game starts at the game's default; seats
   * added by a larger player count take the choice of the last seat before
   * them (so 2 players with a bot, then 4, gives three bots). */
  function fillSeats() {
    for (let s = 1; s < form.players; s++) {
      if (!form.seats[s]) form.seats[s] = s > 1 ? form.seats[s - 1] : seatDefault();
    }
    for (const k of Object.keys(form.seats)) if (Number(k) >= form.players) delete form.seats[k];
  }

  function render() {
    const players = form.game === "classic" ? CLASSIC_PLAYERS : STACKS_PLAYERS;
    if (!players.includes(form.players)) form.players = 2;
    const teams = teamChoices(form.players);
    if (form.game === "classic" && !teams.includes(form.teams)) form.teams = teams[0];
    fillSeats();

    const nameInput = h("input", { id: "name", name: "name", required: true, maxlength: "32", autocomplete: "nickname", value: form.name, oninput: (e) => { form.name = e.target.value; } });
    const seatRows = [];
    for (let s = 1; s < form.players; s++) {
      const sel = h("select", { id: `seat-${s}`, "data-seat": String(s), onchange: (e) => { form.seats[s] = e.target.value; } },
        h("option", { value: "human" }, t("lobby.seat_person")),
        LEVELS.map((l) => h("option", { value: l }, t("lobby.seat_bot", { level: levelName(l) }))));
      sel.value = form.seats[s];
      seatRows.push(h("div", { class: "field seat-choice" }, h("label", { for: `seat-${s}` }, t("lobby.seat_n", { n: num(s + 1) })), sel));
    }

    const createForm = h("form", { class: "card-panel create", onsubmit: create },
      h("h2", {}, t("lobby.create")),
      h("div", { class: "field" }, h("label", { for: "name" }, t("lobby.your_name")), nameInput),
      h("div", { class: "field" }, h("label", { for: "table-name" }, t("lobby.table_name")),
        h("input", { id: "table-name", maxlength: "32", placeholder: t("lobby.table_name_hint"), value: form.tableName, oninput: (e) => { form.tableName = e.target.value; } })),
      h("fieldset", { class: "field game-choice" }, h("legend", {}, t("lobby.game")),
        ["classic", "stacks"].map((g) => h("label", { class: "radio" },
          h("input", { type: "radio", name: "game", value: g, checked: form.game === g, onchange: () => { form.game = g; form.seats = {}; render(); } }),
          t(`game.${g}`)))),
      h("div", { class: "field" }, h("label", { for: "players" }, t("lobby.players")),
        (() => {
          const sel = h("select", { id: "players", onchange: (e) => { form.players = Number(e.target.value); render(); } },
            players.map((p) => h("option", { value: String(p) }, num(p))));
          sel.value = String(form.players);
          return sel;
        })()),
      form.game === "classic" && teams.length > 0 ? h("div", { class: "field" }, h("label", { for: "teams" }, t("lobby.teams")),
        (() => {
          const sel = h("select", { id: "teams", disabled: teams.length < 2, onchange: (e) => { form.teams = Number(e.target.value); } },
            teams.map((n) => h("option", { value: String(n) }, num(n))));
          sel.value = String(form.teams);
          return sel;
        })()) : null,
      form.game === "classic" ? h("div", { class: "field" }, h("label", { for: "seq-len" }, t("lobby.sequence_length")),
        (() => {
          const sel = h("select", { id: "seq-len", onchange: (e) => { form.seqLen = Number(e.target.value); } },
            h("option", { value: "5" }, t("lobby.seq_official", { n: num(5) })), h("option", { value: "4" }, num(4)));
          sel.value = String(form.seqLen);
          return sel;
        })()) : null,
      h("div", { class: "field" }, h("label", { for: "timer" }, t("lobby.turn_timer")),
        (() => {
          const sel = h("select", { id: "timer", onchange: (e) => { form.timer = e.target.value; } },
            h("option", { value: "" }, t("lobby.no_timer")),
            [30, 60, 120, 300].map((s) => h("option", { value: String(s) }, t("lobby.seconds", { n: num(s) }))));
          sel.value = form.timer;
          return sel;
        })()),
      h("h3", {}, t("lobby.seats")),
      h("p", { class: "hint" }, t("lobby.seat_you")),
      seatRows,
      h("button", { type: "submit", class: "primary", id: "create" }, t("lobby.create_button")));

    const list = h("div", { class: "lists" },
      h("section", { class: "card-panel open-tables", "aria-labelledby": "open-h" },
        h("h2", { id: "open-h" }, t("lobby.open_tables")),
        h("div", { id: "tables", "aria-live": "polite" }, h("p", { class: "hint" }, t("lobby.loading")))),
      h("section", { class: "card-panel playing-tables", id: "playing", "aria-labelledby": "playing-h", hidden: true },
        h("h2", { id: "playing-h" }, t("lobby.in_progress")),
        h("div", { id: "playing-list" })));

    app.replaceChildren(h("div", { class: "lobby" },
      h("section", { class: "intro" }, h("h1", {}, t("lobby.welcome")), h("p", {}, t("lobby.intro"))),
      createForm, list));
    refresh();
  }

  async function create(e) {
    e.preventDefault();
    const name = document.getElementById("name").value.trim();
    if (!name) {
      banner(t("lobby.need_name"));
      document.getElementById("name").focus();
      return;
    }
    saveName(name);
    const req = { game: form.game, players: form.players, name };
    const tableName = document.getElementById("table-name").value.trim();
    if (tableName) req.table_name = tableName;
    if (form.game === "classic") {
      req.teams = form.teams;
      if (form.seqLen === 4) req.options = { sequence_length: 4 };
    }
    if (form.timer) req.turn_seconds = Number(form.timer);
    req.bots = [];
    for (let s = 1; s < form.players; s++) {
      if (form.seats[s] && form.seats[s] !== "human") req.bots.push({ seat: s, level: form.seats[s] });
    }
    const button = document.getElementById("create");
    button.disabled = true;
    try {
      const r = await api.create(req);
      saveSeat(r.table, r.seat, r.token);
      navigate(r.table);
    } catch (err) {
      button.disabled = false;
      banner(err.status === 0 ? t("error.unreachable") : t("error.refused", { message: err.message }));
    }
  }

  /** A list of tables, each with a button (`button`: its text key,
   * `label`: its spoken label key) that opens it. */
  function tableList(tables, button, label) {
    return h("ul", { class: "table-list" }, tables.map((tb) => {
      const taken = tb.seats.filter((s) => s.kind === "human" || s.kind === "bot").length;
      const title = tableTitle(tb);
      return h("li", { "data-table": tb.id },
        h("span", { class: "tname" }, title),
        h("span", { class: "tgame" }, t(`game.${tb.game}`)),
        h("span", { class: "tseats" }, t("lobby.seats_taken", { taken: num(taken), players: num(tb.players) })),
        h("button", { type: "button", onclick: () => navigate(tb.id), "aria-label": t(label, { name: title }) }, t(button)));
    }));
  }

  async function refresh() {
    clearTimeout(timer);
    if (stopped) return;
    const box = document.getElementById("tables");
    try {
      const { tables } = await api.listTables();
      if (stopped || !box) return;
      banner("");
      // GET /api/tables lists the waiting tables; games in progress are
      // shown for watching when the server lists them too.
      const waiting = tables.filter((tb) => tb.status === "waiting");
      const playing = tables.filter((tb) => tb.status === "playing");
      box.replaceChildren(waiting.length ? tableList(waiting, "lobby.join", "lobby.open_table") : h("p", { class: "hint" }, t("lobby.no_tables")));
      const section = document.getElementById("playing");
      section.hidden = !playing.length;
      document.getElementById("playing-list").replaceChildren(playing.length ? tableList(playing, "lobby.watch", "lobby.watch_table") : "");
    } catch (err) {
      if (stopped || !box) return;
      box.replaceChildren(h("p", { class: "hint" }, err.status === 0 ? t("error.unreachable") : err.message));
    }
    timer = setTimeout(refresh, 5000);
  }

  render();
  return {
    stop() {
      stopped = true;
      clearTimeout(timer);
    },
    rerender: render,
  };
}
