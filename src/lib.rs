//! Kriegsspiel, the game: the presentation of the rules engine.
//!
//! The app reads rules state and sends orders; it never changes rules state any other way.
//! It is one shell for several scenes: the shell (screens, menus, settings, language, keys,
//! storage and saves, the catalogue, launch, the browser's hooks) and the generic play machinery
//! (session, AI turns, replay viewer) are shared; a scene (the Napoleonic battle in `battle`, the
//! Great War in `great_war`, the Napoleonic campaign in `campaign`) plugs its game, board, panels
//! and actions into them.
//! [`logic_plugin`] holds everything that decides and runs without rendering, so tests drive it
//! headless; [`view_plugin`] draws.

pub mod ai_turns;
pub mod battle;
pub mod camera;
pub mod campaign;
pub mod catalog;
pub mod console_log;
pub mod great_war;
pub mod help;
pub mod hud;
pub mod i18n;
pub mod input;
pub mod launch;
pub mod net;
pub mod play;
pub mod replay;
pub mod room;
pub mod rules_ref;
pub mod saves;
pub mod screens;
pub mod session;
pub mod settings;
pub mod setup;
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

/// The scenes this build has, for the launch (before the app is built, and in it).
pub fn scenes() -> Vec<launch::SceneInfo> {
    vec![battle::SCENE, great_war::SCENE, campaign::SCENE]
}

/// Everything that decides; works without a window.
pub fn logic_plugin(app: &mut App) {
    app.insert_resource(launch::Scenes(scenes()));
    app.configure_sets(Update, (AppSystems::Input, AppSystems::Logic, AppSystems::Visuals).chain());
    app.add_plugins((
        i18n::plugin,
        storage::plugin,
        settings::plugin,
        input::plugin,
        screens::plugin,
        saves::plugin,
        catalog::plugin,
        setup::plugin,
        room::plugin,
        session::plugin,
        rules_ref::plugin,
        help::plugin,
        // The scenes.
        battle::plugin,
        great_war::plugin,
        campaign::plugin,
    ));
    app.add_plugins(net::plugin);
}

/// Everything that draws.
pub fn view_plugin(app: &mut App) {
    app.add_plugins((
        hud::plugin,
        camera::plugin,
        battle::view_plugin,
        great_war::view_plugin,
        campaign::view_plugin,
        launch::plugin,
        wake::plugin,
        net::view_plugin,
    ));
    #[cfg(target_arch = "wasm32")]
    app.add_plugins(web::plugin);
}
