//! Saves, settings and the scenario catalogue: files in the platform's data folder natively,
//! the browser's local storage on the web; scenarios are also compiled in.

use crate::session::Seat;
use crate::settings::Settings;
use bevy::prelude::*;
use rules::data::{parse_ron, to_ron};
use rules::tactical::scenario::{BundledFiles, FileSource};
use rules::tactical::{SaveGame, Scenario};
use serde::{Deserialize, Serialize};

pub(super) fn plugin(app: &mut App) {
    app.insert_resource(Catalog::load());
}

/// A saved game of the interface: the engine's save plus who played each side.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SavedGame {
    pub seats: [Seat; 2],
    pub save: SaveGame,
}

/// The save slots a player can use; "autosave" is written every turn.
pub const SLOTS: [&str; 6] = ["autosave", "slot1", "slot2", "slot3", "slot4", "slot5"];

/// What a slot holds, for the menu.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SlotInfo {
    pub slot: String,
    pub scenario: String,
    pub orders: usize,
    pub turn: u32,
}

/// The shipped battles, compiled in (the browser has no folder to read).
pub const BUNDLED: [(&str, &str); 12] = [
    ("scenarios/open_field.ron", include_str!("../scenarios/open_field.ron")),
    ("scenarios/borodino.ron", include_str!("../scenarios/borodino.ron")),
    ("scenarios/badajoz.ron", include_str!("../scenarios/badajoz.ron")),
    ("scenarios/worked_example_a.ron", include_str!("../scenarios/worked_example_a.ron")),
    ("scenarios/worked_example_b.ron", include_str!("../scenarios/worked_example_b.ron")),
    ("maps/open_field.ron", include_str!("../maps/open_field.ron")),
    ("maps/borodino.ron", include_str!("../maps/borodino.ron")),
    ("maps/badajoz.ron", include_str!("../maps/badajoz.ron")),
    ("maps/worked_example.ron", include_str!("../maps/worked_example.ron")),
    ("assets/data/napoleonic_units.ron", include_str!("../assets/data/napoleonic_units.ron")),
    ("assets/data/napoleonic_rules.ron", include_str!("../assets/data/napoleonic_rules.ron")),
    ("assets/i18n/en.ron", include_str!("../assets/i18n/en.ron")),
];

/// The battles a player can choose.
#[derive(Resource, Clone, Debug, Default)]
pub struct Catalog {
    pub entries: Vec<(String, Scenario)>,
    /// Files that could not be read, with why (shown in the menu).
    pub problems: Vec<String>,
}

impl Catalog {
    /// The compiled-in battles, and natively any scenario in `scenarios/` (mods).
    pub fn load() -> Catalog {
        let mut catalog = Catalog::default();
        let bundled = BundledFiles(BUNDLED.to_vec());
        for (path, _) in BUNDLED.iter().filter(|(p, _)| p.starts_with("scenarios/")) {
            match Scenario::load_from(&bundled, path) {
                Ok(s) => catalog.entries.push((path.to_string(), s)),
                Err(e) => catalog.problems.push(e.to_string()),
            }
        }
        #[cfg(not(target_arch = "wasm32"))]
        catalog.add_from_disk();
        catalog
    }

    #[cfg(not(target_arch = "wasm32"))]
    fn add_from_disk(&mut self) {
        let Ok(dir) = std::fs::read_dir("scenarios") else { return };
        let mut paths: Vec<_> = dir
            .filter_map(Result::ok)
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|x| x == "ron"))
            .collect();
        paths.sort();
        for path in paths {
            let key = path.to_string_lossy().replace('\\', "/");
            if self.entries.iter().any(|(k, _)| *k == key) {
                continue;
            }
            match Scenario::load(&path) {
                Ok(s) => self.entries.push((key, s)),
                Err(e) => self.problems.push(e.to_string()),
            }
        }
    }

    pub fn find(&self, path: &str) -> Option<&Scenario> {
        self.entries.iter().find(|(p, _)| p == path).map(|(_, s)| s)
    }
}

/// Reads a bundled file (for the engine's file source).
pub fn bundled() -> impl FileSource {
    BundledFiles(BUNDLED.to_vec())
}

fn settings_key() -> &'static str {
    "settings"
}

fn slot_key(slot: &str) -> String {
    format!("save-{slot}")
}

pub fn load_settings() -> Option<Settings> {
    let text = backend::read(settings_key())?;
    parse_ron::<Settings>("settings.ron", &text).ok()
}

pub fn save_settings(settings: &Settings) {
    backend::write(settings_key(), &to_ron(settings));
}

/// Writes a save slot.
pub fn save_slot(slot: &str, game: &SavedGame) -> Result<(), String> {
    if backend::write(&slot_key(slot), &to_ron(game)) { Ok(()) } else { Err(format!("could not write {slot}")) }
}

/// Reads a save slot.
pub fn load_slot(slot: &str) -> Result<SavedGame, String> {
    let text = backend::read(&slot_key(slot)).ok_or_else(|| format!("{slot} is empty"))?;
    parse_ron(&format!("{slot}.ron"), &text).map_err(|e| e.to_string())
}

/// Reads a save from text (a file the player picked, or a download).
pub fn saved_game_from_text(name: &str, text: &str) -> Result<SavedGame, String> {
    if let Ok(game) = parse_ron::<SavedGame>(name, text) {
        return Ok(game);
    }
    // A plain engine save (from `umpire play --save`): humans on both sides.
    SaveGame::from_text(name, text)
        .map(|save| SavedGame { seats: [Seat::Human, Seat::Human], save })
        .map_err(|e| e.to_string())
}

pub fn saved_game_to_text(game: &SavedGame) -> String {
    to_ron(game)
}

/// What each slot holds.
pub fn list_slots() -> Vec<SlotInfo> {
    SLOTS
        .iter()
        .filter_map(|slot| {
            let game = load_slot(slot).ok()?;
            Some(SlotInfo {
                slot: slot.to_string(),
                scenario: game.save.scenario.name.clone(),
                orders: game.save.orders.len(),
                turn: game.save.checkpoints.last().map_or(0, |c| c.turn),
            })
        })
        .collect()
}

/// Keeps saves and settings in this folder instead of the platform's (tests, portable installs).
/// Only the first call counts.
#[cfg(not(target_arch = "wasm32"))]
pub fn use_dir(dir: std::path::PathBuf) {
    let _ = backend::DIR.set(dir);
}

#[cfg(not(target_arch = "wasm32"))]
mod backend {
    use std::path::PathBuf;
    use std::sync::OnceLock;

    pub static DIR: OnceLock<PathBuf> = OnceLock::new();

    /// The folder from `use_dir`, else `KRIEGSSPIEL_DATA_DIR`, else the platform's data folder.
    fn dir() -> Option<PathBuf> {
        if let Some(d) = DIR.get() {
            return Some(d.clone());
        }
        if let Ok(d) = std::env::var("KRIEGSSPIEL_DATA_DIR") {
            return Some(PathBuf::from(d));
        }
        dirs::data_dir().map(|d| d.join("kriegsspiel"))
    }

    pub fn read(key: &str) -> Option<String> {
        std::fs::read_to_string(dir()?.join(format!("{key}.ron"))).ok()
    }

    pub fn write(key: &str, text: &str) -> bool {
        let Some(dir) = dir() else { return false };
        std::fs::create_dir_all(&dir).is_ok() && std::fs::write(dir.join(format!("{key}.ron")), text).is_ok()
    }
}

#[cfg(target_arch = "wasm32")]
mod backend {
    fn storage() -> Option<web_sys::Storage> {
        web_sys::window()?.local_storage().ok()?
    }

    pub fn read(key: &str) -> Option<String> {
        storage()?.get_item(&format!("kriegsspiel/{key}")).ok()?
    }

    pub fn write(key: &str, text: &str) -> bool {
        storage().is_some_and(|s| s.set_item(&format!("kriegsspiel/{key}"), text).is_ok())
    }
}
