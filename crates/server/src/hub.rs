//! The games a server process holds: made in the lobby, restored from the record on start
//! (scenario + seed + order log, replayed), each with a task that runs its AI seats.

use crate::catalog::Catalog;
use crate::clock::Clock;
use crate::room::{RoomState, SeatState, ai_level};
use crate::seats::{self, Role};
use crate::store::{GameRecord, SeatRecord, Store, StoreError};
use crate::table::{Kind, Served};
use crate::timing::Settings;
use rules::texts::Texts;
use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;
use tokio::sync::{Mutex, RwLock, watch};
pub use wire::{CreateRequest, Created, Invite, SeatRequest};

/// Most seats a game may have.
pub const MAX_SEATS: usize = 128;
/// Longest display name, in characters.
pub const MAX_NAME: usize = 64;
/// A slice of the server's AI.
const AI_SLICE: Duration = Duration::from_millis(20);

/// One game: its state behind a lock, and a counter that wakes its connections when it changes.
pub struct Room {
    pub id: String,
    pub state: Mutex<RoomState>,
    pub changed: watch::Sender<u64>,
    /// This process no longer holds the game (its lease was lost): its connections close, and
    /// their clients reconnect to the one that does.
    gone: AtomicBool,
}

impl Room {
    pub fn wake(&self) {
        self.changed.send_modify(|v| *v = v.wrapping_add(1));
    }

    pub fn is_gone(&self) -> bool {
        self.gone.load(Ordering::Acquire)
    }
}

/// How long a game's lease lasts unless renewed, when the server is not told.
pub const DEFAULT_LEASE: Duration = Duration::from_secs(15);

/// Where a game is served.
pub enum Place {
    Here(Arc<Room>),
    /// By another process, at this address.
    There(String),
    NoGame,
}

/// The games this process holds, and what they share.
pub struct Hub {
    pub store: Arc<dyn Store>,
    pub catalog: Catalog,
    pub english: Texts,
    pub russian: Texts,
    /// The server's clock: battle clocks, deadlines, delayed directives.
    pub clock: Arc<dyn Clock>,
    /// Webhook notices, one in flight per seat.
    pub notifier: crate::webhook::Notifier,
    /// The games' tasks, ended when a game leaves this process or the server stops.
    tasks: std::sync::Mutex<BTreeMap<String, tokio::task::AbortHandle>>,
    rooms: RwLock<BTreeMap<String, Arc<Room>>>,
    /// Where the other processes reach this one (`host:port`), once it listens.
    addr: std::sync::OnceLock<String>,
    /// How long a lease lasts; it is renewed three times in that while.
    pub lease: Duration,
    /// One adoption at a time (the keeper's scan and a connection may want the same game).
    adopting: Mutex<()>,
    /// Seeds given instead of drawn (`crate::Options::seeds`), and the games made so far.
    pub seeds: Option<u64>,
    /// How this process reaches the others that hold games (`forward::Peers`).
    pub peers: crate::forward::Peers,
    made: std::sync::atomic::AtomicU64,
    /// Previews computed at once, off the games' locks (one a core): more wait their turn, and
    /// no game waits for any.
    pub previews: tokio::sync::Semaphore,
}

/// Why the lobby refused.
#[derive(Debug, thiserror::Error)]
pub enum LobbyError {
    #[error("there is no shipped scenario `{0}`")]
    NoScenario(String),
    #[error("the scenario cannot be loaded: {0}")]
    Scenario(String),
    #[error("{0}")]
    Seats(String),
    #[error("{0}")]
    Settings(String),
    #[error("no such game")]
    NoGame,
    #[error("the store: {0}")]
    Store(#[from] StoreError),
    #[error("no randomness: {0}")]
    Random(String),
    #[error("the process that holds the game ({0}) cannot be reached just now")]
    Unavailable(String),
}

fn scenario_hash_of(kind: Kind, path: &std::path::Path) -> Result<String, String> {
    fn h<G: Served>(path: &std::path::Path) -> Result<String, String> {
        crate::table::shared::<G>(path).map(|(_, hash)| hash)
    }
    match kind {
        Kind::Battle => h::<rules::tactical::Battle>(path),
        Kind::Campaign => h::<rules::campaign::Campaign>(path),
        Kind::GreatWar => h::<rules::strategic::GreatWar>(path),
    }
}

impl Hub {
    pub fn new(store: Arc<dyn Store>, catalog: Catalog, clock: Arc<dyn Clock>) -> Hub {
        Hub {
            store,
            catalog,
            english: Texts::english(),
            russian: Texts::russian(),
            clock,
            tasks: std::sync::Mutex::new(BTreeMap::new()),
            notifier: crate::webhook::Notifier::default(),
            rooms: RwLock::new(BTreeMap::new()),
            addr: std::sync::OnceLock::new(),
            lease: DEFAULT_LEASE,
            adopting: Mutex::new(()),
            seeds: None,
            peers: crate::forward::Peers::default(),
            made: std::sync::atomic::AtomicU64::new(0),
            previews: tokio::sync::Semaphore::new(std::thread::available_parallelism().map_or(2, |n| n.get())),
        }
    }

    /// Where the others reach this process; set once, when it listens.
    pub fn set_addr(&self, addr: String) {
        let _ = self.addr.set(addr);
    }

    fn addr(&self) -> &str {
        self.addr.get().map_or("", String::as_str)
    }

    fn lease_ms(&self) -> i64 {
        i64::try_from(self.lease.as_millis()).unwrap_or(i64::MAX / 4)
    }

    pub async fn room(&self, id: &str) -> Option<Arc<Room>> {
        self.rooms.read().await.get(id).cloned()
    }

    pub async fn rooms(&self) -> Vec<Arc<Room>> {
        self.rooms.read().await.values().cloned().collect()
    }

    /// Makes a game from a shipped scenario.
    pub async fn create(self: &Arc<Self>, req: CreateRequest) -> Result<Created, LobbyError> {
        let entry = self.catalog.find(&req.scenario).ok_or_else(|| LobbyError::NoScenario(req.scenario.clone()))?;
        let settings = req.settings.clone().unwrap_or_default();
        settings.check().map_err(LobbyError::Settings)?;
        let kind = entry.kind;
        let root = self.catalog.root.clone();
        let scenario = entry.path.clone();
        let random = |e: getrandom::Error| LobbyError::Random(e.to_string());
        let seed = match self.seeds {
            Some(base) => base.wrapping_add(self.made.fetch_add(1, Ordering::Relaxed)),
            None => seats::new_seed().map_err(random)?,
        };
        let id = seats::new_game_id().map_err(random)?;
        let (hash, mut table) = {
            let scenario = scenario.clone();
            tokio::task::spawn_blocking(move || {
                let hash = scenario_hash_of(kind, &root.join(&scenario))?;
                let rec = GameRecord {
                    id: String::new(),
                    kind: kind.name().to_string(),
                    scenario,
                    scenario_hash: hash.clone(),
                    seed,
                    seed_commit: String::new(),
                    settings: String::new(),
                    paused: false,
                    over: false,
                    created: 0,
                };
                crate::table::new_table(&rec, &root).map(|t| (hash, t))
            })
            .await
            .map_err(|e| LobbyError::Scenario(e.to_string()))?
            .map_err(LobbyError::Scenario)?
        };
        let players = table.players();
        let asked = match req.seats {
            Some(s) => s,
            None => players
                .iter()
                .map(|p| SeatRequest { role: Role::Player { player: p.clone() }, name: p.clone(), ai: None })
                .chain(std::iter::once(SeatRequest { role: Role::Moderator, name: "moderator".to_string(), ai: None }))
                .collect(),
        };
        check_seats(kind, &players, &asked)?;
        let rec = GameRecord {
            id: id.clone(),
            kind: kind.name().to_string(),
            scenario: entry.path.clone(),
            scenario_hash: hash,
            seed,
            seed_commit: seats::seed_commit(&id, seed),
            settings: serde_json::to_string(&settings).map_err(|e| LobbyError::Settings(e.to_string()))?,
            paused: false,
            over: false,
            created: self.clock.now_ms(),
        };
        let mut invites = Vec::new();
        let mut records = Vec::new();
        for (i, s) in asked.into_iter().enumerate() {
            let token = seats::new_token().map_err(random)?;
            let seat = u32::try_from(i).unwrap_or(u32::MAX);
            records.push(SeatRecord {
                seat: i32::try_from(i).unwrap_or(i32::MAX),
                role: serde_json::to_string(&s.role).map_err(|e| LobbyError::Seats(e.to_string()))?,
                name: s.name.clone(),
                token_hash: seats::token_hash(&token),
                ai: s.ai.map(|l| l.name().to_string()),
                webhook: None,
            });
            invites.push(Invite { seat, role: s.role, name: s.name, token });
        }
        // Held from its first record to its room: the keeper, finding a game with no lease yet,
        // must not adopt it beside the one being made.
        let _one = self.adopting.lock().await;
        self.store.create_game(&rec, &records).await?;
        let lease = self.store.claim(&id, self.addr(), self.lease_ms()).await?;
        if lease.owner != self.store.node() {
            return Err(LobbyError::Store(StoreError::NotOwner(id)));
        }
        let seat_states: Vec<SeatState> =
            records.into_iter().zip(&invites).map(|(r, inv)| SeatState::new(r, inv.role.clone(), 0)).collect();
        // The players whose seats were given to the AI, as a restored game's are.
        for p in &players {
            if let Some(level) = seat_states.iter().find_map(|s| ai_level(s, p)) {
                table.set_ai(p, Some(level), seed);
            }
        }
        let created = Created { game: id.clone(), kind, seed_commit: rec.seed_commit.clone(), players, seats: invites };
        let state = RoomState::new(rec, self.catalog.root.clone(), table, seat_states, self.clock.clone(), settings);
        self.install(state).await?;
        Ok(created)
    }

    /// Holds a game and starts its task; its clock is set where the game stands first.
    async fn install(self: &Arc<Self>, mut state: RoomState) -> Result<Arc<Room>, LobbyError> {
        state.sync_timer(self.store.as_ref()).await?;
        let (changed, _) = watch::channel(0);
        let room = Arc::new(Room {
            id: state.rec.id.clone(),
            state: Mutex::new(state),
            changed,
            gone: AtomicBool::new(false),
        });
        {
            let mut rooms = self.rooms.write().await;
            // A game is held once: one already here stays (its connections are its).
            if let Some(held) = rooms.get(&room.id) {
                return Ok(held.clone());
            }
            rooms.insert(room.id.clone(), room.clone());
        }
        let task = tokio::spawn(drive(self.clone(), room.clone()));
        if let Ok(mut tasks) = self.tasks.lock() {
            tasks.insert(room.id.clone(), task.abort_handle());
        }
        Ok(room)
    }

    /// Lets a game go from this process (its lease is another's now): its task ends and its
    /// connections close, so that their clients reconnect to the process that holds it.
    async fn drop_room(&self, id: &str) {
        let Some(room) = self.rooms.write().await.remove(id) else { return };
        if let Ok(mut tasks) = self.tasks.lock()
            && let Some(t) = tasks.remove(id)
        {
            t.abort();
        }
        room.gone.store(true, Ordering::Release);
        room.wake();
    }

    /// Ends every game's task (the server stops; its leases run out for the others).
    pub fn shutdown(&self) {
        if let Ok(mut tasks) = self.tasks.lock() {
            for (_, t) in std::mem::take(&mut *tasks) {
                t.abort();
            }
        }
    }

    /// Stops serving every game and lets its lease go, telling the others, so that another
    /// process takes it over at once (a server stopped on purpose).
    pub async fn release_all(&self) -> Result<(), StoreError> {
        self.shutdown();
        let ids: Vec<String> = self.rooms.read().await.keys().cloned().collect();
        for id in ids {
            self.drop_room(&id).await;
            self.store.release(&id).await?;
            self.store.announce(&id).await?;
        }
        Ok(())
    }

    /// Where a game is served: here, by another process, or nowhere (no such game).
    pub async fn locate(self: &Arc<Self>, id: &str) -> Result<Place, LobbyError> {
        if let Some(room) = self.room(id).await {
            return Ok(Place::Here(room));
        }
        // A game ID is hex, as the lobby makes them: anything else is looked for nowhere.
        if !seats::is_game_id(id) {
            return Ok(Place::NoGame);
        }
        match self.store.lease(id).await? {
            Some(lease) if lease.owner != self.store.node() => {
                // A lease of a process gone is taken over here, at once where the store can
                // tell (else once it runs out).
                if self.store.alive(&lease.owner).await? == Some(false) {
                    return Ok(self.adopt(id).await?.map_or(Place::There(lease.addr), Place::Here));
                }
                Ok(Place::There(lease.addr))
            }
            _ => Ok(self.adopt(id).await?.map_or(Place::NoGame, Place::Here)),
        }
    }

    /// Takes a game over from a process that cannot be reached: at once if the store knows it
    /// is gone, else as soon as its lease runs out (within `wait`).
    pub async fn adopt_within(self: &Arc<Self>, id: &str, wait: Duration) -> Result<Option<Arc<Room>>, LobbyError> {
        let until = tokio::time::Instant::now() + wait;
        loop {
            if let Place::Here(room) = self.locate(id).await? {
                return Ok(Some(room));
            }
            if tokio::time::Instant::now() >= until {
                return Ok(None);
            }
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
    }

    /// Takes a game's lease if nobody alive holds it, and restores the game here.
    pub async fn adopt(self: &Arc<Self>, id: &str) -> Result<Option<Arc<Room>>, LobbyError> {
        let _one = self.adopting.lock().await;
        if let Some(room) = self.room(id).await {
            return Ok(Some(room));
        }
        let Some(rec) = self.store.game(id).await? else {
            return Ok(None);
        };
        self.adopt_locked(rec).await
    }

    async fn adopt_locked(self: &Arc<Self>, rec: GameRecord) -> Result<Option<Arc<Room>>, LobbyError> {
        let (node, addr, ttl) = (self.store.node(), self.addr(), self.lease_ms());
        let mut lease = self.store.claim(&rec.id, addr, ttl).await?;
        if lease.owner != node && self.store.alive(&lease.owner).await? == Some(false) {
            lease = self.store.take_over(&rec.id, &lease.owner, addr, ttl).await?;
        }
        if lease.owner != node {
            return Ok(None);
        }
        let state = match self.restore_one(rec.clone()).await {
            Ok(state) => state,
            Err(e) => {
                // A game that cannot be restored is left for a process that can (a newer
                // build's scenarios), not held unserved.
                self.store.release(&rec.id).await?;
                return Err(e);
            }
        };
        self.install(state).await.map(Some)
    }

    /// The keeper's round: renews this process's leases, lets go the games it no longer holds,
    /// and adopts those nobody alive holds. The games it adopted.
    pub async fn keep(self: &Arc<Self>) -> Result<usize, LobbyError> {
        // The games held here before the renewal: one installed meanwhile was claimed first, and
        // is not taken for lost.
        let here: Vec<String> = self.rooms.read().await.keys().cloned().collect();
        let held: BTreeSet<String> = self.store.renew(self.lease_ms()).await?.into_iter().collect();
        for id in here.iter().filter(|id| !held.contains(*id)) {
            self.drop_room(id).await;
        }
        let mut orphans: BTreeSet<String> = self.store.unheld().await?.into_iter().collect();
        let mut owners: BTreeMap<String, Vec<String>> = BTreeMap::new();
        for (game, owner) in self.store.held_by_others().await? {
            owners.entry(owner).or_default().push(game);
        }
        for (owner, games) in owners {
            if self.store.alive(&owner).await? == Some(false) {
                orphans.extend(games);
            }
        }
        if orphans.is_empty() {
            return Ok(0);
        }
        let _one = self.adopting.lock().await;
        let mut n = 0;
        // A game over is adopted when somebody asks for it (`locate`), not before.
        for id in orphans {
            let Some(rec) = self.store.game(&id).await?.filter(|g| !g.over) else { continue };
            if self.room(&rec.id).await.is_some() {
                continue;
            }
            match self.adopt_locked(rec).await {
                Ok(Some(_)) => n += 1,
                Ok(None) => {}
                // One game that cannot be restored keeps no other from being adopted.
                Err(e) => eprintln!("kriegsspiel-server: game {id} not taken over: {e}"),
            }
        }
        Ok(n)
    }

    /// Acts on a game's clock now if its time is out (the game's task does it by itself; tests
    /// call it to be exact about a threshold). Whether it acted.
    pub async fn tick(&self, id: &str) -> Result<bool, LobbyError> {
        let room = self.room(id).await.ok_or(LobbyError::NoGame)?;
        let acted = room.state.lock().await.expire(self.store.as_ref()).await?;
        if acted {
            room.wake();
        }
        Ok(acted)
    }

    /// Restores every game of the record that is not over and that no other live process holds:
    /// its scenario, seed and order log replayed (a game over is restored when asked for).
    pub async fn restore(self: &Arc<Self>) -> Result<usize, LobbyError> {
        let games = self.store.games().await?;
        let _one = self.adopting.lock().await;
        let mut n = 0;
        for rec in games.into_iter().filter(|g| !g.over) {
            if self.room(&rec.id).await.is_none() && self.adopt_locked(rec).await?.is_some() {
                n += 1;
            }
        }
        Ok(n)
    }

    async fn restore_one(&self, rec: GameRecord) -> Result<RoomState, LobbyError> {
        let orders = self.store.orders(&rec.id).await?;
        let seat_recs = self.store.seats(&rec.id).await?;
        let mail = self.store.mail(&rec.id).await?;
        let snapshot = self.store.snapshot(&rec.id).await?;
        let root = self.catalog.root.clone();
        let rec2 = rec.clone();
        let table = tokio::task::spawn_blocking(move || {
            let table = crate::table::table_of_record(&rec2, &root, &orders, snapshot)?;
            Ok::<_, String>((table, orders))
        })
        .await
        .map_err(|e| LobbyError::Scenario(e.to_string()))?
        .map_err(LobbyError::Scenario)?;
        let (mut table, orders) = table;
        let mut seats_out = Vec::new();
        for r in seat_recs {
            let role: Role = serde_json::from_str(&r.role).map_err(|e| StoreError::Damaged(e.to_string()))?;
            let last = orders
                .iter()
                .filter(|o| o.seat == Some(r.seat))
                .map(|o| o.seq)
                .chain(mail.iter().filter(|m| m.from_seat == Some(r.seat)).map(|m| m.seq))
                .filter_map(|q| q.and_then(|q| u64::try_from(q).ok()))
                .max()
                .unwrap_or(0);
            seats_out.push(SeatState::new(r, role, last));
        }
        for p in table.players() {
            let level = seats_out.iter().find_map(|s| ai_level(s, &p));
            if level.is_some() {
                table.set_ai(&p, level, rec.seed);
            }
        }
        let settings = Settings::parse(&rec.settings).map_err(StoreError::Damaged)?;
        let clock = self.store.clock(&rec.id).await?;
        let mut state = RoomState::new(rec, self.catalog.root.clone(), table, seats_out, self.clock.clone(), settings);
        if let Some(text) = clock {
            state.restore_timer(&text)?;
        }
        state.load_mail(mail)?;
        // A client whose answer was lost with the process that held the game asks again: the
        // answer is given again from the record, the order not applied twice.
        state.recall_replies(&orders);
        Ok(state)
    }
}

/// Seats must name the scenario's players; a general commands a Great War power's armies and
/// fleets, a campaign side's armies or a battle side's formations (no fleets but the Great
/// War's), and serves under its player's leader seat, who keeps what no general holds.
fn check_seats(kind: Kind, players: &[String], seats: &[SeatRequest]) -> Result<(), LobbyError> {
    if seats.is_empty() || seats.len() > MAX_SEATS {
        return Err(LobbyError::Seats(format!("a game has 1 to {MAX_SEATS} seats, not {}", seats.len())));
    }
    for s in seats {
        if s.name.chars().count() > MAX_NAME || s.name.trim().is_empty() {
            return Err(LobbyError::Seats(format!("a seat's name has 1 to {MAX_NAME} characters")));
        }
        let player = match &s.role {
            Role::Player { player } | Role::Observer { player } => Some(player),
            Role::General { fleets, .. } if kind != Kind::GreatWar && !fleets.is_empty() => {
                return Err(LobbyError::Seats(format!(
                    "a {} has no fleets: its generals command formations only",
                    kind.name()
                )));
            }
            Role::General { player, .. } => {
                let leader = |r: &SeatRequest| matches!(&r.role, Role::Player { player: p } if p == player);
                if !seats.iter().any(leader) {
                    return Err(LobbyError::Seats(format!(
                        "`{player}`'s generals serve under its leader: add a player seat for `{player}`"
                    )));
                }
                Some(player)
            }
            Role::Moderator => None,
        };
        if let Some(p) = player.filter(|p| !players.contains(p)) {
            return Err(LobbyError::Seats(format!("`{p}` is not a player of this scenario ({})", players.join(", "))));
        }
    }
    Ok(())
}

/// Runs the keeper's round three times a lease, and at once when another process announces a
/// lease let go, while the server lives.
pub async fn keeper(hub: Arc<Hub>) {
    let mut announced = hub.store.listen().await.ok().flatten();
    let every = hub.lease / 3;
    loop {
        if let Err(e) = hub.keep().await {
            eprintln!("kriegsspiel-server: keeping the games' leases: {e}");
        }
        match announced.as_mut() {
            Some(rx) => {
                tokio::select! {
                    got = rx.recv() => if got.is_none() { announced = None },
                    () = tokio::time::sleep(every) => {}
                }
            }
            None => tokio::time::sleep(every).await,
        }
    }
}

/// Runs a game's AI and its clock while the game lasts: a slice at a time, the
/// lock let go between slices so that seats are answered.
async fn drive(hub: Arc<Hub>, room: Arc<Room>) {
    let mut changed = room.changed.subscribe();
    loop {
        let (worked, over, deadline) = {
            let mut state = room.state.lock().await;
            let expired = state.expire(hub.store.as_ref()).await.unwrap_or(false);
            let delivered = state.mail_fell_due();
            let worked = expired || state.ai_slice(hub.store.as_ref(), AI_SLICE).await.unwrap_or(false);
            let deadline = match (state.deadline(), state.next_delivery()) {
                (Some(a), Some(b)) => Some(a.min(b)),
                (a, b) => a.or(b),
            };
            for (url, notice) in state.notices() {
                hub.notifier.send(&url, notice);
            }
            (worked || delivered, state.rec.over, deadline)
        };
        if worked {
            room.wake();
        }
        if over || room.is_gone() {
            return;
        }
        let busy = {
            let state = room.state.lock().await;
            let clock = state.table.clockface();
            !state.rec.paused && clock.active.as_deref().is_some_and(|p| state.table.ai_plays(p))
        };
        if busy {
            tokio::task::yield_now().await;
        } else {
            // Wait for a change (an order, a seat handed to the AI), the clock's deadline, or
            // look again in a while.
            let deadline: crate::clock::Wait = match deadline {
                Some(at) => hub.clock.wait_until(at),
                None => Box::pin(std::future::pending()),
            };
            tokio::select! {
                _ = changed.changed() => {}
                () = deadline => {}
                () = tokio::time::sleep(Duration::from_millis(500)) => {}
            }
        }
    }
}
