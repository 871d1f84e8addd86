-- What an imported record file says of its game besides its moves: the
-- event, site, date and round, the two players by the game's seat order
-- (red and black; black and white), and the result as the file writes it,
-- with the ply the file ended at (the result speaks of the match while it
-- is still there). Export writes them back (docs/records.md). One row per
-- imported match, none for the others; it goes with its match. Same
-- dialect as the first migration.

CREATE TABLE record_headers (
    match_id      TEXT PRIMARY KEY REFERENCES matches (id) ON DELETE CASCADE,
    event         TEXT,
    site          TEXT,
    date          TEXT,
    round         TEXT,
    first_player  TEXT,
    second_player TEXT,
    result        TEXT,
    ply           BIGINT NOT NULL
);
