-- A finished game's post-game analysis: every position searched once, in order, each result
-- kept as it is computed (so a restart resumes where it stopped and nothing is searched twice).
-- `evaluations` is a JSON array with one entry per position searched so far, the start first:
-- {"score": centi-soldiers from the side to move, "best": "e1-e3", "depth", "nodes"}, or null for
-- a position the rules had decided; `done` is its length. The analysis is finished when `done`
-- is `plies + 1` and `finished_at` is set, in the transaction that writes its summary to the
-- outbox.
CREATE TABLE analyses (
    game_id          INTEGER PRIMARY KEY REFERENCES games (id),
    -- Where the progress and the summary go.
    channel_id       INTEGER NOT NULL,
    requested_by     INTEGER,
    plies            INTEGER NOT NULL CHECK (plies >= 1),
    done             INTEGER NOT NULL DEFAULT 0,
    evaluations      TEXT    NOT NULL DEFAULT '[]',
    -- How each position is searched: {"ms_per_ply": 400} or {"depth": 4}; and the curve's scale.
    settings         TEXT    NOT NULL,
    -- The outbox row whose message shows the progress (edited as it goes).
    progress_notice  INTEGER,
    created_at       INTEGER NOT NULL,
    finished_at      INTEGER,
    CHECK (done >= 0 AND done <= plies + 1),
    CHECK ((finished_at IS NULL) OR (done = plies + 1))
);

CREATE INDEX analyses_unfinished ON analyses (created_at) WHERE finished_at IS NULL;
