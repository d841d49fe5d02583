// The account pages and their routes: `/account` (sign in or up, with a
// password or a passkey; signed in: passkeys, password, sign out, delete,
// download), `/u/NAME` (a profile),
// `/games` (my games, filtered), `/leaderboard/KIND`; and the header's
// link to the account. Each page is { stop(), rerender() } as main.js
// expects.
import { h } from "../cards.js";
import { refusalText } from "../errors.js";
import { language, SEP, t } from "../i18n.js";
import { isStaticBuild } from "../api.js";
import { at, loadAccountText } from "./text.js";
import { account, accountReady, onAccount, refreshAccount, signInOrUp, signOut, changePassword, deleteAccount } from "./session.js";
import { showProfile } from "./profile.js";
import { showGames, showLeaderboard } from "./lists.js";
import { passkeySignIn, passkeySection } from "./passkeys.js";

/** The page of `path` if it is an account page (else null). */
export function accountRoute(app, path, params) {
  let m;
  if (path === "/account") return page(app, accountPage);
  if ((m = /^\/u\/([^/]+)$/.exec(path))) return page(app, (el) => showProfile(el, decodeURIComponent(m[1]), params.get("vs")));
  if (path === "/games") return page(app, (el) => showGames(el, params));
  if (path === "/leaderboard") return page(app, (el) => showLeaderboard(el, "classic-1v1"));
  if ((m = /^\/leaderboard\/([a-z0-9-]+)$/.exec(path))) return page(app, (el) => showLeaderboard(el, m[1]));
  return null;
}

/** A page drawn by `draw(el)` once the words are loaded and the server
 * has said who is signed in, again on a change of language. */
function page(app, draw) {
  let stopped = false;
  const render = () =>
    Promise.all([loadAccountText(), accountReady(), isStaticBuild()]).then(([, , only]) => {
      if (stopped) return;
      app.replaceChildren();
      // a static build has no accounts (docs/deploy.md); its service
      // worker still answers these addresses with the app
      if (only) app.append(h("section", { class: "acc-page", id: "acc-static" }, h("p", {}, t("static.no_server"))));
      else draw(app);
    });
  render();
  return {
    stop() {
      stopped = true;
    },
    rerender: render,
  };
}

/** Puts the account link in the header (the account's name, or "Sign
 * in"; either opens `/account`, whose first link is the profile) and
 * keeps it up to date. */
export function accountHeader() {
  const right = document.querySelector(".top-right");
  if (!right) return;
  let link = document.getElementById("account-link");
  if (!link) {
    link = h("a", { id: "account-link", class: "account-link", href: "/account" });
    right.prepend(link);
    onAccount(() => accountHeader());
    refreshAccount();
  }
  loadAccountText().then(() => {
    const me = account();
    link.textContent = me ? me.name : at("acc.sign_in");
    link.href = "/account";
  });
}

/** A form of labelled inputs: `fields` = [[id, label key, type]]; `go`
 * gets the values; its answer or refusal is shown under the form. */
function form(id, title, fields, button, go) {
  const note = h("p", { class: "acc-note", id: `${id}-note`, role: "status" });
  const inputs = fields.map(([fid, label, type]) => [
    fid,
    h("input", { id: fid, name: fid, type, autocomplete: type === "password" ? (fid.includes("new") ? "new-password" : "current-password") : "username", required: true }),
    label,
  ]);
  const el = h(
    "form",
    { id, class: "acc-form" },
    h("h2", {}, at(title)),
    inputs.map(([fid, input, label]) => h("label", { for: fid }, at(label), input)),
    h("button", { type: "submit", id: `${id}-go` }, at(button)),
    note,
  );
  el.addEventListener("submit", async (e) => {
    e.preventDefault();
    note.textContent = "";
    try {
      const done = await go(...inputs.map(([, input]) => input.value));
      if (done) note.textContent = done;
    } catch (err) {
      note.textContent = err.status === 401 ? at("acc.wrong") : refusalText(err);
    }
  });
  return el;
}

/** `/account`. */
function accountPage(app) {
  const me = account();
  if (!me) {
    app.append(
      h("section", { class: "acc-page" },
        h("h1", {}, at("acc.title")),
        h("p", {}, at("acc.guest_note")),
        h("div", { class: "acc-forms" },
          h("div", { class: "acc-column" },
            form("signin", "acc.sign_in", [["signin-name", "acc.name", "text"], ["signin-password", "acc.password", "password"]], "acc.sign_in",
              async (n, p) => { await signInOrUp(false, n, p); location.assign(`/u/${encodeURIComponent(n)}`); }),
            passkeySignIn()),
          form("signup", "acc.sign_up", [["signup-name", "acc.name", "text"], ["signup-password", "acc.new_password", "password"]], "acc.sign_up",
            async (n, p) => { const a = await signInOrUp(true, n, p); location.assign(`/u/${encodeURIComponent(a.name)}`); }))));
    return;
  }
  const links = h("p", { class: "acc-links" },
    h("a", { href: `/u/${encodeURIComponent(me.name)}`, id: "acc-profile" }, at("acc.profile")), SEP,
    h("a", { href: "/games", id: "acc-games" }, at("acc.my_games")), SEP,
    h("a", { href: "/leaderboard", id: "acc-board" }, at("board.title")), SEP,
    h("a", { href: "/api/account/records", id: "acc-download", download: "" }, at("acc.download")));
  const outs = h("p", { class: "acc-actions" },
    h("button", { id: "signout", onclick: async () => { await signOut(false); location.assign("/"); } }, at("acc.sign_out")), " ",
    h("button", { id: "signout-all", onclick: async () => { await signOut(true); location.assign("/"); } }, at("acc.sign_out_all")));
  app.append(
    h("section", { class: "acc-page" },
      h("h1", {}, at("acc.signed_in_as", { name: me.name })),
      links, outs,
      passkeySection(),
      h("div", { class: "acc-forms" },
        form("password", "acc.change_password", [["password-old", "acc.password", "password"], ["password-new", "acc.new_password", "password"]], "acc.change_password",
          async (o, n) => { await changePassword(o, n); return at("acc.changed"); }),
        form("delete", "acc.delete", [["delete-password", "acc.password", "password"]], "acc.delete",
          async (p) => { if (!window.confirm(at("acc.delete_confirm"))) return ""; await deleteAccount(p); location.assign("/"); return ""; }))));
}

/** A date in the page's language. */
export function dateText(ms) {
  const d = new Date(ms);
  if (Number.isNaN(d.getTime())) return "";
  // a language this browser has no dates for (Chromium has none in
  // Georgian): the date in figures, not another language's month names
  if (Intl.DateTimeFormat.supportedLocalesOf([language()]).length === 0) {
    const two = (n) => String(n).padStart(2, "0");
    return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())}`;
  }
  return d.toLocaleDateString(language(), { year: "numeric", month: "short", day: "numeric" });
}
