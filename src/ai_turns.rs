//! The AI's turns, for every scene: thought out in slices of a frame so the board stays
//! responsive (and the browser, which has one thread, never freezes); its orders go through the
//! session like a person's and are animated the same way.

use crate::screens::{Menu, PlayView, Scene, playing};
use crate::session::{AnimBusy, GameEvents, PlayGame, Seat, Session, Thinking};
use bevy::prelude::*;
use web_time::{Duration, Instant};

/// Thinking time per frame.
pub const SLICE: Duration = Duration::from_millis(8);

/// How many slices the AI may think in a frame: 1 keeps the board responsive; more ("faster",
/// issue 27) draws fewer frames while the other powers move, so their turns end sooner.
#[derive(Resource, Clone, Copy, Debug, PartialEq, Eq)]
pub struct AiPace(pub u32);

impl Default for AiPace {
    fn default() -> Self {
        AiPace(1)
    }
}

/// The pace "faster" sets.
pub const FAST_PACE: u32 = 12;

pub(crate) fn plugin_for<G: PlayGame>(app: &mut App) {
    app.init_resource::<AiPace>()
        .add_systems(
            Update,
            ai_turn::<G>.in_set(crate::AppSystems::Logic).run_if(playing(G::MODE)).run_if(in_state(PlayView::Playing)),
        )
        .add_systems(Last, thinking::<G>);
}

/// Whether an AI gives the next order (so it thinks, frame after frame, until it does).
pub fn ai_to_move<G: PlayGame>(session: &Session<G>) -> bool {
    session.game.active_player().is_some_and(|p| matches!(session.seat(p), Seat::Ai(_)))
}

fn ai_turn<G: PlayGame>(
    session: Option<ResMut<Session<G>>>,
    busy: Res<AnimBusy>,
    pace: Option<Res<AiPace>>,
    mut events: MessageWriter<GameEvents<G>>,
) {
    let Some(mut session) = session else { return };
    if busy.0 {
        return;
    }
    let slice = SLICE * pace.map_or(1, |p| p.0.clamp(1, 100));
    let start = Instant::now();
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
        let ctx = session.game.ctx_as(rules::view::Viewer::Player(player));
        let budget = slice.saturating_sub(start.elapsed());
        let Some(ai) = session.ai_mut(player) else { return };
        let ai::Think::Order(order) = ai.think(&ctx, budget) else { return };
        if let Err(e) = session.apply(order.clone(), &mut events) {
            // Never expected (the AI only gives legal orders); end its turn rather than stall.
            warn!("the AI's order {order:?} was refused: {e}");
            let pass = session.game.pass();
            let _ = session.apply(pass, &mut events);
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
