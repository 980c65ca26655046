-- A challenge to a game: open until the challenged player answers, the challenger cancels, or
-- it expires.
CREATE TABLE challenges (
    id                  BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    guild_id            BIGINT,
    channel_id          BIGINT  NOT NULL,
    challenger_id       BIGINT  NOT NULL,
    challenger_name     TEXT    NOT NULL,
    challenged_id       BIGINT  NOT NULL,
    challenged_name     TEXT    NOT NULL,
    side                TEXT    NOT NULL CHECK (side IN ('attackers', 'defenders', 'random')),
    rules               TEXT    NOT NULL,
    start_position      TEXT,
    start_turn          TEXT CHECK (start_turn IN ('attackers', 'defenders')),
    time_per_move_ms    BIGINT,
    thread              BOOLEAN NOT NULL DEFAULT FALSE,
    status              TEXT    NOT NULL DEFAULT 'pending'
                        CHECK (status IN ('pending', 'accepted', 'declined', 'cancelled', 'expired')),
    game_id             BIGINT REFERENCES games (id),
    message_id          BIGINT,
    created_at          BIGINT  NOT NULL,
    expires_at          BIGINT  NOT NULL,
    answered_at         BIGINT
);

-- One open challenge per challenger per channel.
CREATE UNIQUE INDEX challenges_one_open ON challenges (channel_id, challenger_id) WHERE status = 'pending';
CREATE INDEX challenges_by_expiry ON challenges (expires_at) WHERE status = 'pending';
