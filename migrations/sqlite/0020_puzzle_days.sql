-- The daily puzzle: the puzzle each server was given for each day (days since the Unix epoch,
-- UTC), written in the transaction that posts it, so that the puzzle a day's post shows is the
-- one its players answer (though puzzles found later that day change which one the turn of
-- puzzles would give). A user's try at the day's puzzle is a try like any other (the first at
-- a puzzle rated), marked with its day: one per user, server and day, and beside the user's
-- own current puzzle rather than in its place.
CREATE TABLE puzzle_days (
    guild_id    INTEGER NOT NULL,
    day         INTEGER NOT NULL,
    puzzle_id   INTEGER NOT NULL REFERENCES puzzles (id),
    channel_id  INTEGER NOT NULL,
    posted_at   INTEGER NOT NULL,
    PRIMARY KEY (guild_id, day)
);
ALTER TABLE puzzle_attempts ADD COLUMN day INTEGER;
DROP INDEX puzzle_attempts_one_active;
CREATE UNIQUE INDEX puzzle_attempts_one_active ON puzzle_attempts (guild_id, user_id)
    WHERE status = 'active' AND day IS NULL;
CREATE UNIQUE INDEX puzzle_attempts_one_a_day ON puzzle_attempts (guild_id, user_id, day)
    WHERE day IS NOT NULL;
