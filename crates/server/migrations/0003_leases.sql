-- Which server process holds a game (several processes on one PostgreSQL serve the same games,
-- each game by one at a time): its owner's node ID, the address the others forward to, and
-- when the lease runs out (milliseconds since the epoch, by the database's clock) unless
-- renewed. An order is appended only by the lease's owner.
CREATE TABLE leases (
    game_id TEXT PRIMARY KEY REFERENCES games(id),
    owner TEXT NOT NULL,
    addr TEXT NOT NULL,
    expires BIGINT NOT NULL
);
CREATE INDEX leases_owner ON leases (owner);
