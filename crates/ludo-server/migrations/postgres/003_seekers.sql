-- People looking for a ranked game on every node. One node at a time, the holder of the role
-- `matchmaker`, forms tables from them and writes each table's room into its seekers' rows;
-- each node tells its own seekers, whose connections it holds.
CREATE TABLE seekers (
    -- The node and its connection: `node/connection`.
    ticket   TEXT PRIMARY KEY,
    node     TEXT NOT NULL,
    -- One search per identity: a newer one replaces the older.
    identity TEXT NOT NULL UNIQUE,
    name     TEXT NOT NULL,
    rating   DOUBLE PRECISION NOT NULL,
    preset   TEXT NOT NULL,
    -- The table size asked for; 0 for any.
    size     SMALLINT NOT NULL,
    address  TEXT NOT NULL,
    -- When the search began (Unix milliseconds, by the node's clock).
    since    BIGINT NOT NULL,
    -- When its node last said it still holds the connection (by the database's clock).
    seen_at  BIGINT NOT NULL,
    -- The room of the table formed, once there is one, and its seats.
    room     TEXT,
    seats    SMALLINT
);

-- Jobs one node at a time does for all: the node holding each, until when.
CREATE TABLE roles (
    role       TEXT PRIMARY KEY,
    node       TEXT NOT NULL,
    expires_at BIGINT NOT NULL
);
