-- Whether a challenge is to a rated game (the default) or a casual one: a casual game changes
-- no ratings, and its players may ask for hints. The challenges there were are rated.
ALTER TABLE challenges ADD COLUMN rated INTEGER NOT NULL DEFAULT 1;
