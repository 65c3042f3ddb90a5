-- A Great War game's latest snapshot (`rules::strategic::Snapshot` as JSON), taken when a turn
-- begins, after `after` orders of its log: a game is restored from it and the rest of its log,
-- not from its whole log. Only the latest is kept.
CREATE TABLE snapshots (
    game_id TEXT PRIMARY KEY REFERENCES games(id),
    after BIGINT NOT NULL,
    state TEXT NOT NULL
);
