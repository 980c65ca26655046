-- The flags are 0 or 1, as PostgreSQL's BOOLEAN holds them there and as puzzle_attempts.rated
-- already was: games.rated, challenges.thread and challenges.rated were INTEGERs any number
-- could be written to (tests/schema.rs found the difference). SQLite adds a CHECK to a table
-- only by building the table anew (https://www.sqlite.org/lang_altertable.html#otheralter):
-- the same columns in the same order, the rows copied as they are, the indexes made again, the
-- AUTOINCREMENT counter kept. The store runs the migrations with foreign keys off, so dropping
-- the old table deletes none of the rows that refer to it, and checks every foreign key after
-- (src/store/mod.rs).
CREATE TABLE games_new (
    id                 INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id           INTEGER,
    channel_id         INTEGER NOT NULL,
    attacker_user_id   INTEGER,
    attacker_ai_level  TEXT CHECK (attacker_ai_level IN ('easy', 'medium', 'hard')),
    attacker_name      TEXT    NOT NULL,
    defender_user_id   INTEGER,
    defender_ai_level  TEXT CHECK (defender_ai_level IN ('easy', 'medium', 'hard')),
    defender_name      TEXT    NOT NULL,
    rules              TEXT    NOT NULL,
    start_position     TEXT,
    start_turn         TEXT CHECK (start_turn IN ('attackers', 'defenders')),
    rated              INTEGER NOT NULL DEFAULT 0 CHECK (rated IN (0, 1)),
    status             TEXT    NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'finished')),
    result             TEXT CHECK (result IN ('attackers_won', 'defenders_won', 'draw')),
    reason             TEXT,
    ply                INTEGER NOT NULL DEFAULT 0,
    position           TEXT    NOT NULL,
    time_per_move_ms   INTEGER,
    turn_deadline      INTEGER,
    reminders_sent     INTEGER NOT NULL DEFAULT 0,
    last_reminder_at   INTEGER,
    board_message_id   INTEGER,
    created_at         INTEGER NOT NULL,
    updated_at         INTEGER NOT NULL,
    ended_at           INTEGER,
    ai_claimed_ply     INTEGER,
    ai_claimed_by      TEXT,
    ai_claimed_until   INTEGER,
    clock_claimed_by   TEXT,
    clock_claimed_until INTEGER,
    CHECK ((attacker_user_id IS NULL) <> (attacker_ai_level IS NULL)),
    CHECK ((defender_user_id IS NULL) <> (defender_ai_level IS NULL)),
    CHECK ((status = 'active') = (result IS NULL))
);
INSERT INTO games_new (
    id, guild_id, channel_id, attacker_user_id, attacker_ai_level, attacker_name,
    defender_user_id, defender_ai_level, defender_name, rules, start_position, start_turn,
    rated, status, result, reason, ply, position, time_per_move_ms, turn_deadline,
    reminders_sent, last_reminder_at, board_message_id, created_at, updated_at, ended_at,
    ai_claimed_ply, ai_claimed_by, ai_claimed_until, clock_claimed_by, clock_claimed_until)
SELECT
    id, guild_id, channel_id, attacker_user_id, attacker_ai_level, attacker_name,
    defender_user_id, defender_ai_level, defender_name, rules, start_position, start_turn,
    rated, status, result, reason, ply, position, time_per_move_ms, turn_deadline,
    reminders_sent, last_reminder_at, board_message_id, created_at, updated_at, ended_at,
    ai_claimed_ply, ai_claimed_by, ai_claimed_until, clock_claimed_by, clock_claimed_until
FROM games;
DELETE FROM sqlite_sequence WHERE name = 'games_new';
INSERT INTO sqlite_sequence (name, seq) SELECT 'games_new', seq FROM sqlite_sequence WHERE name = 'games';
DROP TABLE games;
ALTER TABLE games_new RENAME TO games;
CREATE UNIQUE INDEX games_one_active_per_channel ON games (channel_id) WHERE status = 'active';
CREATE INDEX games_by_guild ON games (guild_id, status);
CREATE INDEX games_by_deadline ON games (turn_deadline) WHERE status = 'active' AND turn_deadline IS NOT NULL;
CREATE INDEX games_by_channel ON games (channel_id, id);

CREATE TABLE challenges_new (
    id                  INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id            INTEGER,
    channel_id          INTEGER NOT NULL,
    challenger_id       INTEGER NOT NULL,
    challenger_name     TEXT    NOT NULL,
    challenged_id       INTEGER NOT NULL,
    challenged_name     TEXT    NOT NULL,
    side                TEXT    NOT NULL CHECK (side IN ('attackers', 'defenders', 'random')),
    rules               TEXT    NOT NULL,
    start_position      TEXT,
    start_turn          TEXT CHECK (start_turn IN ('attackers', 'defenders')),
    time_per_move_ms    INTEGER,
    thread              INTEGER NOT NULL DEFAULT 0 CHECK (thread IN (0, 1)),
    status              TEXT    NOT NULL DEFAULT 'pending'
                        CHECK (status IN ('pending', 'accepted', 'declined', 'cancelled', 'expired')),
    game_id             INTEGER REFERENCES games (id),
    message_id          INTEGER,
    created_at          INTEGER NOT NULL,
    expires_at          INTEGER NOT NULL,
    answered_at         INTEGER,
    rated               INTEGER NOT NULL DEFAULT 1 CHECK (rated IN (0, 1))
);
INSERT INTO challenges_new (
    id, guild_id, channel_id, challenger_id, challenger_name, challenged_id, challenged_name,
    side, rules, start_position, start_turn, time_per_move_ms, thread, status, game_id,
    message_id, created_at, expires_at, answered_at, rated)
SELECT
    id, guild_id, channel_id, challenger_id, challenger_name, challenged_id, challenged_name,
    side, rules, start_position, start_turn, time_per_move_ms, thread, status, game_id,
    message_id, created_at, expires_at, answered_at, rated
FROM challenges;
DELETE FROM sqlite_sequence WHERE name = 'challenges_new';
INSERT INTO sqlite_sequence (name, seq) SELECT 'challenges_new', seq FROM sqlite_sequence WHERE name = 'challenges';
DROP TABLE challenges;
ALTER TABLE challenges_new RENAME TO challenges;
CREATE UNIQUE INDEX challenges_one_open ON challenges (channel_id, challenger_id) WHERE status = 'pending';
CREATE INDEX challenges_by_expiry ON challenges (expires_at) WHERE status = 'pending';
CREATE INDEX challenges_open_by_challenger ON challenges (challenger_id) WHERE status = 'pending';
CREATE INDEX challenges_by_challenged ON challenges (challenged_id, created_at);
