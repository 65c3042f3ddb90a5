//! ECS components and resources of a Napoleonic battle.

use super::config::GeneralFate;
use super::grid::{Cell, Dir};
use bevy_ecs::prelude::{Component, Entity, Resource};
use serde::{Deserialize, Serialize};
use std::fmt;

/// Stable identity of a unit, given by the scenario; every ordering that affects outcomes sorts by it.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(transparent)]
pub struct UnitId(pub u32);

impl fmt::Display for UnitId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "#{}", self.0)
    }
}

/// One of the two armies. In the worked example the British are Red and the French Blue.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Side {
    Red,
    Blue,
}

impl Side {
    pub const BOTH: [Side; 2] = [Side::Red, Side::Blue];

    pub const fn other(self) -> Side {
        match self {
            Side::Red => Side::Blue,
            Side::Blue => Side::Red,
        }
    }

    pub const fn index(self) -> usize {
        match self {
            Side::Red => 0,
            Side::Blue => 1,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Side::Red => "red",
            Side::Blue => "blue",
        }
    }
}

/// Index of the unit's type in the battle's unit table.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TypeIndex(pub u16);

/// Where a unit stands.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Position(pub Cell);

/// Which way a unit faces (T-MOVE-2).
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Facing(pub Dir);

/// Health replaces the source's loss markers (T-UNIT-4); below 0 means destroyed.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Health {
    pub current: i32,
    pub max: i32,
}

/// Whether a unit is on the field, and if not, why (T-MELEE-8, T-END).
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Status {
    /// Not yet placed (deployment).
    Undeployed,
    /// On the field.
    Active,
    /// Health 0 or a failed morale test: left the field (T-MORALE-2).
    Dispersed,
    /// Health below 0 (T-MELEE-8).
    Destroyed,
    /// Taken prisoner (T-END-3, T-END-4, T-FORT-6, T-FORT-7).
    Captured,
    /// Left the field across its edge under a retreat order (T-END-2).
    Retreated,
}

impl Status {
    pub fn on_field(self) -> bool {
        self == Status::Active
    }

    pub fn name(self) -> &'static str {
        match self {
            Status::Undeployed => "undeployed",
            Status::Active => "active",
            Status::Dispersed => "dispersed",
            Status::Destroyed => "destroyed",
            Status::Captured => "captured",
            Status::Retreated => "retreated",
        }
    }
}

/// Standing reaction orders (T-FIRE-11), set free in the own turn or at deployment.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Reactions {
    #[serde(default = "yes")]
    pub counter_volley: bool,
    #[serde(default = "yes")]
    pub counter_charge: bool,
    #[serde(default)]
    pub intercept: bool,
}

fn yes() -> bool {
    true
}

impl Default for Reactions {
    fn default() -> Self {
        Reactions { counter_volley: true, counter_charge: true, intercept: false }
    }
}

/// Light infantry in open order (T-SKIRM-1); `disorganized` after a cavalry charge (T-SKIRM-4/5).
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Skirmishing {
    pub disorganized: bool,
}

/// A light infantry unit hidden in forest (T-TERR-2).
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Concealed;

/// What a unit has done in the current turn (T-TURN-3).
#[derive(Component, Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct TurnActivity {
    /// Movement points spent (steps, turns, wall climbs).
    pub mp_spent: i32,
    /// Moved (or turned) this turn; a moved unit is not "stationary" (T-FIRE-9).
    pub moved: bool,
    /// Fired its one ordered shot of its own turn (T-FIRE-1); it then fires no counter-volley that turn.
    pub fired: bool,
    /// Horse artillery took its shots test for a second shot this turn (T-ART-1). Left out of
    /// the encoding while false, so states without it keep their hashes.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub second_shot: bool,
    /// Counter-volleyed in the current turn (once per enemy turn, T-FIRE-9).
    pub counter_volleyed: bool,
    /// Cavalry that was in or entered forest this turn loses Speed (T-TERR-1).
    pub touched_forest: bool,
    /// Spent the whole turn changing order or reforming (T-SKIRM-1, T-SKIRM-5).
    pub whole_turn: bool,
}

/// A unit in melee (T-MELEE-3): when its contact began and how.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MeleeContact {
    /// Turn in which this unit's contact began ("longest in contact", T-MELEE-7).
    pub since_turn: u32,
    /// It was closed upon, not the one that closed ("the attacked one", T-MELEE-7; redoubt defence).
    pub attacked: bool,
    /// Cavalry charge or counter-charge bonus for its first exchange (T-MELEE-5/6).
    pub charging: bool,
    /// Exchanges fought so far; 0 = its first turn of melee.
    pub exchanges: u32,
}

/// Health lost, for general casualty tests (T-CMD-2) and artillery morale (T-ART-2).
#[derive(Component, Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Losses {
    pub total: i32,
    pub to_fire: i32,
}

/// The formation a unit belongs to (T-CMD-1).
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Member(pub u16);

/// A division or brigade and its general (T-CMD-1, T-CMD-2).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Formation {
    pub id: u16,
    pub side: Side,
    pub name: String,
    pub units: Vec<UnitId>,
    pub division: bool,
    /// The unit the general is with; `None` once he is gone or the formation has no unit left.
    pub general_with: Option<UnitId>,
    /// The general's fate so far (`Unhurt` while in command).
    pub general: GeneralFate,
    /// Cumulative Health lost by the formation's units (T-CMD-2).
    pub losses: i32,
}

impl Formation {
    pub fn general_lost(&self) -> bool {
        self.general.is_casualty()
    }
}

/// Command of both sides: HQ units and formations (T-CMD).
#[derive(Resource, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CommandState {
    pub hq: [Option<UnitId>; 2],
    pub hq_captured: [bool; 2],
    pub formations: Vec<Formation>,
}

/// A redoubt placed before the battle (T-STRAT-8, T-SETUP-2); the cell also becomes redoubt terrain.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Redoubt {
    pub cell: Cell,
    pub side: Side,
}

/// Where the battle stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Phase {
    /// Redoubts are placed: the defender's, then the attacker's (T-SETUP-2).
    Redoubts,
    /// Units are placed: the attacker first (T-SETUP-1).
    Deployment,
    /// Sides alternate turns (T-TURN-1).
    Battle,
    /// The battle has ended (T-END-1).
    Over,
}

/// The clock: turn, round, whose turn and which phase.
#[derive(Resource, Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Clock {
    /// One side's move (rules README), numbered from 1 once the battle begins.
    pub turn: u32,
    /// Both sides' moves, numbered from 1.
    pub round: u32,
    pub active: Side,
    pub phase: Phase,
    /// Orders given in the current turn (a capitulation must come first, T-FORT-7).
    pub orders_this_turn: u32,
    /// Sides that have finished the current set-up phase.
    pub setup_done: [bool; 2],
}

/// Per-side battle state: retreat (T-END-2) and redoubts left to place (T-STRAT-8).
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SideStates {
    pub retreating: [bool; 2],
    pub redoubts_left: [u32; 2],
    pub capitulated: [bool; 2],
    /// The moderator decides a capitulation's terms (T-FORT-7, [`crate::moderation`]).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub ask_terms: bool,
    /// The side whose capitulation waits for the moderator's ruling on its terms: no side
    /// gives an order meanwhile.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub terms_asked: Option<Side>,
}

/// Entity of each unit, indexed in unit-ID order.
#[derive(Resource, Clone, Debug, Default)]
pub struct UnitIndex {
    pub by_id: Vec<(UnitId, Entity)>,
}

impl UnitIndex {
    pub fn get(&self, id: UnitId) -> Option<Entity> {
        self.by_id.binary_search_by_key(&id, |e| e.0).ok().map(|i| self.by_id[i].1)
    }

    pub fn ids(&self) -> impl Iterator<Item = UnitId> + '_ {
        self.by_id.iter().map(|e| e.0)
    }
}

/// Cell of a unit as of its last placement; kept when it leaves the field for the record.
pub fn is_flank_attack(target_facing: Dir, target: Cell, attacker: Cell) -> bool {
    target_facing.side_of(target, attacker).is_some_and(|a| a.is_flank_or_rear())
}

/// How the battle ended (T-END-1, T-FORT-6, T-FORT-7, T-TURN-4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum EndReason {
    /// Only the winner's units remain on the field (T-END-1).
    FieldHeld,
    /// Both armies left the field at once; the defender holds it (house, as T-AUTO-2).
    BothGone,
    /// No defender is left inside the fortress (T-FORT-6).
    FortressTaken,
    /// The fortress capitulated (T-FORT-7).
    Capitulation,
    /// The round limit passed; the defender holds (T-TURN-4).
    RoundLimit,
}

impl EndReason {
    /// Its key in the string tables, under `event.battle_ended.`.
    pub fn key(self) -> &'static str {
        match self {
            EndReason::FieldHeld => "field_held",
            EndReason::BothGone => "both_gone",
            EndReason::FortressTaken => "fortress_taken",
            EndReason::Capitulation => "capitulation",
            EndReason::RoundLimit => "round_limit",
        }
    }
}
