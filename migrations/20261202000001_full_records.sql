-- Full records: a match keeps every move it made (see docs/matches.md). The
-- history window (the last 100 moves, what undo and `/history` reach) is no
-- longer the set of rows kept but the plies above `kept_from`, which a move
-- raises to its ply minus 100 and an undo leaves where it is. Same dialect as
-- the first migration.
--
-- Forks share their parent's record instead of copying it: a fork reads
-- its own rows and those of `base_id` (a match without a base of its own)
-- at plies up to `base_ply`. `base_id` has no foreign key: when the base is
-- deleted its rows stay, listed in `gone_records`, for as long as a fork
-- reads them. `moves` loses its foreign key for the same reason; retention
-- deletes a match's rows itself, in small batches.
--
-- The columns of the first design (`shares_from`, `shares_upto`, `shared`)
-- are no longer read or written: the rows forks read through them are
-- copied into the forks here, once.

CREATE TABLE moves_record (
    match_id     TEXT NOT NULL,
    ply          BIGINT NOT NULL,
    seat         TEXT NOT NULL,
    side         TEXT NOT NULL,
    action       TEXT NOT NULL,
    code_before  TEXT NOT NULL,
    code_after   TEXT NOT NULL,
    played_at    BIGINT NOT NULL,
    clock_first  BIGINT,
    clock_second BIGINT,
    halfmove     BIGINT,
    PRIMARY KEY (match_id, ply)
);

INSERT INTO moves_record (match_id, ply, seat, side, action, code_before, code_after,
    played_at, clock_first, clock_second, halfmove)
SELECT match_id, ply, seat, side, action, code_before, code_after, played_at, clock_first,
    clock_second, halfmove
FROM moves;

INSERT INTO moves_record (match_id, ply, seat, side, action, code_before, code_after,
    played_at, clock_first, clock_second, halfmove)
SELECT f.id, p.ply, p.seat, p.side, p.action, p.code_before, p.code_after, p.played_at,
    p.clock_first, p.clock_second, p.halfmove
FROM matches f JOIN moves p ON p.match_id = f.parent_id
WHERE p.ply > f.shares_from AND p.ply <= f.shares_upto;

DROP TABLE moves;
ALTER TABLE moves_record RENAME TO moves;

UPDATE matches SET shares_from = 0, shares_upto = 0, shared = 0;

-- The window's floor: the plies at or below it are out of the last 100.
-- A match of an older database kept exactly its window.
ALTER TABLE matches ADD COLUMN kept_from BIGINT NOT NULL DEFAULT 0;
UPDATE matches SET kept_from = COALESCE(
    (SELECT min(m.ply) - 1 FROM moves m WHERE m.match_id = matches.id), ply);

ALTER TABLE matches ADD COLUMN base_id TEXT;
ALTER TABLE matches ADD COLUMN base_ply BIGINT;
CREATE INDEX matches_base ON matches (base_id) WHERE base_id IS NOT NULL;

-- Matches deleted whose moves are not yet: their rows go in batches once no
-- fork reads them.
CREATE TABLE gone_records (
    id          TEXT PRIMARY KEY,
    gone_at     BIGINT NOT NULL
);
