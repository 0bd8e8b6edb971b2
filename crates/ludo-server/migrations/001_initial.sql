-- Identities: a device's secret is never stored, only its SHA-256.
CREATE TABLE identities (
    id          TEXT PRIMARY KEY,
    secret_hash TEXT NOT NULL UNIQUE,
    name        TEXT NOT NULL,
    created_at  INTEGER NOT NULL
);

-- Rooms: the table (seats, settings) as JSON, so a restart finds it as it was.
CREATE TABLE rooms (
    code       TEXT PRIMARY KEY,
    host       TEXT NOT NULL REFERENCES identities(id),
    state      TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
);

-- Games: the dice seed stays secret here until the game is over.
CREATE TABLE games (
    id          TEXT PRIMARY KEY,
    room        TEXT NOT NULL REFERENCES rooms(code),
    rules       TEXT NOT NULL,
    seats       TEXT NOT NULL,
    players     TEXT NOT NULL,
    commitment  TEXT NOT NULL,
    seed        TEXT NOT NULL,
    started_at  INTEGER NOT NULL,
    finished_at INTEGER,
    places      TEXT
);
CREATE INDEX games_by_room ON games(room, started_at);

-- Every accepted action, written before it is broadcast.
CREATE TABLE actions (
    game   TEXT NOT NULL REFERENCES games(id),
    number INTEGER NOT NULL,
    seat   TEXT NOT NULL,
    action TEXT NOT NULL,
    at     INTEGER NOT NULL,
    PRIMARY KEY (game, number)
);
