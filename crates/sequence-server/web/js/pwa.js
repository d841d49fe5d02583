// The installable app (docs/wasm.md "Offline and install"): registers the
// service worker (/sw.js), and when the server lists a newer version than
// the one cached, shows an update prompt; "Update" fetches the new
// version into the cache and reloads the page.
import { t } from "./i18n.js";
import { h } from "./cards.js";

const PREFIX = "sequence-";

/** The version in the cache now, or null. */
async function cachedVersion() {
  if (!("caches" in self)) return null;
  for (const k of (await caches.keys()).reverse()) {
    if (k.startsWith(PREFIX) && (await (await caches.open(k)).match("/__complete"))) return k.slice(PREFIX.length);
  }
  return null;
}

function prompt(worker) {
  if (document.getElementById("update")) return;
  const button = h("button", { type: "button", class: "primary small", id: "update-now" }, t("app.update"));
  const box = h("div", { class: "update-prompt", id: "update", role: "status" }, h("span", {}, t("app.update_ready")), " ", button);
  button.addEventListener("click", () => {
    button.disabled = true;
    navigator.serviceWorker.addEventListener("message", (e) => {
      if (e.data && e.data.type === "updated") location.reload();
      if (e.data && e.data.type === "update-failed") button.disabled = false;
    });
    worker.postMessage({ type: "update" });
  });
  document.body.append(box);
}

/** Registers the service worker and checks once for a newer version. */
export async function startApp() {
  if (!("serviceWorker" in navigator)) return;
  let reg;
  try {
    reg = await navigator.serviceWorker.register("/sw.js", { scope: "/" });
  } catch {
    return; // a page served without a service worker still works online
  }
  await navigator.serviceWorker.ready;
  try {
    const r = await fetch("/precache.json", { cache: "no-store" });
    const latest = (await r.json()).version;
    const have = await cachedVersion();
    const worker = reg.active || navigator.serviceWorker.controller;
    if (have && latest && have !== latest && worker) prompt(worker);
  } catch {
    // offline: the cached version it is
  }
}
