-- Persisted matches: one row per match, its seats, and its last 100 moves.
--
-- One dialect for SQLite and PostgreSQL: TEXT and BIGINT only (SQLite gives
-- BIGINT integer affinity), times in milliseconds since the Unix epoch.

CREATE TABLE matches (
    id          TEXT PRIMARY KEY,          -- UUID, hyphenated lower case
    game        TEXT NOT NULL,             -- xiangqi, gomoku, 2048, quoridor, tetris
    mode        TEXT NOT NULL,             -- duel or solo
    code        TEXT NOT NULL,             -- the current state's code
    to_move     TEXT NOT NULL,             -- the side to move, stored with the state
    ply         BIGINT NOT NULL,           -- moves made since the match began
    version     BIGINT NOT NULL,           -- bumped by every write
    status      TEXT NOT NULL,             -- ongoing, won, drawn or over
    winner      TEXT,
    reason      TEXT,
    undo_seat   TEXT,                      -- the seat offering a takeback, if any
    undo_ply    BIGINT,                    -- the ply the takeback returns to
    parent_id   TEXT REFERENCES matches (id),
    parent_ply  BIGINT,
    created_at  BIGINT NOT NULL,
    updated_at  BIGINT NOT NULL
);

CREATE TABLE seats (
    match_id    TEXT NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
    seat        TEXT NOT NULL,             -- a side's name, or "solo"
    token_hash  TEXT,                      -- SHA-256 of the seat token, once taken
    invite_hash TEXT,                      -- SHA-256 of the invite, while open
    joined_at   BIGINT,
    PRIMARY KEY (match_id, seat)
);

CREATE TABLE moves (
    match_id    TEXT NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
    ply         BIGINT NOT NULL,
    seat        TEXT NOT NULL,             -- the seat whose token played it
    side        TEXT NOT NULL,             -- the side that moved
    action      TEXT NOT NULL,
    code_before TEXT NOT NULL,
    code_after  TEXT NOT NULL,
    played_at   BIGINT NOT NULL,
    PRIMARY KEY (match_id, ply)
);

CREATE INDEX matches_parent ON matches (parent_id);
