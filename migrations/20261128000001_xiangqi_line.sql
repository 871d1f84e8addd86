-- Xiangqi's repetition rules and move limit judge the line since the last
-- capture, which can be longer than the 100 moves a match keeps. A match
-- keeps that line beside its position: the FEN (with its halfmove clock)
-- before the last capture, or of the match's start when nothing was
-- captured, and the moves in ICCS from there, space-separated. Same dialect
-- as the first migration; both are NULL for the other games, and a xiangqi
-- match of an older database starts its line at its current position.
ALTER TABLE matches ADD COLUMN line_fen TEXT;
ALTER TABLE matches ADD COLUMN line_moves TEXT;
