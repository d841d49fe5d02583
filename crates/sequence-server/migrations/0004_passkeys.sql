-- Passkeys (WebAuthn), a second way to sign in (issue "players who come
-- back"). Rules: src/accounts/passkeys.rs. Never edit a migration once
-- released.

-- One row per passkey of an account. `id`: the credential id (hex);
-- `handle`: the account's WebAuthn user handle (a random UUID, the same
-- for every passkey of the account: what a discoverable passkey answers
-- at sign-in); `name`: chosen by the person; `passkey`: webauthn-rs's
-- Passkey as JSON (credential id, COSE public key, signature counter,
-- backup flags: public data, no secret); `used_ms`: its last sign-in.
CREATE TABLE passkeys (
    id TEXT PRIMARY KEY,
    user_id BIGINT NOT NULL,
    handle TEXT NOT NULL,
    name TEXT NOT NULL,
    passkey TEXT NOT NULL,
    created_ms BIGINT NOT NULL,
    used_ms BIGINT
);
CREATE INDEX passkeys_user ON passkeys (user_id);

-- WebAuthn ceremonies begun and not yet finished: their state (the
-- challenge; JSON) between the begin and the finish, which may reach
-- another instance. `id`: the token the begin answered; `kind`: `add` or
-- `signin`; `user_id`: the account adding a passkey (NULL for a
-- sign-in). The finish takes (deletes) its row; expired rows go when
-- another ceremony begins.
CREATE TABLE passkey_ceremonies (
    id TEXT PRIMARY KEY,
    kind TEXT NOT NULL,
    user_id BIGINT,
    state TEXT NOT NULL,
    expires_ms BIGINT NOT NULL
);
CREATE INDEX passkey_ceremonies_expiry ON passkey_ceremonies (expires_ms);
