//! The AI's turns, thought out in slices of a frame so the board stays responsive (and the
//! browser, which has one thread, never freezes); its orders go through the session like a
//! person's and are animated the same way.

use crate::screens::{BattleView, Screen};
use crate::session::{AnimBusy, BattleEvents, Seat, Session};
use ai::Think;
use bevy::prelude::*;
use rules::tactical::components::Phase;
use web_time::Duration;

/// Thinking time per frame.
pub const SLICE: Duration = Duration::from_millis(8);

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        Update,
        ai_turn.in_set(crate::AppSystems::Logic).run_if(in_state(Screen::Battle)).run_if(in_state(BattleView::Playing)),
    );
}

/// Whether an AI gives the next order (so it thinks, frame after frame, until it does).
pub fn ai_to_move(session: &Session) -> bool {
    let clock = session.battle.clock();
    clock.phase != Phase::Over && matches!(session.seat(clock.active), Seat::Ai(_))
}

fn ai_turn(session: Option<ResMut<Session>>, busy: Res<AnimBusy>, mut events: MessageWriter<BattleEvents>) {
    let Some(mut session) = session else { return };
    if busy.0 || !ai_to_move(&session) {
        return;
    }
    let side = session.battle.clock().active;
    let ctx = session.ctx();
    let Some(ai) = session.ai_mut(side) else { return };
    if let Think::Order(order) = ai.think(&ctx, SLICE)
        && let Err(e) = session.apply(order.clone(), &mut events)
    {
        // Never expected (the AI only gives legal orders); end its turn rather than stall.
        warn!("the AI's order {order:?} was refused: {e}");
        let pass = if session.battle.clock().phase == Phase::Battle {
            rules::tactical::Order::EndTurn
        } else {
            rules::tactical::Order::EndSetup
        };
        let _ = session.apply(pass, &mut events);
    }
}
