-- An outbox row's state is a column, no longer a reading of its times: `held` (written with a
-- change an interaction answers, waiting for that answer until `next_attempt_at`), `pending`
-- (due at `next_attempt_at`), `claimed` (a dispatcher is attempting it; no other takes it
-- before `next_attempt_at`, its lease's end), `delivered` or `failed`. `attempts` counts the
-- claims (an attempt under way counts), so a row claimed before a crash is looked for in its
-- channel before it is sent again. `held_again`: the answer asked for a second hold, which it
-- gets once.
--
-- Existing rows keep what today's times say of them: a pending row never attempted whose next
-- attempt lies after its writing but within the default answer grace (21 s) is held; one
-- never attempted whose next attempt lies later was claimed (or held again for a late answer,
-- which a dispatcher treats the same: it asks for the answer, then looks in the channel) and
-- counts that claim as an attempt.
ALTER TABLE outbox ADD COLUMN held_again BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE outbox DROP CONSTRAINT outbox_status_check;
UPDATE outbox SET status = 'held'
    WHERE status = 'pending' AND attempts = 0
      AND next_attempt_at > created_at AND next_attempt_at <= created_at + 21000;
UPDATE outbox SET status = 'claimed', attempts = 1
    WHERE status = 'pending' AND attempts = 0 AND next_attempt_at > created_at + 21000;
ALTER TABLE outbox ADD CONSTRAINT outbox_status_check
    CHECK (status IN ('held', 'pending', 'claimed', 'delivered', 'failed'));
DROP INDEX outbox_pending;
CREATE INDEX outbox_open ON outbox (channel_id, id) WHERE status IN ('held', 'pending', 'claimed');
