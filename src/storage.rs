//! Where the player's data lives, as keyed text: the data folder natively (or the folder a run
//! names), the browser's local storage on the web. The text itself is kept by [`crate::store`]
//! (atomic writes with a backup); this module picks the store, reads a value with the file's
//! problems explained and an unreadable value set aside, and collects those problems for the
//! title screen. It knows nothing of what the values are: settings live in `settings`, saves in
//! `saves`, and no scene or session is imported here.

use crate::store::{Store, StoreError};
use bevy::prelude::*;
#[cfg(not(target_arch = "wasm32"))]
use std::sync::RwLock;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Notices>();
}

/// Problems with the player's files (a settings file or a save that could not be read and was
/// set aside), each one sentence, shown on the title screen.
#[derive(Resource, Clone, Debug, Default)]
pub struct Notices(pub Vec<String>);

#[cfg(not(target_arch = "wasm32"))]
static DIR: RwLock<Option<std::path::PathBuf>> = RwLock::new(None);

/// Keeps saves and settings in this folder instead of the platform's (scripted runs, tests,
/// portable installs); the last call counts.
#[cfg(not(target_arch = "wasm32"))]
pub fn use_dir(dir: std::path::PathBuf) {
    if let Ok(mut d) = DIR.write() {
        *d = Some(dir);
    }
}

/// The player's data folder: `KRIEGSSPIEL_DATA_DIR`, else the platform's (`~/.local/share/kriegsspiel`).
#[cfg(not(target_arch = "wasm32"))]
pub fn player_dir() -> Option<std::path::PathBuf> {
    if let Ok(d) = std::env::var("KRIEGSSPIEL_DATA_DIR") {
        return Some(std::path::PathBuf::from(d));
    }
    dirs::data_dir().map(|d| d.join("kriegsspiel"))
}

/// The store in use: the folder from [`use_dir`], else the player's.
#[cfg(not(target_arch = "wasm32"))]
pub fn store() -> Result<Store, StoreError> {
    let chosen = DIR.read().ok().and_then(|d| d.clone());
    chosen.or_else(player_dir).map(Store::at).ok_or_else(|| StoreError {
        key: "data".to_string(),
        message: "this system has no data folder (use --data-dir)".to_string(),
        full: false,
    })
}

#[cfg(target_arch = "wasm32")]
pub fn store() -> Result<Store, StoreError> {
    Ok(Store)
}

/// Says so when a file that cannot be read looks cut short (the game's files end with `)`).
pub fn explain(text: &str, error: String) -> String {
    if !text.trim_end().ends_with(')') && !error.contains("truncated") {
        format!("{error}: the file ends too early (truncated?)")
    } else {
        error
    }
}

/// One sentence for the player about a failed write of a save.
pub fn describe(e: &StoreError) -> String {
    if e.full {
        format!("The save was not stored ({e}); the previous one is intact. Download the save to keep it.")
    } else {
        format!("The save was not stored ({e}); the previous one is intact.")
    }
}

/// A value read from the store, or why not.
#[derive(Clone, Debug, PartialEq)]
pub enum Read<T> {
    /// Nothing is stored under the key.
    Missing,
    Value(T),
    /// It could not be read; it was set aside under this name (`KEY.ron.corrupt-N`).
    SetAside {
        why: String,
        name: String,
    },
    /// It could not be read (`why`), nor set aside (`aside`, when that was tried): it must not
    /// be overwritten.
    Stuck {
        why: String,
        aside: Option<String>,
    },
}

/// Reads `key` with `parse` (given the file's name and its text); a value that does not parse is
/// set aside, never overwritten.
pub fn read_or_set_aside<T>(store: &Store, key: &str, parse: impl FnOnce(&str, &str) -> Result<T, String>) -> Read<T> {
    match store.read(key) {
        Ok(None) => Read::Missing,
        Ok(Some(text)) => match parse(&format!("{key}.ron"), &text).map_err(|e| explain(&text, e)) {
            Ok(value) => Read::Value(value),
            Err(why) => match store.set_aside(key) {
                Ok(name) => Read::SetAside { why, name },
                Err(e) => Read::Stuck { why, aside: Some(e.to_string()) },
            },
        },
        Err(e) => Read::Stuck { why: e.to_string(), aside: None },
    }
}
