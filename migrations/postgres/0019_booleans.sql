-- The flags games.rated, challenges.thread and challenges.rated are BOOLEAN here from the
-- start; this migration holds their SQLite INTEGERs to 0 and 1 on SQLite (its 0019) and
-- changes nothing on PostgreSQL.
SELECT 1;
