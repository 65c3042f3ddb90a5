//! What a finished battle leaves behind, for the result screen and for a campaign.

use super::components::{Side, Status, UnitId};
use super::config::GeneralFate;
use super::state::{Ctx, EndReason};
use super::units::Arm;
use serde::{Deserialize, Serialize};

/// One side's account of the battle.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SideResult {
    pub side: Side,
    pub name: String,
    pub units: usize,
    pub on_field: usize,
    pub health_lost: i32,
    pub dispersed: usize,
    pub destroyed: usize,
    /// Its units taken prisoner.
    pub captured: usize,
    pub retreated: usize,
    /// Its guns that passed to the enemy (T-END-4, T-AUTO-4 for campaigns).
    pub guns_lost: Vec<UnitId>,
}

/// A general who was hit (T-CMD-2, T-CMD-3).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GeneralCasualty {
    pub side: Side,
    pub formation: String,
    pub fate: GeneralFate,
}

/// Where each unit ended, for a campaign to read back.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct UnitResult {
    pub id: UnitId,
    pub side: Side,
    pub status: Status,
    pub health: i32,
    pub max_health: i32,
}

/// The whole result.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BattleResult {
    pub winner: Side,
    pub reason: EndReason,
    pub turns: u32,
    pub rounds: u32,
    pub sides: [SideResult; 2],
    pub generals: Vec<GeneralCasualty>,
    pub units: Vec<UnitResult>,
}

impl Ctx {
    /// The result, once the battle is over.
    pub fn result(&self) -> Option<BattleResult> {
        let outcome = self.outcome?;
        let side_result = |side: Side| {
            let mine: Vec<_> = self.units.iter().filter(|u| u.side == side).collect();
            let count = |s: Status| mine.iter().filter(|u| u.status == s).count();
            SideResult {
                side,
                name: self.statics.scenario.side(side).name.clone(),
                units: mine.len(),
                on_field: count(Status::Active),
                health_lost: mine.iter().map(|u| u.losses.total).sum(),
                dispersed: count(Status::Dispersed),
                destroyed: count(Status::Destroyed),
                captured: count(Status::Captured),
                retreated: count(Status::Retreated),
                guns_lost: if side == outcome.winner {
                    Vec::new()
                } else {
                    mine.iter()
                        .filter(|u| {
                            u.status == Status::Captured && self.arm(u) == Arm::Artillery && u.health.current >= 0
                        })
                        .map(|u| u.id)
                        .collect()
                },
            }
        };
        Some(BattleResult {
            winner: outcome.winner,
            reason: outcome.reason,
            turns: outcome.turn,
            rounds: outcome.round,
            sides: [side_result(Side::Red), side_result(Side::Blue)],
            generals: self
                .command
                .formations
                .iter()
                .filter(|f| f.general_lost())
                .map(|f| GeneralCasualty { side: f.side, formation: f.name.clone(), fate: f.general })
                .collect(),
            units: self
                .units
                .iter()
                .map(|u| UnitResult {
                    id: u.id,
                    side: u.side,
                    status: u.status,
                    health: u.health.current,
                    max_health: u.health.max,
                })
                .collect(),
        })
    }
}
