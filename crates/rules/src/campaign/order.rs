//! Everything a player does in a campaign is an [`Order`]; an illegal one gets an [`OrderError`].

use super::map::HexAt;
use super::state::{ArmyId, Forces};
use crate::moderation::Asked;
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
    /// (T-STRAT-7, T-STRAT-11, T-END-4). Only before the battle's first [`Order::Fight`].
    BattleResult { save: Box<SaveGame> },
    /// One order of the waiting battle (both sides chosen), given by the side the battle waits
    /// for and checked by the battle's own door: the battle fought on the campaign's log, each
    /// general at their own seat (T-STRAT-4). The order that ends the battle applies its result
    /// as [`Order::BattleResult`] would (T-STRAT-7, T-STRAT-11, T-END-4). The battle's moderator
    /// orders are not among them: a campaign's moderator rules on the campaign.
    Fight(crate::tactical::Order),
    /// End the side's part of the campaign turn.
    EndTurn,
    /// The moderator's: the decisions the campaign asks the moderator for from now on
    /// ([`crate::moderation`]); none, and the engine decides them all again.
    Moderate { asks: Vec<Asked> },
    /// The moderator's ruling on the waiting question.
    Rule(Ruling),
}

/// A moderator's answer to the campaign's waiting [`super::Question`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Ruling {
    /// T-STRAT-9: the battle is played on the grid (true) or settled by auto-battle.
    Played(bool),
    /// T-STRAT-5: the units each side fields, per side index.
    Cut([usize; 2]),
    /// T-AUTO-2: the auto-battle ends after this round (from 1), won by `winner`.
    AutoBattleEnd { after: u32, winner: Side },
    /// T-AUTO-3: these of the loser's units are destroyed; the others surrender.
    Surrender { destroyed: Vec<UnitId> },
    /// T-STRAT-7: the Health each left-out unit loses, in the question's order.
    LeftOut { losses: Vec<i32> },
    /// The engine's own answer (the moderator absent past the deadline, or content with it).
    Default,
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
            Order::Fight(_) => "fighting the battle",
            Order::EndTurn => "ending the turn",
            Order::Moderate { .. } => "setting what the moderator decides",
            Order::Rule(_) => "ruling",
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
    #[error("the moderator decides first ({rule})")]
    AwaitsModerator { rule: &'static str },
    #[error("no question waits for a ruling")]
    NoQuestion,
    #[error("{0}")]
    BadBattle(String),
    /// The battle's door refused an [`Order::Fight`].
    #[error("{0}")]
    Fight(crate::tactical::OrderError),
    #[error("{why} ({rule})")]
    Rule { rule: &'static str, why: String },
}

impl OrderError {
    pub fn rule(rule: &'static str, why: impl Into<String>) -> OrderError {
        OrderError::Rule { rule, why: why.into() }
    }
}
