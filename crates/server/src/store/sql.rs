//! The two SQL back ends. Both run the same statements (numbered `$n` placeholders, which
//! SQLite reads as positional parameters too), written once by [`sql_store!`].

use super::{GameRecord, MailRecord, OrderRecord, SeatRecord, Store, StoreError, StoreFuture, StoreResult};
use sqlx::Row;
use std::str::FromStr;
use std::time::Duration;

/// The embedded migrations, in order; each runs once, in a transaction.
const MIGRATIONS: &[(i64, &str)] =
    &[(1, include_str!("../../migrations/0001_games.sql")), (2, include_str!("../../migrations/0002_clocks.sql"))];

const CREATE_MIGRATIONS: &str = "CREATE TABLE IF NOT EXISTS schema_migrations (version BIGINT PRIMARY KEY)";
const INSERT_GAME: &str = "INSERT INTO games (id, kind, scenario, scenario_hash, seed, seed_commit, settings, paused, over, created) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)";
const INSERT_SEAT: &str =
    "INSERT INTO seats (game_id, seat, role, name, token_hash, ai, webhook) VALUES ($1, $2, $3, $4, $5, $6, $7)";
const SELECT_GAMES: &str = "SELECT id, kind, scenario, scenario_hash, seed, seed_commit, settings, paused, over, created FROM games ORDER BY created, id";
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
    ($name:ident, $db:ty, $pool:ty, $lock:expr) => {
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
                    rows.iter()
                        .map(|r| {
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
                        })
                        .collect::<Result<_, sqlx::Error>>()
                        .map_err(StoreError::Db)
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
                    let mut tx = self.pool.begin().await?;
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
                    let mut tx = self.pool.begin().await?;
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
                    sqlx::query(UPDATE_SEAT)
                        .bind(seat.role.clone())
                        .bind(seat.ai.clone())
                        .bind(seat.webhook.clone())
                        .bind(game.to_string())
                        .bind(seat.seat)
                        .execute(&self.pool)
                        .await?;
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
                    sqlx::query(UPSERT_CLOCK)
                        .bind(game.to_string())
                        .bind(state.to_string())
                        .execute(&self.pool)
                        .await?;
                    Ok(())
                })
            }

            fn set_flags<'a>(&'a self, game: &'a str, paused: bool, over: bool) -> StoreFuture<'a, ()> {
                Box::pin(async move {
                    sqlx::query(UPDATE_FLAGS)
                        .bind(i32::from(paused))
                        .bind(i32::from(over))
                        .bind(game.to_string())
                        .execute(&self.pool)
                        .await?;
                    Ok(())
                })
            }
        }
    };
}

/// SQLite: one file, written through a write-ahead log, every commit synced to disk.
pub struct SqliteStore {
    pool: sqlx::SqlitePool,
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
        let pool = SqlitePoolOptions::new().max_connections(4).connect_with(options).await?;
        Ok(SqliteStore { pool })
    }
}

/// PostgreSQL: for deployments, shared by several server processes.
pub struct PgStore {
    pub(crate) pool: sqlx::PgPool,
}

impl PgStore {
    pub async fn open(url: &str) -> StoreResult<PgStore> {
        let pool = sqlx::postgres::PgPoolOptions::new()
            .max_connections(8)
            .acquire_timeout(Duration::from_secs(10))
            .connect(url)
            .await?;
        Ok(PgStore { pool })
    }
}

const NO_LOCK: Option<&'static str> = None;
// Two processes starting together must not both run a migration.
const PG_LOCK: Option<&'static str> = Some("LOCK TABLE schema_migrations IN EXCLUSIVE MODE");

sql_store!(SqliteStore, sqlx::Sqlite, sqlx::SqlitePool, NO_LOCK);
sql_store!(PgStore, sqlx::Postgres, sqlx::PgPool, PG_LOCK);
