-- Which node serves each room, and until when: a lease, renewed by its node while it serves the
-- room. Times come from the database's own clock, the one clock every node shares.

-- Now, in Unix milliseconds, by the database's clock.
CREATE FUNCTION ludo_now_ms() RETURNS BIGINT
    LANGUAGE SQL VOLATILE
    AS $$ SELECT (extract(epoch FROM clock_timestamp()) * 1000)::BIGINT $$;

CREATE TABLE room_leases (
    room       TEXT PRIMARY KEY REFERENCES rooms(code),
    -- The node serving the room.
    node       TEXT NOT NULL,
    -- Names this grant: releasing a lease releases only the grant it names.
    token      BIGINT NOT NULL,
    -- The lease runs out then (Unix milliseconds) unless renewed.
    expires_at BIGINT NOT NULL,
    -- A node that was asked for the room and wants it handed over, if any.
    wanted_by  TEXT
);
CREATE INDEX room_leases_by_node ON room_leases(node);
