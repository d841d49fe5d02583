-- Accounts, sessions, sign-in throttling, seats of accounts, finished
-- games and ratings (issue "players who come back"). Column meanings:
-- src/accounts/mod.rs. Never edit a migration once released.

-- People with an account. `name_key` is the name folded for uniqueness
-- (case and confusable characters); `name`, `name_key` and `password`
-- are emptied (NULL) when the account is deleted.
CREATE TABLE users (
    id INTEGER PRIMARY KEY,
    name TEXT,
    name_key TEXT UNIQUE,
    password TEXT,
    created_ms BIGINT NOT NULL,
    deleted_ms BIGINT
);

-- Signed-in browsers: the SHA-256 (hex) of the session cookie's token,
-- its account, the CSRF token every change it authorises must carry.
CREATE TABLE sessions (
    token_hash TEXT PRIMARY KEY,
    user_id BIGINT NOT NULL,
    csrf TEXT NOT NULL,
    created_ms BIGINT NOT NULL,
    seen_ms BIGINT NOT NULL
);
CREATE INDEX sessions_user ON sessions (user_id);

-- Failed sign-ins per key (`a:ADDRESS`, `u:NAME_KEY`, `ua:NAME_KEY:ADDRESS`)
-- since the last success: the delay before the next attempt grows with them.
CREATE TABLE sign_in_failures (
    key TEXT PRIMARY KEY,
    failures BIGINT NOT NULL,
    last_ms BIGINT NOT NULL
);

-- The seats (by the SHA-256 of their seat token) that belong to an account:
-- taken while signed in, or claimed with the token afterwards.
CREATE TABLE seat_owners (
    table_id TEXT NOT NULL,
    token_hash TEXT NOT NULL,
    user_id BIGINT NOT NULL,
    PRIMARY KEY (table_id, token_hash)
);
CREATE INDEX seat_owners_user ON seat_owners (user_id);

-- Finished games, written in the transaction of the move that ends them.
-- `kind`: the rating kind (classic-1v1, classic-teams, classic-3sides,
-- stacks-1v1, stacks-multi); `rated`: 1 when it changed ratings.
CREATE TABLE games (
    table_id TEXT NOT NULL,
    game_no BIGINT NOT NULL,
    kind TEXT NOT NULL,
    rated BIGINT NOT NULL,
    ended_ms BIGINT NOT NULL,
    moves BIGINT NOT NULL,
    PRIMARY KEY (table_id, game_no)
);
CREATE INDEX games_ended ON games (ended_ms);

-- Each seat of a finished game: its side (team or seat), name, seat token
-- hash (to claim it), account, result (`win`, `loss`, `draw`), whether it
-- left, and its rating before and after (NULL: not rated).
CREATE TABLE game_seats (
    table_id TEXT NOT NULL,
    game_no BIGINT NOT NULL,
    seat BIGINT NOT NULL,
    side BIGINT NOT NULL,
    name TEXT NOT NULL,
    bot BIGINT NOT NULL,
    token_hash TEXT,
    user_id BIGINT,
    result TEXT NOT NULL,
    left_game BIGINT NOT NULL,
    ended_ms BIGINT NOT NULL,
    kind TEXT NOT NULL,
    rating_before REAL,
    rating_after REAL,
    deviation_after REAL,
    PRIMARY KEY (table_id, game_no, seat)
);
CREATE INDEX game_seats_user ON game_seats (user_id, ended_ms);
CREATE INDEX game_seats_token ON game_seats (table_id, token_hash);

-- One rating per account and kind: Glicko-2 (rating, deviation,
-- volatility) for 1-vs-1 kinds, Weng-Lin (rating = mu, deviation = sigma,
-- volatility unused) for teams and 3+ sides.
CREATE TABLE ratings (
    user_id BIGINT NOT NULL,
    kind TEXT NOT NULL,
    rating REAL NOT NULL,
    deviation REAL NOT NULL,
    volatility REAL NOT NULL,
    games BIGINT NOT NULL,
    updated_ms BIGINT NOT NULL,
    PRIMARY KEY (user_id, kind)
);
CREATE INDEX ratings_board ON ratings (kind, rating);
