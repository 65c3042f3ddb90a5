//! War at sea (S-NAVAL, S-SUB, S-MINE, S-AIR): ships and fleets, surface battles, interception,
//! transports, bombardment, coastal guns, submarines, mines and aircraft against ships.
//!
//! Every dice table is a pure function of the pips (tested statistically); the battle code throws
//! the game's seeded dice in a fixed order (sides by fleet ID, ships by class then ID).
//!
//! [`model`] holds the data the state stores, [`tables`] the dice tables, `rules` what orders
//! and phases do with them, `checks` whether an order would be accepted (asked without
//! changing anything, for the query layer's candidates), `sighting` which enemy submarines a power has found ([`Detection`]).

mod checks;
pub mod model;
mod rules;
mod sighting;
pub mod tables;

pub use checks::Bombing;
pub use model::{
    BOMBARD_RANGE, BattleRun, FLEET_LIMIT, Fleet, FleetId, LANE_CUT_PERCENT, Lane, MINES_PER_AREA, MineField, Navy,
    SWEEP_POINTS_PER_MINE, Ship, ShipId, ShipType, Squadron, SquadronId, Stage, scaled_count,
};
pub use rules::FleetView;
pub use sighting::Detection;
pub use tables::{
    TORPEDO_HIT, aircraft_lost, bomb_hit, coastal_hit, mine_loss, share_half_up, stealth, submarines_lost, surface_hit,
};
