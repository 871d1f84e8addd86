-- Duels people can finish: clocks, draw offers, abandonment claims and seat
-- names. Same dialect as the first migration (TEXT and BIGINT only, times
-- and clock readings in milliseconds). Every column is nullable or has a
-- default, so the matches of an older database read as untimed duels without
-- names or offers.

-- The time control: NULL (none), `fischer` (`clock_base` each, plus
-- `clock_increment` after every timed move) or `correspondence`
-- (`clock_base` for every move).
ALTER TABLE matches ADD COLUMN time_control TEXT;
ALTER TABLE matches ADD COLUMN clock_base BIGINT;
ALTER TABLE matches ADD COLUMN clock_increment BIGINT;
-- Each side's time left (the first and the second player of the game), as of
-- `clock_since` for the side to move and of its last move for the other.
ALTER TABLE matches ADD COLUMN clock_first BIGINT;
ALTER TABLE matches ADD COLUMN clock_second BIGINT;
-- When the side to move's clock started running; NULL while none runs.
ALTER TABLE matches ADD COLUMN clock_since BIGINT;
-- When the side to move's flag falls (`clock_since` plus its time left),
-- while the match is being played: what each instance's sweeper looks for.
ALTER TABLE matches ADD COLUMN deadline BIGINT;
-- The seat offering a draw, if any.
ALTER TABLE matches ADD COLUMN draw_seat TEXT;
-- When the position last changed (a move or a takeback); NULL in older rows
-- reads as `created_at`.
ALTER TABLE matches ADD COLUMN moved_at BIGINT;

CREATE INDEX matches_deadline ON matches (deadline);

-- The display name a seat's holder chose when taking it.
ALTER TABLE seats ADD COLUMN name TEXT;

-- The clocks as the move's turn began (at the ply before it): what a
-- takeback to that ply restores.
ALTER TABLE moves ADD COLUMN clock_first BIGINT;
ALTER TABLE moves ADD COLUMN clock_second BIGINT;

-- Events name the seat's display name and carry the clock after them.
ALTER TABLE match_events ADD COLUMN name TEXT;
ALTER TABLE match_events ADD COLUMN clock_first BIGINT;
ALTER TABLE match_events ADD COLUMN clock_second BIGINT;
ALTER TABLE match_events ADD COLUMN clock_since BIGINT;
