-- Members forgotten (docs/PRIVACY.md) all become the stand-in, id 0, in the tournaments they
-- finished, and one tournament may hold several: a member enters a tournament once, the
-- stand-in as often as members are forgotten. SQLite drops a primary key only by building the
-- table anew (as 0019_booleans.sql does): the same columns in the same order, the rows copied
-- as they are, the indexes made again.
CREATE TABLE tournament_entrants_new (
    tournament_id   INTEGER  NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    user_id         INTEGER  NOT NULL,
    name            TEXT    NOT NULL,
    seat            INTEGER,
    joined_at       INTEGER  NOT NULL,
    withdrawn_round INTEGER
);

INSERT INTO tournament_entrants_new (tournament_id, user_id, name, seat, joined_at, withdrawn_round)
    SELECT tournament_id, user_id, name, seat, joined_at, withdrawn_round FROM tournament_entrants;

DROP TABLE tournament_entrants;

ALTER TABLE tournament_entrants_new RENAME TO tournament_entrants;

CREATE UNIQUE INDEX tournament_entrants_seat ON tournament_entrants (tournament_id, seat);
CREATE INDEX tournament_entrants_by_user ON tournament_entrants (user_id);
CREATE UNIQUE INDEX tournament_entrants_once ON tournament_entrants (tournament_id, user_id)
    WHERE user_id <> 0;
