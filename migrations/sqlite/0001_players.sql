-- A player's record and Glicko-2 rating in one server (guild). Discord ids are 64-bit unsigned;
-- they are stored in SQLite's signed 64-bit INTEGER by reinterpreting the bits, which is lossless.
CREATE TABLE players (
    guild_id     INTEGER NOT NULL,
    user_id      INTEGER NOT NULL,
    name         TEXT    NOT NULL,
    rating       REAL    NOT NULL DEFAULT 1500.0,
    deviation    REAL    NOT NULL DEFAULT 350.0,
    volatility   REAL    NOT NULL DEFAULT 0.06,
    rated_games  INTEGER NOT NULL DEFAULT 0,
    updated_at   INTEGER NOT NULL,
    PRIMARY KEY (guild_id, user_id)
);
