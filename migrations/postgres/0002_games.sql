-- A game in a channel. Each side is a Discord user (user_id) or the AI (ai_level).
-- The move list (moves) is the source of truth; ply and position are a cache of it.
CREATE TABLE games (
    id                 BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    guild_id           BIGINT,
    channel_id         BIGINT  NOT NULL,
    attacker_user_id   BIGINT,
    attacker_ai_level  TEXT CHECK (attacker_ai_level IN ('easy', 'medium', 'hard')),
    attacker_name      TEXT    NOT NULL,
    defender_user_id   BIGINT,
    defender_ai_level  TEXT CHECK (defender_ai_level IN ('easy', 'medium', 'hard')),
    defender_name      TEXT    NOT NULL,
    rules              TEXT    NOT NULL,
    -- A start other than the standard one: its position record and the side to move.
    start_position     TEXT,
    start_turn         TEXT CHECK (start_turn IN ('attackers', 'defenders')),
    rated              BOOLEAN NOT NULL DEFAULT FALSE,
    status             TEXT    NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'finished')),
    result             TEXT CHECK (result IN ('attackers_won', 'defenders_won', 'draw')),
    reason             TEXT,
    ply                BIGINT  NOT NULL DEFAULT 0,
    position           TEXT    NOT NULL,
    time_per_move_ms   BIGINT,
    turn_deadline      BIGINT,
    reminders_sent     BIGINT  NOT NULL DEFAULT 0,
    last_reminder_at   BIGINT,
    board_message_id   BIGINT,
    created_at         BIGINT  NOT NULL,
    updated_at         BIGINT  NOT NULL,
    ended_at           BIGINT,
    CHECK ((attacker_user_id IS NULL) <> (attacker_ai_level IS NULL)),
    CHECK ((defender_user_id IS NULL) <> (defender_ai_level IS NULL)),
    CHECK ((status = 'active') = (result IS NULL))
);

-- One active game per channel: the constraint, not a read-then-insert, keeps it so.
CREATE UNIQUE INDEX games_one_active_per_channel ON games (channel_id) WHERE status = 'active';
CREATE INDEX games_by_guild ON games (guild_id, status);
CREATE INDEX games_by_deadline ON games (turn_deadline) WHERE status = 'active' AND turn_deadline IS NOT NULL;
CREATE INDEX games_by_channel ON games (channel_id, id);
