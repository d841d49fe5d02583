// The puzzle page (issue 25): `/?puzzles=classic|stacks` (`&id=ID` for one
// puzzle). Positions from engine self-play where one move is clearly best
// (docs/puzzles.md), read from /puzzles/<game>.json and drawn with the
// table's own code (classic.js's board and hand, stacks.js's piles and
// hand); the page checks the learner's move against the solution and
// explains it, or why another move fails, in the page's language. A
// puzzle of the day (the same for everyone on a day, UTC), a filter by
// grade, and progress kept in this browser and, when signed in, in the
// account (progress.js).
import { t, num, language, SEP, list } from "../i18n.js";
import { h, cardName, stacksCardName } from "../cards.js";
import { api, isStaticBuild } from "../api.js";
import { renderClassic } from "../classic.js";
import { renderStacks, placeName } from "../stacks.js";
import { layoutGrid, spaceName, spaceLabel } from "../layout.js";
import { lt, loadLearnText } from "./text.js";
import { rulesUrl } from "./rules.js";
import { solvedSet, markSolved, onProgress } from "./progress.js";
import { account, accountReady } from "../accounts/session.js";

const files = new Map(); // game -> the data file
const GAMES = ["classic", "stacks"];

/** The URL of puzzle `id` of `game` (or of the puzzle list). */
export function puzzlesUrl(game, id) {
  return `/?puzzles=${game}${id ? `&id=${encodeURIComponent(id)}` : ""}`;
}

async function load(game) {
  if (!files.has(game)) {
    const res = await fetch(`/puzzles/${game}.json`, { cache: "no-cache" });
    if (!res.ok) throw new Error(`/puzzles/${game}.json: HTTP ${res.status}`);
    files.set(game, await res.json());
  }
  return files.get(game);
}

/** The puzzle of the day: the same for everyone on a UTC day. */
export function puzzleOfTheDay(list, now = Date.now()) {
  const day = Math.floor(now / 86400000);
  return list[(day * 7919) % list.length];
}

// ----- classic: the view the table's drawing takes, and the moves ------

const TWO_EYED = ["JD", "JC"];
const ONE_EYED = ["JS", "JH"];

/** The legal moves of the puzzle's position (C6): placements on the empty
 * spaces a card shows, two-eyed jacks anywhere empty, one-eyed jacks on the
 * opponent's chips outside sequences, and dead-card exchanges. */
function classicMoves(p, grid) {
  const empty = [];
  const theirs = [];
  p.board.forEach((row, r) => [...row].forEach((ch, c) => {
    if (ch === ".") empty.push([r, c]);
    if (ch === "G") theirs.push(spaceName(r, c));
  }));
  const dead = (code) => !code.startsWith("J") && grid.every((row, r) => row.every((x, c) => x !== code || p.board[r][c] !== "."));
  const moves = [];
  for (const card of new Set(p.hand)) {
    if (dead(card)) moves.push({ dead: card });
    else if (TWO_EYED.includes(card)) empty.forEach(([r, c]) => moves.push({ card, at: spaceName(r, c) }));
    else if (ONE_EYED.includes(card)) theirs.forEach((s) => moves.push({ card, remove: s }));
    else empty.filter(([r, c]) => grid[r][c] === card).forEach(([r, c]) => moves.push({ card, at: spaceName(r, c) }));
  }
  // a window puzzle: a chip on the solution's space makes a line longer
  // than five, and the player names the five (C8a), as at the table
  const at = p.solution && p.solution.at;
  const withChoices = p.choices ? moves.flatMap((m) => (m.at && m.at === at ? p.choices.map((declare) => ({ ...m, declare })) : [m])) : moves;
  return { moves: withChoices, dead: p.hand.filter(dead) };
}

function classicView(p, layout) {
  const grid = layoutGrid(layout);
  const { moves, dead } = classicMoves(p, grid);
  return {
    game: "classic", seat: 0, team: "blue", players: 2, teams: 2, turn: 0, status: "playing",
    move_number: p.from.move, layout, board: p.board, sequences: p.sequences, hand: p.hand, dead,
    legal_moves: moves.map((m) => ({ seat: 0, ...m })), win_sequences: 2,
    // the cards the player cannot see, less the opponent's hand of 7 (C4)
    draw_pile: Math.max(0, 104 - p.hand.length - p.discards.length - 7),
  };
}

const same = (a, b, keys) => keys.every((k) => JSON.stringify(a[k] ?? null) === JSON.stringify(b[k] ?? null));
const CLASSIC_KEYS = ["card", "at", "remove", "dead", "declare"];
const STACKS_KEYS = ["play", "to", "from", "target", "colour", "pass", "discard", "end"];

function moveWords(game, m, theirs = false) {
  if (game === "classic") {
    if (m.dead) return lt("puzzle.m.dead", { card: cardName(m.dead) });
    if (m.remove) return lt("puzzle.m.remove", { card: cardName(m.card), space: spaceLabel(m.remove) });
    if (m.declare) return lt("puzzle.m.place_declare", { card: cardName(m.card), space: spaceLabel(m.at), window: windows(m.declare) });
    return lt("puzzle.m.place", { card: cardName(m.card), space: spaceLabel(m.at) });
  }
  if (m.play === "BLOCK") return lt("puzzle.m.block");
  if (m.pass) return lt("puzzle.m.pass");
  if (m.end) return lt("puzzle.m.end");
  if (m.discard) return lt("puzzle.m.discard", { card: stacksCardName(m.discard) });
  // an opponent's play from its own discard pile (a `block2` threat)
  const discard = theirs ? "puzzle.m.pile_their_discard" : "puzzle.m.pile_discard";
  if (m.to) return lt(m.from === "discard" ? discard : "puzzle.m.pile", { card: stacksCardName(m.play), pile: placeName(m.to) });
  return lt("puzzle.m.action", { card: stacksCardName(m.play) });
}

const spaces = (these) => list((these || []).map(spaceLabel));
/** Declared sequences (C8a) as "a1–e1", as the table's choice shows them. */
const windows = (declare) => list(declare.map((w) => `${spaceLabel(w[0])}–${spaceLabel(w[1])}`));

/** What the puzzle asks. */
function task(game, p) {
  // a window puzzle names the placement; the question is the five (C8a)
  const s = p.solution;
  if (p.kind === "window") return lt("puzzle.task.classic.window", { card: cardName(s.card), space: spaceLabel(s.at) });
  return lt("puzzle.task." + game + "." + p.kind);
}

/** The rules each kind of puzzle is about (RULES.md ids). */
const RULES = {
  classic: { win: ["C8", "C9"], jack: ["C6", "C9"], block: ["C6", "C8"], dead: ["C6"], fork: ["C6", "C8"], window: ["C8", "C8a"] },
  stacks: { block: ["S5"], block2: ["S3", "S4", "S5", "S7"], win: ["S3", "S7"], win2: ["S4", "S5", "S7"] },
};

/** A `block2` puzzle's threat: the completer's winning line had the pile
 * stood, with the cards everyone sees. */
function threatWords(p) {
  return list((p.threat || []).map((m) => moveWords("stacks", m, true)));
}

/** Why the solution is the move (after solving, or shown). */
function explanation(game, p) {
  const s = p.solution;
  if (game === "stacks") {
    if (p.kind === "block") return lt("puzzle.why.stacks.block");
    if (p.kind === "block2") return lt("puzzle.why.stacks.block2", { line: threatWords(p) });
    const line = p.line.map((m) => moveWords(game, m)).join(SEP);
    return lt(p.kind === "win2" ? "puzzle.why.stacks.win2" : "puzzle.why.stacks.win", { line });
  }
  switch (p.kind) {
    case "win": return lt("puzzle.why.classic.win", { card: cardName(s.card), space: spaceLabel(s.at) });
    case "jack": return lt("puzzle.why.classic.jack", { jack: cardName(s.card, false), space: spaceLabel(s.at) });
    case "fork": return lt("puzzle.why.classic.fork", { move: moveWords(game, s), spaces: spaces(p.wins) });
    case "window":
      // the long line's window keeps the next sequence nearest; the other
      // keeps a win next turn
      if (p.need) return lt("puzzle.why.classic.window_need", { window: windows(s.declare), n: num(p.need.length), spaces: spaces(p.need) });
      return lt("puzzle.why.classic.window", { window: windows(s.declare), spaces: spaces(p.wins) });
    case "dead": return lt("puzzle.why.classic.dead", { card: cardName(s.dead), k: num(p.chance[0]), n: num(p.chance[1]), spaces: spaces(p.threats) });
    default:
      if (s.remove) return lt("puzzle.why.classic.block_remove", { space: spaceLabel(s.remove), spaces: spaces(p.threats) });
      return lt(p.threats.length > 1 ? "puzzle.why.classic.block_many" : "puzzle.why.classic.block", { space: spaceLabel(s.at), spaces: spaces(p.threats) });
  }
}

/** Why the move `m` (not the solution) fails. */
function refutation(game, p, m) {
  if (game === "stacks") {
    if (p.kind === "block") return lt("puzzle.no.stacks.block");
    if (p.kind === "block2") return lt("puzzle.no.stacks.block2", { line: threatWords(p) });
    if (p.kind === "win2") return lt("puzzle.no.stacks.win2");
    if (m.discard || m.end) return lt("puzzle.no.stacks.ends");
    return lt("puzzle.no.stacks.win");
  }
  const left = (p.threats || []).filter((s) => s !== m.at);
  switch (p.kind) {
    case "win": case "jack": return lt("puzzle.no.classic.win");
    case "fork": return lt("puzzle.no.classic.fork");
    case "window": return lt(p.need ? "puzzle.no.classic.window_need" : "puzzle.no.classic.window");
    case "dead": return lt("puzzle.no.classic.dead", { spaces: spaces(p.threats) });
    default: return lt("puzzle.no.classic.block", { spaces: spaces(left.length ? left : p.threats) });
  }
}

// ----- Stacks: the pile a Block window is about -------------------------

/** A Block puzzle's pile just completed (the file's `completed`, S5b) as
 * the one table-log entry that opened the window: the table's drawing
 * (stacks.js) then shows that pile completed, not free, as it does at a
 * live table while the window is open. No entry for other puzzles. */
function completionLog(p) {
  const c = p.completed;
  const w = p.view && p.view.block_window;
  if (!c || !w) return [];
  return [{ seat: w.completer, completed: c.place, window: true, move: { seat: w.completer, play: c.card, to: c.place } }];
}

// ----- the page ------------------------------------------------------------

/** Shows the puzzle page of `game` in `app` (puzzle `id`, else the puzzle
 * of the day); returns the page handle ({ stop, rerender }). */
export function showPuzzles(app, game, id) {
  let stopped = false;
  let layout = null;
  const st = { id, grade: 0, result: null, tries: 0, shown: false, ui: {} };

  function go(next) {
    st.id = next;
    st.result = null;
    st.tries = 0;
    st.shown = false;
    st.ui = {};
    history.replaceState(null, "", puzzlesUrl(game, next));
    render();
  }

  async function render() {
    await loadLearnText();
    // where progress is kept depends on whether this browser is signed in
    await accountReady();
    // a static build has no accounts (docs/deploy.md): no sign-in offer
    const noServer = await isStaticBuild();
    const file = await load(game);
    if (game === "classic" && !layout) {
      const cat = await api.games();
      const c = (cat.games || []).find((g) => g.name === "classic");
      layout = c && c.layout;
    }
    if (stopped) return;
    const all = file.puzzles;
    const daily = puzzleOfTheDay(all);
    const asked = all.find((x) => x.id === st.id);
    // a link to a puzzle this file does not have: say so, show the day's
    const unknown = st.id !== null && st.id !== undefined && !asked;
    const p = asked || daily;
    st.id = p.id;
    const solved = solvedSet(game);
    const shown = st.grade ? all.filter((x) => x.grade === st.grade) : all;
    const next = shown.find((x) => !solved.has(x.id) && x.id !== p.id) || shown.find((x) => x.id !== p.id) || p;

    const check = (m) => {
      if (st.result === "solved") return;
      const keys = game === "classic" ? CLASSIC_KEYS : STACKS_KEYS;
      if (same(m, p.solution, keys)) {
        st.result = "solved";
        markSolved(game, p.id);
      } else {
        st.result = { move: m };
        st.tries += 1;
      }
      st.ui = {};
      render();
    };
    const ctx = {
      ui: st.ui,
      info: { seats: [] },
      seatName: (s) => (s === (p.view ? p.view.seat : 0) ? lt("puzzle.you") : lt("puzzle.opponent", { n: num(s + 1) })),
      sendMove: check,
      rerender: render,
      offTurn() {},
      extras: game === "stacks" ? { entries: completionLog(p) } : {},
    };
    // once solved, the position stays in view without moves
    const done = st.result === "solved";
    let board;
    if (game === "classic") {
      const v = classicView(p, layout);
      board = renderClassic(done ? { ...v, legal_moves: [] } : v, ctx);
    } else {
      board = renderStacks(done ? { ...p.view, legal_moves: [] } : p.view, ctx);
    }
    const result = resultPanel(game, p, st, () => go(next.id), render);
    const gradeButtons = gradeChoice(st, all, solved, daily, go);
    const count = (g) => all.filter((x) => (!g || x.grade === g) && solved.has(x.id)).length;
    const other = game === "classic" ? "stacks" : "classic";
    app.replaceChildren(h("article", { class: `learn-page puzzle-page puzzle-${game}`, "data-puzzle": p.id, "data-learn-lang": language() },
      h("div", { class: "learn-head" },
        h("h1", {}, lt("puzzle.title", { game: t(`game.${game}`) })),
        h("nav", { class: "learn-nav" },
          h("a", { href: "/", id: "learn-back" }, lt("learn.back")),
          h("a", { href: puzzlesUrl(other), id: "puzzles-other" }, lt("puzzle.title", { game: t(`game.${other}`) })),
          h("a", { href: rulesUrl(game), id: "puzzles-rules" }, lt("learn.title_game", { game: t(`game.${game}`) })))),
      h("div", { class: "puzzle-bar card-panel" },
        h("p", { id: "puzzle-progress" }, lt("puzzle.progress", { k: num(count(st.grade)), n: num(shown.length) })),
        h("div", { class: "buttons", role: "group", "aria-label": lt("puzzle.grade.label") }, gradeButtons),
        h("button", { type: "button", id: "puzzle-daily", class: p.id === daily.id ? "selected" : "", onclick: () => go(daily.id) }, lt("puzzle.daily"))),
      h("section", { class: "puzzle-task card-panel", "aria-labelledby": "puzzle-h" },
        unknown ? h("p", { class: "hint", id: "puzzle-unknown", role: "status" }, lt("puzzle.unknown")) : null,
        h("h2", { id: "puzzle-h" }, lt("puzzle.number", { n: num(all.indexOf(p) + 1), grade: lt("puzzle.level." + p.grade) }),
          p.id === daily.id ? h("span", { class: "puzzle-daily-tag" }, SEP, lt("puzzle.daily")) : null,
          solved.has(p.id) ? h("span", { class: "puzzle-solved-tag" }, SEP, lt("puzzle.solved_tag")) : null),
        h("p", { id: "puzzle-task" }, task(game, p)),
        result),
      board,
      h("p", { class: "puzzle-kept", id: "puzzle-kept" }, account() ? lt("puzzle.kept_account")
        : noServer ? lt("puzzle.kept_browser")
        : [lt("puzzle.kept_browser"), " ", h("a", { href: "/account", id: "puzzle-sign-in" }, lt("puzzle.kept_sign_in"))])));
    document.title = `${lt("puzzle.title", { game: t(`game.${game}`) })}${SEP}${t("app.title")}`;
  }
  render().catch((e) => app.replaceChildren(h("p", { class: "hint" }, e.message)));
  // the account's progress arrived (signed in here or elsewhere): draw again
  const unsubscribe = onProgress((changed) => {
    if (changed && !stopped) render().catch(() => {});
  });
  return {
    stop() {
      stopped = true;
      unsubscribe();
    },
    rerender: () => render(),
  };
}

/** What the page says of the learner's move (`st.result`): right, with
 * why and the way on (`onNext`); or wrong, with why, and the answer once
 * asked for. Null before a move. */
function resultPanel(game, p, st, onNext, render) {
  const rules = h("span", { class: "rule-ref" }, " ", lt("learn.rule_ref", { ids: list(RULES[game][p.kind] || []) }));
  if (st.result === "solved") {
    return h("div", { class: "puzzle-result good", id: "puzzle-result", role: "status" },
      h("p", { class: "puzzle-verdict" }, lt("puzzle.right", { move: moveWords(game, p.solution) })),
      h("p", { id: "puzzle-why" }, explanation(game, p), rules),
      h("button", { type: "button", class: "primary", id: "puzzle-next", onclick: onNext }, lt("puzzle.next")));
  }
  if (!st.result) return null;
  return h("div", { class: "puzzle-result bad", id: "puzzle-result", role: "status" },
    h("p", { class: "puzzle-verdict" }, lt("puzzle.wrong", { move: moveWords(game, st.result.move) })),
    h("p", { id: "puzzle-refutation" }, refutation(game, p, st.result.move)),
    st.shown ? h("p", { id: "puzzle-answer" }, lt("puzzle.answer", { move: moveWords(game, p.solution) }), " ", explanation(game, p))
      : h("button", { type: "button", id: "puzzle-show", onclick: () => { st.shown = true; render(); } }, lt("puzzle.show")));
}

/** The grade filter's buttons (0: all): a grade goes to its first
 * unsolved puzzle (`go(id)`), "all" to the puzzle of the day. */
function gradeChoice(st, all, solved, daily, go) {
  return [0, 1, 2, 3].map((g) => h("button", {
    type: "button",
    class: `puzzle-grade${st.grade === g ? " selected" : ""}`,
    "aria-pressed": st.grade === g ? "true" : "false",
    "data-grade": String(g),
    onclick: () => {
      st.grade = g;
      const first = g ? all.find((x) => x.grade === g && !solved.has(x.id)) || all.find((x) => x.grade === g) : daily;
      go(first.id);
    },
  }, g ? lt("puzzle.grade." + g) : lt("puzzle.grade.all")));
}

/** Whether `game` has puzzles. */
export function isPuzzleGame(game) {
  return GAMES.includes(game);
}
