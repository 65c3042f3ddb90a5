//! Technologies (S-TURN-1, MD-S5): what a power has researched, and from which turn each
//! may be used. Scenarios, orders and the rules all name these, so they sit below them.

use serde::{Deserialize, Serialize};

/// Technologies (MD-S5: one flag each).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Techs {
    pub tanks: bool,
    pub gas: bool,
    pub infantry: bool,
}

/// A technology to research.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Tech {
    Tanks,
    Gas,
    Infantry,
}

impl Tech {
    /// The technology's name in the string tables.
    pub fn key(self) -> &'static str {
        match self {
            Tech::Tanks => "gw.tech.tanks",
            Tech::Gas => "gw.tech.gas",
            Tech::Infantry => "gw.tech.infantry",
        }
    }
}

/// S-TURN-1: gas from turn 3, tanks from turn 4, infantry upgrade from turn 5.
pub const GAS_FROM_TURN: u32 = 3;
pub const TANKS_FROM_TURN: u32 = 4;
pub const UPGRADE_FROM_TURN: u32 = 5;
