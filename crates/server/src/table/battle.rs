//! A battle's seats: each side's commander (its `player` seat) and any generals, each commanding
//! the formations (divisions and brigades, T-CMD-1, by formation ID) its commander assigns. A
//! general deploys, moves, turns, fires and reforms its formations' units and brings up their
//! reserves; the commander keeps the side's command (its redoubts, HQ, the make-up of its
//! formations, retreat and capitulation) and every unit no general holds; the side's set-up step
//! or turn ends when each of its seats has ended it (T-SETUP-1, T-TURN-2).

use super::command::Needs;
use super::{Kind, Refusal, Served, Timing, side_id};
use crate::seats::Role;
use ai::Level;
use rules::tactical::scenario::Scenario;
use rules::tactical::state::Ctx;
use rules::tactical::{Battle, Order, OrderError, Phase, Side};
use rules::texts::Msg;
use rules::{DataError, Game};
use std::path::Path;
use std::sync::Arc;

/// The side's command is its commander's; a unit's orders are whoever holds its formation (a
/// unit in none: the commander's).
fn needs(ctx: &Ctx, order: &Order) -> Needs<u16> {
    match order {
        Order::EndSetup | Order::EndTurn => Needs::Anyone,
        Order::PlaceRedoubt { .. }
        | Order::DesignateHq { .. }
        | Order::FormFormation { .. }
        | Order::Retreat
        | Order::Capitulate => Needs::Leader,
        // The moderator's seat's alone: `Hosted::submit` never asks a player's seat of them.
        Order::Moderate { .. } | Order::Rule(_) => Needs::Leader,
        // The unit's orders: deploying, moving, turning, firing, skirmishing, reforming, its
        // reactions and bringing it up.
        _ => Needs::All(order.unit().and_then(|u| ctx.unit(u)).and_then(|u| u.formation).into_iter().collect()),
    }
}

fn holds(role: &Role, formation: &u16) -> bool {
    matches!(role, Role::General { formations, .. } if formations.contains(&u32::from(*formation)))
}

impl Served for Battle {
    const KIND: Kind = Kind::Battle;

    shares_its_scenario!();

    fn load(path: &Path) -> Result<Self::Scenario, DataError> {
        Scenario::load(path)
    }

    fn player_id(&self, player: Side) -> String {
        side_id(player)
    }

    fn phase_key(&self) -> &'static str {
        match self.clock().phase {
            Phase::Redoubts => "server.phase.redoubts",
            Phase::Deployment => "server.phase.deployment",
            Phase::Battle => "server.phase.battle",
            Phase::Over => "server.phase.over",
        }
    }

    fn refusal(error: &OrderError) -> Msg {
        Msg::plain(error.to_string())
    }

    /// A general orders only its formations' units; the commander the side's command and the
    /// units no general holds.
    fn may_order(&self, role: &Role, generals: &[&Role], order: &Order) -> Result<(), Refusal> {
        if generals.is_empty() {
            return Ok(());
        }
        needs(&self.ctx(), order).judge(role, generals, holds)
    }

    fn new_ai(player: Side, level: Level, seed: u64) -> Box<dyn ai::Player<Self> + Send + Sync> {
        Box::new(ai::Ai::new(player, level, seed))
    }

    /// T-SETUP-1 and T-TURN-2, with the scenario's numbers (`setup_seconds`, `turn_seconds`).
    fn timing(&self) -> Timing {
        match self.clock().phase {
            Phase::Redoubts | Phase::Deployment => Timing::Setup { seconds: self.ctx().setup_seconds(), battle: None },
            Phase::Battle => Timing::Turn { seconds: self.ctx().turn_seconds(), turn: self.clock().turn, battle: None },
            Phase::Over => Timing::None,
        }
    }
}
