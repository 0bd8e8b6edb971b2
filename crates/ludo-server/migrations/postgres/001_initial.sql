-- The whole schema of the SQLite migrations 001 and 002, in PostgreSQL's types: times are Unix
-- milliseconds (BIGINT), JSON is kept as the text the server wrote (TEXT).

-- Identities: a device's secret is never stored, only its SHA-256.
CREATE TABLE identities (
    id          TEXT PRIMARY KEY,
    secret_hash TEXT NOT NULL UNIQUE,
    name        TEXT NOT NULL,
    created_at  BIGINT NOT NULL
);

-- Rooms: the table (seats, settings) as JSON, so a restart finds it as it was.
CREATE TABLE rooms (
    code       TEXT PRIMARY KEY,
    host       TEXT NOT NULL REFERENCES identities(id),
    state      TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL
);

-- Games: the dice seed stays secret here until the game is over. `seq` orders games created in
-- the same millisecond as they were created (SQLite's rowid).
CREATE TABLE games (
    id          TEXT PRIMARY KEY,
    seq         BIGINT GENERATED ALWAYS AS IDENTITY UNIQUE,
    room        TEXT NOT NULL REFERENCES rooms(code),
    rules       TEXT NOT NULL,
    seats       TEXT NOT NULL,
    players     TEXT NOT NULL,
    commitment  TEXT NOT NULL,
    seed        TEXT NOT NULL,
    started_at  BIGINT NOT NULL,
    finished_at BIGINT,
    places      TEXT,
    ranked      BOOLEAN NOT NULL DEFAULT FALSE
);
CREATE INDEX games_by_room ON games(room, started_at DESC, seq DESC);
CREATE INDEX games_in_play ON games(room) WHERE finished_at IS NULL;

-- Every accepted action, written before it is broadcast; one per game and number.
CREATE TABLE actions (
    game   TEXT NOT NULL REFERENCES games(id),
    number BIGINT NOT NULL,
    seat   TEXT NOT NULL,
    action TEXT NOT NULL,
    at     BIGINT NOT NULL,
    PRIMARY KEY (game, number)
);

-- Who played each game (people only), and the place they reached once it is over.
CREATE TABLE game_players (
    game     TEXT NOT NULL REFERENCES games(id),
    seat     TEXT NOT NULL,
    identity TEXT NOT NULL REFERENCES identities(id),
    name     TEXT NOT NULL,
    place    SMALLINT,
    PRIMARY KEY (game, seat)
);
CREATE INDEX game_players_by_identity ON game_players(identity, game);

-- The current rating of an identity in a ruleset family (qdan, classic, vietnamese).
CREATE TABLE ratings (
    identity   TEXT NOT NULL REFERENCES identities(id),
    family     TEXT NOT NULL,
    rating     DOUBLE PRECISION NOT NULL,
    games      INTEGER NOT NULL,
    updated_at BIGINT NOT NULL,
    PRIMARY KEY (identity, family)
);
CREATE INDEX ratings_by_family ON ratings(family, rating DESC);

-- Every rating change, one row per rated player of a ranked game: the rating history.
CREATE TABLE rating_changes (
    game     TEXT NOT NULL REFERENCES games(id),
    identity TEXT NOT NULL REFERENCES identities(id),
    family   TEXT NOT NULL,
    seat     TEXT NOT NULL,
    place    SMALLINT NOT NULL,
    before   DOUBLE PRECISION NOT NULL,
    after    DOUBLE PRECISION NOT NULL,
    at       BIGINT NOT NULL,
    PRIMARY KEY (game, identity)
);
CREATE INDEX rating_changes_by_identity ON rating_changes(identity, at);
