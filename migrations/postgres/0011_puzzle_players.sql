-- A user's puzzle rating (Glicko-2) in one server, and their solved and failed first tries.
CREATE TABLE puzzle_players (
    guild_id     BIGINT  NOT NULL,
    user_id      BIGINT  NOT NULL,
    name         TEXT    NOT NULL,
    rating       DOUBLE PRECISION NOT NULL,
    deviation    DOUBLE PRECISION NOT NULL,
    volatility   DOUBLE PRECISION NOT NULL,
    solved       BIGINT  NOT NULL DEFAULT 0,
    failed       BIGINT  NOT NULL DEFAULT 0,
    updated_at   BIGINT  NOT NULL,
    PRIMARY KEY (guild_id, user_id)
);
