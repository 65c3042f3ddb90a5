//! The two SQL back ends. Both run the same statements (numbered `$n` placeholders, which
//! SQLite reads as positional parameters too), written once by [`sql_store!`].

use super::{
    GameRecord, Lease, MailRecord, OrderRecord, SeatRecord, Store, StoreError, StoreFuture, StoreResult, TokenSeat,
};
use sqlx::Row;
use std::str::FromStr;
use std::time::Duration;

/// The embedded migrations, in order; each runs once, in a transaction.
const MIGRATIONS: &[(i64, &str)] = &[
    (1, include_str!("../../migrations/0001_games.sql")),
    (2, include_str!("../../migrations/0002_clocks.sql")),
    (3, include_str!("../../migrations/0003_leases.sql")),
    (4, include_str!("../../migrations/0004_snapshots.sql")),
];

const CREATE_MIGRATIONS: &str = "CREATE TABLE IF NOT EXISTS schema_migrations (version BIGINT PRIMARY KEY)";
const INSERT_GAME: &str = "INSERT INTO games (id, kind, scenario, scenario_hash, seed, seed_commit, settings, paused, over, created) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)";
const INSERT_SEAT: &str =
    "INSERT INTO seats (game_id, seat, role, name, token_hash, ai, webhook) VALUES ($1, $2, $3, $4, $5, $6, $7)";
const SELECT_GAMES: &str = "SELECT id, kind, scenario, scenario_hash, seed, seed_commit, settings, paused, over, created FROM games ORDER BY created, id";
const SELECT_GAME: &str = "SELECT id, kind, scenario, scenario_hash, seed, seed_commit, settings, paused, over, created FROM games WHERE id = $1";
const SELECT_SEATS: &str =
    "SELECT seat, role, name, token_hash, ai, webhook FROM seats WHERE game_id = $1 ORDER BY seat";
const SELECT_ORDERS: &str = "SELECT idx, seat, seq, source, body FROM orders WHERE game_id = $1 ORDER BY idx";
const INSERT_ORDER: &str = "INSERT INTO orders (game_id, idx, seat, seq, source, body) VALUES ($1, $2, $3, $4, $5, $6)";
const SELECT_MAIL: &str =
    "SELECT idx, kind, from_seat, seq, recipients, deliver_at, body FROM mail WHERE game_id = $1 ORDER BY idx";
const INSERT_MAIL: &str = "INSERT INTO mail (game_id, idx, kind, from_seat, seq, recipients, deliver_at, body) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)";
const UPDATE_SEAT: &str = "UPDATE seats SET role = $1, ai = $2, webhook = $3 WHERE game_id = $4 AND seat = $5";
const SELECT_CLOCK: &str = "SELECT state FROM clocks WHERE game_id = $1";
const UPSERT_CLOCK: &str =
    "INSERT INTO clocks (game_id, state) VALUES ($1, $2) ON CONFLICT (game_id) DO UPDATE SET state = excluded.state";
const UPDATE_FLAGS: &str = "UPDATE games SET paused = $1, over = $2 WHERE id = $3";
const SELECT_TOKEN_SEATS: &str = "SELECT s.game_id, s.seat, s.name, g.kind, g.scenario FROM seats s JOIN games g ON g.id = s.game_id WHERE s.token_hash = $1 ORDER BY g.created, s.game_id, s.seat";
const UPSERT_SNAPSHOT: &str = "INSERT INTO snapshots (game_id, after, state) VALUES ($1, $2, $3) ON CONFLICT (game_id, after) DO UPDATE SET state = excluded.state";
const PRUNE_SNAPSHOTS: &str = "DELETE FROM snapshots WHERE game_id = $1 AND after NOT IN (SELECT after FROM snapshots WHERE game_id = $1 ORDER BY after DESC LIMIT 2)";
/// The older of the two newest: a turn behind the newest.
const SELECT_SNAPSHOT: &str =
    "SELECT after, state FROM snapshots WHERE game_id = $1 ORDER BY after DESC LIMIT 1 OFFSET 1";
const SELECT_LEASE: &str = "SELECT owner, addr, expires FROM leases WHERE game_id = $1";
const SELECT_HELD: &str = "SELECT game_id FROM leases WHERE owner = $1 ORDER BY game_id";
const SELECT_OTHERS: &str = "SELECT game_id, owner FROM leases WHERE owner <> $1 ORDER BY game_id";
const DELETE_LEASE: &str = "DELETE FROM leases WHERE game_id = $1 AND owner = $2";

/// Whether a text is a node ID as [`new_node`] makes them (other text names no node).
fn is_node_id(node: &str) -> bool {
    node.len() == 32 && node.bytes().all(|b| b.is_ascii_hexdigit())
}

/// A fresh node ID: 128 random bits, hex.
fn new_node() -> StoreResult<String> {
    let mut bytes = [0u8; 16];
    getrandom::fill(&mut bytes).map_err(|e| StoreError::Damaged(format!("no randomness for a node ID: {e}")))?;
    Ok(crate::seats::hex(&bytes))
}

fn seed_bits(seed: u64) -> i64 {
    i64::from_ne_bytes(seed.to_ne_bytes())
}

fn seed_of(bits: i64) -> u64 {
    u64::from_ne_bytes(bits.to_ne_bytes())
}

/// A duplicate key means another writer got there first.
fn conflict(e: sqlx::Error, idx: i64) -> StoreError {
    match &e {
        sqlx::Error::Database(d) if d.is_unique_violation() => StoreError::Conflict(idx),
        _ => StoreError::Db(e),
    }
}

macro_rules! sql_store {
    ($name:ident, $db:ty, $lock:expr, $now:literal, $for_update:literal, $begin_write:literal) => {
        impl $name {
            const CLAIM: &str = concat!(
                "INSERT INTO leases (game_id, owner, addr, expires) VALUES ($1, $2, $3, ",
                $now,
                " + $4) ON CONFLICT (game_id) DO UPDATE SET owner = excluded.owner, addr = excluded.addr, expires = excluded.expires WHERE leases.owner = excluded.owner OR leases.expires < ",
                $now
            );
            const TAKE_OVER: &str = concat!(
                "UPDATE leases SET owner = $1, addr = $2, expires = ",
                $now,
                " + $3 WHERE game_id = $4 AND owner = $5"
            );
            const RENEW: &str = concat!("UPDATE leases SET expires = ", $now, " + $1 WHERE owner = $2");
            const UNHELD: &str = concat!(
                "SELECT g.id FROM games g LEFT JOIN leases l ON l.game_id = g.id WHERE l.game_id IS NULL OR l.expires < ",
                $now,
                " ORDER BY g.created, g.id"
            );
            const FENCE: &str = concat!("SELECT owner FROM leases WHERE game_id = $1", $for_update);

            /// A row of `games` as a record.
            fn game_of(r: &<$db as sqlx::Database>::Row) -> Result<GameRecord, sqlx::Error> {
                Ok(GameRecord {
                    id: r.try_get(0)?,
                    kind: r.try_get(1)?,
                    scenario: r.try_get(2)?,
                    scenario_hash: r.try_get(3)?,
                    seed: seed_of(r.try_get(4)?),
                    seed_commit: r.try_get(5)?,
                    settings: r.try_get(6)?,
                    paused: r.try_get::<i32, _>(7)? != 0,
                    over: r.try_get::<i32, _>(8)? != 0,
                    created: r.try_get(9)?,
                })
            }

            /// A transaction that writes a game: the holder's only, as the log is (a process that
            /// lost the game changes nothing of it). Begun as a write at once: the fence's read
            /// must not be a snapshot another writer overtakes (SQLite would refuse the upgrade to
            /// a write as "locked").
            async fn write(&self, game: &str) -> StoreResult<sqlx::Transaction<'static, $db>> {
                let mut tx = self.pool.begin_with($begin_write).await?;
                self.fence(&mut tx, game).await?;
                Ok(tx)
            }

            /// The game is this node's to write unless another node holds its lease (the row is
            /// locked against a takeover till commit).
            async fn fence(&self, tx: &mut sqlx::Transaction<'_, $db>, game: &str) -> StoreResult<()> {
                let owner: Option<String> = sqlx::query(Self::FENCE)
                    .bind(game.to_string())
                    .fetch_optional(&mut **tx)
                    .await?
                    .map(|r| r.try_get(0))
                    .transpose()?;
                match owner {
                    Some(o) if o != self.node => Err(StoreError::NotOwner(game.to_string())),
                    _ => Ok(()),
                }
            }

            async fn lease_now(&self, game: &str) -> StoreResult<Option<Lease>> {
                let row = sqlx::query(SELECT_LEASE).bind(game.to_string()).fetch_optional(&self.pool).await?;
                let lease = row.map(|r| -> Result<Lease, sqlx::Error> {
                    Ok(Lease { owner: r.try_get(0)?, addr: r.try_get(1)?, expires: r.try_get(2)? })
                });
                Ok(lease.transpose()?)
            }

            async fn lease_after(&self, game: &str) -> StoreResult<Lease> {
                self.lease_now(game).await?.ok_or_else(|| StoreError::Damaged(format!("the game {game} has no lease")))
            }
        }

        impl Store for $name {
            fn migrate(&self) -> StoreFuture<'_, ()> {
                Box::pin(async move {
                    sqlx::query(CREATE_MIGRATIONS).execute(&self.pool).await?;
                    for (version, sql) in MIGRATIONS {
                        let mut tx = self.pool.begin().await?;
                        if let Some(lock) = $lock {
                            sqlx::query(lock).execute(&mut *tx).await?;
                        }
                        let done: Option<i64> = sqlx::query("SELECT version FROM schema_migrations WHERE version = $1")
                            .bind(*version)
                            .fetch_optional(&mut *tx)
                            .await?
                            .map(|r| r.try_get(0))
                            .transpose()?;
                        if done.is_none() {
                            sqlx::raw_sql(*sql).execute(&mut *tx).await?;
                            sqlx::query("INSERT INTO schema_migrations (version) VALUES ($1)")
                                .bind(*version)
                                .execute(&mut *tx)
                                .await?;
                        }
                        tx.commit().await?;
                    }
                    Ok(())
                })
            }

            fn create_game<'a>(&'a self, game: &'a GameRecord, seats: &'a [SeatRecord]) -> StoreFuture<'a, ()> {
                Box::pin(async move {
                    let mut tx = self.pool.begin().await?;
                    sqlx::query(INSERT_GAME)
                        .bind(game.id.clone())
                        .bind(game.kind.clone())
                        .bind(game.scenario.clone())
                        .bind(game.scenario_hash.clone())
                        .bind(seed_bits(game.seed))
                        .bind(game.seed_commit.clone())
                        .bind(game.settings.clone())
                        .bind(i32::from(game.paused))
                        .bind(i32::from(game.over))
                        .bind(game.created)
                        .execute(&mut *tx)
                        .await?;
                    for s in seats {
                        sqlx::query(INSERT_SEAT)
                            .bind(game.id.clone())
                            .bind(s.seat)
                            .bind(s.role.clone())
                            .bind(s.name.clone())
                            .bind(s.token_hash.clone())
                            .bind(s.ai.clone())
                            .bind(s.webhook.clone())
                            .execute(&mut *tx)
                            .await?;
                    }
                    tx.commit().await?;
                    Ok(())
                })
            }

            fn games(&self) -> StoreFuture<'_, Vec<GameRecord>> {
                Box::pin(async move {
                    let rows = sqlx::query(SELECT_GAMES).fetch_all(&self.pool).await?;
                    rows.iter().map(Self::game_of).collect::<Result<_, sqlx::Error>>().map_err(StoreError::Db)
                })
            }

            fn game<'a>(&'a self, id: &'a str) -> StoreFuture<'a, Option<GameRecord>> {
                Box::pin(async move {
                    let row = sqlx::query(SELECT_GAME).bind(id.to_string()).fetch_optional(&self.pool).await?;
                    Ok(row.as_ref().map(Self::game_of).transpose()?)
                })
            }

            fn seats<'a>(&'a self, game: &'a str) -> StoreFuture<'a, Vec<SeatRecord>> {
                Box::pin(async move {
                    let rows = sqlx::query(SELECT_SEATS).bind(game.to_string()).fetch_all(&self.pool).await?;
                    rows.iter()
                        .map(|r| {
                            Ok(SeatRecord {
                                seat: r.try_get(0)?,
                                role: r.try_get(1)?,
                                name: r.try_get(2)?,
                                token_hash: r.try_get(3)?,
                                ai: r.try_get(4)?,
                                webhook: r.try_get(5)?,
                            })
                        })
                        .collect::<Result<_, sqlx::Error>>()
                        .map_err(StoreError::Db)
                })
            }

            fn orders<'a>(&'a self, game: &'a str) -> StoreFuture<'a, Vec<OrderRecord>> {
                Box::pin(async move {
                    let rows = sqlx::query(SELECT_ORDERS).bind(game.to_string()).fetch_all(&self.pool).await?;
                    let out: Vec<OrderRecord> = rows
                        .iter()
                        .map(|r| {
                            Ok(OrderRecord {
                                idx: r.try_get(0)?,
                                seat: r.try_get(1)?,
                                seq: r.try_get(2)?,
                                source: r.try_get(3)?,
                                body: r.try_get(4)?,
                            })
                        })
                        .collect::<Result<_, sqlx::Error>>()?;
                    // The log has no gaps: entry i is order i.
                    if let Some((i, o)) =
                        out.iter().enumerate().find(|(i, o)| i64::try_from(*i).map_or(true, |i| i != o.idx))
                    {
                        return Err(StoreError::Damaged(format!("order {} of game {game} is at place {i}", o.idx)));
                    }
                    Ok(out)
                })
            }

            fn append_order<'a>(&'a self, game: &'a str, order: &'a OrderRecord) -> StoreFuture<'a, ()> {
                Box::pin(async move {
                    let mut tx = self.write(game).await?;
                    sqlx::query(INSERT_ORDER)
                        .bind(game.to_string())
                        .bind(order.idx)
                        .bind(order.seat)
                        .bind(order.seq)
                        .bind(order.source.clone())
                        .bind(order.body.clone())
                        .execute(&mut *tx)
                        .await
                        .map_err(|e| conflict(e, order.idx))?;
                    tx.commit().await?;
                    Ok(())
                })
            }

            fn mail<'a>(&'a self, game: &'a str) -> StoreFuture<'a, Vec<MailRecord>> {
                Box::pin(async move {
                    let rows = sqlx::query(SELECT_MAIL).bind(game.to_string()).fetch_all(&self.pool).await?;
                    rows.iter()
                        .map(|r| {
                            Ok(MailRecord {
                                idx: r.try_get(0)?,
                                kind: r.try_get(1)?,
                                from_seat: r.try_get(2)?,
                                seq: r.try_get(3)?,
                                recipients: r.try_get(4)?,
                                deliver_at: r.try_get(5)?,
                                body: r.try_get(6)?,
                            })
                        })
                        .collect::<Result<_, sqlx::Error>>()
                        .map_err(StoreError::Db)
                })
            }

            fn append_mail<'a>(&'a self, game: &'a str, mail: &'a MailRecord) -> StoreFuture<'a, ()> {
                Box::pin(async move {
                    let mut tx = self.write(game).await?;
                    sqlx::query(INSERT_MAIL)
                        .bind(game.to_string())
                        .bind(mail.idx)
                        .bind(mail.kind.clone())
                        .bind(mail.from_seat)
                        .bind(mail.seq)
                        .bind(mail.recipients.clone())
                        .bind(mail.deliver_at)
                        .bind(mail.body.clone())
                        .execute(&mut *tx)
                        .await
                        .map_err(|e| conflict(e, mail.idx))?;
                    tx.commit().await?;
                    Ok(())
                })
            }

            fn update_seat<'a>(&'a self, game: &'a str, seat: &'a SeatRecord) -> StoreFuture<'a, ()> {
                Box::pin(async move {
                    let mut tx = self.write(game).await?;
                    sqlx::query(UPDATE_SEAT)
                        .bind(seat.role.clone())
                        .bind(seat.ai.clone())
                        .bind(seat.webhook.clone())
                        .bind(game.to_string())
                        .bind(seat.seat)
                        .execute(&mut *tx)
                        .await?;
                    tx.commit().await?;
                    Ok(())
                })
            }

            fn clock<'a>(&'a self, game: &'a str) -> StoreFuture<'a, Option<String>> {
                Box::pin(async move {
                    let row = sqlx::query(SELECT_CLOCK).bind(game.to_string()).fetch_optional(&self.pool).await?;
                    Ok(row.map(|r| r.try_get(0)).transpose()?)
                })
            }

            fn set_clock<'a>(&'a self, game: &'a str, state: &'a str) -> StoreFuture<'a, ()> {
                Box::pin(async move {
                    let mut tx = self.write(game).await?;
                    sqlx::query(UPSERT_CLOCK)
                        .bind(game.to_string())
                        .bind(state.to_string())
                        .execute(&mut *tx)
                        .await?;
                    tx.commit().await?;
                    Ok(())
                })
            }

            fn put_snapshot<'a>(&'a self, game: &'a str, after: i64, state: &'a str) -> StoreFuture<'a, ()> {
                Box::pin(async move {
                    let mut tx = self.write(game).await?;
                    sqlx::query(UPSERT_SNAPSHOT)
                        .bind(game.to_string())
                        .bind(after)
                        .bind(state.to_string())
                        .execute(&mut *tx)
                        .await?;
                    sqlx::query(PRUNE_SNAPSHOTS).bind(game.to_string()).execute(&mut *tx).await?;
                    tx.commit().await?;
                    Ok(())
                })
            }

            fn snapshot<'a>(&'a self, game: &'a str) -> StoreFuture<'a, Option<(i64, String)>> {
                Box::pin(async move {
                    let row = sqlx::query(SELECT_SNAPSHOT).bind(game.to_string()).fetch_optional(&self.pool).await?;
                    Ok(row.map(|r| -> Result<(i64, String), sqlx::Error> { Ok((r.try_get(0)?, r.try_get(1)?)) }).transpose()?)
                })
            }

            fn seats_of_token<'a>(&'a self, hash: &'a str) -> StoreFuture<'a, Vec<TokenSeat>> {
                Box::pin(async move {
                    let rows = sqlx::query(SELECT_TOKEN_SEATS).bind(hash.to_string()).fetch_all(&self.pool).await?;
                    rows.iter()
                        .map(|r| {
                            Ok(TokenSeat {
                                game: r.try_get(0)?,
                                seat: r.try_get(1)?,
                                name: r.try_get(2)?,
                                kind: r.try_get(3)?,
                                scenario: r.try_get(4)?,
                            })
                        })
                        .collect::<Result<_, sqlx::Error>>()
                        .map_err(StoreError::Db)
                })
            }

            fn node(&self) -> &str {
                &self.node
            }

            fn claim<'a>(&'a self, game: &'a str, addr: &'a str, ttl_ms: i64) -> StoreFuture<'a, Lease> {
                Box::pin(async move {
                    sqlx::query(Self::CLAIM)
                        .bind(game.to_string())
                        .bind(self.node.clone())
                        .bind(addr.to_string())
                        .bind(ttl_ms)
                        .execute(&self.pool)
                        .await?;
                    self.lease_after(game).await
                })
            }

            fn take_over<'a>(
                &'a self,
                game: &'a str,
                dead: &'a str,
                addr: &'a str,
                ttl_ms: i64,
            ) -> StoreFuture<'a, Lease> {
                Box::pin(async move {
                    sqlx::query(Self::TAKE_OVER)
                        .bind(self.node.clone())
                        .bind(addr.to_string())
                        .bind(ttl_ms)
                        .bind(game.to_string())
                        .bind(dead.to_string())
                        .execute(&self.pool)
                        .await?;
                    self.lease_after(game).await
                })
            }

            fn renew(&self, ttl_ms: i64) -> StoreFuture<'_, Vec<String>> {
                Box::pin(async move {
                    self.keep_alive().await?;
                    sqlx::query(Self::RENEW).bind(ttl_ms).bind(self.node.clone()).execute(&self.pool).await?;
                    let rows = sqlx::query(SELECT_HELD).bind(self.node.clone()).fetch_all(&self.pool).await?;
                    rows.iter().map(|r| r.try_get(0)).collect::<Result<_, sqlx::Error>>().map_err(StoreError::Db)
                })
            }

            fn release<'a>(&'a self, game: &'a str) -> StoreFuture<'a, ()> {
                Box::pin(async move {
                    sqlx::query(DELETE_LEASE)
                        .bind(game.to_string())
                        .bind(self.node.clone())
                        .execute(&self.pool)
                        .await?;
                    Ok(())
                })
            }

            fn lease<'a>(&'a self, game: &'a str) -> StoreFuture<'a, Option<Lease>> {
                Box::pin(self.lease_now(game))
            }

            fn unheld(&self) -> StoreFuture<'_, Vec<String>> {
                Box::pin(async move {
                    let rows = sqlx::query(Self::UNHELD).fetch_all(&self.pool).await?;
                    rows.iter().map(|r| r.try_get(0)).collect::<Result<_, sqlx::Error>>().map_err(StoreError::Db)
                })
            }

            fn held_by_others(&self) -> StoreFuture<'_, Vec<(String, String)>> {
                Box::pin(async move {
                    let rows = sqlx::query(SELECT_OTHERS).bind(self.node.clone()).fetch_all(&self.pool).await?;
                    rows.iter()
                        .map(|r| Ok((r.try_get(0)?, r.try_get(1)?)))
                        .collect::<Result<_, sqlx::Error>>()
                        .map_err(StoreError::Db)
                })
            }

            fn alive<'a>(&'a self, node: &'a str) -> StoreFuture<'a, Option<bool>> {
                Box::pin(self.node_alive(node))
            }

            fn retire(&self) -> StoreFuture<'_, ()> {
                Box::pin(async move {
                    self.end_life().await;
                    Ok(())
                })
            }

            fn announce<'a>(&'a self, game: &'a str) -> StoreFuture<'a, ()> {
                Box::pin(self.notify(game))
            }

            fn listen(&self) -> StoreFuture<'_, Option<tokio::sync::mpsc::Receiver<String>>> {
                Box::pin(self.subscribe())
            }

            fn set_flags<'a>(&'a self, game: &'a str, paused: bool, over: bool) -> StoreFuture<'a, ()> {
                Box::pin(async move {
                    let mut tx = self.write(game).await?;
                    sqlx::query(UPDATE_FLAGS)
                        .bind(i32::from(paused))
                        .bind(i32::from(over))
                        .bind(game.to_string())
                        .execute(&mut *tx)
                        .await?;
                    tx.commit().await?;
                    Ok(())
                })
            }
        }
    };
}

/// SQLite: one file, written through a write-ahead log, every commit synced to disk. Several
/// processes of one machine may share the file; a dead one's games are taken over once its
/// leases run out.
pub struct SqliteStore {
    pool: sqlx::SqlitePool,
    node: String,
    /// The folder of the nodes' lock files (beside the database file; none for one in memory).
    nodes: Option<std::path::PathBuf>,
    /// This node's lock file, locked while it lives (the system lets the lock go when the
    /// process dies, however it dies).
    life: std::sync::Mutex<Option<std::fs::File>>,
}

impl SqliteStore {
    pub async fn open(url: &str) -> StoreResult<SqliteStore> {
        use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePoolOptions, SqliteSynchronous};
        let options = SqliteConnectOptions::from_str(url)?
            .create_if_missing(true)
            .journal_mode(SqliteJournalMode::Wal)
            .synchronous(SqliteSynchronous::Full)
            .busy_timeout(Duration::from_secs(10))
            .foreign_keys(true);
        let file = options.get_filename().to_path_buf();
        let pool = SqlitePoolOptions::new().max_connections(4).connect_with(options).await?;
        let node = new_node()?;
        let in_memory = file.as_os_str().is_empty() || file.as_os_str() == ":memory:";
        let nodes = (!in_memory).then(|| {
            let mut name = file.into_os_string();
            name.push(".nodes");
            std::path::PathBuf::from(name)
        });
        let life = match &nodes {
            Some(dir) => {
                let damaged = |e: std::io::Error| StoreError::Damaged(format!("{}: {e}", dir.display()));
                std::fs::create_dir_all(dir).map_err(damaged)?;
                // Locked before it takes its name: no other node's sweep can find it unlocked.
                let making = dir.join(format!("{node}.making"));
                let f = std::fs::File::create(&making).map_err(damaged)?;
                f.lock().map_err(damaged)?;
                std::fs::rename(&making, dir.join(format!("{node}.lock"))).map_err(damaged)?;
                Some(f)
            }
            None => None,
        };
        let store = SqliteStore { pool, node, nodes, life: std::sync::Mutex::new(life) };
        store.sweep_nodes();
        Ok(store)
    }

    /// Clears away the lock files of nodes gone (whose lock can be taken).
    fn sweep_nodes(&self) {
        let Some(dir) = &self.nodes else { return };
        let Ok(entries) = std::fs::read_dir(dir) else { return };
        for e in entries.flatten() {
            let path = e.path();
            let ours = path.file_stem().is_some_and(|s| s == self.node.as_str());
            if ours || path.extension().is_none_or(|x| x != "lock") {
                continue;
            }
            if let Ok(f) = std::fs::File::open(&path)
                && f.try_lock().is_ok()
            {
                let _ = f.unlock();
                let _ = std::fs::remove_file(&path);
            }
        }
    }

    async fn keep_alive(&self) -> StoreResult<()> {
        Ok(())
    }

    /// A node lives while it holds the lock on its file; one whose file can be locked is gone
    /// (its file is cleared away). A database in memory has no other node.
    async fn node_alive(&self, node: &str) -> StoreResult<Option<bool>> {
        let Some(dir) = &self.nodes else { return Ok(None) };
        // A node ID names a file: only the hex the store writes is looked for.
        if !is_node_id(node) {
            return Ok(None);
        }
        let path = dir.join(format!("{node}.lock"));
        let file = match std::fs::File::open(&path) {
            Ok(f) => f,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Some(false)),
            Err(_) => return Ok(None),
        };
        match file.try_lock() {
            Ok(()) => {
                let _ = file.unlock();
                let _ = std::fs::remove_file(&path);
                Ok(Some(false))
            }
            Err(std::fs::TryLockError::WouldBlock) => Ok(Some(true)),
            Err(std::fs::TryLockError::Error(_)) => Ok(None),
        }
    }

    async fn end_life(&self) {
        if let Ok(mut life) = self.life.lock()
            && life.take().is_some()
            && let Some(dir) = &self.nodes
        {
            let _ = std::fs::remove_file(dir.join(format!("{}.lock", self.node)));
        }
    }

    async fn notify(&self, _game: &str) -> StoreResult<()> {
        Ok(())
    }

    async fn subscribe(&self) -> StoreResult<Option<tokio::sync::mpsc::Receiver<String>>> {
        Ok(None)
    }
}

/// PostgreSQL: for deployments, shared by several server processes. Each holds a session lock
/// named by its node ID on a connection of its own while it lives, so that the others know at
/// once when it dies (its connection closes); lease hand-overs are announced on a channel.
pub struct PgStore {
    pub(crate) pool: sqlx::PgPool,
    node: String,
    /// The connection that holds this node's session lock.
    life: tokio::sync::Mutex<Option<sqlx::PgConnection>>,
}

/// The channel lease hand-overs are announced on (the payload: the game's ID).
pub const LEASE_CHANNEL: &str = "kriegsspiel_leases";
/// Most announcements waiting to be read before the oldest are dropped (the periodic scan
/// finds what they said all the same).
const ANNOUNCED_KEPT: usize = 1024;

const NODE_LOCK: &str = "SELECT pg_advisory_lock(hashtextextended($1, 0))";
/// Whether a session holds a node's lock, read without taking it (taking and letting go of
/// it, as a check once did, made the node look alive to a second check made meanwhile). A
/// bigint key shows in `pg_locks` as its high 32 bits (`classid`) and low (`objid`).
const NODE_HELD: &str = "SELECT EXISTS (SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND granted \
    AND objsubid = 1 AND database = (SELECT oid FROM pg_database WHERE datname = current_database()) \
    AND ((classid::bigint << 32) | objid::bigint) = hashtextextended($1, 0))";
const NODE_UNLOCK: &str = "SELECT pg_advisory_unlock(hashtextextended($1, 0))";

impl PgStore {
    pub async fn open(url: &str) -> StoreResult<PgStore> {
        // A process that hangs inside a transaction must not hold its locks (a game's lease
        // row) for ever: its session is ended; and nobody waits for a lock for ever.
        let options = sqlx::postgres::PgConnectOptions::from_str(url)?
            .options([("idle_in_transaction_session_timeout", "10s"), ("lock_timeout", "10s")]);
        let pool = sqlx::postgres::PgPoolOptions::new()
            .max_connections(8)
            .acquire_timeout(Duration::from_secs(10))
            .connect_with(options)
            .await?;
        let store = PgStore { pool, node: new_node()?, life: tokio::sync::Mutex::new(None) };
        store.keep_alive().await?;
        Ok(store)
    }

    /// Holds this node's session lock, taking it again on a new connection if the old one died
    /// (its games may have been taken over meanwhile: the renewal says which are still held).
    async fn keep_alive(&self) -> StoreResult<()> {
        use sqlx::{Connection, Executor};
        let mut life = self.life.lock().await;
        if let Some(conn) = life.as_mut()
            && conn.ping().await.is_ok()
        {
            return Ok(());
        }
        let mut conn = self.pool.acquire().await?.detach();
        conn.execute(sqlx::query(NODE_LOCK).bind(self.node.clone())).await?;
        *life = Some(conn);
        Ok(())
    }

    /// A node lives while its session lock is held: if this connection can take the lock, the
    /// node is gone (and the lock is let go again at once).
    async fn node_alive(&self, node: &str) -> StoreResult<Option<bool>> {
        if !is_node_id(node) {
            return Ok(None);
        }
        let held: bool = sqlx::query(NODE_HELD).bind(node.to_string()).fetch_one(&self.pool).await?.try_get(0)?;
        Ok(Some(held))
    }

    /// Lets the session lock go and closes its connection, waiting for both: a server started
    /// next must not find this node alive (dropped, the connection would end a moment later).
    async fn end_life(&self) {
        use sqlx::Connection;
        let conn = self.life.lock().await.take();
        if let Some(mut conn) = conn {
            let _ = sqlx::query(NODE_UNLOCK).bind(self.node.clone()).execute(&mut conn).await;
            let _ = conn.close().await;
        }
    }

    async fn notify(&self, game: &str) -> StoreResult<()> {
        sqlx::query("SELECT pg_notify($1, $2)").bind(LEASE_CHANNEL).bind(game.to_string()).execute(&self.pool).await?;
        Ok(())
    }

    /// Listens on the lease channel: a task forwards every announcement (a game's ID of at most
    /// 64 characters; others are dropped) until the receiver is gone.
    async fn subscribe(&self) -> StoreResult<Option<tokio::sync::mpsc::Receiver<String>>> {
        let mut listener = sqlx::postgres::PgListener::connect_with(&self.pool).await?;
        listener.listen(LEASE_CHANNEL).await?;
        let (tx, rx) = tokio::sync::mpsc::channel(ANNOUNCED_KEPT);
        tokio::spawn(async move {
            loop {
                match listener.recv().await {
                    Ok(n) => {
                        let game = n.payload();
                        if game.len() <= 64 && tx.try_send(game.to_string()).is_err() && tx.is_closed() {
                            return;
                        }
                    }
                    // The connection is lost: the listener connects again on the next call.
                    Err(_) => tokio::time::sleep(Duration::from_millis(500)).await,
                }
                if tx.is_closed() {
                    return;
                }
            }
        });
        Ok(Some(rx))
    }
}

const NO_LOCK: Option<&'static str> = None;
// Two processes starting together must not both run a migration.
const PG_LOCK: Option<&'static str> = Some("LOCK TABLE schema_migrations IN EXCLUSIVE MODE");

sql_store!(
    SqliteStore,
    sqlx::Sqlite,
    NO_LOCK,
    "CAST((julianday('now') - 2440587.5) * 86400000.0 AS INTEGER)",
    "",
    "BEGIN IMMEDIATE"
);
sql_store!(
    PgStore,
    sqlx::Postgres,
    PG_LOCK,
    "CAST(EXTRACT(EPOCH FROM clock_timestamp()) * 1000 AS BIGINT)",
    " FOR UPDATE",
    "BEGIN"
);
