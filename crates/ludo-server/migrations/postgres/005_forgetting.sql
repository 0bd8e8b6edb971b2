-- Forgetting what nobody uses (see docs/operations.md, "What is forgotten").

-- When a connection last used the identity (said hello, or was still open when forgetting
-- ran), if one has since it was made: an identity in use is never forgotten.
ALTER TABLE identities ADD COLUMN seen_at BIGINT;
-- When the room was forgotten, if it was: a room whose games name it keeps its row, its state
-- emptied, and is found no more.
ALTER TABLE rooms ADD COLUMN forgotten_at BIGINT;

-- Identities old enough to forget, rooms untouched long enough, and the rooms of a host (also
-- what deleting an identity checks).
CREATE INDEX identities_by_created_at ON identities(created_at);
CREATE INDEX rooms_by_updated_at ON rooms(updated_at) WHERE forgotten_at IS NULL;
CREATE INDEX rooms_by_host ON rooms(host);
