//! The Napoleonic campaign layer (rules digest tactical.md sections 1–2, T-STRAT and T-AUTO):
//! armies of tactical units move on a hex map, intercept and meet; a meeting is a battle, fought
//! on the square grid after the 10-unit cut (its save embedded in the campaign's) or settled by
//! auto-battle. Renders nothing; deterministic (battle seeds fixed by the campaign's seed).

pub mod apply;
pub mod event;
pub mod field;
pub mod fight;
pub mod game;
pub mod map;
pub mod order;
pub mod resolve;
pub mod rules;
pub mod scenario;
pub mod sight;
pub mod state;

pub use apply::Ctx;
pub use event::Event;
pub use game::{BattleForecast, Campaign, CampaignSave, Preview};
pub use map::{CampaignMap, Ground, HexAt};
pub use order::{Order, OrderError, Ruling};
pub use rules::CampaignRules;
pub use scenario::CampaignScenario;
pub use sight::CampaignView;
pub use state::{ArmyId, CampaignState, Forces, LeftOut, PendingBattle, Question};
