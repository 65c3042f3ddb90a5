//! One game in play: its table, its seats and what each viewer has been sent. Every change goes
//! through here: a seat's message is checked (sequence, seat, phase), the order goes through the
//! engine's one door, the log entry is committed, and only then is the seat answered and every
//! other viewer's events queued.

use crate::clock::Clock;
use crate::protocol::{ModAction, SeatInfo, ServerMsg, Status};
use crate::seats::Role;
use crate::store::{GameRecord, MailRecord, OrderRecord, SeatRecord, Store, StoreError};
use crate::table::{Applied, Refusal, Table};
use crate::timing::{Settings, Timer};
use serde_json::Value;
use std::collections::{BTreeMap, VecDeque};
use std::sync::Arc;
use std::time::{Duration, Instant};

mod mail;
mod notify;
mod timer;

pub use mail::{MAX_MAIL, MAX_TEXT};

/// Answers kept per seat for repeated messages.
const REPLIES_KEPT: usize = 64;
/// Orders' events kept per viewer for clients that reconnect; further behind gets a fresh view.
pub const OUTBOX_KEPT: usize = 512;
/// A seat's messages: a bucket of this many, refilled at `SEAT_RATE` a second.
const SEAT_BURST: f64 = 60.0;
const SEAT_RATE: f64 = 30.0;

/// A token bucket.
#[derive(Clone, Debug)]
pub struct Bucket {
    level: f64,
    burst: f64,
    rate: f64,
    at: Instant,
}

impl Bucket {
    pub fn new(burst: f64, rate: f64) -> Bucket {
        Bucket { level: burst, burst, rate, at: Instant::now() }
    }

    /// Takes one; false when empty.
    pub fn take(&mut self) -> bool {
        let now = Instant::now();
        self.level = (self.level + now.duration_since(self.at).as_secs_f64() * self.rate).min(self.burst);
        self.at = now;
        if self.level >= 1.0 {
            self.level -= 1.0;
            true
        } else {
            false
        }
    }
}

pub struct SeatState {
    pub rec: SeatRecord,
    pub role: Role,
    /// The highest sequence number taken from this seat.
    pub last_seq: u64,
    replies: VecDeque<(u64, ServerMsg)>,
    /// Done with the active player's part of the turn (when a player has several seats).
    pub ready: bool,
    pub bucket: Bucket,
    /// Connections open now to this seat (this process's; not kept in the record).
    pub connections: u32,
}

impl SeatState {
    pub fn new(rec: SeatRecord, role: Role, last_seq: u64) -> SeatState {
        SeatState {
            rec,
            role,
            last_seq,
            replies: VecDeque::new(),
            ready: false,
            bucket: Bucket::new(SEAT_BURST, SEAT_RATE),
            connections: 0,
        }
    }

    pub fn info(&self) -> SeatInfo {
        SeatInfo {
            seat: u32::try_from(self.rec.seat).unwrap_or(u32::MAX),
            role: self.role.clone(),
            name: self.rec.name.clone(),
        }
    }
}

/// What a viewer has waiting: order number → its events as the viewer sees them.
type Outbox = VecDeque<(u64, Arc<Vec<Value>>)>;

impl RoomState {
    /// Every seat as seat `seat` may know it: a general's command (its armies and fleets) is
    /// known to the seats of its own player and the moderator; the others know the general is
    /// there, not what it holds.
    pub fn seats_for(&self, seat: usize) -> Vec<SeatInfo> {
        let me = self.seats.get(seat).map(|s| &s.role);
        let umpire = me == Some(&Role::Moderator);
        let mine = me.and_then(|r| r.commands());
        self.seats
            .iter()
            .map(|s| {
                let mut info = s.info();
                if let Role::General { player, formations, fleets } = &mut info.role
                    && !umpire
                    && mine != Some(player.as_str())
                {
                    formations.clear();
                    fleets.clear();
                }
                info
            })
            .collect()
    }
}

pub struct RoomState {
    pub rec: GameRecord,
    /// The scenarios folder (to rebuild the table from the record).
    root: std::path::PathBuf,
    pub table: Box<dyn Table>,
    pub seats: Vec<SeatState>,
    outbox: BTreeMap<Option<String>, Outbox>,
    /// The server's clock (the engine has none).
    pub clock: Arc<dyn Clock>,
    pub settings: Settings,
    /// The timer running now, and as last stored.
    timer: Option<Timer>,
    timer_stored: Option<Timer>,
    /// The written record (directives, chat) and its deliveries in the order they fall due.
    mail: Vec<MailRecord>,
    deliveries: Vec<mail::Delivery>,
    mail_due: usize,
    mail_clock: i64,
    /// Webhook notices given: the (turn, phase, player) each seat was told of, and the
    /// deliveries looked at for directives.
    notified: BTreeMap<usize, String>,
    directives_notified: usize,
    /// The turn of the latest snapshot kept (or of the game when it was made or restored).
    snapshot_turn: u32,
}

fn refused(seq: Option<u64>, r: Refusal) -> (Option<u64>, Refusal) {
    (seq, r)
}

impl RoomState {
    pub fn new(
        rec: GameRecord,
        root: std::path::PathBuf,
        table: Box<dyn Table>,
        seats: Vec<SeatState>,
        clock: Arc<dyn Clock>,
        settings: Settings,
    ) -> RoomState {
        let mut room = RoomState {
            rec,
            root,
            table,
            seats,
            outbox: BTreeMap::new(),
            clock,
            settings,
            timer: None,
            timer_stored: None,
            mail: Vec::new(),
            deliveries: Vec::new(),
            mail_due: 0,
            mail_clock: i64::MIN,
            notified: BTreeMap::new(),
            directives_notified: 0,
            snapshot_turn: 0,
        };
        room.snapshot_turn = room.table.clockface().turn;
        for v in room.viewers() {
            room.outbox.entry(v).or_default();
        }
        room
    }

    /// Whose sight a seat has now (an observer sees everything once the game is over).
    pub fn viewer_of(&self, seat: usize) -> Option<String> {
        let role = &self.seats[seat].role;
        match role {
            Role::Observer { .. } if self.rec.over => None,
            _ => role.sees_as().map(str::to_string),
        }
    }

    fn viewers(&self) -> Vec<Option<String>> {
        let mut v: Vec<Option<String>> = (0..self.seats.len()).map(|i| self.viewer_of(i)).collect();
        v.push(None);
        v.sort();
        v.dedup();
        v
    }

    pub fn order_count(&self) -> u64 {
        u64::try_from(self.table.clockface().orders).unwrap_or(u64::MAX)
    }

    pub fn status(&self) -> Status {
        let clock = self.table.clockface();
        let waiting_for = match (&clock.active, self.rec.over) {
            (Some(active), false) => {
                self.seats.iter().filter(|s| s.role.is_waited_for(active) && !s.ready).map(|s| s.info().seat).collect()
            }
            _ => Vec::new(),
        };
        let ai = self.table.players().into_iter().filter(|p| self.table.ai_plays(p)).collect();
        let timer = self.timer.as_ref().map(|t| crate::timing::face(t, self.clock.now_ms()));
        let connected = self.seats.iter().filter(|s| s.connections > 0).map(|s| s.info().seat).collect();
        Status { clock, paused: self.rec.paused, waiting_for, ai, timer, connected }
    }

    pub fn view_for(&self, seat: usize) -> Value {
        self.table.view(self.viewer_of(seat).as_deref())
    }

    /// The events queued for a seat after order count `after`; `None` when some are no longer
    /// kept (the seat needs a fresh view).
    pub fn events_after(&self, seat: usize, after: u64) -> Option<Vec<(u64, Arc<Vec<Value>>)>> {
        let now = self.order_count();
        if after >= now {
            return Some(Vec::new());
        }
        let queue = self.outbox.get(&self.viewer_of(seat))?;
        let first = queue.front().map_or(now + 1, |(at, _)| *at);
        if first > after + 1 {
            return None;
        }
        Some(queue.iter().filter(|(at, _)| *at > after).cloned().collect())
    }

    /// The events of the orders up to `at` that seat `seat`'s viewer was sent, as it saw them
    /// then, oldest first: the newest orders the queue still keeps whose events come to at most
    /// `max_events` in all.
    pub fn history(&self, seat: usize, at: u64, max_events: usize) -> Vec<wire::Past> {
        let Some(queue) = self.outbox.get(&self.viewer_of(seat)) else { return Vec::new() };
        let mut out = Vec::new();
        let mut n = 0usize;
        for (a, events) in queue.iter().rev().filter(|(a, _)| *a <= at) {
            n = n.saturating_add(events.len());
            if n > max_events {
                break;
            }
            out.push(wire::Past { at: *a, events: events.as_ref().clone() });
        }
        out.reverse();
        out
    }

    fn queue(&mut self, applied: &Applied) {
        let at = u64::try_from(applied.index).unwrap_or(u64::MAX).saturating_add(1);
        for v in self.viewers() {
            let seen = Arc::new(self.table.seen(v.as_deref(), applied.index));
            let q = self.outbox.entry(v).or_default();
            q.push_back((at, seen));
            while q.len() > OUTBOX_KEPT {
                q.pop_front();
            }
        }
    }

    /// Commits an applied order to the record; on failure the table is rebuilt from the record
    /// (the order is not in the game).
    pub async fn commit(
        &mut self,
        store: &dyn Store,
        applied: &Applied,
        seat: Option<usize>,
        seq: Option<u64>,
        source: &str,
    ) -> Result<(), StoreError> {
        let rec = OrderRecord {
            idx: i64::try_from(applied.index).unwrap_or(i64::MAX),
            seat: seat.map(|s| self.seats[s].rec.seat),
            seq: seq.and_then(|q| i64::try_from(q).ok()),
            source: source.to_string(),
            body: applied.body.clone(),
        };
        if let Err(e) = store.append_order(&self.rec.id, &rec).await {
            // The operator's log: the seat is told only that the order was not recorded.
            eprintln!("kriegsspiel-server: game {}: order {} not recorded: {e}", self.rec.id, rec.idx);
            self.rebuild(store).await?;
            return Err(e);
        }
        self.queue(applied);
        self.keep_snapshot(store).await;
        if applied.ends_turn {
            for s in &mut self.seats {
                s.ready = false;
            }
        }
        if self.table.clockface().over && !self.rec.over {
            self.rec.over = true;
            store.set_flags(&self.rec.id, self.rec.paused, true).await?;
            let viewers = self.viewers();
            for v in viewers {
                self.outbox.entry(v).or_default();
            }
        }
        self.sync_timer(store).await
    }

    /// When a turn begins, the game as it stands is kept (a Great War game's): it is restored
    /// from that and the turn's orders, not its whole log. A snapshot that cannot be kept is
    /// only the operator's concern: the log is whole.
    async fn keep_snapshot(&mut self, store: &dyn Store) {
        let turn = self.table.clockface().turn;
        if turn <= self.snapshot_turn {
            return;
        }
        self.snapshot_turn = turn;
        if let Some(text) = self.table.snapshot() {
            let after = i64::try_from(self.table.clockface().orders).unwrap_or(i64::MAX);
            if let Err(e) = store.put_snapshot(&self.rec.id, after, &text).await {
                eprintln!("kriegsspiel-server: game {}: the snapshot of turn {turn} not kept: {e}", self.rec.id);
            }
        }
    }

    /// Replays the record into a fresh table (after a failed commit).
    async fn rebuild(&mut self, store: &dyn Store) -> Result<(), StoreError> {
        let orders = store.orders(&self.rec.id).await?;
        let snapshot = store.snapshot(&self.rec.id).await?;
        let mut table =
            crate::table::table_of_record(&self.rec, &self.root, &orders, snapshot).map_err(StoreError::Damaged)?;
        for p in self.table.players() {
            if self.table.ai_plays(&p) {
                table.set_ai(&p, self.seats.iter().find_map(|s| ai_level(s, &p)), self.rec.seed);
            }
        }
        self.table = table;
        Ok(())
    }

    /// One slice of the AI for the active player, if the AI plays it; whether it gave an order.
    pub async fn ai_slice(&mut self, store: &dyn Store, budget: Duration) -> Result<bool, StoreError> {
        if self.rec.paused || self.rec.over {
            return Ok(false);
        }
        match self.table.ai_step(budget) {
            Some(Ok(applied)) => {
                self.commit(store, &applied, None, None, "ai").await?;
                Ok(true)
            }
            Some(Err(_)) | None => Ok(false),
        }
    }

    /// A seat's message with a sequence number: a repeat is answered again, an old one refused,
    /// a new one handled by `handle` and its answer kept.
    pub fn check_seq(&mut self, seat: usize, seq: u64) -> Result<Option<ServerMsg>, (Option<u64>, Refusal)> {
        let s = &self.seats[seat];
        if let Some((_, reply)) = s.replies.iter().find(|(q, _)| *q == seq) {
            return Ok(Some(reply.clone()));
        }
        if seq <= s.last_seq {
            return Err(refused(Some(seq), Refusal::new("stale_seq", "server.err.stale_seq")));
        }
        Ok(None)
    }

    /// The answers to each seat's last orders, as the record holds them (a restored game: the
    /// process that answered them is gone).
    pub fn recall_replies(&mut self, orders: &[OrderRecord]) {
        let status = self.status();
        for i in 0..self.seats.len() {
            let viewer = self.viewer_of(i);
            let seat = self.seats[i].rec.seat;
            let mine: Vec<&OrderRecord> = orders.iter().filter(|o| o.seat == Some(seat)).collect();
            let from = mine.len().saturating_sub(REPLIES_KEPT);
            let replies: VecDeque<(u64, ServerMsg)> = mine[from..]
                .iter()
                .filter_map(|o| {
                    let seq = o.seq.and_then(|q| u64::try_from(q).ok())?;
                    let index = usize::try_from(o.idx).ok()?;
                    let at = u64::try_from(o.idx).ok()?.saturating_add(1);
                    let events = self.table.seen(viewer.as_deref(), index);
                    Some((seq, ServerMsg::Ack { seq, at, events, applied: true, status: status.clone() }))
                })
                .collect();
            self.seats[i].replies = replies;
        }
    }

    pub fn keep_reply(&mut self, seat: usize, seq: u64, reply: &ServerMsg) {
        let s = &mut self.seats[seat];
        s.last_seq = s.last_seq.max(seq);
        s.replies.push_back((seq, reply.clone()));
        while s.replies.len() > REPLIES_KEPT {
            s.replies.pop_front();
        }
    }

    /// A seat's order: the seat must command the active player, and the piece; when a player
    /// has several seats, its turn ends once every one of them is done.
    pub async fn order(
        &mut self,
        store: &dyn Store,
        seat: usize,
        seq: u64,
        order: Value,
    ) -> Result<ServerMsg, Refusal> {
        if self.rec.paused {
            return Err(Refusal::new("paused", "server.err.paused"));
        }
        let role = self.seats[seat].role.clone();
        // The moderator's orders: what the game asks it, and its rulings (the table checks
        // they are of that kind).
        if role == Role::Moderator {
            let applied = self.table.submit(&role, &[], order)?;
            return self.committed(store, seat, seq, &applied).await;
        }
        let Some(player) = role.commands().map(str::to_string) else {
            return Err(Refusal::new("no_orders", "server.err.no_orders"));
        };
        if self.table.ai_plays(&player) {
            return Err(Refusal::new("ai_plays", "server.err.ai_plays"));
        }
        let generals: Vec<Role> = self
            .seats
            .iter()
            .filter(|s| matches!(&s.role, Role::General { player: p, .. } if *p == player))
            .map(|s| s.role.clone())
            .collect();
        let general_refs: Vec<&Role> = generals.iter().collect();
        let humans = self.seats.iter().filter(|s| s.role.commands() == Some(player.as_str())).count();
        if humans > 1 && self.table.is_pass(&order) {
            if self.table.clockface().active.as_deref() != Some(player.as_str()) {
                return Err(Refusal::new("not_your_turn", "server.err.not_your_turn"));
            }
            self.seats[seat].ready = true;
            let all = self.seats.iter().filter(|s| s.role.commands() == Some(player.as_str())).all(|s| s.ready);
            if !all {
                return Ok(ServerMsg::Ack {
                    seq,
                    at: self.order_count(),
                    events: Vec::new(),
                    applied: false,
                    status: self.status(),
                });
            }
        }
        let applied = self.table.submit(&role, &general_refs, order)?;
        self.committed(store, seat, seq, &applied).await
    }

    /// A seat's order applied: committed, the server's own orders that follow given, and the
    /// seat's answer.
    async fn committed(
        &mut self,
        store: &dyn Store,
        seat: usize,
        seq: u64,
        applied: &Applied,
    ) -> Result<ServerMsg, Refusal> {
        self.commit(store, applied, Some(seat), Some(seq), "seat")
            .await
            .map_err(|_| Refusal::new("store", "server.err.store"))?;
        let at = u64::try_from(applied.index).unwrap_or(u64::MAX).saturating_add(1);
        let events = self.table.seen(self.viewer_of(seat).as_deref(), applied.index);
        Ok(ServerMsg::Ack { seq, at, events, applied: true, status: self.status() })
    }

    /// A leader gives one of its generals what it commands.
    pub async fn assign(
        &mut self,
        store: &dyn Store,
        seat: usize,
        general: u32,
        formations: Vec<u32>,
        fleets: Vec<u32>,
    ) -> Result<(), Refusal> {
        let Role::Player { player } = self.seats[seat].role.clone() else {
            return Err(Refusal::new("leader_only", "server.err.leader_only"));
        };
        let Some(g) = self.seats.iter().position(|s| s.rec.seat == i32::try_from(general).unwrap_or(-1)) else {
            return Err(Refusal::new("bad_seat", "server.err.bad_seat"));
        };
        if !matches!(&self.seats[g].role, Role::General { player: p, .. } if *p == player) {
            return Err(Refusal::new("bad_seat", "server.err.bad_seat"));
        }
        // Only the Great War has fleets (a campaign's generals hold armies, a battle's formations).
        if self.table.kind() != crate::table::Kind::GreatWar && !fleets.is_empty() {
            return Err(Refusal::new("bad_seat", "server.err.bad_seat"));
        }
        // S-ARMY-3: an army has one commander. What this general is given is taken from the
        // power's other generals.
        let mut changed: Vec<(usize, Role)> = Vec::new();
        for (i, s) in self.seats.iter().enumerate() {
            if let Role::General { player: p, formations: f, fleets: l } = &s.role
                && i != g
                && *p == player
            {
                let f2: Vec<u32> = f.iter().copied().filter(|x| !formations.contains(x)).collect();
                let l2: Vec<u32> = l.iter().copied().filter(|x| !fleets.contains(x)).collect();
                if (&f2, &l2) != (f, l) {
                    changed.push((i, Role::General { player: p.clone(), formations: f2, fleets: l2 }));
                }
            }
        }
        changed.push((g, Role::General { player, formations, fleets }));
        for (i, role) in changed {
            let mut rec = self.seats[i].rec.clone();
            rec.role = serde_json::to_string(&role).map_err(|_| Refusal::new("store", "server.err.store"))?;
            store.update_seat(&self.rec.id, &rec).await.map_err(|_| Refusal::new("store", "server.err.store"))?;
            self.seats[i].rec = rec;
            self.seats[i].role = role;
        }
        Ok(())
    }

    /// The moderator's actions.
    pub async fn moderate(&mut self, store: &dyn Store, seat: usize, action: ModAction) -> Result<(), Refusal> {
        if self.seats[seat].role != Role::Moderator {
            return Err(Refusal::new("moderator_only", "server.err.moderator_only"));
        }
        let failed = |_| Refusal::new("store", "server.err.store");
        match action {
            ModAction::Pause | ModAction::Resume => {
                self.rec.paused = action == ModAction::Pause;
                store.set_flags(&self.rec.id, self.rec.paused, self.rec.over).await.map_err(failed)?;
            }
            ModAction::Extend { seconds } => return self.extend(store, seconds).await,
            ModAction::PassOn { directive } => return self.pass_on(store, seat, directive).await,
            ModAction::HandToAi { seat: target, level } => {
                let (t, player) = self.player_seat(target)?;
                let mut rec = self.seats[t].rec.clone();
                rec.ai = Some(level.name().to_string());
                store.update_seat(&self.rec.id, &rec).await.map_err(failed)?;
                self.seats[t].rec = rec;
                self.table.set_ai(&player, Some(level), self.rec.seed);
            }
            ModAction::TakeBack { seat: target } => {
                let (t, player) = self.player_seat(target)?;
                let mut rec = self.seats[t].rec.clone();
                rec.ai = None;
                store.update_seat(&self.rec.id, &rec).await.map_err(failed)?;
                self.seats[t].rec = rec;
                // The AI keeps the player while another of its seats is still handed to it.
                let level = self.seats.iter().find_map(|s| ai_level(s, &player));
                self.table.set_ai(&player, level, self.rec.seed);
            }
        }
        // A pause stops the clock; a seat handed to the AI is never timed out.
        self.sync_timer(store).await.map_err(failed)
    }

    fn player_seat(&self, seat: u32) -> Result<(usize, String), Refusal> {
        let t = self
            .seats
            .iter()
            .position(|s| s.rec.seat == i32::try_from(seat).unwrap_or(-1))
            .ok_or_else(|| Refusal::new("bad_seat", "server.err.bad_seat"))?;
        let player = self.seats[t].role.commands().ok_or_else(|| Refusal::new("bad_seat", "server.err.bad_seat"))?;
        Ok((t, player.to_string()))
    }

    /// The whole game for everyone once it is over: seed and log.
    pub fn reveal(&self) -> Option<ServerMsg> {
        self.rec.over.then(|| ServerMsg::Reveal {
            seed: self.rec.seed,
            seed_commit: self.rec.seed_commit.clone(),
            save: self.table.save_text(),
            hash: self.table.state_hash(),
        })
    }
}

/// The AI level a seat of `player` is handed to.
pub fn ai_level(seat: &SeatState, player: &str) -> Option<ai::Level> {
    if seat.role.commands() != Some(player) {
        return None;
    }
    seat.rec.ai.as_deref().and_then(|l| l.parse().ok())
}
