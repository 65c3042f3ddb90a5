//! Kriegsspiel rules engine.
//!
//! Deterministic and headless: ECS state on `bevy_ecs`, dice from one seeded ChaCha stream,
//! every player action an order through one entry point, and nothing that renders. It runs in
//! tests, the `umpire` referee, the game and the browser alike.

pub mod campaign;
pub mod data;
pub mod dice;
pub mod game;
pub mod hash;
pub mod limits;
pub mod moderation;
pub mod reference;
pub mod replay;
pub mod savefile;
pub mod source;
pub mod strategic;
pub mod tactical;
pub mod testing;
pub mod texts;
pub mod view;

pub use data::DataError;
pub use game::{Game, Save};
pub use hash::StateHash;
pub use view::{Seen, Sight, Viewer};
