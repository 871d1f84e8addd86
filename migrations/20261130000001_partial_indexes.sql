-- The indexes on columns most matches leave NULL hold only the rows that set
-- them: a deadline (timed duels being played) and a parent (forks). Every
-- write of a match updates its row; an index that holds the row is updated
-- with it (on PostgreSQL an update that changes `updated_at`, as every
-- write does, adds an entry to every index whose predicate the new row
-- meets). The queries on these columns compare them (`deadline <= $1`,
-- `parent_id = $1`, `parent_id IN (...)`), which implies NOT NULL, so
-- both databases still answer them from these indexes.
DROP INDEX matches_deadline;
CREATE INDEX matches_deadline ON matches (deadline) WHERE deadline IS NOT NULL;
DROP INDEX matches_parent;
CREATE INDEX matches_parent ON matches (parent_id) WHERE parent_id IS NOT NULL;
