-- A round's pairings: a match of two games, sides swapped (`first_seat` has the attackers in
-- game 1, `second_seat` in game 2), or a bye (`second_seat` NULL). `first_halves` and
-- `second_halves`: the match's game points in halves (0 to 4), set when its last game ends (a
-- bye: 4 and 0). `forfeit`: decided without a game (a seat had withdrawn when it was paired).
-- One match per seat and round is the unique key's.
CREATE TABLE tournament_matches (
    id             INTEGER PRIMARY KEY AUTOINCREMENT,
    tournament_id  INTEGER  NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    round          INTEGER  NOT NULL,
    first_seat     INTEGER  NOT NULL,
    second_seat    INTEGER,
    first_halves   INTEGER,
    second_halves  INTEGER,
    forfeit        INTEGER NOT NULL DEFAULT 0 CHECK (forfeit IN (0, 1)),
    UNIQUE (tournament_id, round, first_seat)
);
