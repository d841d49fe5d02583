// A practice table in this browser (docs/wasm.md "Practice in the
// browser"): a game against bots that runs entirely in the page, with the
// WebAssembly engine (web/wasm) as its server. It answers the table page's
// API calls (api.js sends the calls of a local table's id here) with the
// same JSON the server sends — the engine's views, the table info, the
// move log — so the table code (table.js, classic.js, stacks.js, …) is
// the same for both. Bots think in a Web Worker (worker.js); the table is
// saved in IndexedDB (store.js) after every move and taken up after a
// reload. A game is rebuilt from its record and `unwritten`, the moves made
// since its last entry that records do not write (the declines of a Stacks
// Block window still open, S5b; RECORD-STACKS.md), played on it. Two tabs
// may hold the same table: a move is saved only over the state it was made
// from (saveTableIf), and a tab whose save finds the other tab's move
// takes that game up (a move of the person is then refused as stale, as a
// server's table does); a BroadcastChannel tells the other tabs at once.
import { loadTable, saveTable, saveTableIf, updateTable } from "./store.js";

/** A local table's id: 24 hex digits (a server's has 16). */
export function isLocal(id) {
  return typeof id === "string" && /^[0-9a-f]{24}$/.test(id);
}

/** The seat token a local table's person holds (nothing checks it). */
export const LOCAL_TOKEN = "local";

/** Pause before a bot's move, in ms (a move you can follow; the browser
 * tests shorten it with `localStorage["sequence.botDelayMs"]`). */
function botDelayMs() {
  const v = Number(localStorage.getItem("sequence.botDelayMs"));
  return Number.isFinite(v) && v >= 0 && localStorage.getItem("sequence.botDelayMs") !== null ? v : 350;
}

let engine = null;
/** The engine module, loaded once. */
export function wasm() {
  if (!engine) {
    engine = import("../../wasm/sequence.js").then(async (m) => {
      await m.default();
      return m;
    });
  }
  return engine;
}

let worker = null;
let jobs = 0;
const waiting = new Map();
/** Asks the bots' worker; resolves with its answer. `onProgress(p)` gets
 * the progress reports of a long job (an analysis) before it. */
function think(msg, onProgress = null) {
  if (!worker) {
    worker = new Worker(new URL("./worker.js", import.meta.url), { type: "module" });
    worker.onmessage = (e) => {
      const w = waiting.get(e.data.id);
      if (!w) return;
      if (e.data.progress) {
        if (w.onProgress) w.onProgress(e.data.progress);
        return;
      }
      waiting.delete(e.data.id);
      w.resolve(e.data);
    };
  }
  const id = ++jobs;
  return new Promise((resolve) => {
    waiting.set(id, { resolve, onProgress });
    worker.postMessage({ id, ...msg });
  });
}

/** The search's iterations per position of an analysis: the server's
 * default (docs/api.md "Analysis"; the browser tests lower it with
 * `localStorage["sequence.analysisIterations"]`). */
function analysisIterations() {
  const v = Number(localStorage.getItem("sequence.analysisIterations"));
  return Number.isInteger(v) && v > 0 ? v : 1500;
}

/** An error as the server's API gives them (api.js ApiError's fields). */
function refusal(status, message, code = null, moveNumber = null) {
  const e = new Error(message);
  e.status = status;
  e.code = code;
  e.moveNumber = moveNumber;
  return e;
}

const seed53 = () => {
  const a = new Uint32Array(2);
  crypto.getRandomValues(a);
  return (a[0] & 0x1fffff) * 2 ** 32 + a[1];
};

/** Plays on `game` (rebuilt from its record) the moves made since the
 * record's last entry that it does not write (`unwritten`, record
 * entries with their seat: declined Blocks of an open window, S5b). */
function playUnwritten(game, unwritten) {
  for (const mv of unwritten || []) game.play(JSON.stringify(mv));
}

const tables = new Map(); // id -> LocalTable (loaded)

class LocalTable {
  constructor(saved, m) {
    this.s = saved; // what is saved: see create()
    this.m = m;
    this.subs = new Set();
    this.thinking = null;
    this.recordUrls = new Map();
    this.analysing = new Map(); // game number -> {done, total} of a running analysis
    this.start(true);
  }

  /** The engine's game of the saved state (a record, or a new deal). */
  start(resume) {
    const { spec } = this.s;
    if (resume && this.s.record) {
      // later reshuffles are drawn from a seed of this table and point
      const seed = (this.s.seed + this.s.accepted * 7919) % 2 ** 53;
      this.game = this.m.Game.fromRecord(this.s.record, seed);
      try {
        playUnwritten(this.game, this.s.unwritten);
      } catch {
        // they no longer fit the record: its seats are asked again
        this.game.free();
        this.game = this.m.Game.fromRecord(this.s.record, seed);
        this.s.unwritten = [];
      }
    } else {
      this.game = new this.m.Game(spec.game, spec.players, spec.teams || 0, JSON.stringify(spec.options || null), this.s.seed);
      this.s.record = this.game.record();
      this.s.unwritten = [];
    }
    this.teams = JSON.parse(this.game.seatTeams());
  }

  status() {
    return this.game.toAct() < 0 ? "over" : "playing";
  }

  info() {
    const { spec } = this.s;
    return {
      id: this.s.id,
      name: null,
      named_after: spec.name,
      game: spec.game,
      players: spec.players,
      // the engine's sides: team colours (classic), else null per seat
      teams: this.teams.some((team) => team !== null) ? new Set(this.teams).size : null,
      options: spec.options || {},
      status: this.status(),
      game_no: this.s.game_no,
      turn_seconds: null,
      deadline_ms: null,
      deadline_seat: null,
      private: true,
      local: true,
      started_ms: this.s.started_ms,
      ended_ms: this.s.ended_ms,
      now_ms: Date.now(),
      results: this.s.results,
      host: 0,
      seats: Array.from({ length: spec.players }, (_, s) => ({
        seat: s,
        name: s === 0 ? spec.name : null,
        kind: s === 0 ? "human" : "bot",
        level: s === 0 ? null : spec.bots[s] || "level:1",
        connected: true,
        team: this.teams[s],
        timed_out: false,
        timeouts: 0,
        away: false,
      })),
    };
  }

  /** The view of `seat` (null: a spectator's) as the server sends it. */
  view(seat) {
    const v = JSON.parse(this.game.view(seat === null || seat === undefined ? -1 : seat));
    v.move_number = this.s.accepted;
    v.log = this.s.log.slice(-50);
    v.log_size = this.s.log.length;
    if (this.status() === "over") v.final_sides = JSON.parse(this.game.finalSides());
    v.table = this.info();
    return v;
  }

  subscribe(f) {
    this.subs.add(f);
    f({ type: "welcome", seat: 0 });
    f({ type: "view", view: this.view(0) });
    this.botTurn();
    return () => this.subs.delete(f);
  }

  push() {
    const msg = { type: "view", view: this.view(0) };
    for (const f of this.subs) f(msg);
  }

  /** Tells the page of an error of the engine in it (a bot's move, an
   * analysis, taking up another tab's game). */
  fail(e) {
    for (const f of this.subs) f({ type: "error", status: 500, error: String((e && e.message) || e) });
  }

  async save() {
    this.s.record = this.game.record();
    this.recordUrls.clear();
    await saveTable(this.s);
  }

  /** Saves a change made from move `accepted` of game `gameNo` (default:
   * this game); false (and the saved table taken up instead) when another
   * tab saved one first. The other tabs are told of a saved change. */
  async saveOver(accepted, gameNo = this.s.game_no) {
    this.s.record = this.game.record();
    this.recordUrls.clear();
    if (await saveTableIf(this.s, accepted, gameNo)) {
      told().postMessage({ id: this.s.id, accepted: this.s.accepted, game_no: this.s.game_no });
      return true;
    }
    await this.takeUp();
    return false;
  }

  /** Takes up the saved state (another tab moved) and shows it; its bots
   * play on here only while a page shows the table (a tab that left it
   * for the lobby leaves them to the others). */
  async takeUp() {
    const saved = await loadTable(this.s.id);
    if (!saved) return;
    this.game.free();
    this.s = saved;
    this.recordUrls.clear();
    this.thinking = null;
    this.start(true);
    this.push();
    if (this.subs.size) this.botTurn();
  }

  /** Plays `move` (a record entry with its seat) and logs it as the
   * server's table does: the entry with what the move did (sequences
   * made, chips taken, …), `i` (its index) and `n` (the move number after
   * it), and the fields it gives the entry before (a Block window closed). */
  apply(move) {
    let logged;
    try {
      logged = JSON.parse(this.game.play(JSON.stringify(move)));
    } catch (e) {
      const code = e.code || null;
      throw refusal(code && code.startsWith("notation.") ? 400 : 422, e.message, code, this.s.accepted);
    }
    this.s.accepted += 1;
    const last = this.s.log[this.s.log.length - 1];
    if (last && logged.previous) Object.assign(last, logged.previous);
    if (logged.entry) this.s.log.push({ ...logged.entry, i: this.s.log.length, n: this.s.accepted });
    // a declined Block is not written: kept until the next written move
    this.s.unwritten = logged.entry ? [] : [...(this.s.unwritten || []), move];
    if (this.status() === "over" && !this.s.ended_ms) {
      this.s.ended_ms = Date.now();
      this.s.results.push(JSON.parse(this.game.outcome()).winner);
    }
  }

  async move(moveNumber, move) {
    if (this.status() !== "playing") throw refusal(409, "the game is not being played", null, this.s.accepted);
    if (moveNumber !== this.s.accepted) {
      throw refusal(409, `stale move_number ${moveNumber}: the game is at move_number ${this.s.accepted}`, null, this.s.accepted);
    }
    if (this.game.toAct() !== 0) throw refusal(409, "not your turn", null, this.s.accepted);
    const before = this.s.accepted;
    this.apply({ ...move, seat: 0 });
    if (!(await this.saveOver(before))) {
      throw refusal(409, `another tab moved first: the game is at move_number ${this.s.accepted}`, null, this.s.accepted);
    }
    this.push();
    this.botTurn();
    return this.view(0);
  }

  /** When a bot is to decide: its move, thought in the worker. */
  botTurn() {
    const seat = this.game.toAct();
    if (seat <= 0 || this.thinking !== null) return;
    const at = this.s.accepted;
    const gameNo = this.s.game_no;
    const job = {};
    this.thinking = job;
    const level = this.s.spec.bots[seat] || "level:1";
    const seed = (this.s.seed * 31 + at * 1_000_003) % 2 ** 53;
    const started = Date.now();
    think({ record: this.game.record(), unwritten: this.s.unwritten || [], seat, level, seed }).then(async (r) => {
      await new Promise((ok) => setTimeout(ok, Math.max(0, botDelayMs() - (Date.now() - started))));
      if (this.thinking === job) this.thinking = null;
      // the game moved meanwhile (another tab's move taken up)
      if (this.s.accepted !== at || this.s.game_no !== gameNo || this.game.toAct() !== seat) return;
      if (r.error || !r.move) throw new Error(r.error || "the bot found no move");
      this.apply(r.move);
      if (!(await this.saveOver(at))) return;
      this.push();
      this.botTurn();
    }).catch((e) => {
      if (this.thinking === job) this.thinking = null;
      this.fail(e);
    });
  }

  async hint() {
    if (this.game.toAct() !== 0) return { moves: [] };
    const r = await think({ hint: true, record: this.game.record(), unwritten: this.s.unwritten || [], seat: 0, iterations: 4000, top: 5, seed: seed53() });
    if (r.error) throw refusal(500, r.error);
    return r.hint;
  }

  async rematch() {
    if (this.status() !== "over") throw refusal(409, "the game is not over");
    const [accepted, gameNo] = [this.s.accepted, this.s.game_no];
    this.game.free();
    this.s.old_logs = [...(this.s.old_logs || []), this.s.log];
    this.s.old_times = [...(this.s.old_times || []), [this.s.started_ms, this.s.ended_ms]];
    this.s.seed = seed53();
    this.s.game_no += 1;
    this.s.accepted = 0;
    this.s.log = [];
    this.s.started_ms = Date.now();
    this.s.ended_ms = null;
    this.s.old_records = [...(this.s.old_records || []), this.s.record];
    this.start(false);
    // another tab may have started the next game first: that one is kept
    if (await this.saveOver(accepted, gameNo)) {
      this.push();
      this.botTurn();
    }
    return this.info();
  }

  /** The record of game `n` (this game when not given). */
  record(n) {
    if (n && n !== this.s.game_no) return (this.s.old_records || [])[n - 1] || null;
    return this.game.record();
  }

  /** Game `n` (default: this one) if it is over: its number, record,
   * log and times; a refusal as the server's (404 no such game, 403 not
   * over: its hidden cards stay hidden until then). */
  finished(n) {
    const no = n || this.s.game_no;
    if (!Number.isInteger(no) || no < 1 || no > this.s.game_no) throw refusal(404, `no game ${no} at this table`);
    if (no === this.s.game_no) {
      if (this.status() !== "over") throw refusal(403, "the game is not over: its replay and analysis open once it ends (hidden cards stay hidden until then)");
      return { no, record: this.game.record(), log: this.s.log, times: [this.s.started_ms, this.s.ended_ms] };
    }
    const record = (this.s.old_records || [])[no - 1];
    if (!record) throw refusal(404, `no game ${no} at this table`);
    return { no, record, log: (this.s.old_logs || [])[no - 1] || [], times: (this.s.old_times || [])[no - 1] || [null, null] };
  }

  /** GET /api/tables/{id}/replay of a game in this browser: every
   * position replayed by the engine in the page, as the server answers. */
  replay(n) {
    const g = this.finished(n);
    let replayed;
    try {
      replayed = JSON.parse(this.m.replay(g.record));
    } catch (e) {
      throw refusal(500, `the record of game ${g.no} does not replay: ${e.message}`);
    }
    const record = JSON.parse(g.record);
    return {
      game: this.s.spec.game,
      game_no: g.no,
      table: this.info(),
      result: record.result,
      dealer: record.dealer,
      started_ms: g.times[0],
      ended_ms: g.times[1],
      log: g.log,
      positions: replayed.positions,
      extras: replayed.extras,
      analysis: (this.s.analyses || {})[g.no] || null,
      progress: this.progress(g.no),
    };
  }

  /** Where the analysis of game `n` stands while it runs, or null. */
  progress(n) {
    const p = this.analysing.get(n);
    return p ? { status: p.total ? "running" : "queued", done: p.done, total: p.total } : null;
  }

  /** GET /api/tables/{id}/analysis: the stored analysis of game `n`,
   * where a running one stands, or `none`. */
  analysis(n) {
    const no = n || this.s.game_no;
    if (no > this.s.game_no) throw refusal(404, `no game ${no} at this table`);
    const done = (this.s.analyses || {})[no];
    if (done) return { status: "done", game_no: no, analysis: done };
    return { ...(this.progress(no) || { status: "none" }), game_no: no };
  }

  /** POST /api/tables/{id}/analysis: analyses finished game `n` in the
   * bots' worker (the server's analysis, with the engine in the page), a
   * position at a time, and keeps it with the table. */
  analyse(n) {
    const g = this.finished(n);
    const stored = this.analysis(g.no);
    if (stored.status !== "none") return stored;
    const p = { done: 0, total: null };
    this.analysing.set(g.no, p);
    const seed = (this.s.seed * 7 + g.no) % 2 ** 53;
    const iterations = analysisIterations();
    think({ analyse: true, record: g.record, iterations, seed }, (q) => Object.assign(p, q)).then(async (r) => {
      this.analysing.delete(g.no);
      if (r.error) throw new Error(r.error);
      this.s.analyses = { ...(this.s.analyses || {}), [g.no]: r.analysis };
      // only the analysis: the saved game may be another tab's by now
      await updateTable(this.s.id, (saved) => {
        saved.analyses = { ...(saved.analyses || {}), [g.no]: r.analysis };
      });
    }).catch((e) => {
      this.analysing.delete(g.no);
      this.fail(e);
    });
    return { status: "queued", game_no: g.no, done: 0, total: null, iterations };
  }

  /** A `blob:` URL of game `n`'s record, for a download link. */
  recordUrl(n) {
    const text = this.record(n);
    if (!text) return "#";
    if (!this.recordUrls.has(text)) this.recordUrls.set(text, URL.createObjectURL(new Blob([text], { type: "application/json" })));
    return this.recordUrls.get(text);
  }
}

let channel = null;
/** The channel on which tabs tell each other of a saved move
 * (`{id, accepted, game_no}`); a tab holding that table behind takes it
 * up. */
function told() {
  if (!channel) {
    channel = typeof BroadcastChannel === "function" ? new BroadcastChannel("sequence-practice") : { postMessage() {} };
    channel.onmessage = (e) => {
      const t = tables.get(e.data && e.data.id);
      if (t && (t.s.accepted !== e.data.accepted || t.s.game_no !== e.data.game_no)) t.takeUp().catch((err) => t.fail(err));
    };
  }
  return channel;
}

/** The local table `id`, loaded from IndexedDB once. */
export async function table(id) {
  if (tables.has(id)) return tables.get(id);
  const [saved, m] = await Promise.all([loadTable(id), wasm()]);
  if (!saved) throw refusal(404, `no table ${id}`);
  if (!tables.has(id)) tables.set(id, new LocalTable(saved, m));
  told();
  return tables.get(id);
}

/** The table already loaded (for synchronous callers), or null. */
export function loaded(id) {
  return tables.get(id) || null;
}

/**
 * A new local practice table from the lobby's request (`game`, `players`,
 * `teams`, `options`, `name`, `bots: [{seat, level}]`, every other seat a
 * bot): `{table, seat: 0, token}` as POST /api/tables answers.
 */
export async function create(req) {
  const m = await wasm();
  const a = new Uint8Array(12);
  crypto.getRandomValues(a);
  const id = Array.from(a, (b) => b.toString(16).padStart(2, "0")).join("");
  const bots = {};
  for (const b of req.bots || []) bots[b.seat] = b.level;
  for (let s = 1; s < req.players; s++) if (!bots[s]) throw refusal(400, `seat ${s} must be a bot in a game in this browser`);
  const saved = {
    id,
    spec: { game: req.game, players: req.players, teams: req.teams || null, options: req.options || null, name: req.name, bots },
    seed: seed53(),
    record: null,
    log: [],
    accepted: 0,
    game_no: 1,
    results: [],
    started_ms: Date.now(),
    ended_ms: null,
    created_ms: Date.now(),
  };
  let t;
  try {
    t = new LocalTable(saved, m);
  } catch (e) {
    throw refusal(400, e.message, e.code || null);
  }
  await t.save();
  tables.set(id, t);
  told();
  return { table: id, seat: 0, token: LOCAL_TOKEN };
}

/** The WebSocket of a local table: the table pushes its views to it. */
export class LocalSocket {
  constructor(id, token, handlers) {
    this.h = handlers;
    this.stopped = false;
    this.h.onState("open");
    table(id).then((t) => {
      if (this.stopped) return;
      this.off = t.subscribe((msg) => {
        if (!this.stopped) this.h.onMessage(msg);
      });
    }, (e) => this.h.onMessage({ type: "error", status: e.status || 500, error: e.message }));
  }

  /** Chat and reactions come straight back (there is no one else). */
  send(msg) {
    if (msg.type === "chat") this.h.onMessage({ type: "chat", seat: 0, text: msg.text, ms: Date.now() });
    else if (msg.type === "reaction") this.h.onMessage({ type: "reaction", seat: 0, reaction: msg.reaction, ms: Date.now() });
    return true;
  }

  close() {
    this.stopped = true;
    if (this.off) this.off();
  }
}
