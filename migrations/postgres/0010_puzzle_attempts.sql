-- A user's tries at puzzles in a server. At most one is 'active' per user and server (their
-- current puzzle, `progress` plies into its line); it ends 'solved' or 'failed'. `rated`: the
-- user's first try at this puzzle in this server, the only one that moves the ratings.
CREATE TABLE puzzle_attempts (
    id          BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    guild_id    BIGINT  NOT NULL,
    user_id     BIGINT  NOT NULL,
    puzzle_id   BIGINT  NOT NULL REFERENCES puzzles (id),
    status      TEXT    NOT NULL CHECK (status IN ('active', 'solved', 'failed')),
    progress    BIGINT  NOT NULL DEFAULT 0,
    rated       BOOLEAN NOT NULL,
    started_at  BIGINT  NOT NULL,
    finished_at BIGINT
);
CREATE UNIQUE INDEX puzzle_attempts_one_active ON puzzle_attempts (guild_id, user_id)
    WHERE status = 'active';
CREATE INDEX puzzle_attempts_by_puzzle ON puzzle_attempts (guild_id, user_id, puzzle_id);
