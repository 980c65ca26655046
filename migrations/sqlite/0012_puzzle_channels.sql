-- The channel an admin named for a server's daily puzzle, and the last day (days since the
-- Unix epoch, UTC) whose puzzle was posted there: the day is claimed in the transaction that
-- writes the post to the outbox, so each day's puzzle is posted once.
CREATE TABLE puzzle_channels (
    guild_id    INTEGER PRIMARY KEY,
    channel_id  INTEGER NOT NULL,
    last_day    INTEGER,
    set_by      INTEGER NOT NULL,
    updated_at  INTEGER NOT NULL
);
