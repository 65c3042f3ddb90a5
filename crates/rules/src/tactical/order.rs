//! Everything a player does in a battle is an [`Order`]; an illegal one gets an [`OrderError`].

use super::components::{Phase, Reactions, Side, UnitId};
use super::grid::{Cell, Dir};
use crate::moderation::Asked;
use serde::{Deserialize, Serialize};

/// A player's action. Orders are given by the side whose turn (or set-up step) it is.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub enum Order {
    /// Place a redoubt in the own zone before deployment (T-STRAT-8, T-SETUP-2).
    PlaceRedoubt { cell: Cell },
    /// Place (or re-place) a unit in the own zone (T-SETUP-1).
    Deploy { unit: UnitId, cell: Cell, facing: Dir },
    /// Name the side's HQ unit (T-CMD-1).
    DesignateHq { unit: UnitId },
    /// Form a division or brigade with its general on one of its units (T-CMD-1).
    FormFormation { name: String, units: Vec<UnitId>, general: UnitId },
    /// Finish the side's current set-up step; units not yet placed are placed automatically (T-SETUP-1).
    EndSetup,
    /// Move along orthogonal steps (T-MOVE-1); `exit` steps off the map edge at the end (T-END-2).
    Move {
        unit: UnitId,
        path: Vec<Cell>,
        #[serde(default)]
        exit: bool,
    },
    /// Turn to a new facing (T-MOVE-2).
    Turn { unit: UnitId, facing: Dir },
    /// Fire at an enemy unit (T-FIRE).
    Fire { unit: UnitId, target: UnitId },
    /// Enter or leave skirmish order, spending the whole turn (T-SKIRM-1).
    Skirmish { unit: UnitId, on: bool },
    /// Reform disorganized skirmishers, spending the whole turn (T-SKIRM-5).
    Reform { unit: UnitId },
    /// Set standing reaction orders (T-FIRE-11).
    SetReactions { unit: UnitId, reactions: Reactions },
    /// Order the whole army to retreat; final (T-END-2).
    Retreat,
    /// Surrender the fortress at the start of the defender's turn (T-FORT-7).
    Capitulate,
    /// End the side's turn: melee exchanges, morale, captures (T-TURN-3).
    EndTurn,
    /// Bring a reserve unit onto a free cell of the own zone at the start of a turn (T-STRAT-6).
    BringUp { unit: UnitId, cell: Cell, facing: Dir },
    /// The moderator's: the decisions the battle asks the moderator for from now on
    /// ([`crate::moderation`]: a battle's is T-FORT-7's terms); none, and the engine decides.
    Moderate { asks: Vec<Asked> },
    /// The moderator's ruling on the waiting question.
    Rule(Ruling),
}

/// A moderator's answer to the battle's waiting question.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Ruling {
    /// T-FORT-7: the terms the generals agreed for the capitulation.
    Terms(Terms),
    /// The engine's own answer (the moderator absent past the deadline, or content with it).
    Default,
}

/// T-FORT-7: the terms of a fortress's capitulation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Terms {
    /// The garrison is taken prisoner (the engine's answer).
    Captured,
    /// The garrison marches out: its units leave the field as if they retreated (T-END-2),
    /// keeping their Health (in a campaign they fall back with their army, T-STRAT-11).
    MarchOut,
}

impl Order {
    /// The order that ends the side's part where the battle stands: its set-up step before the
    /// battle (T-SETUP-1, T-SETUP-2), its turn in it (T-TURN-2: also what a side whose time ran
    /// out does).
    ///
    /// ```
    /// use rules::tactical::{Order, Phase};
    /// assert_eq!(Order::pass_in(Phase::Redoubts), Order::EndSetup);
    /// assert_eq!(Order::pass_in(Phase::Deployment), Order::EndSetup);
    /// assert_eq!(Order::pass_in(Phase::Battle), Order::EndTurn);
    /// ```
    pub fn pass_in(phase: Phase) -> Order {
        if phase == Phase::Battle { Order::EndTurn } else { Order::EndSetup }
    }

    /// The unit the order is about, if any.
    pub fn unit(&self) -> Option<UnitId> {
        match self {
            Order::Deploy { unit, .. }
            | Order::DesignateHq { unit }
            | Order::Move { unit, .. }
            | Order::Turn { unit, .. }
            | Order::Fire { unit, .. }
            | Order::Skirmish { unit, .. }
            | Order::Reform { unit }
            | Order::SetReactions { unit, .. }
            | Order::BringUp { unit, .. } => Some(*unit),
            Order::FormFormation { general, .. } => Some(*general),
            Order::PlaceRedoubt { .. }
            | Order::EndSetup
            | Order::Retreat
            | Order::Capitulate
            | Order::EndTurn
            | Order::Moderate { .. }
            | Order::Rule(_) => None,
        }
    }

    /// Short name for messages.
    pub fn name(&self) -> &'static str {
        match self {
            Order::PlaceRedoubt { .. } => "placing a redoubt",
            Order::Deploy { .. } => "deploying",
            Order::DesignateHq { .. } => "naming the HQ",
            Order::FormFormation { .. } => "forming a formation",
            Order::EndSetup => "ending set-up",
            Order::Move { .. } => "moving",
            Order::Turn { .. } => "turning",
            Order::Fire { .. } => "firing",
            Order::Skirmish { .. } => "changing skirmish order",
            Order::Reform { .. } => "reforming",
            Order::SetReactions { .. } => "setting reactions",
            Order::Retreat => "retreating",
            Order::Capitulate => "capitulating",
            Order::EndTurn => "ending the turn",
            Order::BringUp { .. } => "bringing up a reserve unit",
            Order::Moderate { .. } => "setting what the moderator decides",
            Order::Rule(_) => "ruling",
        }
    }
}

/// Why an order is illegal. The state is left untouched.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error, Serialize)]
pub enum OrderError {
    #[error("the battle is over")]
    BattleOver,
    #[error("{what} is not possible {when}")]
    WrongPhase { what: &'static str, when: &'static str },
    #[error("there is no unit {0}")]
    UnknownUnit(UnitId),
    #[error("unit {unit} belongs to {owner:?}, and it is {active:?}'s turn")]
    NotYours { unit: UnitId, owner: Side, active: Side },
    #[error("unit {unit} is {status} and cannot act")]
    OffField { unit: UnitId, status: &'static str },
    #[error("{why} ({rule})")]
    Rule { rule: &'static str, why: String },
    #[error("the moderator decides first ({rule})")]
    AwaitsModerator { rule: &'static str },
    #[error("no question waits for a ruling")]
    NoQuestion,
}

impl OrderError {
    pub fn rule(rule: &'static str, why: impl Into<String>) -> OrderError {
        OrderError::Rule { rule, why: why.into() }
    }
}
