-- Turn notifications (src/store/notify.rs): what a member chose, across servers. `mode`:
-- 'move' (a direct message when it is their move), 'digest' (one a day listing the games
-- waiting on them) or 'off'; a member without a row has the default ('move', docs/COMMANDS.md
-- says why). `refused_at`: when Discord refused them a direct message (50007) and their
-- notifications were turned off for it (cleared when they choose again). `digest_day`: the
-- last day (days since the Unix epoch, UTC) a digest was claimed for them, so one process
-- sends it, once a day.
CREATE TABLE notify_settings (
    user_id     INTEGER PRIMARY KEY,
    mode        TEXT    NOT NULL CHECK (mode IN ('move', 'digest', 'off')),
    set_at      INTEGER NOT NULL,
    refused_at  INTEGER,
    digest_day  INTEGER
);
CREATE INDEX notify_settings_digests ON notify_settings (digest_day) WHERE mode = 'digest';
