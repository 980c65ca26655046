-- A round's pairings: a match of two games, sides swapped (`first_seat` has the attackers in
-- game 1, `second_seat` in game 2), or a bye (`second_seat` NULL). `first_halves` and
-- `second_halves`: the match's game points in halves (0 to 4), set when its last game ends (a
-- bye: 4 and 0). `forfeit`: decided without a game (a seat had withdrawn when it was paired).
-- One match per seat and round is the unique key's.
CREATE TABLE tournament_matches (
    id             BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    tournament_id  BIGINT  NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    round          BIGINT  NOT NULL,
    first_seat     BIGINT  NOT NULL,
    second_seat    BIGINT,
    first_halves   BIGINT,
    second_halves  BIGINT,
    forfeit        BOOLEAN NOT NULL DEFAULT FALSE,
    UNIQUE (tournament_id, round, first_seat)
);
