// Entry point: language, the banner for errors, and routing between the
// lobby (`/`), a table (`/?table=ID`, the invite link), the replay of a
// finished game (`/replay/ID?game=N`), the rules help (`/?learn=GAME`), a
// tutorial (`/?tutorial=GAME`: resumed, or a new tutorial table), the
// puzzles (`/?puzzles=GAME[&id=ID]`) and the
// account pages (`/account`, `/u/NAME`, `/games`, `/leaderboard`).
import { setLanguage, preferredLanguage, language, t } from "./i18n.js";
import { showLobby } from "./lobby.js";
import { showTable, noSuchTable } from "./table.js";
import { showReplay, showNoSuchReplay } from "./replay.js";
import { showRules } from "./learn/rules.js";
import { openTutorial, TUTORIAL_GAMES } from "./learn/tutorial.js";
import { showPuzzles, isPuzzleGame } from "./learn/puzzles.js";
import { accountRoute, accountHeader } from "./accounts/pages.js";
import { startApp } from "./pwa.js";
import { isStaticBuild } from "./api.js";
import { refusalText } from "./errors.js";

let current = null; // the page shown now: { stop(), rerender() }

let bannerTimer = null;

/** Shows `text` in the banner at the top (role=alert); `kind` is "error"
 * or "info". An empty text hides it; with `hideAfterMs` it hides itself
 * then (unless another text replaced it meanwhile). */
export function banner(text, kind = "error", hideAfterMs = 0) {
  const b = document.getElementById("banner");
  clearTimeout(bannerTimer);
  if (hideAfterMs > 0) bannerTimer = setTimeout(() => banner(""), hideAfterMs);
  if (!text) {
    b.hidden = true;
    b.textContent = "";
    return;
  }
  b.className = `banner ${kind}`;
  b.textContent = text;
  b.hidden = false;
}

/** Sets the connection status text in the header. */
export function connection(state) {
  const el = document.getElementById("conn");
  el.dataset.state = state || "";
  // While the server is out of reach, what the page shows may be stale.
  document.body.classList.toggle("offline", state === "lost" || state === "closed");
  el.textContent = state ? t(`conn.${state}`) : "";
}

/** Goes to the lobby or to table `id`. */
export function navigate(id) {
  go(id ? `/?table=${encodeURIComponent(id)}` : "/");
}

/** Goes to the lobby set for a new practice game (`/?practice=1`: every
 * other seat a bot, played in this browser). */
export function newPractice() {
  go("/?practice=1");
}

function go(url) {
  if (location.pathname + location.search !== url) history.pushState(null, "", url);
  route();
}

/** Whether `id` has the shape of a table's (or its games') id: hex. */
const isId = (id) => /^[0-9a-f]{1,64}$/.test(id);

function route() {
  if (current) current.stop();
  banner("");
  connection("");
  const app = document.getElementById("app");
  const params = new URLSearchParams(location.search);
  // a finished game's replay: `/replay/ID`, or `/?replay=ID` (a game in
  // this browser, which a static host serves)
  const replay = /^\/replay\/([^/]*)$/.exec(location.pathname);
  const replayId = replay ? replay[1] : params.get("replay");
  if (replayId !== null) {
    if (isId(replayId)) {
      const game = Number(params.get("game"));
      current = showReplay(app, replayId, Number.isInteger(game) && game > 0 ? game : null);
    } else {
      // a game id is hex: a mistyped one is no game
      current = showNoSuchReplay(app);
    }
    return;
  }
  const page = accountRoute(app, location.pathname, params);
  if (page) {
    current = page;
    return;
  }
  const learn = params.get("learn");
  if (learn === "classic" || learn === "stacks") {
    current = showRules(app, learn);
    return;
  }
  const puzzles = params.get("puzzles");
  if (isPuzzleGame(puzzles)) {
    current = showPuzzles(app, puzzles, params.get("id"));
    return;
  }
  const tutorial = params.get("tutorial");
  if (TUTORIAL_GAMES.includes(tutorial)) {
    const waiting = { stop() {} };
    current = waiting;
    // a static build has no server to deal the tutorial's game
    isStaticBuild().then((only) => {
      if (current !== waiting) return; // the person went elsewhere meanwhile
      if (only) {
        history.replaceState(null, "", "/");
        current = showLobby(app);
        banner(t("static.no_server"), "info");
      } else {
        openTutorial(tutorial).catch((e) => banner(e.status === 0 ? t("error.unreachable") : refusalText(e)));
      }
    });
    return;
  }
  const id = params.get("table");
  if (id !== null && !isId(id)) {
    // a table id is hex: a mistyped invite link is no table
    const missing = () => app.replaceChildren(noSuchTable());
    missing();
    current = { stop() {}, rerender: missing };
    return;
  }
  current = id ? showTable(app, id) : showLobby(app, { practice: params.get("practice") === "1" });
}

function applyStatic() {
  connection(document.getElementById("conn").dataset.state || "");
  document.title = t("app.title");
  document.getElementById("brand").textContent = t("app.title");
  document.getElementById("lang-label").textContent = t("lang.label");
  document.getElementById("lang").value = language();
  // a static build has no accounts (docs/deploy.md)
  isStaticBuild().then((only) => {
    if (!only) accountHeader();
  });
}

async function start() {
  await setLanguage(preferredLanguage());
  applyStatic();
  document.getElementById("lang").addEventListener("change", async (e) => {
    await setLanguage(e.target.value, true);
    applyStatic();
    if (current && current.rerender) current.rerender();
  });
  document.getElementById("brand").addEventListener("click", (e) => {
    e.preventDefault();
    navigate(null);
  });
  window.addEventListener("popstate", route);
  route();
  // the installable app: offline cache and update prompt (pwa.js)
  startApp();
}

start().catch((e) => {
  document.getElementById("app").textContent = `Sequence could not start: ${e.message}`;
});
