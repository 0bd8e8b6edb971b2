-- Ranked games: whether a game counts for ratings.
ALTER TABLE games ADD COLUMN ranked INTEGER NOT NULL DEFAULT 0;

-- Who played each game (people only), and the place they reached once it is over.
CREATE TABLE game_players (
    game     TEXT NOT NULL REFERENCES games(id),
    seat     TEXT NOT NULL,
    identity TEXT NOT NULL REFERENCES identities(id),
    name     TEXT NOT NULL,
    place    INTEGER,
    PRIMARY KEY (game, seat)
);
CREATE INDEX game_players_by_identity ON game_players(identity, game);

-- Games stored before this table existed.
INSERT INTO game_players (game, seat, identity, name, place)
SELECT g.id, p.key, json_extract(p.value, '$.id'), json_extract(p.value, '$.name'),
       json_extract(g.places, '$.' || p.key)
FROM games g, json_each(g.players) p
WHERE json_extract(p.value, '$.kind') = 'person'
  AND json_extract(p.value, '$.id') IN (SELECT id FROM identities);

-- The current rating of an identity in a ruleset family (qdan, classic, vietnamese).
CREATE TABLE ratings (
    identity   TEXT NOT NULL REFERENCES identities(id),
    family     TEXT NOT NULL,
    rating     REAL NOT NULL,
    games      INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    PRIMARY KEY (identity, family)
);
CREATE INDEX ratings_by_family ON ratings(family, rating DESC);

-- Every rating change, one row per rated player of a ranked game: the rating history.
CREATE TABLE rating_changes (
    game     TEXT NOT NULL REFERENCES games(id),
    identity TEXT NOT NULL REFERENCES identities(id),
    family   TEXT NOT NULL,
    seat     TEXT NOT NULL,
    place    INTEGER NOT NULL,
    before   REAL NOT NULL,
    after    REAL NOT NULL,
    at       INTEGER NOT NULL,
    PRIMARY KEY (game, identity)
);
CREATE INDEX rating_changes_by_identity ON rating_changes(identity, at);
