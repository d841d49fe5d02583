// Learning progress: the puzzles solved (ids per game, under
// `sequence.puzzles.<game>` in localStorage, a JSON list) and how far each
// tutorial went (`sequence.tutorial.<game>.step`, the furthest step, 1 for
// the first; `sequence.tutorial.<game>.done`). Kept in this browser, and in
// the account when signed in (docs/api.md "Learning progress"): on every
// sign-in or page load this browser's progress is sent and the account's
// merged progress comes back (a union of solved puzzles, the furthest
// step), so that neither side loses anything; each puzzle solved and step
// reached is sent as it happens.
import { request } from "../api.js";
import { account, onAccount } from "../accounts/session.js";

const KEY = (game) => `sequence.puzzles.${game}`;
const STEP = (game) => `sequence.tutorial.${game}.step`;
const DONE = (game) => `sequence.tutorial.${game}.done`;
const GAMES = ["classic", "stacks"];
const listeners = new Set();

function store(key, value) {
  try {
    localStorage.setItem(key, value);
  } catch {
    // storage full or refused: the page still says it
  }
}

/** The ids of the puzzles of `game` solved in this browser. */
export function solvedSet(game) {
  try {
    const list = JSON.parse(localStorage.getItem(KEY(game)) || "[]");
    return new Set(Array.isArray(list) ? list.filter((x) => typeof x === "string") : []);
  } catch {
    return new Set();
  }
}

/** Records puzzle `id` of `game` as solved (and in the account). */
export function markSolved(game, id) {
  const s = solvedSet(game);
  s.add(id);
  store(KEY(game), JSON.stringify([...s]));
  if (account()) send({ puzzles: { [game]: [id] } });
}

/** How far this browser went in the tutorial of `game`: `{step, done}`. */
export function tutorialProgress(game) {
  let step = 0;
  let done = false;
  try {
    step = Math.max(0, Number.parseInt(localStorage.getItem(STEP(game)) || "0", 10) || 0);
    done = localStorage.getItem(DONE(game)) === "1";
  } catch {
    // no storage: nothing kept
  }
  return { step, done };
}

/** Records that the learner reached `step` of the tutorial of `game`
 * (finished it with `done`); only ever moves forward. */
export function reachStep(game, step, done = false) {
  const p = tutorialProgress(game);
  if (step <= p.step && (!done || p.done)) return;
  const next = { step: Math.max(step, p.step), done: done || p.done };
  store(STEP(game), String(next.step));
  if (next.done) store(DONE(game), "1");
  if (account()) send({ tutorials: { [game]: next } });
}

/** Calls `f(changed)` when the account's merged progress arrived
 * (`changed`: it brought this browser something new); returns the
 * function that stops it. */
export function onProgress(f) {
  listeners.add(f);
  return () => listeners.delete(f);
}

/** Takes the account's merged progress into this browser (a union) and
 * tells the listeners whether it brought something new here. */
function adopt(p) {
  let changed = false;
  for (const [game, ids] of Object.entries((p && p.puzzles) || {})) {
    if (!Array.isArray(ids)) continue;
    const s = solvedSet(game);
    const before = s.size;
    ids.forEach((id) => s.add(id));
    if (s.size !== before) {
      store(KEY(game), JSON.stringify([...s]));
      changed = true;
    }
  }
  for (const [game, tp] of Object.entries((p && p.tutorials) || {})) {
    const mine = tutorialProgress(game);
    if (tp.step > mine.step) store(STEP(game), String(tp.step));
    if (tp.done && !mine.done) store(DONE(game), "1");
    changed = changed || tp.step > mine.step || (tp.done && !mine.done);
  }
  for (const f of listeners) f(changed);
}

async function send(body) {
  try {
    adopt(await request("POST", "/api/account/progress", body));
  } catch (e) {
    // a tutorial step the server does not know (a changed tutorial)
    // must not keep the puzzles from being merged
    if (e.status === 400 && body.tutorials && body.puzzles) await send({ puzzles: body.puzzles });
  }
}

/** Sends this browser's progress to the account and takes the merged
 * progress back. */
export function syncProgress() {
  const body = { puzzles: {}, tutorials: {} };
  for (const game of GAMES) {
    body.puzzles[game] = [...solvedSet(game)].slice(0, 1000);
    const tp = tutorialProgress(game);
    if (tp.step || tp.done) body.tutorials[game] = tp;
  }
  return send(body);
}

onAccount((me) => {
  if (me) syncProgress();
});
