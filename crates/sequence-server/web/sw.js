// The service worker (docs/wasm.md "Offline and install"): it keeps the
// app shell — the page, its scripts, styles, translations, fonts, icons,
// the WebAssembly engine and the games' catalogue (GET /api/games) — in a
// cache named after the version the server lists in /precache.json, so
// that practice games in the browser, the rules help and the tutorial's
// pages open with no network. The server's API (tables, moves, accounts)
// always goes to the network. A new version is fetched only when the
// page asks (its update prompt, js/pwa.js): a game in progress never
// changes code under its feet.
const PREFIX = "sequence-";

async function listed() {
  const r = await fetch("/precache.json", { cache: "no-store" });
  if (!r.ok) throw new Error(`precache.json: HTTP ${r.status}`);
  return r.json();
}

/** Fills the cache of the version the server lists now; its name. */
async function fill() {
  const list = await listed();
  const name = PREFIX + list.version;
  const cache = await caches.open(name);
  await cache.addAll(list.files.map((f) => new Request(f, { cache: "no-store" })));
  await cache.put("/__complete", new Response(list.version));
  return name;
}

/** Keeps only the cache `name` (the newest complete one). */
async function prune(name) {
  for (const k of await caches.keys()) if (k.startsWith(PREFIX) && k !== name) await caches.delete(k);
}

/** The newest complete cache, or null. */
async function current() {
  for (const k of (await caches.keys()).reverse()) {
    if (k.startsWith(PREFIX) && (await (await caches.open(k)).match("/__complete"))) return k;
  }
  return null;
}

self.addEventListener("install", (e) => {
  e.waitUntil((async () => {
    if (!(await current())) await fill();
    await self.skipWaiting();
  })());
});

self.addEventListener("activate", (e) => {
  e.waitUntil(self.clients.claim());
});

self.addEventListener("message", (e) => {
  if (e.data && e.data.type === "update") {
    e.waitUntil((async () => {
      try {
        const name = await fill();
        await prune(name);
        e.source.postMessage({ type: "updated", version: name.slice(PREFIX.length) });
      } catch (err) {
        e.source.postMessage({ type: "update-failed", error: String(err) });
      }
    })());
  }
});

async function fromCache(request, key) {
  const name = await current();
  if (!name) return null;
  return (await caches.open(name)).match(key || request, { ignoreSearch: true });
}

self.addEventListener("fetch", (e) => {
  const url = new URL(e.request.url);
  if (e.request.method !== "GET" || url.origin !== self.location.origin) return;
  const path = url.pathname;
  if (path === "/precache.json" || path === "/sw.js") return;
  if (path === "/api/games") {
    // the catalogue: fresh when the server answers, else the cached one
    e.respondWith(fetch(e.request).catch(async () => (await fromCache(e.request)) || Response.error()));
    return;
  }
  if (path.startsWith("/api/") || path.startsWith("/metrics")) return;
  if (e.request.mode === "navigate") {
    e.respondWith((async () => (await fromCache(e.request, "/index.html")) || fetch(e.request))());
    return;
  }
  e.respondWith((async () => (await fromCache(e.request)) || fetch(e.request))());
});
