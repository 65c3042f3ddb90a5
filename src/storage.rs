//! Saves, settings and the scenario catalogue. The text lives in [`crate::store`] (files in the
//! data folder natively, the browser's local storage on the web, written atomically with a
//! backup); this module knows what a save is: the envelope `{format, mode, game, seats, save}`,
//! the migration of every format the game has written, autosaves per game, and scenarios that
//! are too large to embed, referenced by their content hash.

use crate::session::Seat;
use crate::settings::Settings;
use crate::store::{Store, StoreError};
use bevy::prelude::*;
use rules::data::{parse_ron, to_ron};
use rules::hash::StateHash;
use rules::replay::Checkpoint;
use rules::tactical::scenario::{BundledFiles, FileSource};
use rules::tactical::{Order, SaveGame, Scenario};
use serde::{Deserialize, Serialize};
#[cfg(not(target_arch = "wasm32"))]
use std::sync::RwLock;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Notices>().insert_resource(Catalog::load());
}

/// Problems with the player's files (a settings file or a save that could not be read and was
/// set aside), each one sentence, shown on the title screen.
#[derive(Resource, Clone, Debug, Default)]
pub struct Notices(pub Vec<String>);

/// The version of the envelope the game writes. Format 1 (no `format` field, `seats` a pair)
/// was written before autosaves per game; [`saved_game_from_text`] reads both, and plain engine
/// saves from `umpire play --save`.
pub const SAVE_FORMAT: u32 = 2;

/// UI limit: autosaves kept for each game (its last turns).
pub const AUTOSAVE_TURNS: usize = 3;
/// UI limit: games whose autosaves are kept (the most recent ones).
pub const AUTOSAVE_GAMES: usize = 5;
/// UI limit: a scenario whose text is longer than this (bytes of RON) is not embedded in the
/// save but referenced by its path and content hash, so saves of big maps fit browser storage.
pub const EMBED_LIMIT: usize = 256 * 1024;

/// Which war a save belongs to.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Mode {
    #[default]
    Battle,
}

/// A saved game of the interface: the engine's save plus who played each side.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SavedGame {
    pub mode: Mode,
    /// The game this save belongs to (its autosaves share it): start date and scenario.
    pub game: String,
    pub seats: Vec<Seat>,
    pub save: SaveGame,
}

impl SavedGame {
    /// The two seats of a battle.
    pub fn battle_seats(&self) -> Result<[Seat; 2], String> {
        match self.seats.as_slice() {
            [red, blue] => Ok([*red, *blue]),
            other => Err(format!("a battle has two sides, the save names {} players", other.len())),
        }
    }
}

/// The envelope as written, format 2.
#[derive(Serialize, Deserialize)]
#[serde(rename = "SavedGame", deny_unknown_fields)]
struct FileV2 {
    format: u32,
    mode: Mode,
    game: String,
    seats: Vec<Seat>,
    save: SaveBody,
}

/// The engine's save as written in an envelope: the scenario embedded, or (when large)
/// referenced by path and content hash. Embedded, it is the engine's `SaveGame` to the byte.
#[derive(Serialize, Deserialize)]
#[serde(rename = "SaveGame", deny_unknown_fields)]
struct SaveBody {
    format: u32,
    scenario_hash: StateHash,
    seed: u64,
    orders: Vec<Order>,
    checkpoints: Vec<Checkpoint>,
    final_hash: StateHash,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    scenario: Option<Scenario>,
    /// Where the scenario is, when it is not embedded (its hash is `scenario_hash`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    scenario_path: Option<String>,
}

/// The envelope of format 1 (written before autosaves per game).
#[derive(Serialize, Deserialize)]
#[serde(rename = "SavedGame")]
struct FileV1 {
    seats: [Seat; 2],
    save: SaveGame,
}

/// Just the format, to choose how to read the rest.
#[derive(Deserialize)]
#[serde(rename = "SavedGame")]
struct Probe {
    #[serde(default)]
    format: u32,
}

/// The save slots a player writes to.
pub const SLOTS: [&str; 5] = ["slot1", "slot2", "slot3", "slot4", "slot5"];

/// The single autosave of format 1 (still listed and loaded, never written).
const OLD_AUTOSAVE: &str = "autosave";

/// Autosaves start with this.
const AUTO_PREFIX: &str = "auto-";

/// What a save holds, for the menu.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SlotInfo {
    pub slot: String,
    pub scenario: String,
    pub orders: usize,
    pub turn: u32,
    /// A previous version is kept and can be restored.
    pub backup: bool,
    /// Why the save could not be read (it has been set aside), if so.
    pub problem: Option<String>,
}

impl SlotInfo {
    /// Whether this is an autosave (its name is not a translated slot name).
    pub fn is_auto(&self) -> bool {
        self.slot.starts_with(AUTO_PREFIX) || self.slot == OLD_AUTOSAVE
    }
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

// ---- where the data lives ----

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

// ---- settings ----

const SETTINGS: &str = "settings";

/// The player's settings as read at start.
#[derive(Clone, Debug, PartialEq)]
pub struct LoadedSettings {
    pub settings: Settings,
    /// False when the file exists but could not be read nor set aside: it must not be overwritten.
    pub writable: bool,
    /// What went wrong, in one sentence.
    pub notice: Option<String>,
}

/// Reads the settings; an unreadable file is set aside (`settings.ron.corrupt-N`) and reported,
/// and the defaults are used for this run.
pub fn load_settings() -> LoadedSettings {
    match store() {
        Ok(store) => load_settings_in(&store),
        Err(e) => LoadedSettings {
            settings: Settings::default(),
            writable: false,
            notice: Some(format!("Your settings cannot be kept: {e}.")),
        },
    }
}

/// [`load_settings`] from a given store.
pub fn load_settings_in(store: &Store) -> LoadedSettings {
    let defaults = |writable, notice| LoadedSettings { settings: Settings::default(), writable, notice };
    match store.read(SETTINGS) {
        Ok(None) => defaults(true, None),
        Ok(Some(text)) => match parse_ron::<Settings>("settings.ron", &text).map_err(|e| explain(&text, e.to_string()))
        {
            Ok(settings) => LoadedSettings { settings, writable: true, notice: None },
            Err(e) => match store.set_aside(SETTINGS) {
                Ok(name) => defaults(
                    true,
                    Some(format!(
                        "Your settings file could not be read ({e}); it was kept as {name} and the defaults are used."
                    )),
                ),
                Err(e2) => defaults(
                    false,
                    Some(format!(
                        "Your settings file could not be read ({e}) nor set aside ({e2}); it will not be changed."
                    )),
                ),
            },
        },
        Err(e) => defaults(false, Some(format!("Your settings file could not be read ({e}); it will not be changed."))),
    }
}

pub fn save_settings(settings: &Settings) -> Result<(), StoreError> {
    store()?.write(SETTINGS, &to_ron(settings))
}

// ---- saves ----

/// The text of a save, in the current format.
pub fn saved_game_to_text(game: &SavedGame) -> String {
    to_ron(&to_file(game, EMBED_LIMIT))
}

fn to_file(game: &SavedGame, embed_limit: usize) -> FileV2 {
    let s = &game.save;
    let embed = to_ron(&s.scenario).len() <= embed_limit;
    FileV2 {
        format: SAVE_FORMAT,
        mode: game.mode,
        game: game.game.clone(),
        seats: game.seats.clone(),
        save: SaveBody {
            format: s.format,
            scenario_hash: s.scenario_hash,
            seed: s.seed,
            orders: s.orders.clone(),
            checkpoints: s.checkpoints.clone(),
            final_hash: s.final_hash,
            scenario: embed.then(|| s.scenario.clone()),
            scenario_path: (!embed).then(|| scenario_path_of(&s.scenario)).flatten(),
        },
    }
}

/// The text of a save with the scenario referenced whenever it is longer than `embed_limit`
/// (for tests of the reference; the game uses [`EMBED_LIMIT`]).
pub fn saved_game_to_text_with_limit(game: &SavedGame, embed_limit: usize) -> String {
    to_ron(&to_file(game, embed_limit))
}

/// Where a scenario can be found again: the bundled or on-disk file whose content hash matches.
fn scenario_path_of(scenario: &Scenario) -> Option<String> {
    let hash = scenario.hash();
    let catalog = Catalog::load();
    catalog.entries.iter().find(|(_, s)| s.hash() == hash).map(|(p, _)| p.clone())
}

/// Finds a referenced scenario: the file at `path` (bundled, or on disk) must have `hash`.
fn resolve_scenario(name: &str, path: &str, hash: StateHash) -> Result<Scenario, String> {
    let bundled = bundled();
    let found = Scenario::load_from(&bundled, path);
    #[cfg(not(target_arch = "wasm32"))]
    let found = found.or_else(|_| Scenario::load(std::path::Path::new(path)));
    let scenario = found.map_err(|e| {
        format!("{name}: the save is played on {path}, which cannot be loaded here ({e}), so the save cannot be opened")
    })?;
    let here = scenario.hash();
    if here != hash {
        return Err(format!(
            "{name}: the save is played on {path} with hash {hash}, but that scenario here has hash {here} (it was changed since), so the save cannot be opened"
        ));
    }
    Ok(scenario)
}

fn from_v2(name: &str, file: FileV2) -> Result<SavedGame, String> {
    let b = file.save;
    let scenario = match (b.scenario, b.scenario_path) {
        (Some(s), _) => s,
        (None, Some(path)) => resolve_scenario(name, &path, b.scenario_hash)?,
        (None, None) => return Err(format!("{name}: the save holds no scenario and names none")),
    };
    let save = SaveGame {
        format: b.format,
        scenario_hash: b.scenario_hash,
        seed: b.seed,
        orders: b.orders,
        checkpoints: b.checkpoints,
        final_hash: b.final_hash,
        scenario,
    };
    Ok(SavedGame { mode: file.mode, game: file.game, seats: file.seats, save })
}

/// A name for a game that has none (saves of format 1, engine saves): dated when it is opened,
/// so its autosaves sort and are pruned with the others.
fn old_game_name(save: &SaveGame) -> String {
    new_game_name(&save.scenario.name)
}

fn from_v1(file: FileV1) -> SavedGame {
    SavedGame { mode: Mode::Battle, game: old_game_name(&file.save), seats: file.seats.to_vec(), save: file.save }
}

/// Reads a save from text (a slot, a file the player picked, or a download): the current
/// format, every earlier one (migrated), or a plain engine save (humans on both sides).
pub fn saved_game_from_text(name: &str, text: &str) -> Result<SavedGame, String> {
    read_save(name, text).map_err(|e| explain(text, e))
}

/// Says so when a file that cannot be read looks cut short (the game's files end with `)`).
fn explain(text: &str, error: String) -> String {
    if !text.trim_end().ends_with(')') && !error.contains("truncated") {
        format!("{error}: the file ends too early (truncated?)")
    } else {
        error
    }
}

fn read_save(name: &str, text: &str) -> Result<SavedGame, String> {
    let engine_save = text.trim_start().starts_with("SaveGame(");
    if engine_save {
        return SaveGame::from_text(name, text)
            .map(|save| SavedGame {
                mode: Mode::Battle,
                game: old_game_name(&save),
                seats: vec![Seat::Human, Seat::Human],
                save,
            })
            .map_err(|e| e.to_string());
    }
    match parse_ron::<Probe>(name, text) {
        Ok(Probe { format: SAVE_FORMAT }) => from_v2(name, parse_ron(name, text).map_err(|e| e.to_string())?),
        Ok(Probe { format: 0 }) => parse_ron::<FileV1>(name, text).map(from_v1).map_err(|e| e.to_string()),
        Ok(Probe { format }) => Err(format!(
            "{name}: the save has format {format}, this game reads formats 1 to {SAVE_FORMAT} (was it made by a newer version?)"
        )),
        Err(e) => Err(e.to_string()),
    }
}

/// Writes a save under `key` (the previous version becomes its backup).
pub fn write_save(key: &str, game: &SavedGame) -> Result<(), StoreError> {
    store()?.write(key, &saved_game_to_text(game))
}

/// Writes a save slot.
pub fn save_slot(slot: &str, game: &SavedGame) -> Result<(), String> {
    write_save(slot, game).map_err(|e| describe(&e))
}

/// One sentence for the player about a failed write.
pub fn describe(e: &StoreError) -> String {
    if e.full {
        format!("The save was not stored ({e}); the previous one is intact. Download the save to keep it.")
    } else {
        format!("The save was not stored ({e}); the previous one is intact.")
    }
}

/// Reads a save; one that cannot be read is set aside (`KEY.ron.corrupt-N`) and the error says so.
pub fn load_slot(slot: &str) -> Result<SavedGame, String> {
    load_slot_in(&store().map_err(|e| e.to_string())?, slot)
}

/// [`load_slot`] from a given store.
pub fn load_slot_in(store: &Store, slot: &str) -> Result<SavedGame, String> {
    let text = store.read(slot).map_err(|e| e.to_string())?.ok_or_else(|| format!("{slot} is empty"))?;
    saved_game_from_text(&format!("{slot}.ron"), &text).map_err(|e| set_aside(store, slot, &e))
}

/// Sets an unreadable save aside and says so in one sentence.
fn set_aside(store: &Store, key: &str, why: &str) -> String {
    // A save that needs a scenario this game lacks is not damaged: it stays where it is.
    if why.contains("cannot be opened") {
        return why.to_string();
    }
    match store.set_aside(key) {
        Ok(name) => format!("This save could not be read ({why}); it was kept as {name}."),
        Err(e) => format!("This save could not be read ({why}) nor set aside ({e})."),
    }
}

/// Makes the backup of a save its current version again.
pub fn restore_backup(slot: &str) -> Result<(), String> {
    store().and_then(|s| s.restore_backup(slot)).map_err(|e| e.to_string())
}

/// Every save: slots, autosaves (newest first) and the autosave of format 1.
pub fn list_slots() -> Vec<SlotInfo> {
    let Ok(store) = store() else { return Vec::new() };
    let mut keys: Vec<String> = store.keys(AUTO_PREFIX);
    keys.reverse();
    keys.push(OLD_AUTOSAVE.to_string());
    keys.extend(SLOTS.iter().map(|s| s.to_string()));
    keys.into_iter()
        .filter_map(|key| {
            let backup = store.read_backup(&key).ok().flatten().is_some();
            let text = store.read(&key).ok().flatten();
            if text.is_none() && !backup {
                return None;
            }
            let mut info =
                SlotInfo { slot: key.clone(), scenario: String::new(), orders: 0, turn: 0, backup, problem: None };
            if let Some(text) = text {
                match saved_game_from_text(&format!("{key}.ron"), &text) {
                    Ok(game) => {
                        info.scenario = game.save.scenario.name.clone();
                        info.orders = game.save.orders.len();
                        info.turn = game.save.checkpoints.last().map_or(0, |c| c.turn);
                    }
                    Err(e) => info.problem = Some(set_aside(&store, &key, &e)),
                }
            }
            Some(info)
        })
        .collect()
}

/// The newest autosave (the title screen's "Continue").
pub fn latest_autosave() -> Option<SavedGame> {
    let store = store().ok()?;
    let mut keys = store.keys(AUTO_PREFIX);
    keys.reverse();
    keys.push(OLD_AUTOSAVE.to_string());
    keys.iter().find(|k| store.read(k).ok().flatten().is_some()).and_then(|k| load_slot(k).ok())
}

// ---- autosaves per game ----

/// Lower-case letters, digits and single dashes: for names of games and keys.
pub fn slug(text: &str) -> String {
    let mut out = String::new();
    for c in text.chars().flat_map(char::to_lowercase) {
        if c.is_ascii_alphanumeric() {
            out.push(c);
        } else if !out.ends_with('-') && !out.is_empty() {
            out.push('-');
        }
    }
    let out = out.trim_end_matches('-');
    let short: String = out.chars().take(40).collect();
    if short.is_empty() { "battle".to_string() } else { short }
}

/// A new game's name: the date and time it began (UTC) and its scenario, e.g.
/// `20261130-161502-borodino`; names sort by date.
pub fn new_game_name(scenario: &str) -> String {
    let secs = web_time::SystemTime::now().duration_since(web_time::UNIX_EPOCH).map_or(0, |d| d.as_secs());
    format!("{}-{}", utc_stamp(secs), slug(scenario))
}

/// `YYYYMMDD-HHMMSS` of a Unix time (UTC).
pub fn utc_stamp(secs: u64) -> String {
    let days = secs / 86_400;
    let rest = secs % 86_400;
    // Civil date from days since 1970-01-01 (H. Hinnant's algorithm).
    let z = days as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}{month:02}{day:02}-{:02}{:02}{:02}", rest / 3600, rest % 3600 / 60, rest % 60)
}

/// The autosave key of a game's turn.
pub fn autosave_key(game: &str, turn: u32) -> String {
    format!("{AUTO_PREFIX}{game}-t{turn:04}")
}

/// The game an autosave key belongs to.
fn game_of(key: &str) -> Option<&str> {
    let rest = key.strip_prefix(AUTO_PREFIX)?;
    let (game, turn) = rest.rsplit_once("-t")?;
    turn.chars().all(|c| c.is_ascii_digit()).then_some(game)
}

/// Writes the autosave of this turn and prunes: the last [`AUTOSAVE_TURNS`] turns of each
/// game, the [`AUTOSAVE_GAMES`] most recent games.
pub fn autosave(game: &SavedGame, turn: u32) -> Result<(), StoreError> {
    let store = store()?;
    store.write(&autosave_key(&game.game, turn), &saved_game_to_text(game))?;
    prune_autosaves(&store, &game.game, AUTOSAVE_TURNS, AUTOSAVE_GAMES);
    Ok(())
}

/// Removes all but the last `turns` autosaves of every game and all but the last `games` games
/// (never the game being played).
pub fn prune_autosaves(store: &Store, current: &str, turns: usize, games: usize) {
    let keys = store.keys(AUTO_PREFIX);
    let mut names: Vec<&str> = keys.iter().filter_map(|k| game_of(k)).collect();
    names.dedup();
    let keep_games: Vec<&str> = names.iter().rev().take(games).copied().chain([current]).collect();
    for name in &names {
        let mine: Vec<&String> = keys.iter().filter(|k| game_of(k) == Some(name)).collect();
        let keep = if keep_games.contains(name) { turns } else { 0 };
        for key in mine.iter().take(mine.len().saturating_sub(keep)) {
            if let Err(e) = store.remove(key) {
                warn!("could not prune {key}: {e}");
            }
        }
    }
}
