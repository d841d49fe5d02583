// The game server's HTTP + WebSocket API (docs/api.md), and the seat tokens
// kept in the browser's storage so that a reload keeps the seat. A practice
// table in this browser (practice/local.js) answers the same calls itself.
import * as local from "./practice/local.js";

/** An API failure: `status` is the HTTP status (0 when the server could not
 * be reached), `message` the server's `error` text and `code` the stable
 * code of a refused move (`C6.space_taken`), which the page translates. */
export class ApiError extends Error {
  constructor(status, message, code = null, moveNumber = null) {
    super(message);
    this.status = status;
    this.code = code;
    // a move refused for another position: the table's move_number now
    this.moveNumber = moveNumber;
  }
}

let csrf = null; // the signed-in session's CSRF token (null: a guest)

/** Sets the CSRF token of the signed-in session (docs/api.md "Accounts"):
 * every change made while signed in carries it; null when signed out. */
export function setCsrf(token) {
  csrf = token || null;
}

async function call(method, path, body, token) {
  const headers = {};
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers.Authorization = `Bearer ${token}`;
  if (csrf && method !== "GET") headers["X-CSRF-Token"] = csrf;
  let res;
  try {
    res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch (e) {
    throw new ApiError(0, String(e && e.message ? e.message : e));
  }
  const text = await res.text();
  let data = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = null;
  }
  if (!res.ok) {
    // not the API's JSON (an HTML error page of a static host or a proxy):
    // said in the page's language (errors.js), never shown raw
    if (data === null && text) throw new ApiError(res.status, `HTTP ${res.status}: not the game server's answer`, "http.not_api");
    const moveNumber = data && typeof data.move_number === "number" ? data.move_number : null;
    throw new ApiError(res.status, (data && data.error) || text || `HTTP ${res.status}`, (data && data.code) || null, moveNumber);
  }
  return data;
}

let catalogueOnce = null;
/** The games' catalogue (GET /api/games, docs/api.md), read once per page
 * (again after a failure): a promise. */
export function catalogue() {
  if (!catalogueOnce) {
    catalogueOnce = call("GET", "/api/games").catch((e) => {
      catalogueOnce = null;
      throw e;
    });
  }
  return catalogueOnce;
}

/** Whether the page comes from a static build (`sequence export-static`,
 * docs/deploy.md "A static build": its catalogue says `"static": true`):
 * no server, so no accounts, tutorials or tables with friends. A promise;
 * false when the catalogue cannot be read. */
export function isStaticBuild() {
  return catalogue().then((c) => Boolean(c && c.static === true), () => false);
}

/** A request to the API (`call` for other modules: accounts, profiles). */
export function request(method, path, body) {
  return call(method, path, body);
}

const server = {
  listTables: () => call("GET", "/api/tables"),
  table: (id) => call("GET", `/api/tables/${encodeURIComponent(id)}`),
  create: (req) => call("POST", "/api/tables", req),
  join: (id, name, seat) => call("POST", `/api/tables/${encodeURIComponent(id)}/join`, seat === undefined ? { name } : { name, seat }),
  leave: (id, token) => call("POST", `/api/tables/${encodeURIComponent(id)}/leave`, {}, token),
  view: (id, token) => call("GET", `/api/tables/${encodeURIComponent(id)}/view`, undefined, token),
  move: (id, token, moveNumber, move) => call("POST", `/api/tables/${encodeURIComponent(id)}/moves`, { move_number: moveNumber, move }, token),
  bot: (id, token, seat, level) => call("POST", `/api/tables/${encodeURIComponent(id)}/seats/${seat}/bot`, { level }, token),
  rematch: (id, token) => call("POST", `/api/tables/${encodeURIComponent(id)}/rematch`, {}, token),
  back: (id, token) => call("POST", `/api/tables/${encodeURIComponent(id)}/back`, {}, token),
  hint: (id, token) => call("POST", `/api/tables/${encodeURIComponent(id)}/hint`, {}, token),
  penalty: (id, token, team) => call("POST", `/api/tables/${encodeURIComponent(id)}/penalty`, { team }, token),
  games: () => catalogue(),
  log: (id, gameNo) => call("GET", `/api/tables/${encodeURIComponent(id)}/log${gameNo ? `?game=${gameNo}` : ""}`),
  replay: (id, gameNo) => call("GET", `/api/tables/${encodeURIComponent(id)}/replay${gameNo ? `?game=${gameNo}` : ""}`),
  analysis: (id, gameNo) => call("GET", `/api/tables/${encodeURIComponent(id)}/analysis?game=${gameNo}`),
  analyse: (id, gameNo, body) => call("POST", `/api/tables/${encodeURIComponent(id)}/analysis?game=${gameNo}`, body || {}),
  recordUrl: (id, gameNo) => `/api/tables/${encodeURIComponent(id)}/record${gameNo ? `?game=${gameNo}` : ""}`,
};

/** The API of a practice table in this browser (practice/local.js): the
 * same calls, answered by the engine in the page. */
const localApi = {
  table: async (id) => (await local.table(id)).info(),
  view: async (id) => (await local.table(id)).view(0),
  move: async (id, token, moveNumber, move) => (await local.table(id)).move(moveNumber, move),
  hint: async (id) => (await local.table(id)).hint(),
  rematch: async (id) => (await local.table(id)).rematch(),
  leave: async (id) => (await local.table(id)).info(),
  back: async () => ({}),
  log: async (id, gameNo) => {
    const t = await local.table(id);
    const n = gameNo || t.s.game_no;
    return { game_no: n, log: n === t.s.game_no ? t.s.log : (t.s.old_logs || [])[n - 1] || [] };
  },
  replay: async (id, gameNo) => (await local.table(id)).replay(gameNo),
  analysis: async (id, gameNo) => (await local.table(id)).analysis(gameNo),
  analyse: async (id, gameNo) => (await local.table(id)).analyse(gameNo),
};

/** The table calls go to the server, or for a local table's id (24 hex
 * digits) to the engine in the page; creating a table goes to the page
 * when the request says `local` (every other seat a bot). */
export const api = new Proxy(server, {
  get(target, name) {
    if (name === "create") return (req) => (req.local ? local.create(req) : target.create(req));
    if (name === "replayUrl") {
      // a game in this browser: a query (any static host serves `/`)
      return (id, gameNo) => (local.isLocal(id) ? `/?replay=${id}&game=${gameNo}` : `/replay/${encodeURIComponent(id)}?game=${gameNo}`);
    }
    if (name === "recordUrl") {
      return (id, gameNo) => {
        if (!local.isLocal(id)) return target.recordUrl(id, gameNo);
        const t = local.loaded(id);
        return t ? t.recordUrl(gameNo) : "#";
      };
    }
    if (name in localApi) {
      return (id, ...rest) => (local.isLocal(id) ? localApi[name](id, ...rest) : target[name](id, ...rest));
    }
    return target[name];
  },
});

const SEAT_KEY = (id) => `sequence.seat.${id}`;

/** The saved seat of table `id`: `{seat, token}` or null. */
export function savedSeat(id) {
  try {
    const v = JSON.parse(localStorage.getItem(SEAT_KEY(id)) || "null");
    return v && typeof v.token === "string" ? v : null;
  } catch {
    return null;
  }
}

export function saveSeat(id, seat, token) {
  localStorage.setItem(SEAT_KEY(id), JSON.stringify({ seat, token }));
}

/** Every saved seat: `[{table, token}]` (sent to claim them for an account). */
export function savedSeats() {
  const out = [];
  for (let i = 0; i < localStorage.length; i++) {
    const k = localStorage.key(i);
    const m = k && /^sequence\.seat\.([0-9a-f]{16})$/.exec(k);
    const v = m && savedSeat(m[1]);
    if (v) out.push({ table: m[1], token: v.token });
  }
  return out;
}

export function forgetSeat(id) {
  localStorage.removeItem(SEAT_KEY(id));
}

/** The player's name as last typed. */
export function savedName() {
  return localStorage.getItem("sequence.name") || "";
}

export function saveName(name) {
  localStorage.setItem("sequence.name", name);
}

/** Names and chat come HTML-escaped from the server (docs/api.md); this
 * turns them back into plain text for `textContent`. */
export function unescapeText(s) {
  if (s === null || s === undefined) return "";
  return String(s)
    .replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'").replace(/&amp;/g, "&");
}

/**
 * A WebSocket to table `id` that says hello with `token` (null: spectator)
 * and reconnects with back-off. `handlers`: onMessage(msg), onState(state)
 * with state "connecting" | "open" | "lost" | "closed".
 */
export class TableSocket {
  constructor(id, token, handlers) {
    // a practice table in this browser: its views come from the page
    if (local.isLocal(id)) return new local.LocalSocket(id, token, handlers);
    this.id = id;
    this.token = token;
    this.h = handlers;
    this.retry = 0;
    this.stopped = false;
    this.open();
  }

  open() {
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    this.h.onState("connecting");
    let ws;
    try {
      ws = new WebSocket(`${proto}//${location.host}/api/tables/${encodeURIComponent(this.id)}/ws`);
    } catch {
      this.later();
      return;
    }
    this.ws = ws;
    ws.onopen = () => {
      this.retry = 0;
      ws.send(JSON.stringify({ type: "hello", token: this.token }));
      this.h.onState("open");
      clearInterval(this.pinger);
      this.pinger = setInterval(() => this.send({ type: "ping" }), 25000);
    };
    ws.onmessage = (e) => {
      let msg;
      try {
        msg = JSON.parse(e.data);
      } catch {
        return;
      }
      this.h.onMessage(msg);
    };
    ws.onclose = (e) => {
      clearInterval(this.pinger);
      if (this.stopped) return;
      if (e.code === 1008 && this.fatal) {
        this.h.onState("closed");
        return;
      }
      this.h.onState("lost");
      this.later();
    };
  }

  later() {
    if (this.stopped) return;
    const wait = Math.min(10000, 500 * 2 ** this.retry++);
    this.timer = setTimeout(() => this.open(), wait);
  }

  send(msg) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) {
      this.ws.send(JSON.stringify(msg));
      return true;
    }
    return false;
  }

  close() {
    this.stopped = true;
    clearTimeout(this.timer);
    clearInterval(this.pinger);
    if (this.ws) this.ws.close();
  }
}
