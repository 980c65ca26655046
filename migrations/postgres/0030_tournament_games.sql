-- A match's two games: `leg` 1 (the first seat attacks) and 2. `game_id` is the game once its
-- thread is made and the game started in it (`thread_id`); `first_points` the first seat's
-- points in halves (2 a win, 1 a draw, 0 a loss) once the game ended or was forfeited.
CREATE TABLE tournament_games (
    id            BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    match_id      BIGINT  NOT NULL REFERENCES tournament_matches (id) ON DELETE CASCADE,
    leg           BIGINT  NOT NULL CHECK (leg >= 1 AND leg <= 2),
    game_id       BIGINT  UNIQUE REFERENCES games (id),
    thread_id     BIGINT,
    first_points  BIGINT  CHECK (first_points >= 0 AND first_points <= 2),
    UNIQUE (match_id, leg)
);
