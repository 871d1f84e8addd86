-- What happened to each match, one row per write (its version), kept for the
-- last 200 versions: what a live stream replays to a client that reconnects
-- with Last-Event-ID. Same dialect as the first migration.

CREATE TABLE match_events (
    match_id    TEXT NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
    version     BIGINT NOT NULL,           -- the match version this write made
    kind        TEXT NOT NULL,             -- move, over, undo, takeback-offered, ...
    seat        TEXT,                      -- the seat that did it, if any
    ply         BIGINT NOT NULL,           -- the match's ply after it
    code        TEXT NOT NULL,             -- the state code after it
    to_move     TEXT NOT NULL,
    status      TEXT NOT NULL,             -- ongoing, won, drawn or over
    winner      TEXT,
    reason      TEXT,
    moves       TEXT NOT NULL,             -- JSON array of the moves it made
    back_to     BIGINT,                    -- takeback-offered: the ply offered
    created_at  BIGINT NOT NULL,
    PRIMARY KEY (match_id, version)
);
