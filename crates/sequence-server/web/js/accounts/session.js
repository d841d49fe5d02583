// The signed-in account of this browser (docs/api.md "Accounts"): read
// once at start (GET /api/account), its CSRF token handed to api.js so
// that every change carries it; signing up or in claims the seats this
// browser kept as a guest.
import { request, setCsrf, savedSeats, isStaticBuild } from "../api.js";

let me = null; // {name, csrf} or null
const listeners = new Set();

/** The signed-in account (`{name}`) or null. */
export function account() {
  return me;
}

/** Calls `f` whenever the account changes. */
export function onAccount(f) {
  listeners.add(f);
}

function set(a) {
  me = a && a.name ? { name: a.name, csrf: a.csrf } : null;
  setCsrf(me && me.csrf);
  for (const f of listeners) f(me);
}

let first = null; // the first answer of GET /api/account (a promise)

/** Reads the session from the server (null when signed out; a static
 * build has no accounts and is not asked). */
export function refreshAccount() {
  const answer = isStaticBuild()
    .then((only) => (only ? null : request("GET", "/api/account")))
    .then(set, () => set(null))
    .then(() => me);
  if (!first) first = answer;
  return answer;
}

/** The account once the server has answered whether this browser is
 * signed in (asks it the first time): pages that differ for an account
 * draw after this, not before. */
export function accountReady() {
  return first || refreshAccount();
}

/** Signs up (`up`) or in, then claims the guest seats kept here. */
export async function signInOrUp(up, name, password) {
  return signedIn(await request("POST", `/api/account/${up ? "signup" : "signin"}`, { name, password }));
}

/** Takes the answer of a sign-in (`{name, csrf}`: a password's or a
 * passkey's) as this browser's account, and claims the guest seats kept
 * here. */
export async function signedIn(a) {
  set(a);
  const seats = savedSeats().slice(0, 200);
  if (seats.length) await request("POST", "/api/account/claim", { seats }).catch(() => null);
  return me;
}

/** Signs out here, or (`everywhere`) on every browser. */
export async function signOut(everywhere) {
  await request("POST", `/api/account/${everywhere ? "signout-everywhere" : "signout"}`, {});
  set(null);
}

/** Changes the password (other sessions end). */
export async function changePassword(password, newPassword) {
  return request("POST", "/api/account/password", { password, new_password: newPassword });
}

/** Deletes the account. */
export async function deleteAccount(password) {
  await request("POST", "/api/account/delete", { password });
  set(null);
}
