// The lobby: create a table (game, players, teams, bots and their levels,
// turn timer, listed or private, and the house rules: every rule option of
// the game with its default shown), the open tables to join and the games
// in progress to watch. What the games allow (player counts, team counts
// per player count, options and their defaults) comes from the server
// (GET /api/games), never from the rules.
import { t, num, has } from "./i18n.js";
import { h } from "./cards.js";
import { api, saveSeat, savedName, saveName, unescapeText } from "./api.js";
import { banner, navigate } from "./main.js";
import { refusalText } from "./errors.js";
import { learnLinks } from "./learn/entry.js";
import { account, accountReady } from "./accounts/session.js";
import { gameOf } from "./games.js";

const LEVELS = ["random", "level:1", "level:2", "level:3", "level:4", "level:5"];
const TIMERS = [15, 30, 60, 120, 300, 600];

/** Team counts allowed for `players` seats of `game` (the server's
 * description), default first; empty for a game without teams. */
function teamChoices(game, players) {
  const all = (game.teams && game.teams[String(players)]) || [];
  const d = game.default_teams && game.default_teams[String(players)];
  return d ? [d, ...all.filter((n) => n !== d)] : all;
}

/** A value of a rule option in words: "5 (official)". */
function optionValueText(name, value, isDefault) {
  let text;
  if (value === null) text = t(`opt.${name}.null`);
  else if (typeof value === "number") text = num(value);
  else text = has(`opt.${name}.${value}`) ? t(`opt.${name}.${value}`) : String(value);
  return isDefault ? t("lobby.default_mark", { value: text }) : text;
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

/** A level for the lobby's picker: its name and, where measured, its Elo
 * ("level 3 (about 1520)", GET /api/games `level_elo`). */
function levelLabel(level, cat) {
  const elo = cat && cat.level_elo && cat.level_elo[level];
  return elo ? t("bot.level_elo", { level: levelName(level), elo: num(elo) }) : levelName(level);
}

/** The lobby; `opts.practice`: its form set for a practice game (every
 * other seat a bot, played in this browser) when first drawn. */
export function showLobby(app, opts = {}) {
  let stopped = false;
  let practice = opts.practice === true;
  let timer = null;
  // The form's choices, kept across re-renders (changing the game or the
  // player count redraws the form). `seats[s]` is who sits in seat s.
  const form = { game: "classic", players: 2, teams: 2, seats: {}, options: {}, timer: null, private: false, local: false, rated: true, name: savedName(), tableName: "" };
  let cat = null; // the games (GET /api/games)

  function render() {
    if (!cat) {
      app.replaceChildren(h("p", { class: "hint loading" }, t("lobby.loading")));
      Promise.all([api.games(), accountReady()]).then(([c]) => {
        cat = c;
        if (!stopped) render();
      }).catch((err) => {
        if (stopped) return;
        app.replaceChildren(h("div", { class: "card-panel" }, h("p", {}, err.status === 0 ? t("error.unreachable") : refusalText(err)),
          h("button", { type: "button", onclick: render }, t("error.retry"))));
      });
      return;
    }
    const game = cat.games.find((g) => g.name === form.game) || cat.games[0];
    if (!game.players.includes(form.players)) form.players = game.players[0];
    const teams = teamChoices(game, form.players);
    if (teams.length && !teams.includes(form.teams)) form.teams = teams[0];
    // a static build (docs/deploy.md): no server, games in this browser
    // only; or a practice game asked for (`/?practice=1`), set once
    const only = cat.static === true;
    if (only || practice) {
      practice = false;
      form.local = true;
      for (let s = 1; s < form.players; s++) if (!form.seats[s] || form.seats[s] === "human") form.seats[s] = "level:2";
    }
    fillSeats(form);
    app.replaceChildren(h("div", { class: "lobby" },
      h("section", { class: "intro" }, h("h1", {}, t(only ? "lobby.welcome_static" : "lobby.welcome")),
        h("p", {}, t(only ? "lobby.intro_static" : "lobby.intro")), learnLinks()),
      createForm(form, cat, game, teams, only, render, create), only ? null : tableLists()));
    if (!only) refresh();
  }

  async function create(e) {
    e.preventDefault();
    const me = account();
    const field = document.getElementById("name");
    const name = field ? field.value.trim() : "";
    if (!me && !name) {
      banner(t("lobby.need_name"));
      if (field) field.focus();
      return;
    }
    const req = tableRequest(form, cat, me, name);
    const button = document.getElementById("create");
    button.disabled = true;
    try {
      const r = await api.create(req);
      saveSeat(r.table, r.seat, r.token);
      navigate(r.table);
    } catch (err) {
      button.disabled = false;
      banner(err.status === 0 ? t("error.unreachable") : t("error.refused", { message: refusalText(err) }));
    }
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
      box.replaceChildren(h("p", { class: "hint" }, err.status === 0 ? t("error.unreachable") : refusalText(err)));
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

// ----- the lobby's form: `form` holds its choices, `cat` the games -------

/** Who sits in a seat of a new game of `form.game` by default. */
function seatDefault(form) {
  return gameOf(form.game).seatDefault;
}

/** Evenly: every seat of a new game starts at the game's default; seats
 * added by a larger player count take the choice of the last seat before
 * them (so 2 players with a bot, then 4, gives three bots). */
function fillSeats(form) {
  for (let s = 1; s < form.players; s++) {
    if (!form.seats[s]) form.seats[s] = s > 1 ? form.seats[s - 1] : seatDefault(form);
  }
  for (const k of Object.keys(form.seats)) if (Number(k) >= form.players) delete form.seats[k];
}

/** Whether a bot sits at the table (its games are casual). */
function anyBot(form) {
  for (let s = 1; s < form.players; s++) if (form.seats[s] && form.seats[s] !== "human") return true;
  return false;
}

/** Whether every seat but ours is a bot (a practice game). */
function allBots(form) {
  for (let s = 1; s < form.players; s++) if (!form.seats[s] || form.seats[s] === "human") return false;
  return true;
}

/** The timer a table gets unless the host picks one: the server's
 * default for a public table waiting for people, else none. */
function defaultTimer(form, cat) {
  const people = Object.values(form.seats).some((v) => v === "human");
  return !form.private && people ? String(cat.turn_seconds.default_public) : "";
}

/** Shows the default timer again after a choice that changes it (the
 * host has not picked one). */
function syncTimer(form, cat) {
  const sel = document.getElementById("timer");
  if (sel && form.timer === null) sel.value = defaultTimer(form, cat);
}

/** Who creates the table: signed in, the account (its name, no field);
 * a guest types a name (the form's name field). */
function whoField(form) {
  const me = account();
  if (me) return h("p", { class: "field as-account", id: "as-account" }, t("lobby.playing_as", { name: "\u2068" + me.name + "\u2069" }));
  const nameInput = h("input", { id: "name", name: "name", required: true, maxlength: "32", autocomplete: "nickname", value: form.name, oninput: (e) => { form.name = e.target.value; } });
  return h("div", { class: "field" }, h("label", { for: "name" }, t("lobby.your_name")), nameInput);
}

/** Rated or casual (signed in; the API's `rated`): a game with a bot is
 * casual, so the box is then cleared and off. A guest is told that
 * ratings need an account. */
function ratedField(form, only) {
  if (only) return null;
  if (!account()) return h("p", { class: "hint", id: "rated-hint" }, t("lobby.rated_sign_in"));
  const bot = anyBot(form);
  return h("div", { class: "field check" },
    h("input", { type: "checkbox", id: "rated", checked: form.rated && !bot, disabled: bot, onchange: (e) => { form.rated = e.target.checked; } }),
    h("label", { for: "rated" }, t("lobby.rated")),
    h("span", { class: "hint", id: "rated-note" }, t(bot ? "lobby.rated_bot" : "lobby.rated_hint")));
}

/** A rule option's control: a checkbox for true/false, else a menu of
 * its values, the default marked. */
function optionField(form, o) {
  const id = o.name === "sequence_length" ? "seq-len" : `opt-${o.name}`;
  const cur = o.name in form.options ? form.options[o.name] : o.default;
  const label = h("label", { for: id }, t(`opt.${o.name}`), " ", h("span", { class: "rule-id" }, `(${o.rule})`));
  if (o.values.length === 2 && typeof o.values[0] === "boolean") {
    return h("div", { class: "field check" },
      h("input", { type: "checkbox", id, checked: cur === true, onchange: (e) => { form.options[o.name] = e.target.checked; } }),
      label, o.default === true ? h("span", { class: "hint" }, t("lobby.default_on")) : null);
  }
  const sel = h("select", { id, onchange: (e) => { form.options[o.name] = JSON.parse(e.target.value); } },
    o.values.map((v) => h("option", { value: JSON.stringify(v) }, optionValueText(o.name, v, v === o.default))));
  sel.value = JSON.stringify(cur);
  return h("div", { class: "field" }, label, sel);
}

/** A `<select>` with `attrs` of `values` (each shown as `text(v)`), set
 * to `current`. */
function selectOf(attrs, values, text, current) {
  const sel = h("select", attrs, values.map((v) => h("option", { value: String(v) }, text(v))));
  sel.value = String(current);
  return sel;
}

/** The game's choices: players, teams, the sequence length. */
function gameFields(form, game, teams, render) {
  const lengthOption = game.options.find((o) => o.name === "sequence_length");
  return [
    h("div", { class: "field" }, h("label", { for: "players" }, t("lobby.players")),
      selectOf({ id: "players", onchange: (e) => { form.players = Number(e.target.value); render(); } }, game.players, num, form.players)),
    teams.length > 0 ? h("div", { class: "field" }, h("label", { for: "teams" }, t("lobby.teams")),
      selectOf({ id: "teams", disabled: teams.length < 2, onchange: (e) => { form.teams = Number(e.target.value); } }, teams, num, form.teams)) : null,
    // the sequence length as before: "5 (official)" or 4
    lengthOption ? h("div", { class: "field" }, h("label", { for: "seq-len" }, t("lobby.sequence_length")),
      selectOf({ id: "seq-len", onchange: (e) => { form.options.sequence_length = Number(e.target.value); } }, lengthOption.values,
        (v) => (v === lengthOption.default ? t("lobby.seq_official", { n: num(v) }) : num(v)), form.options.sequence_length ?? lengthOption.default)) : null,
  ];
}

/** The turn timer and "private" (a static build plays only in this
 * browser: no clock, no lobby list to be kept out of). */
function tableFields(form, cat, only) {
  if (only) return [null, null];
  const timerValue = form.timer === null ? defaultTimer(form, cat) : form.timer;
  const timerSelect = h("select", { id: "timer", onchange: (e) => { form.timer = e.target.value; } },
    h("option", { value: "" }, t("lobby.no_timer")),
    TIMERS.map((s) => h("option", { value: String(s) }, t("lobby.seconds", { n: num(s) }))));
  timerSelect.value = timerValue;
  return [
    h("div", { class: "field" }, h("label", { for: "timer" }, t("lobby.turn_timer")), timerSelect,
      h("span", { class: "hint" }, t("lobby.timer_hint", { n: num(cat.turn_seconds.default_public) }))),
    h("div", { class: "field check" },
      h("input", { type: "checkbox", id: "private", checked: form.private, onchange: (e) => { form.private = e.target.checked; syncTimer(form, cat); } }),
      h("label", { for: "private" }, t("lobby.private"))),
  ];
}

/** Who sits in each seat but ours: a person or a bot of a level; a
 * change that makes the table all bots or not redraws the form. */
function seatRows(form, cat, only, render) {
  const rows = [];
  for (let s = 1; s < form.players; s++) {
    const sel = h("select", { id: `seat-${s}`, "data-seat": String(s), onchange: (e) => { const was = [allBots(form), anyBot(form)]; form.seats[s] = e.target.value; syncTimer(form, cat); if (was[0] !== allBots(form) || was[1] !== anyBot(form)) render(); } },
      only ? null : h("option", { value: "human" }, t("lobby.seat_person")),
      LEVELS.map((l) => h("option", { value: l }, t("lobby.seat_bot", { level: levelLabel(l, cat) }))));
    sel.value = form.seats[s];
    rows.push(h("div", { class: "field seat-choice" }, h("label", { for: `seat-${s}` }, t("lobby.seat_n", { n: num(s + 1) })), sel));
  }
  return rows;
}

/** The form that creates a table (`game`, the chosen game's description;
 * `teams`, its team counts; `only`, a static build). */
function createForm(form, cat, game, teams, only, render, create) {
  const houseRules = game.options.filter((o) => o.name !== "sequence_length");
  return h("form", { class: "card-panel create", onsubmit: create },
    h("h2", {}, t("lobby.create")),
    whoField(form),
    h("div", { class: "field" }, h("label", { for: "table-name" }, t("lobby.table_name")),
      h("input", { id: "table-name", maxlength: "32", placeholder: t("lobby.table_name_hint"), value: form.tableName, oninput: (e) => { form.tableName = e.target.value; } })),
    h("fieldset", { class: "field game-choice" }, h("legend", {}, t("lobby.game")),
      cat.games.map((g) => h("label", { class: "radio" },
        h("input", { type: "radio", name: "game", value: g.name, checked: form.game === g.name, onchange: () => { form.game = g.name; form.seats = {}; form.options = {}; render(); } }),
        t(`game.${g.name}`)))),
    gameFields(form, game, teams, render),
    tableFields(form, cat, only),
    ratedField(form, only),
    h("details", { class: "house-rules", id: "house-rules", open: form.rulesOpen === true, ontoggle: (e) => { form.rulesOpen = e.target.open; } },
      h("summary", {}, t("lobby.house_rules")),
      h("p", { class: "hint" }, t("lobby.house_rules_hint")),
      houseRules.map((o) => optionField(form, o))),
    h("h3", {}, t("lobby.seats")),
    h("p", { class: "hint" }, t("lobby.seat_you")),
    seatRows(form, cat, only, render),
    // a game against bots only may run in this browser (docs/wasm.md)
    allBots(form) ? h("div", { class: "field check" },
      h("input", { type: "checkbox", id: "local", checked: form.local, disabled: only, onchange: (e) => { form.local = e.target.checked; } }),
      h("label", { for: "local" }, t("lobby.local"))) : null,
    h("button", { type: "submit", class: "primary", id: "create" }, t("lobby.create_button")));
}

/** The request that creates the table the form describes (POST
 * /api/tables): `me` the account signed in, else `name` the guest's. */
function tableRequest(form, cat, me, name) {
  // signed in, the server seats the account under its own name
  const req = { game: form.game, players: form.players };
  if (!me) {
    saveName(name);
    req.name = name;
  } else if (form.local && allBots(form)) {
    req.name = me.name; // a game in this browser names its player itself
  } else {
    req.rated = form.rated && !anyBot(form);
  }
  const tableName = document.getElementById("table-name").value.trim();
  if (tableName) req.table_name = tableName;
  const game = cat.games.find((g) => g.name === form.game);
  if (game.teams) req.teams = form.teams;
  // only what differs from the defaults, as records write options
  const options = {};
  for (const o of game.options) {
    if (o.name in form.options && form.options[o.name] !== o.default) options[o.name] = form.options[o.name];
  }
  if (Object.keys(options).length) req.options = options;
  const timerValue = form.timer === null ? defaultTimer(form, cat) : form.timer;
  req.turn_seconds = timerValue ? Number(timerValue) : null;
  if (form.private) req.private = true;
  req.bots = [];
  for (let s = 1; s < form.players; s++) {
    if (form.seats[s] && form.seats[s] !== "human") req.bots.push({ seat: s, level: form.seats[s] });
  }
  if (form.local && allBots(form)) req.local = true;
  return req;
}

/** The lists of tables: open ones to join, games in progress to watch
 * (filled by the lobby's refresh). */
function tableLists() {
  return h("div", { class: "lists" },
    h("section", { class: "card-panel open-tables", "aria-labelledby": "open-h" },
      h("h2", { id: "open-h" }, t("lobby.open_tables")),
      h("div", { id: "tables", "aria-live": "polite" }, h("p", { class: "hint" }, t("lobby.loading")))),
    h("section", { class: "card-panel playing-tables", id: "playing", "aria-labelledby": "playing-h", hidden: true },
      h("h2", { id: "playing-h" }, t("lobby.in_progress")),
      h("div", { id: "playing-list" })));
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
