//! The AI's turns, for every scene; its orders go through the session like a person's and are
//! animated the same way.
//!
//! Natively the AI thinks on a worker thread (issue 30): the frame loop hands it its player's
//! working copy and never waits for it, and each frame gives the session the orders that have
//! come. A scene whose orders the AI can play on its own copy ([`PlayGame::think_ahead`]: the
//! Great War) lets the worker think on through its player's orders without waiting for the
//! frames, up to the order that ends its stretch. The AI decides the same however its thinking
//! is sliced or where it runs, so the orders are those of the sliced thinking.
//!
//! In the browser, which has one thread, it thinks in slices of a frame so the board stays
//! responsive; a scene that animates no order takes longer slices, as nothing moves while the
//! AI thinks.

use crate::screens::{Menu, PlayView, Scene, playing};
use crate::session::{AiPlayer, AnimBusy, GameEvents, PlayGame, Seat, Session, Thinking};
use bevy::prelude::*;
use rules::view::Viewer;
use web_time::{Duration, Instant};

/// Thinking time per frame (the browser, and a scene that animates its orders).
pub const SLICE: Duration = Duration::from_millis(8);

/// How many slices the AI may think in a frame: 1 keeps the board responsive; more ("faster",
/// issue 27) draws fewer frames while the other powers move, so their turns end sooner (where the
/// AI thinks in the frame's slices: the browser and headless runs).
#[derive(Resource, Clone, Copy, Debug, PartialEq, Eq)]
pub struct AiPace(pub u32);

impl Default for AiPace {
    fn default() -> Self {
        AiPace(1)
    }
}

/// The pace "faster" sets.
pub const FAST_PACE: u32 = 12;

/// The browser's thinking time per frame for a scene that animates no order.
pub const LONG_SLICE: Duration = Duration::from_millis(24);

/// How long a frame spends giving the session the orders the worker thread has sent.
pub const APPLY_BUDGET: Duration = Duration::from_millis(8);

pub(crate) fn plugin_for<G: PlayGame>(app: &mut App) {
    app.init_resource::<AiPace>()
        .add_systems(
            Update,
            ai_turn::<G>.in_set(crate::AppSystems::Logic).run_if(playing(G::MODE)).run_if(in_state(PlayView::Playing)),
        )
        .add_systems(Last, thinking::<G>);
    #[cfg(not(target_arch = "wasm32"))]
    app.insert_resource(Worker::<G>::default());
}

/// Whether an AI gives the next order (so it thinks, frame after frame, until it does).
pub fn ai_to_move<G: PlayGame>(session: &Session<G>) -> bool {
    session.game.active_player().is_some_and(|p| matches!(session.seat(p), Seat::Ai(_)))
}

/// What the worker thread sends: an order, or the end of its stretch with the AI handed back.
pub enum FromWorker<G: PlayGame> {
    Order(G::Order),
    Done(Box<AiPlayer<G>>),
}

/// Thinks `player`'s stretch of orders on what it knows of `ctx` (a whole working copy; the AI
/// is handed [`Sight::known_by`], its own view, issue 26): each order is sent as soon as it is decided;
/// when the scene can play it on the copy ([`PlayGame::think_ahead`]) the AI thinks on, else
/// (or when `send` says nobody listens any more) the stretch ends. Runs on the worker thread,
/// and in tests.
pub fn think_stretch<G: PlayGame>(
    ai: &mut AiPlayer<G>,
    player: G::Player,
    mut ctx: G::Ctx,
    mut send: impl FnMut(G::Order) -> bool,
) {
    loop {
        let known = G::known_by(&ctx, Viewer::Player(player));
        let order = loop {
            match ai.think(&known, Duration::from_secs(3600)) {
                ai::Think::Order(o) => break Some(o),
                ai::Think::Thinking => continue,
                ai::Think::Idle => break None,
            }
        };
        let Some(order) = order else { return };
        let ahead = G::think_ahead(&mut ctx, &order);
        if !send(order) || !ahead {
            return;
        }
    }
}

/// The worker thread's stretch in progress (natively).
#[cfg(not(target_arch = "wasm32"))]
#[derive(Resource)]
pub struct Worker<G: PlayGame> {
    job: Option<Job<G>>,
}

#[cfg(not(target_arch = "wasm32"))]
impl<G: PlayGame> Default for Worker<G> {
    fn default() -> Self {
        Worker { job: None }
    }
}

#[cfg(not(target_arch = "wasm32"))]
struct Job<G: PlayGame> {
    player: G::Player,
    /// The length of the game's order log the orders to come follow.
    orders: usize,
    /// (A resource is shared between systems' threads: the receiver is behind a lock only this
    /// system takes.)
    from: std::sync::Mutex<std::sync::mpsc::Receiver<FromWorker<G>>>,
}

#[cfg(not(target_arch = "wasm32"))]
impl<G: PlayGame> Worker<G> {
    /// Whether a stretch is being thought.
    pub fn busy(&self) -> bool {
        self.job.is_some()
    }
}

#[cfg(not(target_arch = "wasm32"))]
fn start_job<G: PlayGame>(session: &mut Session<G>, player: G::Player) -> Option<Job<G>> {
    let mut ai = session.take_ai(player)?;
    let ctx = session.ctx();
    let (to, from) = std::sync::mpsc::channel();
    let spawned = std::thread::Builder::new().name("ai".to_string()).spawn(move || {
        think_stretch::<G>(&mut *ai, player, ctx, |o| to.send(FromWorker::Order(o)).is_ok());
        let _ = to.send(FromWorker::Done(ai));
    });
    if let Err(e) = spawned {
        warn!("the AI's thread could not start: {e}");
        return None;
    }
    Some(Job { player, orders: session.game.orders().len(), from: std::sync::Mutex::new(from) })
}

/// The AI thinks on a worker thread (natively: the game inserts it; headless tests think in
/// slices, frame by frame).
#[derive(Resource, Debug, Clone, Copy, Default)]
pub struct AiThread;

fn ai_turn<G: PlayGame>(
    session: Option<ResMut<Session<G>>>,
    busy: Res<AnimBusy>,
    thread: Option<Res<AiThread>>,
    pace: Option<Res<AiPace>>,
    #[cfg(not(target_arch = "wasm32"))] mut worker: ResMut<Worker<G>>,
    mut events: MessageWriter<GameEvents<G>>,
) {
    #[cfg(not(target_arch = "wasm32"))]
    if thread.is_some() {
        return on_worker(session, busy.0, &mut *worker, &mut events);
    }
    let _ = thread;
    sliced(session, busy.0, pace.map_or(1, |p| p.0), &mut events);
}

/// Each frame: the orders the worker sent are given to the session (for at most
/// [`APPLY_BUDGET`]); a new stretch starts when an AI is to move and none runs.
#[cfg(not(target_arch = "wasm32"))]
fn on_worker<G: PlayGame>(
    session: Option<ResMut<Session<G>>>,
    busy: bool,
    worker: &mut Worker<G>,
    events: &mut MessageWriter<GameEvents<G>>,
) {
    let Some(mut session) = session else {
        worker.job = None;
        return;
    };
    // A new game: a stretch thought for the last one is dropped.
    if session.is_added() {
        worker.job = None;
    }
    if busy {
        return;
    }
    let start = Instant::now();
    loop {
        let Some(job) = &mut worker.job else {
            if !ai_to_move(&session) {
                return;
            }
            let Some(player) = session.game.active_player() else { return };
            worker.job = start_job(&mut session, player);
            return;
        };
        let received = match job.from.lock() {
            Ok(from) => from.try_recv(),
            Err(_) => Err(std::sync::mpsc::TryRecvError::Disconnected),
        };
        let message = match received {
            Ok(m) => m,
            Err(std::sync::mpsc::TryRecvError::Empty) => return,
            Err(std::sync::mpsc::TryRecvError::Disconnected) => {
                // The thread ended without handing the AI back (it panicked): a new AI.
                let (player, seat) = (job.player, session.seat(job.player));
                warn!("the AI's thread of {} ended: a new AI plays on", G::player_name(player));
                if let Seat::Ai(level) = seat {
                    let seed = session.game.seed();
                    session.put_ai(player, G::new_ai(player, level, seed));
                }
                worker.job = None;
                continue;
            }
        };
        match message {
            FromWorker::Done(ai) => {
                session.put_ai(job.player, ai);
                worker.job = None;
            }
            FromWorker::Order(order) => {
                // Orders of a stretch that no longer follows the game (undone, or another
                // player's turn) are not given.
                let current = session.game.orders().len() == job.orders
                    && session.game.active_player() == Some(job.player)
                    && ai_to_move(&session);
                if !current {
                    continue;
                }
                if let Err(e) = session.apply(order.clone(), events) {
                    // Never expected (the AI only gives legal orders); end its turn rather than stall.
                    warn!("the AI's order {order:?} was refused: {e}");
                    let pass = session.game.pass();
                    let _ = session.apply(pass, events);
                }
                job.orders = session.game.orders().len();
                if G::ANIMATES_ORDERS || start.elapsed() >= APPLY_BUDGET {
                    return;
                }
            }
        }
    }
}

/// The AI thinks in this frame's slice (the browser, and headless tests).
fn sliced<G: PlayGame>(
    session: Option<ResMut<Session<G>>>,
    busy: bool,
    pace: u32,
    events: &mut MessageWriter<GameEvents<G>>,
) {
    let Some(mut session) = session else { return };
    if busy {
        return;
    }
    let start = Instant::now();
    // The browser's one thread: longer slices where nothing animates.
    let slice = if G::ANIMATES_ORDERS || !cfg!(target_arch = "wasm32") { SLICE } else { LONG_SLICE };
    let slice = slice * pace.clamp(1, 100);
    // A scene that does not animate orders takes more of them in this frame while the first half
    // of the slice lasts: the thinking that follows stays within the rest of it (the staff's
    // guard; each order is read from the game as the orders before it left it). On a slow
    // (software-drawn) screen the AI's turn then no longer waits a frame for each order.
    loop {
        if !ai_to_move(&session) {
            return;
        }
        let Some(player) = session.game.active_player() else { return };
        // The AI thinks on its own player's view only (issue 26): `Sight::ctx_as`.
        let ctx = session.game.ctx_as(Viewer::Player(player));
        let budget = slice.saturating_sub(start.elapsed());
        let Some(ai) = session.ai_mut(player) else { return };
        let ai::Think::Order(order) = ai.think(&ctx, budget) else { return };
        if let Err(e) = session.apply(order.clone(), events) {
            // Never expected (the AI only gives legal orders); end its turn rather than stall.
            warn!("the AI's order {order:?} was refused: {e}");
            let pass = session.game.pass();
            let _ = session.apply(pass, events);
            return;
        }
        if G::ANIMATES_ORDERS || start.elapsed() >= slice / 2 {
            return;
        }
    }
}

/// Tells the window an AI is thinking in this scene's game (it then keeps drawing frames).
fn thinking<G: PlayGame>(
    session: Option<Res<Session<G>>>,
    scene: Option<Res<State<Scene>>>,
    menu: Res<State<Menu>>,
    view: Option<Res<State<PlayView>>>,
    mut thinking: ResMut<Thinking>,
) {
    if scene.is_none_or(|s| *s.get() != Scene::Playing(G::MODE)) {
        return;
    }
    let on = *menu.get() == Menu::None
        && view.is_some_and(|v| *v.get() == PlayView::Playing)
        && session.is_some_and(|s| ai_to_move(&s));
    thinking.set_if_neq(Thinking(on));
}
