//! The Great War on a hex map of Europe: land forces, army organisation and every land rule of
//! the strategic digest, sections 1–11 (S-TURN, S-LAND, S-FORT, S-COMBAT, S-ART, S-CHEM, S-CITY,
//! S-LOSS, S-SUP, S-TERR, S-ARMY).

pub mod apply;
pub mod army;
pub mod campaign;
pub mod combat;
pub mod diplomacy;
pub mod economy;
pub mod event;
pub mod fire;
pub mod game;
pub mod geo;
pub mod hex;
pub mod hexmap;
pub mod ids;
pub mod movement;
pub mod naval;
pub mod order;
pub mod place;
pub mod preview;
pub mod purchase;
pub mod query;
pub mod scenario;
pub mod sight;
pub mod state;
pub mod tables;
pub mod tech;
pub mod testkit;
pub mod treaty;
pub mod upkeep;
pub mod victory;

pub use combat::Engagement;
pub use event::{CombatResult, Event, EventKind};
pub use game::{GreatWar, ReplayError, SaveGame, Snapshot};
pub use hexmap::{HexAt, HexMap, Terrain};
pub use order::{Order, OrderError, Piece, Ruling};
pub use preview::Preview;
pub use scenario::Scenario;
pub use sight::WarView;
pub use state::{Ctx, ForceId, FormationId, Phase, PowerId};
