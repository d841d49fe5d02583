// The replay of a finished game (`/replay/ID?game=N`, or `/?replay=ID&game=N`
// for a game played in this browser): every position as the engine
// replayed it (the page never repeats the rules), stepped
// through with buttons, the arrow keys (Home and End too) and a slider;
// the move log beside the board (a click goes to a move), every hand
// (the game is over: its record is public), and the analysis: "Analyse"
// asks the search for each side's chance to win at every position and
// draws it under the board (stored with the table, so a second visit
// shows it at once). The server replays and analyses its tables' games;
// for a game in this browser api.js sends the same calls to the engine in
// the page (practice/local.js: replayed in the page, analysed in the
// bots' worker, kept in IndexedDB).
import { t, tn, num, SEP } from "./i18n.js";
import { h, svg, stacksCardFace } from "./cards.js";
import { api } from "./api.js";
import { banner, navigate, newPractice } from "./main.js";
import { isLocal } from "./practice/local.js";
import { practiceElsewhere } from "./practice/missing.js";
import { tableTitle } from "./lobby.js";
import { seatName, seatTeam } from "./table-state.js";
import { drawBoard } from "./board.js";
import { logPanel, entryText, notation } from "./movelog.js";
import { placeName } from "./stacks.js";
import { analysisGraph, mistakesList } from "./analysis.js";
import { refusalText } from "./errors.js";
import { durationText } from "./endgame.js";
import { positionChanges, animationOf } from "./feel.js";
import { gameOf } from "./games.js";

/** Autoplay speeds: ms a move, and the speed shown (×1 a move a second). */
const SPEEDS = [[2000, 0.5], [1000, 1], [500, 2], [250, 4]];
const SPEED_KEY = "sequence.replay.speed";

function savedSpeed() {
  try {
    const ms = Number(localStorage.getItem(SPEED_KEY));
    return SPEEDS.some(([s]) => s === ms) ? ms : 1000;
  } catch {
    return 1000;
  }
}

function saveSpeed(ms) {
  try {
    localStorage.setItem(SPEED_KEY, String(ms));
  } catch {
    // not remembered: this page keeps it
  }
}

const ICONS = {
  play: "M7 4l13 8-13 8z",
  pause: "M6 4h4v16H6zM14 4h4v16h-4z",
  first: "M4 4h3v16H4zM20 4 9 12l11 8z",
  prev: "M17 4 6 12l11 8z",
  next: "M7 4l11 8-11 8z",
  last: "M17 4h3v16h-3zM4 4l11 8-11 8z",
};

function icon(name) {
  const s = svg("svg", { viewBox: "0 0 24 24", class: "step-icon", "aria-hidden": "true" });
  s.append(svg("path", { d: ICONS[name] }));
  return s;
}

/** The result of the game in words, for everyone. */
function resultText(r) {
  const w = r.result && r.result.winner;
  if (w === null || w === undefined) return t("end.draw");
  return gameOf(r.game).teams ? t("end.team_won", { team: t(`team.${w}`) }) : t("end.seat_won", { who: seatName(r.table, w) });
}

/** What the page says when table `id`'s replay cannot be shown (`err`,
 * the refusal): the game is not over yet (with the way to its table), a
 * practice game this browser does not hold (practice/missing.js), or no
 * such game, with the way to its table only when that table exists (a
 * mistyped `/replay/abc` has none to go to). */
async function notShown(id, err) {
  const there = err.status === 404 ? await api.table(id).then(() => true, () => false) : true;
  if (!there && isLocal(id)) return practiceElsewhere(newPractice);
  const head = err.status === 403 ? t("replay.not_over") : err.status === 404 ? t("replay.not_found") : err.status === 0 ? t("error.unreachable") : refusalText(err);
  return missingPanel(head, err.status === 403 ? t("replay.not_over_hint") : null, there ? id : null);
}

/** The panel of a replay that cannot be shown: `head`, a `hint` (or
 * null), and the way to table `tableId`, or to the lobby when null. */
function missingPanel(head, hint, tableId) {
  return h("div", { class: "card-panel", id: "replay-missing" },
    h("h2", {}, head),
    hint ? h("p", { class: "hint" }, hint) : null,
    tableId
      ? h("button", { type: "button", id: "replay-to-table", onclick: () => navigate(tableId) }, t("replay.to_table"))
      : h("button", { type: "button", id: "replay-to-lobby", onclick: () => navigate(null) }, t("table.back_to_lobby")));
}

/** The page of `/replay/ID` with an id that is no game id (ids are hex):
 * "no such game", with the way to the lobby. */
export function showNoSuchReplay(app) {
  const page = { stop() {}, rerender: () => app.replaceChildren(missingPanel(t("replay.not_found"), null, null)) };
  page.rerender();
  return page;
}

export function showReplay(app, id, gameNo) {
  const page = { k: 0, r: null, stopped: false, poll: null, analysing: false, auto: null, speed: savedSpeed(), changes: null };

  async function load() {
    try {
      page.r = await api.replay(id, gameNo);
    } catch (err) {
      const said = await notShown(id, err);
      if (!page.stopped) app.replaceChildren(said);
      return;
    }
    if (page.stopped) return;
    const k = Number(new URLSearchParams(location.search).get("move"));
    page.k = Number.isInteger(k) && k >= 0 && k < page.r.positions.length ? k : 0;
    if (page.r.progress) follow();
    render();
  }

  const last = () => page.r.positions.length - 1;

  /** Goes to position `k`; `toBoard`: and brings the board into view
   * (from the list of worst moves, far below it on a phone). */
  function go(k, toBoard = false) {
    const to = Math.max(0, Math.min(last(), k));
    // one step forward: its chips placed and removed, its sequence, drawn moving
    page.changes = to === page.k + 1 ? positionChanges(page.r.positions[page.k], page.r.positions[to], page.r.game) : null;
    page.k = to;
    render();
    if (toBoard) boardIntoView();
  }

  /** Starts the analysis (or finds it running) and follows it. */
  async function analyse() {
    page.analysing = true;
    render();
    try {
      const a = await api.analyse(id, page.r.game_no);
      if (a.status === "done") page.r.analysis = a.analysis;
      else {
        page.r.progress = a;
        follow();
      }
    } catch (err) {
      banner(err.status === 429 ? t("analysis.busy") : t("error.refused", { message: refusalText(err) }));
    }
    page.analysing = false;
    render();
  }

  function follow() {
    clearTimeout(page.poll);
    page.poll = setTimeout(async () => {
      if (page.stopped) return;
      try {
        const a = await api.analysis(id, page.r.game_no);
        if (a.status === "done") {
          page.r.analysis = a.analysis;
          page.r.progress = null;
        } else if (a.status === "none") page.r.progress = null;
        else {
          page.r.progress = a;
          follow();
        }
      } catch {
        follow();
      }
      render();
    }, 600);
  }

  /** Autoplay: a move every `page.speed` ms to the end (the speed is
   * remembered); again to pause. */
  function autoplay(on) {
    clearInterval(page.auto);
    page.auto = null;
    if (on) {
      if (page.k >= last()) go(0);
      page.auto = setInterval(() => {
        if (page.k >= last()) autoplay(false);
        else go(page.k + 1);
      }, page.speed);
    }
    render();
  }

  function setSpeed(ms) {
    page.speed = ms;
    saveSpeed(ms);
    if (page.auto) autoplay(true);
  }

  const onKey = (e) => stepKey(e, page, go);
  document.addEventListener("keydown", onKey);

  const acts = { go, analyse, autoplay, setSpeed };
  function render() {
    if (page.stopped || !page.r) return;
    const r = page.r;
    window.sequenceReplay = { k: page.k, positions: r.positions.length, analysis: r.analysis ? r.analysis.points.length : null };
    app.replaceChildren(replayPage(page, id, acts));
    afterDrawing(page);
  }

  app.replaceChildren(h("p", { class: "hint loading" }, t("lobby.loading")));
  load();
  return {
    stop() {
      page.stopped = true;
      clearTimeout(page.poll);
      clearInterval(page.auto);
      document.removeEventListener("keydown", onKey);
    },
    // a page that said why there is no replay says it again in the new language
    rerender: () => (page.r ? render() : load()),
  };
}

/** The arrow keys (mirrored right to left), Home and End step through
 * the replay (`go(k)`), unless typing in a field. */
function stepKey(e, page, go) {
  if (!page.r || e.target.closest && e.target.closest("input, select, textarea")) return;
  const rtl = document.documentElement.dir === "rtl";
  const step = { ArrowRight: rtl ? -1 : 1, ArrowLeft: rtl ? 1 : -1 }[e.key];
  if (step !== undefined) go(page.k + step);
  else if (e.key === "Home") go(0);
  else if (e.key === "End") go(page.r.positions.length - 1);
  else return;
  e.preventDefault();
}

/** Brings the board (or the piles) into view. */
function boardIntoView() {
  const board = document.querySelector(".replay-main .board-wrap, .replay-main .replay-piles");
  const still = matchMedia("(prefers-reduced-motion: reduce)").matches;
  if (board) board.scrollIntoView({ block: "start", behavior: still ? "auto" : "smooth" });
}

/** After a redraw: the focus back on the control that had it, and the
 * current move in view inside the log's own scroll box. */
function afterDrawing(page) {
  if (page.focus) {
    const f = document.getElementById(page.focus);
    if (f && !f.disabled) f.focus();
  }
  const cur = document.querySelector("#replay-log .log-entry.current");
  const list = cur && cur.closest(".log-list");
  if (list) list.scrollTop = Math.max(0, cur.offsetTop - list.clientHeight / 2);
}

/** The replay page at position `page.k` of replay `page.r` (table `id`);
 * `acts`: the page's { go(k), analyse(), autoplay(on), setSpeed(ms) }. */
function replayPage(page, id, acts) {
  const r = page.r;
  const p = r.positions[page.k];
  const entries = r.log || [];
  const moveEntry = page.k > 0 ? entries[page.k - 1] : null;
  const name = (s) => seatName(r.table, s);
  const facts = [t(`game.${r.game}`), t("table.game_no", { n: num(r.game_no) }), tn("end.moves", entries.length, { n: num(entries.length) })];
  if (r.started_ms && r.ended_ms) facts.push(durationText(r.ended_ms - r.started_ms));
  let board;
  if (gameOf(r.game).surface === "board") {
    board = h("div", { class: "board-wrap" });
    const m = moveEntry && moveEntry.move;
    drawBoard(board, { layout: r.extras.layout, board: p.board, sequences: p.sequences, lastAt: m ? m.at || m.remove || null : null, anim: animationOf(page.changes) }, () => {});
  } else board = stacksPosition(p, r);
  const line = page.k === 0 ? t("replay.start") : entryText(moveEntry || {}, r.game, name);
  return h("div", { class: `replay-page game-${r.game}` },
    h("div", { class: "table-head" },
      h("h1", {}, t("replay.title", { name: tableTitle(r.table) })),
      h("span", { class: "tgame" }, facts.join(SEP))),
    h("div", { class: "replay-body" },
      h("section", { class: "replay-main" },
        h("div", { class: "game-info" },
          h("p", { class: "status-line over", id: "replay-result" }, resultText(r)),
          h("p", { class: "replay-move", id: "replay-move", "aria-live": "polite" },
            page.k > 0 ? h("b", {}, t("replay.move_n", { n: num(page.k) }), " ") : null, line)),
        board,
        controls(page, acts),
        analysisSection(page, acts)),
      h("aside", { class: "side" },
        hands(p, r),
        logPanel(entries, [], { game: r.game, seatName: name, me: null, teamOf: (s) => seatTeam(r.table, s), current: page.k - 1, onPick: (i) => acts.go(i + 1), id: "replay-log" }),
        h("section", { class: "panel" }, h("div", { class: "buttons" },
          h("a", { class: "button", id: "replay-download", href: api.recordUrl(id, r.game_no), download: `sequence-${id}-${r.game_no}.json` }, t("table.download")),
          h("a", { class: "button", id: "replay-table", href: `/?table=${id}` }, t("replay.to_table")))))));
}

/** The step buttons, the slider, autoplay and its speed, and the
 * position; `acts` as for [`replayPage`]. */
function controls(page, acts) {
  const last = page.r.positions.length - 1;
  const btn = (name, k, label) => h("button", { type: "button", id: `step-${name}`, class: "step", "aria-label": label, title: label,
    disabled: k < 0 || k > last || k === page.k, onclick: () => { page.focus = `step-${name}`; acts.go(k); } }, icon(name));
  const slider = h("input", { type: "range", id: "replay-slider", min: "0", max: String(last), value: String(page.k), step: "1", "aria-label": t("replay.slider"),
    oninput: (e) => { page.focus = "replay-slider"; acts.go(Number(e.target.value)); } });
  const playing = !!page.auto;
  const play = h("button", { type: "button", id: "autoplay", class: "step", "aria-pressed": playing ? "true" : "false", "aria-label": t(playing ? "replay.pause" : "replay.play"), title: t(playing ? "replay.pause" : "replay.play"),
    onclick: () => { page.focus = "autoplay"; acts.autoplay(!playing); } }, icon(playing ? "pause" : "play"));
  const speed = h("select", { id: "autoplay-speed", "aria-label": t("replay.speed"), title: t("replay.speed"), onchange: (e) => acts.setSpeed(Number(e.target.value)) },
    SPEEDS.map(([ms, x]) => h("option", { value: String(ms), selected: ms === page.speed }, `${num(x)}×`)));
  return h("div", { class: "replay-controls" },
    btn("first", 0, t("replay.first")), btn("prev", page.k - 1, t("replay.prev")),
    slider,
    btn("next", page.k + 1, t("replay.next")), btn("last", last, t("replay.last")),
    h("span", { class: "replay-auto" }, play, speed),
    h("span", { class: "replay-pos", id: "replay-pos" }, t("replay.position", { k: num(page.k), n: num(last) })));
}

/** A Stacks position: its piles and every seat's chips. */
function stacksPosition(p, r) {
  const piles = (p.piles || []).map((pile) => h("div", { class: `pile pile-${String(pile.place).split("-")[0]}`, "data-place": pile.place },
    h("span", { class: "pile-name" }, placeName(pile.place)),
    h("span", { class: "pile-cards" }, pile.cards.length ? pile.cards.map((c, i) => h("span", { class: "pcard", style: `--i:${i}` }, stacksCardFace(c))) : h("span", { class: "pile-empty" }, t("stacks.pile_free_short"))),
    h("span", { class: "pile-top" }, pile.top ? num(pile.top) : "")));
  return h("section", { class: "piles replay-piles", "aria-label": t("stacks.piles") }, piles,
    h("p", { class: "replay-chips" }, (p.chips || []).map((c, s) => h("span", { class: "replay-chip" }, seatName(r.table, s), ": ",
      t("end.chips", { blue: num(c.blue), red: num(c.red) })))));
}

/** Every seat's hand at position `p` (the game is over: public). */
function hands(p, r) {
  return h("section", { class: "panel replay-hands", "aria-labelledby": "hands-h" },
    h("h2", { id: "hands-h" }, t("replay.hands")),
    h("ul", { class: "seats" }, (p.hands || []).map((cards, s) => {
      const team = seatTeam(r.table, s);
      return h("li", { class: `seat-row${p.to_act === s ? " turn" : ""}` },
        team ? h("span", { class: `chip-icon chip-${team}`, "aria-hidden": "true" }) : null,
        h("span", { class: "sname" }, seatName(r.table, s)),
        h("span", { class: "replay-hand" }, (cards || []).map(gameOf(r.game).miniCard)));
    })));
}

/** A move the search suggests for `seat`, in the page's language and
 * the record's notation. */
function bestText(r, best, seat) {
  const e = { seat, move: best.move };
  return `${entryText(e, r.game, (s) => seatName(r.table, s))} (${notation(e, r.game)})`;
}

/** The analysis: its graph, the chance now and the worst moves; its
 * progress while it runs; else the button that starts it. */
function analysisSection(page, acts) {
  const r = page.r;
  const entries = r.log || [];
  const go = acts.go;
  const best = (b, seat) => bestText(r, b, seat);
  const teams = gameOf(r.game).teams;
  const name = (side) => (teams ? t(`team.${side}`) : seatName(r.table, side));
  const parts = [h("h2", { id: "analysis-h" }, t("analysis.title"))];
  if (r.analysis) {
    parts.push(analysisGraph(r.analysis, page.k, go, name));
    const p = r.analysis.points[page.k];
    if (p && typeof p.win === "number") {
      parts.push(h("p", { class: "ana-now-text", id: "analysis-now" }, t("analysis.at", { who: name(p.side), p: num(Math.round(p.win * 100)) }),
        (p.best || [])[0] ? [" ", h("span", { class: "hint" }, t("analysis.best", { move: best(p.best[0], p.seat) }))] : null));
    }
    parts.push(h("h3", {}, t("analysis.mistakes")), mistakesList(r.analysis, entries, (s) => seatName(r.table, s), go, best));
  } else if (r.progress) {
    const total = r.progress.total || 0;
    parts.push(h("p", {}, t("analysis.running")),
      h("progress", { id: "analysis-progress", max: String(total || 1), value: String(r.progress.done || 0) }),
      h("span", { class: "hint" }, " ", total ? t("analysis.done_of", { done: num(r.progress.done || 0), total: num(total) }) : t("analysis.queued")));
  } else {
    parts.push(h("p", { class: "hint" }, t("analysis.explain")),
      h("button", { type: "button", id: "analyse", class: "primary", disabled: page.analysing, onclick: acts.analyse }, t("analysis.button")));
  }
  return h("section", { class: "panel analysis", id: "analysis", "aria-labelledby": "analysis-h" }, parts);
}
