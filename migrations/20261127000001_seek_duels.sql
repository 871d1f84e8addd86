-- Seeks become the duels they promise: the seeker's display name and the
-- time control the duel is played with, both shown in the lobby. Same
-- dialect as the first migration (TEXT and BIGINT, times in milliseconds);
-- every column is nullable, so the seeks of an older database read as
-- untimed, without a name.

ALTER TABLE seeks ADD COLUMN name TEXT;
-- NULL (none), `fischer` or `correspondence`, with `clock_base` and
-- `clock_increment` as `matches` keeps them.
ALTER TABLE seeks ADD COLUMN time_control TEXT;
ALTER TABLE seeks ADD COLUMN clock_base BIGINT;
ALTER TABLE seeks ADD COLUMN clock_increment BIGINT;
