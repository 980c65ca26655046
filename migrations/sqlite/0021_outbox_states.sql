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
--
-- SQLite changes a CHECK only by building the table anew (see 0019_booleans.sql): the same
-- columns in the same order, the new one last as PostgreSQL adds it, the AUTOINCREMENT
-- counter kept, the index made again.
CREATE TABLE outbox_new (
    id               INTEGER PRIMARY KEY AUTOINCREMENT,
    channel_id       INTEGER NOT NULL,
    kind             TEXT    NOT NULL,
    payload          TEXT    NOT NULL,
    nonce            TEXT    NOT NULL UNIQUE CHECK (length(nonce) <= 25),
    created_at       INTEGER NOT NULL,
    next_attempt_at  INTEGER NOT NULL,
    attempts         INTEGER NOT NULL DEFAULT 0,
    status           TEXT    NOT NULL DEFAULT 'pending'
                     CHECK (status IN ('held', 'pending', 'claimed', 'delivered', 'failed')),
    failure          TEXT,
    message_id       INTEGER,
    delivered_at     INTEGER,
    held_again       INTEGER NOT NULL DEFAULT 0 CHECK (held_again IN (0, 1))
);
INSERT INTO outbox_new (
    id, channel_id, kind, payload, nonce, created_at, next_attempt_at, attempts, status,
    failure, message_id, delivered_at)
SELECT
    id, channel_id, kind, payload, nonce, created_at, next_attempt_at,
    CASE WHEN status = 'pending' AND attempts = 0 AND next_attempt_at > created_at + 21000
         THEN 1 ELSE attempts END,
    CASE WHEN status <> 'pending' OR attempts > 0 OR next_attempt_at <= created_at THEN status
         WHEN next_attempt_at <= created_at + 21000 THEN 'held'
         ELSE 'claimed' END,
    failure, message_id, delivered_at
FROM outbox;
DELETE FROM sqlite_sequence WHERE name = 'outbox_new';
INSERT INTO sqlite_sequence (name, seq) SELECT 'outbox_new', seq FROM sqlite_sequence WHERE name = 'outbox';
DROP TABLE outbox;
ALTER TABLE outbox_new RENAME TO outbox;
CREATE INDEX outbox_open ON outbox (channel_id, id) WHERE status IN ('held', 'pending', 'claimed');
