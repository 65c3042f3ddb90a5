//! The Great War's seats: a power's leader and its generals (S-ARMY-3: orders go to armies).
//! A general commands the armies (corps outside an army too) and fleets its leader assigns;
//! the leader keeps the economy, diplomacy, research, purchases and every piece no general holds.

use super::command::Needs;
use super::{Kind, Refusal, Served};
use crate::seats::Role;
use ai::Level;
use ai::great_war::GwAi;
use rules::DataError;
use rules::strategic::query::order_formation;
use rules::strategic::{Ctx, ForceId, FormationId, GreatWar, Order, OrderError, Piece, PowerId};
use rules::texts::Msg;
use std::path::Path;
use std::sync::Arc;

/// What holds a piece, for the seats: its army, else its corps (outside an army), else a fleet.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Holder {
    Formation(FormationId),
    Fleet(u32),
    /// A unit in no formation: the leader's.
    Loose,
}

/// The holder of a unit: the formation it takes its orders through (its army, else its corps).
fn unit(ctx: &Ctx, id: ForceId) -> Holder {
    piece(ctx, &Piece::Unit(id))
}

fn piece(ctx: &Ctx, p: &Piece) -> Holder {
    order_formation(ctx, *p).map_or(Holder::Loose, Holder::Formation)
}

/// The holder of a formation named by an order: its army, else itself.
fn formation(ctx: &Ctx, f: FormationId) -> Holder {
    piece(ctx, &Piece::Corps(f))
}

/// The leader's alone: economy, diplomacy, research, purchases, the order of supply; the
/// pieces' orders are whoever holds them.
fn needs(ctx: &Ctx, order: &Order) -> Needs<Holder> {
    use Order as O;
    let pieces = Needs::All;
    match order {
        O::EndPhase => Needs::Anyone,
        // The moderator's seat's alone: `Hosted::submit` never asks a player's seat of them.
        O::Moderate { .. } | O::Rule(_) => Needs::Leader,
        O::Research { .. }
        | O::BuyAmmunition { .. }
        | O::Recruit { .. }
        | O::BuyGas { .. }
        | O::OfferPeace { .. }
        | O::AcceptPeace { .. }
        | O::SupplyPriority { .. }
        | O::FormArmy { .. }
        | O::Upgrade { .. }
        | O::Convert { .. }
        | O::Restore { .. }
        | O::Repair { .. }
        | O::PlaceCylinder { .. }
        | O::ReleaseGas { .. }
        | O::AttachSquadron { .. }
        | O::EmbarkSquadron { .. }
        | O::LandSquadron { .. }
        | O::Reconnaissance { .. }
        | O::Bomb { .. } => Needs::Leader,
        O::Move { piece: p, .. }
        | O::Detach { piece: p, .. }
        | O::Attack { piece: p, .. }
        | O::Fortify { piece: p } => pieces(vec![piece(ctx, p)]),
        O::MoveArmy { army, .. } => pieces(vec![Holder::Formation(*army)]),
        O::FormCorps { units, .. } => pieces(units.iter().map(|u| unit(ctx, *u)).collect()),
        O::JoinCorps { unit: u, corps } => pieces(vec![unit(ctx, *u), formation(ctx, *corps)]),
        O::Attach { unit: u, formation } | O::AssignReserve { unit: u, army: formation } => {
            pieces(vec![unit(ctx, *u), self::formation(ctx, *formation)])
        }
        O::CommitReserve { unit: u, .. } | O::Fire { unit: u, .. } | O::CoastalFire { unit: u, .. } => {
            pieces(vec![unit(ctx, *u)])
        }
        O::Disembark { unit: u, .. } => pieces(vec![unit(ctx, *u)]),
        O::FormBattery { units } => pieces(units.iter().map(|u| unit(ctx, *u)).collect()),
        O::Retreat { moves } => pieces(moves.iter().map(|(p, _)| piece(ctx, p)).collect()),
        O::MoveFleet { fleet, .. }
        | O::FleetStance { fleet, .. }
        | O::SplitFleet { fleet, .. }
        | O::LayMine { fleet }
        | O::Sweep { fleet }
        | O::Bombard { fleet, .. } => pieces(vec![Holder::Fleet(*fleet)]),
        O::MergeFleet { fleet, into } => pieces(vec![Holder::Fleet(*fleet), Holder::Fleet(*into)]),
        O::SubmarineAttack { flotilla, .. } | O::Patrol { flotilla, .. } => pieces(vec![Holder::Fleet(*flotilla)]),
        O::Embark { unit: u, fleet } => pieces(vec![unit(ctx, *u), Holder::Fleet(*fleet)]),
    }
}

fn holds(role: &Role, h: &Holder) -> bool {
    match (role, h) {
        (Role::General { formations, .. }, Holder::Formation(f)) => formations.contains(&f.0),
        (Role::General { fleets, .. }, Holder::Fleet(f)) => fleets.contains(f),
        _ => false,
    }
}

impl Served for GreatWar {
    const KIND: Kind = Kind::GreatWar;

    type Shared = rules::strategic::state::StaticData;

    fn share(scenario: Self::Scenario) -> Arc<Self::Shared> {
        rules::strategic::state::StaticData::of(scenario)
    }

    fn new_on(shared: &Arc<Self::Shared>, seed: u64) -> Self {
        GreatWar::new_shared(shared.clone(), seed)
    }

    fn snapshot_text(&self) -> Option<String> {
        serde_json::to_string(&self.snapshot()).ok()
    }

    fn resume(shared: &Arc<Self::Shared>, seed: u64, snapshot: &str, log: Vec<Order>) -> Result<Self, String> {
        let snapshot: rules::strategic::Snapshot =
            serde_json::from_str(snapshot).map_err(|e| format!("the snapshot: {e}"))?;
        GreatWar::resume(shared.clone(), seed, &snapshot, log)
    }

    fn load(path: &Path) -> Result<Self::Scenario, DataError> {
        rules::strategic::Scenario::load(path)
    }

    fn player_id(&self, player: PowerId) -> String {
        self.scenario().powers.get(usize::from(player.0)).map_or_else(|| format!("power{}", player.0), |p| p.id.clone())
    }

    fn phase_key(&self) -> &'static str {
        self.clock().phase.key()
    }

    fn refusal(error: &OrderError) -> Msg {
        error.line()
    }

    /// S-ARMY-3: a general orders only what it holds; the leader what no general holds.
    fn may_order(&self, role: &Role, generals: &[&Role], order: &Order) -> Result<(), Refusal> {
        needs(&self.ctx(), order).judge(role, generals, holds)
    }

    fn new_ai(player: PowerId, level: Level, seed: u64) -> Box<dyn ai::Player<Self> + Send + Sync> {
        Box::new(GwAi::new(player, level, seed))
    }

    /// The powers of one alliance are friends (the scenario's `alliance`).
    fn allies(&self, player: PowerId) -> Vec<PowerId> {
        let powers = &self.scenario().powers;
        let alliance = |p: PowerId| powers.get(usize::from(p.0)).map(|s| s.alliance);
        let mine = alliance(player);
        (0..powers.len())
            .filter_map(|i| u8::try_from(i).ok())
            .map(PowerId)
            .filter(|p| mine.is_some() && alliance(*p) == mine)
            .collect()
    }
}
