-- Match retention: the sweeper finds matches by when they last changed.
CREATE INDEX matches_updated ON matches (updated_at);
