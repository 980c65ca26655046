-- The moves of a game, in order: the source of truth for its position. (game_id, ply) is unique,
-- so a move is never recorded twice and two moves for the same ply cannot both land.
CREATE TABLE moves (
    game_id    INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    ply        INTEGER NOT NULL CHECK (ply >= 1),
    notation   TEXT    NOT NULL,
    user_id    INTEGER,
    played_at  INTEGER NOT NULL,
    PRIMARY KEY (game_id, ply)
) WITHOUT ROWID;
