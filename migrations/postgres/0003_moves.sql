-- The moves of a game, in order: the source of truth for its position. (game_id, ply) is unique,
-- so a move is never recorded twice and two moves for the same ply cannot both land.
CREATE TABLE moves (
    game_id    BIGINT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    ply        BIGINT NOT NULL CHECK (ply >= 1),
    notation   TEXT   NOT NULL,
    user_id    BIGINT,
    played_at  BIGINT NOT NULL,
    PRIMARY KEY (game_id, ply)
);
