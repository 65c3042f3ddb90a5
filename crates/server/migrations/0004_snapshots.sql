-- A Great War game's snapshots (`rules::strategic::Snapshot` as JSON), taken when a turn begins,
-- after `after` orders of its log; the two newest are kept. A game is restored from the older
-- of them (a turn behind: every power orders every turn, so each seat's latest order is after
-- it and its answer can be given again) and the rest of its log, not from its whole log.
CREATE TABLE snapshots (
    game_id TEXT NOT NULL REFERENCES games(id),
    after BIGINT NOT NULL,
    state TEXT NOT NULL,
    PRIMARY KEY (game_id, after)
);
