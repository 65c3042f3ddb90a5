-- The timer a game runs (T-SETUP-1, T-TURN-2, a Great War phase's deadline) as JSON, its times
-- in milliseconds since the epoch, so that a deadline survives a restart.
CREATE TABLE clocks (
    game_id TEXT PRIMARY KEY REFERENCES games(id),
    state TEXT NOT NULL
);
