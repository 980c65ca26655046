-- A player's record and Glicko-2 rating in one server (guild). Discord ids are 64-bit unsigned;
-- they are stored in BIGINT by reinterpreting the bits, which is lossless (as on SQLite).
CREATE TABLE players (
    guild_id     BIGINT           NOT NULL,
    user_id      BIGINT           NOT NULL,
    name         TEXT             NOT NULL,
    rating       DOUBLE PRECISION NOT NULL DEFAULT 1500.0,
    deviation    DOUBLE PRECISION NOT NULL DEFAULT 350.0,
    volatility   DOUBLE PRECISION NOT NULL DEFAULT 0.06,
    rated_games  BIGINT           NOT NULL DEFAULT 0,
    updated_at   BIGINT           NOT NULL,
    PRIMARY KEY (guild_id, user_id)
);
