-- Draw offers: at most one open per game; a move by either player lets it lapse.
CREATE TABLE draw_offers (
    id          BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    game_id     BIGINT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    ply         BIGINT NOT NULL,
    offered_by  BIGINT NOT NULL,
    status      TEXT   NOT NULL DEFAULT 'open'
                CHECK (status IN ('open', 'accepted', 'declined', 'lapsed')),
    created_at  BIGINT NOT NULL,
    answered_at BIGINT
);

CREATE UNIQUE INDEX draw_offers_one_open ON draw_offers (game_id) WHERE status = 'open';
