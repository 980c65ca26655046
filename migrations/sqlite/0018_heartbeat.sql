-- When the bot last ran: one row, beaten by every process's clock (src/store/heartbeat.rs), so
-- that a start after downtime gives the players the time the bot was away. alive_at: the
-- latest beat (Unix ms); expect_by: the latest time by which a process promised its next beat;
-- away_from and away_until: the last downtime given back (from the last beat before it to the
-- start that gave it back).
CREATE TABLE heartbeat (
    id          INTEGER PRIMARY KEY CHECK (id = 1),
    alive_at    INTEGER NOT NULL,
    expect_by   INTEGER NOT NULL,
    away_from   INTEGER,
    away_until  INTEGER
);
