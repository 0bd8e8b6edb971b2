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

-- Every node's public tables (see the server's room directory), as JSON, so that any node
-- lists them all. Each node replaces its own every few seconds; the entries of a node that has
-- not done so for a lease's term (it died) are left out.
CREATE TABLE listings (
    code     TEXT PRIMARY KEY,
    node     TEXT NOT NULL,
    listing  TEXT NOT NULL,
    seen_at  BIGINT NOT NULL
);
CREATE INDEX listings_by_node ON listings(node);
