//! Everything a player does in a campaign is an [`Order`]; an illegal one gets an [`OrderError`].

use super::map::HexAt;
use super::state::{ArmyId, Forces};
use crate::tactical::{SaveGame, Side, UnitId};
use serde::{Deserialize, Serialize};

/// The longest leaders' directive, in characters (T-STRAT-3); a limit of the referee.
pub const MAX_DIRECTIVE_CHARS: usize = 2000;

/// A player's action on the campaign map.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub enum Order {
    /// Move an army along neighbouring hexes (T-STRAT-1); it stops where it meets the enemy
    /// (T-STRAT-4) or is intercepted (T-STRAT-2).
    Move { army: ArmyId, path: Vec<HexAt> },
    /// Give or cancel the standing intercept order (T-STRAT-2).
    Intercept { army: ArmyId, on: bool },
    /// Detach these units as a new army in the same hex.
    Split { army: ArmyId, units: Vec<UnitId> },
    /// Join an army to another in the same hex.
    Merge { army: ArmyId, into: ArmyId },
    /// T-STRAT-10: an army that has not moved this campaign turn spends it bringing its special
    /// units that were dispersed or lost Health back to full strength (never raising new ones).
    Replenish { army: ArmyId },
    /// A leader's written directive (T-STRAT-3): a message, no effect on the rules.
    Directive {
        #[serde(default)]
        to: Option<ArmyId>,
        text: String,
    },
    /// Choose the units that fight the waiting battle and the redoubts to build (T-STRAT-5/6/8).
    ChooseForces(Forces),
    /// The finished battle's save; it is replayed and checked, then its result applied
    /// (T-STRAT-7, T-STRAT-11, T-END-4).
    BattleResult { save: Box<SaveGame> },
    /// End the side's part of the campaign turn.
    EndTurn,
}

impl Order {
    pub fn name(&self) -> &'static str {
        match self {
            Order::Move { .. } => "moving",
            Order::Intercept { .. } => "setting an intercept order",
            Order::Split { .. } => "splitting an army",
            Order::Merge { .. } => "merging armies",
            Order::Replenish { .. } => "replenishing special units",
            Order::Directive { .. } => "sending a directive",
            Order::ChooseForces(_) => "choosing forces",
            Order::BattleResult { .. } => "reporting a battle",
            Order::EndTurn => "ending the turn",
        }
    }
}

/// Why an order is illegal. The state is left untouched.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum OrderError {
    #[error("the campaign is over")]
    CampaignOver,
    #[error("it is {active:?}'s turn")]
    NotYourTurn { active: Side },
    #[error("there is no {0}")]
    UnknownArmy(ArmyId),
    #[error("{army} belongs to {owner:?}, and it is {active:?}'s turn")]
    NotYours { army: ArmyId, owner: Side, active: Side },
    #[error("a battle at {at} must be fought first (T-STRAT-4)")]
    BattlePending { at: HexAt },
    #[error("no battle is waiting")]
    NoBattle,
    #[error("{0}")]
    BadBattle(String),
    #[error("{why} ({rule})")]
    Rule { rule: &'static str, why: String },
}

impl OrderError {
    pub fn rule(rule: &'static str, why: impl Into<String>) -> OrderError {
        OrderError::Rule { rule, why: why.into() }
    }
}
