-- Live play: who is connected to each seat, the open games of the lobby, and
-- a note on events that carry one (why an invitation was declined). Same
-- dialect as the first migration.

ALTER TABLE match_events ADD COLUMN note TEXT;

-- One row per (match, seat, instance) while that instance holds at least one
-- authenticated stream of the seat (or is within the grace period after the
-- last one closed). `seen_at` is refreshed by the instance while it runs; a
-- row not refreshed for a minute is an instance that died, and counts for
-- nothing.
CREATE TABLE seat_presence (
    match_id    TEXT NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
    seat        TEXT NOT NULL,
    instance    TEXT NOT NULL,             -- a random id per running instance
    seen_at     BIGINT NOT NULL,
    PRIMARY KEY (match_id, seat, instance)
);

-- Open games anyone may take. A seek is open while its creator's stream holds
-- it (`held_until`, pushed forward while the stream is open) and until it
-- expires; taking it creates a duel whose seeker seat uses the seek's token.
CREATE TABLE seeks (
    id          TEXT PRIMARY KEY,          -- UUID
    game        TEXT NOT NULL,
    variant     TEXT,
    size        BIGINT,
    side        TEXT,                      -- the seeker's side; NULL: random
    token_hash  TEXT NOT NULL,             -- SHA-256 of the seeker's token
    state       TEXT NOT NULL,             -- open, taken, withdrawn, expired, left
    match_id    TEXT REFERENCES matches (id) ON DELETE SET NULL,
    seat        TEXT,                      -- once taken: the seeker's seat
    created_at  BIGINT NOT NULL,
    expires_at  BIGINT NOT NULL,
    held_until  BIGINT NOT NULL,
    closed_at   BIGINT
);

CREATE INDEX seeks_open ON seeks (state, created_at);
