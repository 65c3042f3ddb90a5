//! The one builder of the game's headless app that the app's tests share (in the manner of
//! Bevy's `tests/how_to_test_systems.rs`): the game's logic without a window, its storage in a
//! folder of this test binary's own, and one frame run so that the title is up.
#![allow(dead_code)]

use bevy::input::InputPlugin;
use bevy::prelude::*;
use bevy::state::app::StatesPlugin;
use std::path::PathBuf;

pub mod online;

/// The data folder of this test binary's apps (in the system's temporary folder).
pub fn data_dir() -> PathBuf {
    let binary = std::env::current_exe()
        .ok()
        .and_then(|p| p.file_stem().map(|s| s.to_string_lossy().to_string()))
        .unwrap_or_else(|| "tests".to_string());
    std::env::temp_dir().join(format!("kriegsspiel-{binary}-{}", std::process::id()))
}

/// The game's logic, headless, after its first frame.
pub fn app() -> App {
    app_in(data_dir(), |_| {})
}

/// The same, with more plugins or resources added before the first frame.
pub fn app_with(more: impl FnOnce(&mut App)) -> App {
    app_in(data_dir(), more)
}

/// The same, keeping its files in `dir`.
pub fn app_in(dir: PathBuf, more: impl FnOnce(&mut App)) -> App {
    kriegsspiel::storage::use_dir(dir);
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, StatesPlugin, InputPlugin, kriegsspiel::logic_plugin));
    more(&mut app);
    app.update();
    app
}
