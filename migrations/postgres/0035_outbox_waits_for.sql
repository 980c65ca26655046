-- A notice that waits for another (a turn's direct message, which links to the message the
-- notice showing the turn becomes): `waits_for` is that notice's id. It is not due until that
-- notice is delivered or given up (or gone), or until its `next_attempt_at`, the most it
-- waits; its first claim ends the wait (NULL).
ALTER TABLE outbox ADD COLUMN waits_for BIGINT;
