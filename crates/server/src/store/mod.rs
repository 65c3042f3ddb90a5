//! The store of record, behind one interface ([`Store`]) with two back ends: SQLite (the default,
//! a file in the data folder) and PostgreSQL (a deployment, several processes). A game is its
//! scenario, its seed and its order log; it is rebuilt from them on start. An order is answered
//! only after the transaction that appends it has committed.

mod sql;

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

pub use sql::{PgStore, SqliteStore};

/// Why the store failed.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("the database: {0}")]
    Db(#[from] sqlx::Error),
    #[error("the database URL `{0}` is neither sqlite: nor postgres://")]
    Url(String),
    #[error("the record is damaged: {0}")]
    Damaged(String),
    /// Another writer appended the same entry first (another process owns the game).
    #[error("the entry {0} is already in the record")]
    Conflict(i64),
    /// Another process holds the game's lease: this one may no longer write its log.
    #[error("the game {0} is held by another server process")]
    NotOwner(String),
}

pub type StoreResult<T> = Result<T, StoreError>;
pub type StoreFuture<'a, T> = Pin<Box<dyn Future<Output = StoreResult<T>> + Send + 'a>>;

/// A game as the record holds it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord {
    pub id: String,
    /// `battle`, `campaign` or `great_war`.
    pub kind: String,
    /// The scenario's path under the scenarios folder.
    pub scenario: String,
    pub scenario_hash: String,
    /// The seed's bits (revealed only when the game is over).
    pub seed: u64,
    /// The hash that commits to the seed when the game starts.
    pub seed_commit: String,
    /// The game's settings (clocks, deadlines, directive delay) as JSON.
    pub settings: String,
    pub paused: bool,
    pub over: bool,
    pub created: i64,
}

/// A seat of a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeatRecord {
    pub seat: i32,
    /// The seat's role (`seats::Role`) as JSON.
    pub role: String,
    pub name: String,
    /// The SHA-256 of its invite token, hex.
    pub token_hash: String,
    /// The AI level playing it, when handed to the AI.
    pub ai: Option<String>,
    pub webhook: Option<String>,
}

/// An order of the log.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OrderRecord {
    pub idx: i64,
    /// The seat that gave it (none for the server's own: a clock's time-out, a campaign battle).
    pub seat: Option<i32>,
    /// The client's sequence number.
    pub seq: Option<i64>,
    /// `seat`, `ai`, `clock` or `server`.
    pub source: String,
    /// The order, as the engine writes it (RON).
    pub body: String,
}

/// An entry of the written record: chat, a directive, a moderator's action.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MailRecord {
    pub idx: i64,
    pub kind: String,
    pub from_seat: Option<i32>,
    pub seq: Option<i64>,
    /// The seats it is for, as JSON (a list of seat numbers).
    pub recipients: String,
    /// When it is delivered (milliseconds since the epoch).
    pub deliver_at: i64,
    pub body: String,
}

/// Which server process holds a game, and until when (see `migrations/0003_leases.sql`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Lease {
    /// The owner's node ID ([`Store::node`]).
    pub owner: String,
    /// Where the others reach the owner (`host:port`).
    pub addr: String,
    /// When it runs out unless renewed (milliseconds since the epoch, the database's clock).
    pub expires: i64,
}

/// A seat a token's hash opens, with its game's public face.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TokenSeat {
    pub game: String,
    pub seat: i32,
    pub name: String,
    pub kind: String,
    pub scenario: String,
}

/// The store of record.
pub trait Store: Send + Sync {
    /// Creates or updates the tables (embedded migrations, each once).
    fn migrate(&self) -> StoreFuture<'_, ()>;
    /// Records a new game and its seats in one transaction.
    fn create_game<'a>(&'a self, game: &'a GameRecord, seats: &'a [SeatRecord]) -> StoreFuture<'a, ()>;
    fn games(&self) -> StoreFuture<'_, Vec<GameRecord>>;
    /// One game, if the record has it.
    fn game<'a>(&'a self, id: &'a str) -> StoreFuture<'a, Option<GameRecord>>;
    fn seats<'a>(&'a self, game: &'a str) -> StoreFuture<'a, Vec<SeatRecord>>;
    fn orders<'a>(&'a self, game: &'a str) -> StoreFuture<'a, Vec<OrderRecord>>;
    /// Appends an order; returns once committed. An entry already there is a [`StoreError::Conflict`].
    fn append_order<'a>(&'a self, game: &'a str, order: &'a OrderRecord) -> StoreFuture<'a, ()>;
    fn mail<'a>(&'a self, game: &'a str) -> StoreFuture<'a, Vec<MailRecord>>;
    fn append_mail<'a>(&'a self, game: &'a str, mail: &'a MailRecord) -> StoreFuture<'a, ()>;
    /// Changes a seat's role, AI and webhook.
    fn update_seat<'a>(&'a self, game: &'a str, seat: &'a SeatRecord) -> StoreFuture<'a, ()>;
    fn set_flags<'a>(&'a self, game: &'a str, paused: bool, over: bool) -> StoreFuture<'a, ()>;
    /// The timer a game runs (`crate::timing::Timer` as JSON), if one was stored.
    fn clock<'a>(&'a self, game: &'a str) -> StoreFuture<'a, Option<String>>;
    /// Stores the game's timer; returns once committed.
    fn set_clock<'a>(&'a self, game: &'a str, state: &'a str) -> StoreFuture<'a, ()>;
    /// Keeps a game's snapshot taken after `after` orders (the two newest are kept); its
    /// holder's only.
    fn put_snapshot<'a>(&'a self, game: &'a str, after: i64, state: &'a str) -> StoreFuture<'a, ()>;
    /// The snapshot a game is restored from: the older of its two newest (a turn behind the
    /// newest, so that the answer to every seat's latest order can be given again), the orders
    /// it was taken after and its text; none while it has fewer than two.
    fn snapshot<'a>(&'a self, game: &'a str) -> StoreFuture<'a, Option<(i64, String)>>;
    /// The seats whose token hash is `hash`, in every game of the record.
    fn seats_of_token<'a>(&'a self, hash: &'a str) -> StoreFuture<'a, Vec<TokenSeat>>;

    /// This store's node ID, fresh every time a store is opened: the owner its leases name.
    fn node(&self) -> &str;
    /// Takes a game's lease for this node, for `ttl_ms`, if it is free, run out or already
    /// this node's; the lease as it stands after (another node's, if it held it).
    fn claim<'a>(&'a self, game: &'a str, addr: &'a str, ttl_ms: i64) -> StoreFuture<'a, Lease>;
    /// Takes a game's lease from `dead`, a node known to be gone, however long it had left;
    /// the lease as it stands after.
    fn take_over<'a>(&'a self, game: &'a str, dead: &'a str, addr: &'a str, ttl_ms: i64) -> StoreFuture<'a, Lease>;
    /// Renews every lease of this node for `ttl_ms`; the games it still holds.
    fn renew(&self, ttl_ms: i64) -> StoreFuture<'_, Vec<String>>;
    /// Lets a game's lease go (this node's only).
    fn release<'a>(&'a self, game: &'a str) -> StoreFuture<'a, ()>;
    fn lease<'a>(&'a self, game: &'a str) -> StoreFuture<'a, Option<Lease>>;
    /// The games nobody holds: no lease, or one run out.
    fn unheld(&self) -> StoreFuture<'_, Vec<String>>;
    /// The games other nodes hold, and their owners.
    fn held_by_others(&self) -> StoreFuture<'_, Vec<(String, String)>>;
    /// Whether a node is alive, where the database can tell at once (PostgreSQL: the node
    /// holds a session lock while its connection lives); `None` where only a lease's running
    /// out tells.
    fn alive<'a>(&'a self, node: &'a str) -> StoreFuture<'a, Option<bool>>;
    /// This node is gone from now on, as if its process had died: the others may take its
    /// games over at once (a server stopped). Done when the others can see it: PostgreSQL's
    /// session lock is let go and its connection closed before this returns.
    fn retire(&self) -> StoreFuture<'_, ()>;
    /// Tells the other nodes that a game's lease was let go (PostgreSQL's NOTIFY; nothing
    /// elsewhere).
    fn announce<'a>(&'a self, game: &'a str) -> StoreFuture<'a, ()>;
    /// The games the other nodes announce (PostgreSQL's LISTEN), where the store has them.
    fn listen(&self) -> StoreFuture<'_, Option<tokio::sync::mpsc::Receiver<String>>>;
}

/// Opens the store a URL names: `sqlite:PATH` (created if missing) or `postgres://…`.
pub async fn open(url: &str) -> StoreResult<Arc<dyn Store>> {
    let store: Arc<dyn Store> = if url.starts_with("sqlite:") {
        Arc::new(SqliteStore::open(url).await?)
    } else if url.starts_with("postgres://") || url.starts_with("postgresql://") {
        Arc::new(PgStore::open(url).await?)
    } else {
        return Err(StoreError::Url(url.to_string()));
    };
    store.migrate().await?;
    Ok(store)
}
