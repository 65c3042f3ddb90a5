//! Kriegsspiel, the game: the presentation of the rules engine.
//!
//! The app reads rules state and sends orders; it never changes rules state any other way.
//! [`logic_plugin`] holds everything that decides (screens, the battle session, commanding
//! through input actions, AI turns, saves) and runs without rendering, so tests drive it
//! headless; [`view_plugin`] draws the board and the panels.

pub mod ai_turns;
pub mod board;
pub mod command;
pub mod hud;
pub mod i18n;
pub mod input;
pub mod launch;
pub mod replay;
pub mod rules_ref;
pub mod screens;
pub mod session;
pub mod settings;
pub mod storage;
pub mod store;
pub mod wake;
#[cfg(target_arch = "wasm32")]
pub mod web;

use bevy::prelude::*;

/// The order of a frame's work.
#[derive(SystemSet, Debug, Clone, Copy, Eq, PartialEq, Hash, PartialOrd, Ord)]
pub enum AppSystems {
    /// Read the pointer and keys into what the player points at.
    Input,
    /// Decide: orders from actions, AI turns, screen changes.
    Logic,
    /// Follow the rules state on screen.
    Visuals,
}

/// Everything that decides; works without a window.
pub fn logic_plugin(app: &mut App) {
    app.configure_sets(Update, (AppSystems::Input, AppSystems::Logic, AppSystems::Visuals).chain());
    app.add_plugins((
        i18n::plugin,
        settings::plugin,
        input::plugin,
        screens::plugin,
        session::plugin,
        command::plugin,
        ai_turns::plugin,
        storage::plugin,
        replay::plugin,
        rules_ref::plugin,
    ));
}

/// Everything that draws.
pub fn view_plugin(app: &mut App) {
    app.add_plugins((board::plugin, hud::plugin, launch::plugin, wake::plugin));
    #[cfg(target_arch = "wasm32")]
    app.add_plugins(web::plugin);
}
