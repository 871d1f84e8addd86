-- The computer in a duel's seat (docs/matches.md, "The computer"): how
-- strongly it plays, and the lease by which one instance answers its turn.
-- A row is written with its match and goes with it (ON DELETE CASCADE).
-- Same dialect as the first migration.
--
-- The lease: `turn` is the match version the computer last claimed, held by
-- `holder` until `lease_until` (milliseconds since the Unix epoch). A claim
-- is one UPDATE that succeeds when the match has moved past `turn`, or when
-- the lease on it has expired (its holder died mid-search); `claims` counts
-- them, so that a test can see each turn claimed once.

CREATE TABLE computer_seats (
    match_id    TEXT PRIMARY KEY REFERENCES matches (id) ON DELETE CASCADE,
    seat        TEXT NOT NULL,               -- the side it plays
    level       BIGINT NOT NULL,             -- 1 (a beginner can win) to 10
    ms          BIGINT NOT NULL,             -- search time per move
    turn        BIGINT NOT NULL DEFAULT 0,
    lease_until BIGINT NOT NULL DEFAULT 0,
    holder      TEXT,
    claims      BIGINT NOT NULL DEFAULT 0
);
