-- A user's tries at puzzles in a server. At most one is 'active' per user and server (their
-- current puzzle, `progress` plies into its line); it ends 'solved' or 'failed'. `rated`: the
-- user's first try at this puzzle in this server, the only one that moves the ratings.
CREATE TABLE puzzle_attempts (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id    INTEGER NOT NULL,
    user_id     INTEGER NOT NULL,
    puzzle_id   INTEGER NOT NULL REFERENCES puzzles (id),
    status      TEXT    NOT NULL CHECK (status IN ('active', 'solved', 'failed')),
    progress    INTEGER NOT NULL DEFAULT 0,
    rated       INTEGER NOT NULL CHECK (rated IN (0, 1)),
    started_at  INTEGER NOT NULL,
    finished_at INTEGER
);
CREATE UNIQUE INDEX puzzle_attempts_one_active ON puzzle_attempts (guild_id, user_id)
    WHERE status = 'active';
CREATE INDEX puzzle_attempts_by_puzzle ON puzzle_attempts (guild_id, user_id, puzzle_id);
