-- Forks share their parent's kept history instead of copying it. A fork
-- reads its own `moves` rows and, in place of the plies it was forked with,
-- the parent's rows with `shares_from < ply <= shares_upto` (an empty range
-- when `shares_upto <= shares_from`: a match that shares nothing). Before a
-- parent deletes rows a fork reads (an undo, the history cap, retention), it
-- copies them into the fork and narrows the fork's range, in the same
-- transaction. `shared` marks a match that forks read from: its deleting
-- writes take that slower path. Same dialect as the first migration.

ALTER TABLE matches ADD COLUMN shares_from BIGINT NOT NULL DEFAULT 0;
ALTER TABLE matches ADD COLUMN shares_upto BIGINT NOT NULL DEFAULT 0;
ALTER TABLE matches ADD COLUMN shared BIGINT NOT NULL DEFAULT 0;
