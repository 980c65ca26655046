-- A match's two games: `leg` 1 (the first seat attacks) and 2. `game_id` is the game once its
-- thread is made and the game started in it (`thread_id`); `first_points` the first seat's
-- points in halves (2 a win, 1 a draw, 0 a loss) once the game ended or was forfeited.
CREATE TABLE tournament_games (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    match_id      INTEGER  NOT NULL REFERENCES tournament_matches (id) ON DELETE CASCADE,
    leg           INTEGER  NOT NULL CHECK (leg >= 1 AND leg <= 2),
    game_id       INTEGER  UNIQUE REFERENCES games (id),
    thread_id     INTEGER,
    first_points  INTEGER  CHECK (first_points >= 0 AND first_points <= 2),
    UNIQUE (match_id, leg)
);
