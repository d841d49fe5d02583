-- The tables as the server kept them before versioned migrations
-- (`IF NOT EXISTS`: a database written then is taken as version 1 as it
-- is). Column meanings: src/db.rs. Never edit a migration once released:
-- add the next one (see docs/deploy.md, "Schema changes").

CREATE TABLE IF NOT EXISTS game_tables (
    id TEXT PRIMARY KEY,
    spec TEXT NOT NULL,
    status TEXT NOT NULL,
    created_ms BIGINT NOT NULL,
    next_seq BIGINT,
    owner TEXT,
    clock_ms BIGINT,
    timed_out BIGINT NOT NULL DEFAULT 0,
    chat_seq BIGINT NOT NULL DEFAULT 0
);

CREATE TABLE IF NOT EXISTS events (
    table_id TEXT NOT NULL,
    seq BIGINT NOT NULL,
    data TEXT NOT NULL,
    PRIMARY KEY (table_id, seq)
);

CREATE INDEX IF NOT EXISTS game_tables_status ON game_tables (status, created_ms);

CREATE TABLE IF NOT EXISTS instances (
    id TEXT PRIMARY KEY,
    pid BIGINT NOT NULL,
    host TEXT NOT NULL,
    started_ms BIGINT NOT NULL,
    heartbeat_ms BIGINT NOT NULL
);

CREATE TABLE IF NOT EXISTS chat (
    table_id TEXT NOT NULL,
    seq BIGINT NOT NULL,
    line TEXT NOT NULL,
    PRIMARY KEY (table_id, seq)
);

CREATE TABLE IF NOT EXISTS presence (
    table_id TEXT NOT NULL,
    instance TEXT NOT NULL,
    seat BIGINT NOT NULL,
    conns BIGINT NOT NULL,
    PRIMARY KEY (table_id, instance, seat)
);

CREATE INDEX IF NOT EXISTS presence_instance ON presence (instance);

CREATE INDEX IF NOT EXISTS game_tables_owner ON game_tables (owner);
