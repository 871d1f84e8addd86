-- Each kept xiangqi move's halfmove clock: the plies since the last capture
-- in the position the move was played from (as the FEN counts them). A
-- takeback across a capture rebuilds the match's line from the kept moves;
-- with this column the rebuilt line knows its move-limit count even when
-- the last capture before it lies beyond the 100 kept moves, or the match
-- started from a FEN whose clock was not 0. NULL for the other games and
-- for moves kept by an older version (read as a clock of 0, as before).
ALTER TABLE moves ADD COLUMN halfmove BIGINT;
