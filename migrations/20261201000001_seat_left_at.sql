-- When each seat was last seen going offline (its last stream closed and the
-- grace period passed), in milliseconds since the Unix epoch; NULL until it
-- first goes. An abandonment claim counts the away side's absence from here
-- (a phone that slept through a subway stop is not a player who left).
-- Same dialect as the first migration.

ALTER TABLE seats ADD COLUMN left_at BIGINT;
