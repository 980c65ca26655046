-- One rating a game of the tafl family (as lichess keeps one a variant): a player's row is per
-- server, user and variant ('tablut', 'brandubh', 'copenhagen'). The rows there were are
-- Tablut's (the column's default).
ALTER TABLE players ADD COLUMN variant TEXT NOT NULL DEFAULT 'tablut'
    CHECK (variant IN ('tablut', 'brandubh', 'copenhagen'));
ALTER TABLE players DROP CONSTRAINT players_pkey;
ALTER TABLE players ADD PRIMARY KEY (guild_id, variant, user_id);
