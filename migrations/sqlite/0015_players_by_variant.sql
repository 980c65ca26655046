-- One rating a game of the tafl family (as lichess keeps one a variant): a player's row is per
-- server, user and variant ('tablut', 'brandubh', 'copenhagen'). The rows there were are
-- Tablut's. SQLite cannot change a primary key, so the table is made again with the variant
-- (last, as PostgreSQL's ADD COLUMN puts it) and the rows copied.
CREATE TABLE players_by_variant (
    guild_id     INTEGER NOT NULL,
    user_id      INTEGER NOT NULL,
    name         TEXT    NOT NULL,
    rating       REAL    NOT NULL DEFAULT 1500.0,
    deviation    REAL    NOT NULL DEFAULT 350.0,
    volatility   REAL    NOT NULL DEFAULT 0.06,
    rated_games  INTEGER NOT NULL DEFAULT 0,
    updated_at   INTEGER NOT NULL,
    variant      TEXT    NOT NULL DEFAULT 'tablut'
                 CHECK (variant IN ('tablut', 'brandubh', 'copenhagen')),
    PRIMARY KEY (guild_id, variant, user_id)
);
INSERT INTO players_by_variant
    (guild_id, user_id, name, rating, deviation, volatility, rated_games, updated_at, variant)
    SELECT guild_id, user_id, name, rating, deviation, volatility, rated_games, updated_at, 'tablut'
    FROM players;
DROP TABLE players;
ALTER TABLE players_by_variant RENAME TO players;
