-- A challenge to a game: open until the challenged player answers, the challenger cancels, or
-- it expires.
CREATE TABLE challenges (
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
    thread              INTEGER NOT NULL DEFAULT 0,
    status              TEXT    NOT NULL DEFAULT 'pending'
                        CHECK (status IN ('pending', 'accepted', 'declined', 'cancelled', 'expired')),
    game_id             INTEGER REFERENCES games (id),
    message_id          INTEGER,
    created_at          INTEGER NOT NULL,
    expires_at          INTEGER NOT NULL,
    answered_at         INTEGER
);

-- One open challenge per challenger per channel.
CREATE UNIQUE INDEX challenges_one_open ON challenges (channel_id, challenger_id) WHERE status = 'pending';
CREATE INDEX challenges_by_expiry ON challenges (expires_at) WHERE status = 'pending';
