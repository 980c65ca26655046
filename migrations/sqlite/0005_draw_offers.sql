-- Draw offers: at most one open per game; a move by either player lets it lapse.
CREATE TABLE draw_offers (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    game_id     INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    ply         INTEGER NOT NULL,
    offered_by  INTEGER NOT NULL,
    status      TEXT    NOT NULL DEFAULT 'open'
                CHECK (status IN ('open', 'accepted', 'declined', 'lapsed')),
    created_at  INTEGER NOT NULL,
    answered_at INTEGER
);

CREATE UNIQUE INDEX draw_offers_one_open ON draw_offers (game_id) WHERE status = 'open';
