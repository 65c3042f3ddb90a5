//! A campaign's seats: each side's leader and any generals, each commanding the armies its
//! leader assigns (T-STRAT-3: the leaders give general aims, «конкретные действия на
//! стратегических и тактических картах военные определяют самостоятельно»). A general moves its
//! armies, chooses the forces of a battle they join and fights their units in it; the leader
//! keeps the directives and every army no general holds; the side's turn (on the map, or in its
//! battle) ends when each of its seats has ended it.

use super::command::Needs;
use super::{Kind, Refusal, Served, Timing, side_id};
use crate::seats::Role;
use ai::Level;
use rules::campaign::{ArmyId, Campaign, CampaignState, Order};
use rules::tactical::{Order as BattleOrder, Side, UnitId};
use rules::texts::Msg;
use rules::{DataError, Game};
use std::path::Path;
use std::sync::Arc;

/// The army a unit marches with.
fn army_of(state: &CampaignState, unit: UnitId) -> Vec<ArmyId> {
    state.armies.iter().filter(|a| a.units.contains(&unit)).map(|a| a.id).collect()
}

/// The armies of `side` in the waiting battle's hex.
fn in_battle(state: &CampaignState, side: Option<Side>) -> Vec<ArmyId> {
    let Some(b) = &state.battle else { return Vec::new() };
    state.armies.iter().filter(|a| a.at == b.at && Some(a.side) == side).map(|a| a.id).collect()
}

/// The leader's alone: its directives (a battle's result is nobody's); an army's orders are
/// whoever holds it; the command of a battle (choosing its forces, its HQ, formations, redoubts,
/// retreat and capitulation) a general's holding one of the side's armies there, else the
/// leader's.
fn needs(c: &Campaign, order: &Order) -> Needs<ArmyId> {
    let state = c.state();
    let battle = || Needs::Any(in_battle(state, c.active_player()));
    match order {
        Order::Move { army, .. }
        | Order::Intercept { army, .. }
        | Order::Split { army, .. }
        | Order::Replenish { army } => Needs::All(vec![*army]),
        Order::Merge { army, into } => Needs::All(vec![*army, *into]),
        Order::Directive { .. } | Order::BattleResult { .. } => Needs::Leader,
        // The moderator's seat's alone: `Hosted::submit` never asks a player's seat of them.
        Order::Moderate { .. } | Order::Rule(_) => Needs::Leader,
        Order::ChooseForces(_) => battle(),
        Order::EndTurn => Needs::Anyone,
        Order::Fight(o) => match o {
            BattleOrder::EndSetup | BattleOrder::EndTurn => Needs::Anyone,
            // The side's command: its HQ and formations (and, naming no unit, its redoubts,
            // retreat and capitulation).
            BattleOrder::DesignateHq { .. } | BattleOrder::FormFormation { .. } => battle(),
            _ => o.unit().map_or_else(battle, |unit| Needs::All(army_of(state, unit))),
        },
    }
}

fn holds(role: &Role, army: &ArmyId) -> bool {
    matches!(role, Role::General { formations, .. } if formations.contains(&army.0))
}

impl Served for Campaign {
    const KIND: Kind = Kind::Campaign;

    shares_its_scenario!();

    fn load(path: &Path) -> Result<Self::Scenario, DataError> {
        rules::campaign::CampaignScenario::load(path)
    }

    fn player_id(&self, player: Side) -> String {
        side_id(player)
    }

    fn phase_key(&self) -> &'static str {
        let state = self.state();
        match (&state.battle, state.outcome.is_some()) {
            (_, true) => "server.phase.over",
            (Some(_), _) => "server.phase.battle",
            (None, _) => "server.phase.campaign",
        }
    }

    fn refusal(error: &rules::campaign::OrderError) -> Msg {
        Msg::plain(error.to_string())
    }

    /// A general orders only its armies and their battles; the leader its directives and what
    /// no general holds. A battle is fought on the campaign's log, each side at its own seats,
    /// order by order (`Fight`): a result reported whole would be one seat playing both sides.
    fn may_order(&self, role: &Role, generals: &[&Role], order: &Order) -> Result<(), Refusal> {
        if matches!(order, Order::BattleResult { .. }) {
            return Err(Refusal::new("not_yours", "server.err.battle_result"));
        }
        needs(self, order).judge(role, generals, holds)
    }

    /// Ending the turn on the map, or the set-up or a turn of the battle (not choosing forces,
    /// nor a battle's report, which end a turn for the log's checkpoints).
    fn is_pass(order: &Order) -> bool {
        matches!(order, Order::EndTurn | Order::Fight(BattleOrder::EndTurn | BattleOrder::EndSetup))
    }

    /// An AI seat fights its own side of the campaign's battles, from its side's view.
    fn new_ai(player: Side, level: Level, seed: u64) -> Box<dyn ai::Player<Self> + Send + Sync> {
        Box::new(ai::campaign::CampaignAi::seat(player, level, seed))
    }

    /// The battle being fought has the battle's clocks (T-SETUP-1, T-TURN-2, the battle
    /// scenario's numbers); the campaign map a phase deadline.
    fn timing(&self) -> Timing {
        use rules::tactical::Phase;
        if self.is_over() {
            return Timing::None;
        }
        let battle = self.state().battle.as_ref().map(|b| b.number);
        match self.fight() {
            Some(f) if f.clock.phase == Phase::Battle => {
                Timing::Turn { seconds: f.turn_seconds(), turn: f.clock.turn, battle }
            }
            Some(f) if f.clock.phase != Phase::Over => Timing::Setup { seconds: f.setup_seconds(), battle },
            _ => Timing::Phase { phase: self.phase_key() },
        }
    }
}
