//! The Great War's small shared vocabulary: the stable IDs of powers, land units and formations,
//! and the turn's clock (S-TURN-2). Everything else in `strategic` may name these; they name
//! nothing of the rules.

use bevy_ecs::prelude::*;
use serde::{Deserialize, Serialize};
use std::fmt;

/// A power (a country) by its index in the scenario's list, which is also the order of play.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(transparent)]
pub struct PowerId(pub u8);

/// A land unit (division, tank battalion, heavy artillery division).
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(transparent)]
pub struct ForceId(pub u32);

/// A corps or an army.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(transparent)]
pub struct FormationId(pub u32);

impl fmt::Display for ForceId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "#{}", self.0)
    }
}

impl fmt::Display for FormationId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "F{}", self.0)
    }
}

/// The phases of a turn (S-TURN-2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Phase {
    Preparation,
    Movement,
    Fire,
    Combat,
    Upkeep,
    Over,
}

impl Phase {
    /// The phase's name in the string tables.
    pub fn key(self) -> &'static str {
        match self {
            Phase::Preparation => "gw.phase.preparation",
            Phase::Movement => "gw.phase.movement",
            Phase::Fire => "gw.phase.fire",
            Phase::Combat => "gw.phase.combat",
            Phase::Upkeep => "gw.phase.upkeep",
            Phase::Over => "gw.phase.over",
        }
    }
}

/// Turn, phase and the power to act.
#[derive(Resource, Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Clock {
    pub turn: u32,
    pub phase: Phase,
    /// Index into the order of play.
    pub active: u8,
    /// The moderator decides which units are brought up to support each engagement
    /// (S-COMBAT-3, [`crate::moderation`]).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub ask_support: bool,
    /// The Combat phase waits for the moderator's ruling on the support (no power acts).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub support_asked: bool,
}
