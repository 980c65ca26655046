-- A tournament's entrants. `seat` (0, 1, ...) is given at the start, in the order they joined;
-- `withdrawn_round`: withdrawn (or removed) after that round was paired (0: before the first),
-- their games not played lost, never paired again. Leaving before the start deletes the row.
CREATE TABLE tournament_entrants (
    tournament_id   BIGINT  NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    user_id         BIGINT  NOT NULL,
    name            TEXT    NOT NULL,
    seat            BIGINT,
    joined_at       BIGINT  NOT NULL,
    withdrawn_round BIGINT,
    PRIMARY KEY (tournament_id, user_id)
);

CREATE UNIQUE INDEX tournament_entrants_seat ON tournament_entrants (tournament_id, seat);
CREATE INDEX tournament_entrants_by_user ON tournament_entrants (user_id);
