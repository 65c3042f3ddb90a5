-- The store of record: a game is its scenario, its seed and its order log; seats and the
-- written record (chat, directives, the moderator's actions) beside it.
CREATE TABLE games (
    id TEXT PRIMARY KEY,
    kind TEXT NOT NULL,
    scenario TEXT NOT NULL,
    scenario_hash TEXT NOT NULL,
    seed BIGINT NOT NULL,
    seed_commit TEXT NOT NULL,
    settings TEXT NOT NULL,
    paused INTEGER NOT NULL,
    over INTEGER NOT NULL,
    created BIGINT NOT NULL
);
CREATE TABLE seats (
    game_id TEXT NOT NULL REFERENCES games(id),
    seat INTEGER NOT NULL,
    role TEXT NOT NULL,
    name TEXT NOT NULL,
    token_hash TEXT NOT NULL,
    ai TEXT,
    webhook TEXT,
    PRIMARY KEY (game_id, seat)
);
CREATE TABLE orders (
    game_id TEXT NOT NULL REFERENCES games(id),
    idx BIGINT NOT NULL,
    seat INTEGER,
    seq BIGINT,
    source TEXT NOT NULL,
    body TEXT NOT NULL,
    PRIMARY KEY (game_id, idx)
);
CREATE TABLE mail (
    game_id TEXT NOT NULL REFERENCES games(id),
    idx BIGINT NOT NULL,
    kind TEXT NOT NULL,
    from_seat INTEGER,
    seq BIGINT,
    recipients TEXT NOT NULL,
    deliver_at BIGINT NOT NULL,
    body TEXT NOT NULL,
    PRIMARY KEY (game_id, idx)
);
