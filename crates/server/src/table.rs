//! A game the server hosts, of any of the engine's three kinds, behind one object-safe
//! [`Table`]: orders come in as JSON, are checked against the seat that gives them, go through
//! the engine's one door, and leave as the RON the log keeps.

use crate::seats::{MODERATOR, Role};
use crate::sight::{Sighted, Viewer};
use ai::{Level, Think};
use rules::DataError;
use rules::texts::Msg;
use serde_json::Value;
use std::any::Any;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, LazyLock, Mutex, Weak};
use std::time::{Duration, SystemTime};
pub use wire::{Clockface, Kind};

mod command;
mod great_war;

/// Why an order (or another request) was refused: a stable code for programs and a message in
/// the string tables for people.
#[derive(Clone, Debug)]
pub struct Refusal {
    pub code: &'static str,
    pub msg: Msg,
}

impl Refusal {
    pub fn new(code: &'static str, key: &'static str) -> Refusal {
        Refusal { code, msg: Msg::new(key) }
    }

    pub fn with(code: &'static str, msg: Msg) -> Refusal {
        Refusal { code, msg }
    }
}

/// The clock the rules give a game where it stands (the server runs it, `crate::timing`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Timing {
    /// No clock (the game is over).
    None,
    /// T-SETUP-1: the set-up of both sides together, in seconds; `battle`: which of a
    /// campaign's battles (none: the game is the battle).
    Setup { seconds: u32, battle: Option<u32> },
    /// T-TURN-2: the battle's turn `turn`, in seconds.
    Turn { seconds: u32, turn: u32, battle: Option<u32> },
    /// A Great War (or campaign) phase, timed by the game's settings.
    Phase { phase: &'static str },
}

/// What the server needs of a game beyond the engine's [`Game`] and its sight.
pub trait Served: Sighted {
    const KIND: Kind;
    /// What every game of one scenario shares, loaded once (the scenario, and for the Great War
    /// the map of Europe with it: never copied for each game).
    type Shared: Send + Sync + 'static;
    fn load(path: &Path) -> Result<Self::Scenario, DataError>;
    fn share(scenario: Self::Scenario) -> Arc<Self::Shared>;
    /// A new game on the shared scenario.
    fn new_on(shared: &Arc<Self::Shared>, seed: u64) -> Self;
    /// The game as it stands, to restore from instead of its whole log, where the kind keeps
    /// snapshots (the Great War, whose logs grow long).
    fn snapshot_text(&self) -> Option<String> {
        None
    }
    /// A game resumed from its snapshot and its log up to it.
    fn resume(shared: &Arc<Self::Shared>, seed: u64, snapshot: &str, log: Vec<Self::Order>) -> Result<Self, String> {
        let _ = (shared, seed, snapshot, log);
        Err("this kind of game keeps no snapshots".to_string())
    }
    /// A player's name in the protocol (`red`, a power's ID).
    fn player_id(&self, player: Self::Player) -> String;
    /// The phase, as a string key of the tables.
    fn phase_key(&self) -> &'static str;
    /// A refusal's words (in the tables where the engine words its errors so).
    fn refusal(error: &Self::Error) -> Msg;
    /// Whether `role`, a seat of the active player, may give `order`; `generals` are the
    /// general seats of that player.
    fn may_order(&self, role: &Role, generals: &[&Role], order: &Self::Order) -> Result<(), Refusal> {
        let _ = (role, generals, order);
        Ok(())
    }
    fn new_ai(player: Self::Player, level: Level, seed: u64) -> Box<dyn ai::Player<Self> + Send + Sync>;
    /// The clock where the game stands: a phase's deadline, unless the kind has its own.
    fn timing(&self) -> Timing {
        if self.is_over() { Timing::None } else { Timing::Phase { phase: self.phase_key() } }
    }
    /// Whether an order only ends the player's part (its turn, set-up or phase), as every seat
    /// of a player gives it before it is applied; the kind's turn-ending orders unless it says.
    fn is_pass(order: &Self::Order) -> bool {
        Self::ends_turn(order)
    }
    /// The players of `player`'s alliance (itself included): whom its alliance chat reaches.
    fn allies(&self, player: Self::Player) -> Vec<Self::Player> {
        vec![player]
    }
}

/// An order applied: its place in the log and its text there.
#[derive(Clone, Debug)]
pub struct Applied {
    pub index: usize,
    pub body: String,
    pub ends_turn: bool,
}

/// A preview to compute: the viewer's copy and the order in it, nothing of the game's.
pub type PreviewJob = Box<dyn FnOnce() -> Result<Value, Refusal> + Send>;

/// A hosted game of any kind.
pub trait Table: Send + Sync {
    fn kind(&self) -> Kind;
    fn players(&self) -> Vec<String>;
    fn clockface(&self) -> Clockface;
    /// Whether the JSON is an order that only ends the active player's part (its turn, set-up
    /// or phase): where a player has several seats, each of them gives it before it is applied.
    fn is_pass(&self, order: &Value) -> bool;
    /// Checks and applies an order a seat gives.
    fn submit(&mut self, role: &Role, generals: &[&Role], order: Value) -> Result<Applied, Refusal>;
    /// Applies the active player's pass (its time ran out, or every seat of it is done).
    fn pass(&mut self) -> Result<Applied, Refusal>;
    /// Applies an order of the log (restoring a game).
    fn replay(&mut self, body: &str) -> Result<Applied, String>;
    /// The view of a player (`None`: the umpire).
    fn view(&self, viewer: Option<&str>) -> Value;
    /// The events of order `index` as a player sees them.
    fn seen(&self, viewer: Option<&str>, index: usize) -> Vec<Value>;
    /// A preview as a job to run off the game's lock: the order read and the viewer's working
    /// copy taken now, the forecast (which may run the whole end of a turn thousands of times)
    /// computed when it is run.
    fn preview(&self, viewer: Option<&str>, order: Value) -> Result<PreviewJob, Refusal>;
    /// Hands a player to the AI (`Some`) or takes it back (`None`).
    fn set_ai(&mut self, player: &str, level: Option<Level>, seed: u64);
    fn ai_plays(&self, player: &str) -> bool;
    /// If the active player is the AI's: thinks for a slice and applies its order when it has one.
    fn ai_step(&mut self, budget: Duration) -> Option<Result<Applied, Refusal>>;
    /// The whole game as the engine's save (scenario, seed, log, hashes): revealed at the end.
    fn save_text(&self) -> String;
    fn state_hash(&self) -> String;
    /// The game as it stands, to restore from (`None`: the kind keeps no snapshots).
    fn snapshot(&self) -> Option<String>;
    fn timing(&self) -> Timing;
    /// The players of `player`'s alliance, itself included (none: no such player).
    fn allies(&self, player: &str) -> Vec<String>;
}

/// A game of type `G` as the server hosts it.
pub struct Hosted<G: Served> {
    game: G,
    /// The length of the event log before the first order (what the game opens with is in the
    /// view, not in any order's events).
    first: usize,
    /// The length of the event log after each order.
    ends: Vec<usize>,
    ais: Vec<(G::Player, Box<dyn ai::Player<G> + Send + Sync>)>,
}

impl<G: Served> Hosted<G> {
    pub fn new(shared: &Arc<G::Shared>, seed: u64) -> Hosted<G> {
        let game = G::new_on(shared, seed);
        let first = game.events().len();
        Hosted { game, first, ends: Vec::new(), ais: Vec::new() }
    }

    fn player(&self, id: &str) -> Option<G::Player> {
        self.game.players().into_iter().find(|p| self.game.player_id(*p) == id)
    }

    fn viewer(&self, id: Option<&str>) -> Viewer<G::Player> {
        // An unknown player sees as nobody would: the umpire's view is never the fallback.
        match id {
            None => Viewer::Umpire,
            Some(id) => match self.player(id) {
                Some(p) => Viewer::Player(p),
                None => Viewer::Player(self.game.players()[0]),
            },
        }
    }

    /// A game resumed from a snapshot taken after the orders of `log` (the record's bodies):
    /// their events are not known, so a viewer behind it is sent a fresh view.
    pub fn resumed(shared: &Arc<G::Shared>, seed: u64, snapshot: &str, log: &[String]) -> Result<Hosted<G>, String> {
        let orders = log
            .iter()
            .enumerate()
            .map(|(i, body)| rules::data::parse_ron("the record", body).map_err(|e| format!("order {i}: {e}")))
            .collect::<Result<Vec<G::Order>, String>>()?;
        let game = G::resume(shared, seed, snapshot, orders)?;
        let first = game.events().len();
        Ok(Hosted { game, first, ends: vec![first; log.len()], ais: Vec::new() })
    }

    fn parse(order: Value) -> Result<G::Order, Refusal> {
        serde_json::from_value::<G::Order>(order)
            .map_err(|e| Refusal::with("bad_order", Msg::new("server.err.bad_order").arg("why", e)))
    }

    fn apply(&mut self, order: G::Order) -> Result<Applied, Refusal> {
        let body = rules::data::to_ron(&order);
        let ends_turn = G::ends_turn(&order);
        self.game.apply(order).map_err(|e| Refusal::with("illegal", G::refusal(&e)))?;
        self.ends.push(self.game.events().len());
        Ok(Applied { index: self.ends.len() - 1, body, ends_turn })
    }
}

impl<G: Served> Table for Hosted<G> {
    fn kind(&self) -> Kind {
        G::KIND
    }

    fn players(&self) -> Vec<String> {
        self.game.players().into_iter().map(|p| self.game.player_id(p)).collect()
    }

    fn clockface(&self) -> Clockface {
        Clockface {
            turn: self.game.turn(),
            phase: self.game.phase_key().to_string(),
            active: if self.game.awaits_moderator() {
                Some(MODERATOR.to_string())
            } else {
                self.game.active_player().map(|p| self.game.player_id(p))
            },
            over: self.game.is_over(),
            orders: self.ends.len(),
        }
    }

    fn is_pass(&self, order: &Value) -> bool {
        serde_json::from_value::<G::Order>(order.clone()).is_ok_and(|o| G::is_pass(&o))
    }

    fn submit(&mut self, role: &Role, generals: &[&Role], order: Value) -> Result<Applied, Refusal> {
        let order = Self::parse(order)?;
        if self.game.is_over() {
            return Err(Refusal::new("game_over", "server.err.game_over"));
        }
        // What the game asks its moderator, and the rulings: the moderator's seat's alone;
        // nothing else is the moderator's, and while a ruling is awaited no player acts.
        let moderators = G::is_moderators(&order);
        if moderators != (*role == Role::Moderator) {
            return Err(if moderators {
                Refusal::new("not_moderator", "server.err.not_moderator")
            } else {
                Refusal::new("no_orders", "server.err.no_orders")
            });
        }
        if moderators {
            return self.apply(order);
        }
        if self.game.awaits_moderator() {
            return Err(Refusal::new("awaits_moderator", "server.err.awaits_moderator"));
        }
        let active = self.game.active_player().map(|p| self.game.player_id(p));
        if active.is_none() {
            return Err(Refusal::new("game_over", "server.err.game_over"));
        }
        if role.commands() != active.as_deref() {
            return Err(Refusal::new("not_your_turn", "server.err.not_your_turn"));
        }
        self.game.may_order(role, generals, &order)?;
        self.apply(order)
    }

    fn pass(&mut self) -> Result<Applied, Refusal> {
        if self.game.is_over() {
            return Err(Refusal::new("game_over", "server.err.game_over"));
        }
        // The moderator's time out: the engine's own answer.
        if let Some(ruling) = self.game.default_ruling() {
            return self.apply(ruling);
        }
        let pass = self.game.pass();
        self.apply(pass)
    }

    fn replay(&mut self, body: &str) -> Result<Applied, String> {
        // The engine's own dialect of RON (`Some` implicit), as `rules::data::to_ron` wrote it.
        let order: G::Order =
            rules::data::parse_ron("the record", body).map_err(|e| format!("order {}: {e}", self.ends.len()))?;
        self.apply(order).map_err(|r| format!("order {}: {}", self.ends.len(), r.msg))
    }

    fn view(&self, viewer: Option<&str>) -> Value {
        self.game.view_json(self.viewer(viewer))
    }

    fn seen(&self, viewer: Option<&str>, index: usize) -> Vec<Value> {
        let start = if index == 0 { self.first } else { self.ends.get(index - 1).copied().unwrap_or(self.first) };
        let end = self.ends.get(index).copied().unwrap_or(start);
        let events = self.game.events().get(start..end).unwrap_or(&[]);
        self.game.seen_json(self.viewer(viewer), events)
    }

    fn preview(&self, viewer: Option<&str>, order: Value) -> Result<PreviewJob, Refusal> {
        let order = Self::parse(order)?;
        let ctx = self.game.ctx_for(self.viewer(viewer));
        Ok(Box::new(move || G::preview_on_json(ctx, &order).map_err(|e| Refusal::with("illegal", G::refusal(&e)))))
    }

    fn set_ai(&mut self, player: &str, level: Option<Level>, seed: u64) {
        let Some(p) = self.player(player) else { return };
        self.ais.retain(|(q, _)| *q != p);
        if let Some(level) = level {
            self.ais.push((p, G::new_ai(p, level, seed)));
        }
    }

    fn ai_plays(&self, player: &str) -> bool {
        self.player(player).is_some_and(|p| self.ais.iter().any(|(q, _)| *q == p))
    }

    fn ai_step(&mut self, budget: Duration) -> Option<Result<Applied, Refusal>> {
        let active = self.game.active_player()?;
        let viewer = Viewer::Player(active);
        let ctx = self.game.ctx_for(viewer);
        let (_, ai) = self.ais.iter_mut().find(|(p, _)| *p == active)?;
        let order = match ai.think(&ctx, budget) {
            Think::Order(o) => o,
            Think::Thinking => return None,
            Think::Idle => self.game.pass(),
        };
        match self.apply(order) {
            Ok(a) => Some(Ok(a)),
            // An AI's order the engine refuses (it should not happen) gives way to a pass.
            Err(_) => Some(self.pass()),
        }
    }

    fn save_text(&self) -> String {
        self.game.save().to_text()
    }

    fn snapshot(&self) -> Option<String> {
        self.game.snapshot_text()
    }

    fn state_hash(&self) -> String {
        self.game.state_hash().to_string()
    }

    fn timing(&self) -> Timing {
        // A ruling awaited is timed as a phase of its own (the game's phase deadline).
        if self.game.awaits_moderator() { Timing::Phase { phase: MODERATOR } } else { self.game.timing() }
    }

    fn allies(&self, player: &str) -> Vec<String> {
        let Some(p) = self.player(player) else { return Vec::new() };
        self.game.allies(p).into_iter().map(|a| self.game.player_id(a)).collect()
    }
}

pub(crate) fn side_id(side: rules::tactical::Side) -> String {
    match side {
        rules::tactical::Side::Red => "red".to_string(),
        rules::tactical::Side::Blue => "blue".to_string(),
    }
}

/// A kind whose games share their scenario as it is (nothing more to share than the file).
macro_rules! shares_its_scenario {
    () => {
        type Shared = <Self as Game>::Scenario;

        fn share(scenario: Self::Scenario) -> Arc<Self::Shared> {
            Arc::new(scenario)
        }

        fn new_on(shared: &Arc<Self::Shared>, seed: u64) -> Self {
            <Self as Game>::new(shared, seed)
        }
    };
}

// After the macro, which they use.
mod battle;
mod campaign;

/// A scenario file loaded: when it was written (its modification time and length), its hash,
/// and what its games share, while any game holds it.
struct Loaded {
    stamp: (Option<SystemTime>, u64),
    hash: String,
    shared: Weak<dyn Any + Send + Sync>,
}

/// The scenarios loaded in this process, by path.
static LOADED: LazyLock<Mutex<BTreeMap<PathBuf, Loaded>>> = LazyLock::new(|| Mutex::new(BTreeMap::new()));

/// What the games of the scenario at `path` share, and its hash: loaded once while any game
/// holds it (loaded again when the file changed), so that five games of August 1914 keep one
/// map of Europe.
pub fn shared<G: Served>(path: &Path) -> Result<(Arc<G::Shared>, String), String> {
    let stamp = std::fs::metadata(path)
        .map(|m| (m.modified().ok(), m.len()))
        .map_err(|e| format!("{}: {e}", path.display()))?;
    // One load at a time: two games made at once of one file share it too.
    let mut loaded = LOADED.lock().map_err(|_| "the scenario cache is poisoned".to_string())?;
    loaded.retain(|_, l| l.shared.strong_count() > 0);
    if let Some(l) = loaded.get(path).filter(|l| l.stamp == stamp)
        && let Some(any) = l.shared.upgrade()
        && let Ok(shared) = any.downcast::<G::Shared>()
    {
        return Ok((shared, l.hash.clone()));
    }
    let scenario = G::load(path).map_err(|e| e.to_string())?;
    let hash = G::scenario_hash(&scenario).to_string();
    let shared = G::share(scenario);
    let any: Arc<dyn Any + Send + Sync> = shared.clone();
    loaded.insert(path.to_path_buf(), Loaded { stamp, hash: hash.clone(), shared: Arc::downgrade(&any) });
    Ok((shared, hash))
}

/// [`shared`], refused when the scenario no longer has the hash a game was made on.
fn shared_as<G: Served>(path: &Path, hash: Option<&str>) -> Result<Arc<G::Shared>, String> {
    let (shared, found) = shared::<G>(path)?;
    if let Some(h) = hash.filter(|h| **h != found) {
        return Err(format!(
            "{}: the scenario's hash is {found}, the game was made on {h}: it changed since",
            path.display()
        ));
    }
    Ok(shared)
}

fn load<G: Served>(path: &std::path::Path, seed: u64, hash: Option<&str>) -> Result<Box<dyn Table>, String> {
    Ok(Box::new(Hosted::<G>::new(&shared_as::<G>(path, hash)?, seed)))
}

/// A recorded game's table: from the snapshot the store gives (`after` orders, its text; a turn
/// behind the newest) and the rest of its log where it has one, else from its whole log; a
/// snapshot that does not match the record is passed over (the whole log replayed, and the
/// operator told).
pub fn table_of_record(
    rec: &crate::store::GameRecord,
    root: &Path,
    log: &[crate::store::OrderRecord],
    snapshot: Option<(i64, String)>,
) -> Result<Box<dyn Table>, String> {
    let resumed = snapshot.and_then(|(after, text)| {
        let after = usize::try_from(after).ok().filter(|a| *a <= log.len())?;
        let bodies: Vec<String> = log[..after].iter().map(|o| o.body.clone()).collect();
        match resumed_table(rec, root, &text, &bodies) {
            Ok(t) => Some((t, after)),
            Err(e) => {
                eprintln!("kriegsspiel-server: game {}: its snapshot is passed over: {e}", rec.id);
                None
            }
        }
    });
    let (mut table, from) = match resumed {
        Some(t) => t,
        None => (new_table(rec, root)?, 0),
    };
    for o in &log[from..] {
        table.replay(&o.body)?;
    }
    Ok(table)
}

fn resumed_table(
    rec: &crate::store::GameRecord,
    root: &Path,
    snapshot: &str,
    log: &[String],
) -> Result<Box<dyn Table>, String> {
    fn on<G: Served>(
        rec: &crate::store::GameRecord,
        path: &Path,
        snapshot: &str,
        log: &[String],
    ) -> Result<Box<dyn Table>, String> {
        let shared = shared_as::<G>(path, Some(&rec.scenario_hash))?;
        Ok(Box::new(Hosted::<G>::resumed(&shared, rec.seed, snapshot, log)?))
    }
    let path = root.join(&rec.scenario);
    match Kind::parse(&rec.kind) {
        Some(Kind::GreatWar) => on::<rules::strategic::GreatWar>(rec, &path, snapshot, log),
        Some(Kind::Battle) => on::<rules::tactical::Battle>(rec, &path, snapshot, log),
        Some(Kind::Campaign) => on::<rules::campaign::Campaign>(rec, &path, snapshot, log),
        None => Err(format!("unknown kind of game `{}`", rec.kind)),
    }
}

/// A fresh table for a recorded game (the scenario must still have its recorded hash).
pub fn new_table(rec: &crate::store::GameRecord, root: &std::path::Path) -> Result<Box<dyn Table>, String> {
    let path = root.join(&rec.scenario);
    let hash = Some(rec.scenario_hash.as_str());
    match Kind::parse(&rec.kind) {
        Some(Kind::Battle) => load::<rules::tactical::Battle>(&path, rec.seed, hash),
        Some(Kind::Campaign) => load::<rules::campaign::Campaign>(&path, rec.seed, hash),
        Some(Kind::GreatWar) => load::<rules::strategic::GreatWar>(&path, rec.seed, hash),
        None => Err(format!("unknown kind of game `{}`", rec.kind)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The tests that load the test front, one at a time: the process shares it between them.
    static FRONT: Mutex<()> = Mutex::new(());

    #[test]
    fn the_games_of_one_scenario_share_it_while_any_holds_it() {
        let _alone = FRONT.lock();
        let path = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../../scenarios/great_war/test_front.ron"));
        let (a, hash) = shared::<rules::strategic::GreatWar>(path).expect("loads");
        let (b, again) = shared::<rules::strategic::GreatWar>(path).expect("shared");
        assert!(Arc::ptr_eq(&a, &b), "one map for both games");
        assert_eq!(hash, again);
        let (x, y) =
            (Hosted::<rules::strategic::GreatWar>::new(&a, 1), Hosted::<rules::strategic::GreatWar>::new(&b, 2));
        assert!(std::ptr::eq(x.game.ctx().map(), y.game.ctx().map()), "the games hold the one map");
        // Asked as another kind, the file is not taken for what it is not.
        assert!(shared::<rules::tactical::Battle>(path).is_err());
        let weak = Arc::downgrade(&a);
        drop((a, b, x, y));
        assert_eq!(weak.strong_count(), 0, "let go with the last game");
    }

    /// A Great War game resumed from its snapshot and the rest of its log is the game itself:
    /// every order after gives the same state, and its save (orders and state hashes) is the
    /// same text.
    #[test]
    fn a_great_war_game_resumed_from_a_snapshot_goes_on_as_the_game() {
        let _alone = FRONT.lock();
        let path = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../../scenarios/great_war/test_front.ron"));
        let (shared, _) = shared::<rules::strategic::GreatWar>(path).expect("loads");
        let mut game = Hosted::<rules::strategic::GreatWar>::new(&shared, 5);
        for p in game.players() {
            game.set_ai(&p, Some(Level::Veteran), 5);
        }
        let mut bodies = Vec::new();
        let mut snapshot = None;
        let start = game.clockface().turn;
        while game.clockface().turn < start + 2 && !game.clockface().over {
            if let Some(applied) = game.ai_step(Duration::from_secs(5)) {
                bodies.push(applied.expect("the AI's order").body);
            }
            if game.clockface().turn == start + 1 && snapshot.is_none() {
                snapshot = Some((bodies.len(), game.snapshot().expect("the Great War keeps snapshots")));
            }
        }
        let (after, text) = snapshot.expect("the next turn began");
        assert!(after > 0 && after < bodies.len(), "taken mid-log: {after} of {}", bodies.len());
        let mut resumed =
            Hosted::<rules::strategic::GreatWar>::resumed(&shared, 5, &text, &bodies[..after]).expect("resumed");
        let mut original = Hosted::<rules::strategic::GreatWar>::new(&shared, 5);
        for b in &bodies[..after] {
            original.replay(b).expect("replays");
        }
        assert_eq!(resumed.state_hash(), original.state_hash());
        for b in &bodies[after..] {
            original.replay(b).expect("replays");
            resumed.replay(b).expect("the resumed game takes the same order");
            assert_eq!(resumed.state_hash(), original.state_hash(), "the same state after each order");
        }
        assert_eq!(resumed.save_text(), original.save_text(), "the same save");
        assert_eq!(resumed.clockface(), original.clockface());
        // A snapshot that does not match its log is refused, not resumed.
        assert!(Hosted::<rules::strategic::GreatWar>::resumed(&shared, 5, &text, &bodies[..after - 1]).is_err());
        assert!(Hosted::<rules::strategic::GreatWar>::resumed(&shared, 5, "{}", &bodies[..after]).is_err());
        let forged = text.replacen("\"money\":", "\"money\":1", 1);
        assert!(
            Hosted::<rules::strategic::GreatWar>::resumed(&shared, 5, &forged, &bodies[..after]).is_err(),
            "a state that does not hash as it did"
        );
        // Battles keep none.
        let battle = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../../scenarios/open_field.ron"));
        let (b, _) = super::shared::<rules::tactical::Battle>(battle).expect("loads");
        assert!(Hosted::<rules::tactical::Battle>::new(&b, 1).snapshot().is_none());
    }
}
