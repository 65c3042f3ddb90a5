//! The Napoleonic battle on a square grid: every rule of the tactical digest, sections 3–14.

pub mod apply;
pub mod battle;
pub mod components;
pub mod config;
pub mod contact;
pub mod event;
pub mod fire;
pub mod grid;
pub mod legal;
pub mod melee;
pub mod morale;
pub mod movement;
pub mod order;
pub mod preview;
pub mod result;
pub mod save;
pub mod scenario;
pub mod setup;
pub mod sight;
pub mod state;
pub mod turn;
pub mod units;

pub use battle::{Battle, Checkpoint, UnitView};
pub use components::{Clock, Phase, Reactions, Side, Status, UnitId};
pub use event::Event;
pub use grid::{Cell, Dir, GridMap, Terrain};
pub use order::{Order, OrderError, Ruling, Terms};
pub use preview::Preview;
pub use result::BattleResult;
pub use save::{ReplayError, SaveGame};
pub use scenario::{BattleKind, Scenario};
pub use sight::BattleView;
pub use state::{Ctx, EndReason, Outcome};
