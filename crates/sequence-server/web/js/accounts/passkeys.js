// Passkeys (WebAuthn) on the account page (docs/api.md "Passkeys"): the
// "Sign in with a passkey" button beside the sign-in form, and the signed-in
// account's passkeys with "Add a passkey" and "Remove". The server's
// options and the browser's credentials travel as JSON with their binary
// parts in base64url. Every failure is said in words: a browser without
// WebAuthn, a request cancelled or timed out, a passkey no account has.
import { h } from "../cards.js";
import { request } from "../api.js";
import { refusalText } from "../errors.js";
import { SEP } from "../i18n.js";
import { at } from "./text.js";
import { signedIn } from "./session.js";
import { dateText } from "./pages.js";

/** Whether this browser has WebAuthn at all. */
function supported() {
  return typeof window.PublicKeyCredential === "function" && !!(navigator.credentials && navigator.credentials.create);
}

/** base64url text → bytes. */
function bytes(text) {
  const b64 = text.replace(/-/g, "+").replace(/_/g, "/");
  const raw = atob(b64 + "=".repeat((4 - (b64.length % 4)) % 4));
  return Uint8Array.from(raw, (c) => c.charCodeAt(0));
}

/** bytes (an ArrayBuffer) → base64url text. */
function b64url(buffer) {
  let raw = "";
  for (const b of new Uint8Array(buffer)) raw += String.fromCharCode(b);
  return btoa(raw).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

const withIds = (list) => (list || []).map((c) => ({ ...c, id: bytes(c.id) }));

/** The server's creation options, as `navigator.credentials.create()` takes them. */
function creationOptions(o) {
  const p = o.publicKey;
  return {
    publicKey: { ...p, challenge: bytes(p.challenge), user: { ...p.user, id: bytes(p.user.id) }, excludeCredentials: withIds(p.excludeCredentials) },
  };
}

/** The server's request options, as `navigator.credentials.get()` takes them. */
function requestOptions(o) {
  const p = o.publicKey;
  return { publicKey: { ...p, challenge: bytes(p.challenge), allowCredentials: withIds(p.allowCredentials) } };
}

/** A credential the browser made or used, as the server reads it
 * (client extension results left out: the server needs none). */
function credentialJson(c) {
  const r = c.response;
  const response = { clientDataJSON: b64url(r.clientDataJSON) };
  if (r.attestationObject) response.attestationObject = b64url(r.attestationObject);
  else {
    response.authenticatorData = b64url(r.authenticatorData);
    response.signature = b64url(r.signature);
    if (r.userHandle) response.userHandle = b64url(r.userHandle);
  }
  return { id: c.id, rawId: b64url(c.rawId), type: c.type, response, extensions: {} };
}

/** The words for a failed passkey request: the browser's (cancelled, not
 * allowed here, this device has one already) or the server's refusal. */
export function passkeyError(err) {
  const name = err && err.name;
  if (name === "NotAllowedError" || name === "AbortError") return at("pk.cancelled");
  if (name === "InvalidStateError") return at("pk.already");
  if (name === "SecurityError") return at("pk.insecure");
  if (name === "NotSupportedError") return at("pk.unsupported");
  if (err && typeof err.status === "number") return refusalText(err);
  return at("pk.failed");
}

/** "Sign in with a passkey": asks the browser for any passkey of this
 * site (no user name), and signs in as its account. */
export function passkeySignIn() {
  const note = h("p", { class: "acc-note", id: "passkey-signin-note", role: "status" });
  const button = h("button", { type: "button", id: "passkey-signin", class: "acc-passkey" }, at("pk.sign_in"));
  button.addEventListener("click", async () => {
    note.textContent = "";
    if (!supported()) {
      note.textContent = at("pk.unsupported");
      return;
    }
    button.disabled = true;
    try {
      const begun = await request("POST", "/api/account/passkey-signin/begin", {});
      const credential = await navigator.credentials.get(requestOptions(begun.options));
      const me = await signedIn(
        await request("POST", "/api/account/passkey-signin/finish", { ceremony: begun.ceremony, credential: credentialJson(credential) }),
      );
      location.assign(`/u/${encodeURIComponent(me.name)}`);
    } catch (err) {
      note.textContent = passkeyError(err);
    } finally {
      button.disabled = false;
    }
  });
  return h("div", { class: "acc-form acc-passkey-signin" }, h("p", { class: "acc-or" }, at("pk.or")), button, note);
}

/** The signed-in account's passkeys: the list (name, when added and last
 * used, "Remove") and the form that adds one. */
export function passkeySection() {
  const list = h("ul", { id: "passkey-list", class: "acc-passkeys" });
  const note = h("p", { class: "acc-note", id: "passkey-note", role: "status" });
  const name = h("input", { id: "passkey-name", name: "passkey-name", type: "text", maxlength: "40", autocomplete: "off" });
  let count = 0;
  const draw = async () => {
    const { passkeys } = await request("GET", "/api/account/passkeys");
    count = passkeys.length;
    list.replaceChildren(
      ...(passkeys.length
        ? passkeys.map((p) =>
            h("li", { class: "acc-passkey-item", "data-id": p.id },
              h("span", { class: "acc-passkey-name" }, p.name), " ",
              h("span", { class: "acc-muted" }, at("pk.created", { date: dateText(p.created_ms) }), SEP,
                p.used_ms ? at("pk.used", { date: dateText(p.used_ms) }) : at("pk.never_used")), " ",
              h("button", { type: "button", class: "passkey-remove", "aria-label": at("pk.remove_label", { name: p.name }), onclick: () => remove(p.id) }, at("pk.remove"))))
        : [h("li", { class: "acc-muted", id: "passkey-none" }, at("pk.none"))]),
    );
  };
  const remove = async (id) => {
    note.textContent = "";
    try {
      await request("POST", "/api/account/passkeys/remove", { id });
      note.textContent = at("pk.removed");
      await draw();
    } catch (err) {
      note.textContent = passkeyError(err);
    }
  };
  const form = h("form", { id: "passkey-add-form", class: "acc-inline" },
    h("label", { for: "passkey-name" }, at("pk.name"), name),
    h("button", { type: "submit", id: "passkey-add" }, at("pk.add")));
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    note.textContent = "";
    if (!supported()) {
      note.textContent = at("pk.unsupported");
      return;
    }
    try {
      const begun = await request("POST", "/api/account/passkeys/add/begin", {});
      const credential = await navigator.credentials.create(creationOptions(begun.options));
      const label = name.value.trim() || at("pk.default_name", { n: count + 1 }).replace(/[\u2066-\u2069]/g, "");
      await request("POST", "/api/account/passkeys/add/finish", { ceremony: begun.ceremony, name: label, credential: credentialJson(credential) });
      name.value = "";
      note.textContent = at("pk.added");
      await draw();
    } catch (err) {
      note.textContent = passkeyError(err);
    }
  });
  draw().catch((err) => {
    note.textContent = passkeyError(err);
  });
  return h("section", { class: "acc-passkeys-section", id: "passkeys" },
    h("h2", {}, at("pk.title")),
    h("p", { class: "acc-muted" }, at("pk.note")),
    list, form, note);
}
