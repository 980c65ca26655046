-- What the bot owes a channel: every post or edit outside an interaction's immediate answer,
-- written in the same transaction as the change that causes it and delivered from here by one
-- dispatcher, in order within a channel (by id), retried until Discord takes it or refuses it
-- for good. `payload` is JSON text: the text, the board to draw at delivery (game and ply, never
-- the image itself), buttons, or a message to edit. `nonce` goes with the post (enforce_nonce),
-- so a retry after an ambiguous failure is not shown twice.
CREATE TABLE outbox (
    id               BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    channel_id       BIGINT NOT NULL,
    kind             TEXT   NOT NULL,
    payload          TEXT   NOT NULL,
    nonce            TEXT   NOT NULL UNIQUE CHECK (length(nonce) <= 25),
    created_at       BIGINT NOT NULL,
    -- Not before this (Unix ms): a move answered by its interaction is held a few seconds.
    next_attempt_at  BIGINT NOT NULL,
    attempts         BIGINT NOT NULL DEFAULT 0,
    status           TEXT   NOT NULL DEFAULT 'pending'
                     CHECK (status IN ('pending', 'delivered', 'failed')),
    failure          TEXT,
    message_id       BIGINT,
    delivered_at     BIGINT
);

CREATE INDEX outbox_pending ON outbox (channel_id, id) WHERE status = 'pending';
