//! What happened, in plain language with every die and the terms of every sum.

use super::hexmap::HexAt;
use super::ids::{ForceId, FormationId, Phase, PowerId};
use super::naval::model::FleetId;
use crate::dice::Pips;
use crate::texts::Msg;
use serde::{Deserialize, Serialize};
use std::fmt;

/// One entry of the event log. `line` is the plain-language line, in keys of the string tables
/// so that each screen shows it in its language; the other fields let tests and tools read the
/// numbers without parsing it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Event {
    pub turn: u32,
    pub kind: EventKind,
    pub line: Msg,
}

impl Event {
    /// The line in English (`umpire`, tests).
    pub fn text(&self) -> String {
        self.line.english()
    }
}

impl fmt::Display for Event {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "T{} {}", self.turn, self.line)
    }
}

/// The machine-readable part of an event.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum EventKind {
    Phase {
        phase: Phase,
        power: Option<PowerId>,
    },
    Moved {
        unit: ForceId,
        to: HexAt,
        cost: u32,
    },
    Engagement {
        stronger_total: i64,
        weaker_total: i64,
        divisions: u32,
        d: i64,
        result: CombatResult,
    },
    Health {
        unit: ForceId,
        delta: i32,
        now: i32,
    },
    Morale {
        unit: ForceId,
        delta: i32,
        now: i32,
    },
    Dispersed {
        unit: ForceId,
    },
    Destroyed {
        unit: ForceId,
    },
    Restored {
        unit: ForceId,
    },
    FortDamage {
        at: HexAt,
        damage: i32,
        destroyed: bool,
    },
    CityDestroyed {
        at: HexAt,
        level: u32,
    },
    Die {
        what: String,
        pips: Pips,
    },
    /// A naval volley's line (its die, if any, is a `Die` event).
    Volley,
    Encircled {
        unit: ForceId,
        turns: u16,
    },
    Supply {
        power: PowerId,
        paid: i64,
        short: bool,
    },
    Occupied {
        province: String,
        by: Option<PowerId>,
    },
    Formation {
        id: FormationId,
    },
    /// A fleet or flotilla ended a move on `to` (S-NAVAL-4): named, so a screen can keep an
    /// undetected flotilla's course from a watching enemy.
    FleetMoved {
        fleet: FleetId,
        to: HexAt,
    },
    ArmyEnd {
        army: FormationId,
        destroyed: bool,
    },
    /// `by` has found the enemy submarine flotilla `flotilla` (S-AIR-1 reconnaissance, or its own
    /// flotilla in the same sea area: the house rule to S-SUB-5); it is shown to `by` from now on.
    Sighted {
        flotilla: u32,
        by: PowerId,
    },
    /// A neutral power entered the war (S-TURN-1's calendar, or invaded, S-CITY-4).
    EntersWar {
        power: PowerId,
    },
    /// A ship went down at `at` (gunfire, torpedo, mine or bomb; S-NAVAL-9, S-SUB-3, S-AIR-2).
    Sunk {
        ship: super::naval::ShipId,
        at: HexAt,
    },
    Note,
}

impl EventKind {
    /// The land unit the event is about, if one (what the sight rules and a log's colour and
    /// place follow).
    pub fn unit(&self) -> Option<ForceId> {
        match self {
            EventKind::Moved { unit, .. }
            | EventKind::Health { unit, .. }
            | EventKind::Morale { unit, .. }
            | EventKind::Dispersed { unit }
            | EventKind::Destroyed { unit }
            | EventKind::Restored { unit }
            | EventKind::Encircled { unit, .. } => Some(*unit),
            _ => None,
        }
    }
}

/// The result of one land engagement (S-COMBAT-8).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum CombatResult {
    /// D ≥ 30.
    Destroyed,
    /// D 20–29.
    Dispersed,
    /// D 5–19.
    StubbornHeavy,
    /// D 0–4.
    Stubborn,
}

impl CombatResult {
    /// The result's words (S-COMBAT-8).
    pub fn text(self) -> Msg {
        Msg::new(match self {
            CombatResult::Destroyed => "gwe.land.result.destroyed",
            CombatResult::Dispersed => "gwe.land.result.dispersed",
            CombatResult::StubbornHeavy => "gwe.land.result.stubborn_heavy",
            CombatResult::Stubborn => "gwe.land.result.stubborn",
        })
    }
}
