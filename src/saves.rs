//! Saved games, for every scene: the envelope `{format, mode, game, seats, save}` around a
//! scene's engine save, the migration of every envelope format the game has written, save slots,
//! autosaves per game, and the list the saves menu shows.
//!
//! A scene makes its engine save a [`SceneSave`] (how it is written inside the envelope, how
//! older files read) and registers it with [`register`]; the shell then lists, opens and
//! replays its saves without knowing its type: [`OpenSave`] carries the text to the scene of the
//! save's [`Mode`]. The text is kept by `storage`/`store`, which know nothing of saves.

use crate::screens::Mode;
use crate::storage::{self, explain};
use crate::store::{Store, StoreError};
use ai::Level;
use bevy::prelude::*;
use rules::data::{parse_ron, to_ron};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<SaveKinds>().add_message::<OpenSave>();
}

/// Who plays a player (a battle's side, a power of the Great War).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Seat {
    Human,
    Ai(Level),
}

/// The version of the envelope the game writes. Format 1 (no `format` field, `seats` a pair)
/// was written before autosaves per game; [`saved_game_from_text`] reads both, and plain engine
/// saves from `umpire play --save`.
pub const SAVE_FORMAT: u32 = rules::savefile::ENVELOPE_FORMAT;

/// UI limit: autosaves kept for each game (its last turns).
pub const AUTOSAVE_TURNS: usize = 3;
/// UI limit: games whose autosaves are kept (the most recent ones).
pub const AUTOSAVE_GAMES: usize = 5;
/// UI limit: a scenario whose text is longer than this (bytes of RON) is not embedded in the
/// save but referenced by its path and content hash, so saves of big maps fit browser storage.
pub const EMBED_LIMIT: usize = 256 * 1024;

/// A saved game of the interface: a scene's engine save plus who played each player.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SavedGame<S> {
    pub mode: Mode,
    /// The game this save belongs to (its autosaves share it): start date and scenario.
    pub game: String,
    /// One seat per player, in the scene's order of players.
    pub seats: Vec<Seat>,
    pub save: S,
}

/// A scene's engine save, as the envelope carries it.
pub trait SceneSave: Sized + Clone + Send + Sync + 'static {
    const MODE: Mode;
    /// The struct name of a plain engine save of this scene (`SaveGame` for a battle), which the
    /// game also opens.
    const ENGINE_NAME: &'static str;
    /// The save as written inside the envelope (it may reference a large scenario by path and
    /// hash instead of embedding it).
    type Body: Serialize + DeserializeOwned;

    fn to_body(&self, embed_limit: usize) -> Self::Body;
    fn from_body(name: &str, body: Self::Body) -> Result<Self, String>;
    /// A plain engine save (people on every seat).
    fn from_engine_text(name: &str, text: &str) -> Result<SavedGame<Self>, String>;
    /// An envelope of format 1 (written by the battle only, before autosaves per game).
    fn from_format1(name: &str, text: &str) -> Result<SavedGame<Self>, String> {
        let _ = text;
        Err(format!("{name}: saves of format 1 hold battles only"))
    }
    /// The scenario's name, as people see it.
    fn scenario_name(&self) -> String;
    /// Orders in the log.
    fn order_count(&self) -> usize;
    /// The turn of the last checkpoint.
    fn turn(&self) -> u32;
    /// Replays the save to its end (checking every recorded hash) and gives the final state hash.
    fn replay_hash(&self) -> Result<String, String>;
    /// The files the browser must fetch before the save's scenario can be read, when its body
    /// references a scenario whose files are not at hand (none natively, nor when embedded).
    fn fetch_first(body: &Self::Body) -> Option<FetchFirst> {
        let _ = body;
        None
    }
}

/// A save whose scenario's files the browser fetches before opening it (see
/// [`SceneSave::fetch_first`]): what the saves menu can tell of it meanwhile.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FetchFirst {
    /// The scenario's name, as people see it.
    pub name: String,
    pub files: Vec<&'static str>,
    pub orders: usize,
    /// The turn of the last checkpoint.
    pub turn: u32,
}

/// [`SceneSave::fetch_first`] of a save's text (an envelope of the current format).
pub fn fetch_first_of<S: SceneSave>(name: &str, text: &str) -> Option<FetchFirst> {
    match parse_ron::<Probe>(name, text) {
        Ok(Probe { format: SAVE_FORMAT, mode }) if mode == S::MODE => {
            let file: FileV2<S::Body> = parse_ron(name, text).ok()?;
            S::fetch_first(&file.save)
        }
        _ => None,
    }
}

/// The envelope as written, format 2 (the engine's format, [`rules::savefile`], which the
/// referee reads too).
type FileV2<B> = rules::savefile::Envelope<Mode, Seat, B>;

/// Just the format and the mode, to choose how to read the rest.
#[derive(Deserialize)]
#[serde(rename = "SavedGame")]
struct Probe {
    #[serde(default)]
    format: u32,
    #[serde(default)]
    mode: Mode,
}

/// The text of a save, in the current format.
pub fn saved_game_to_text<S: SceneSave>(game: &SavedGame<S>) -> String {
    saved_game_to_text_with_limit(game, EMBED_LIMIT)
}

/// The text of a save with the scenario referenced whenever it is longer than `embed_limit`
/// (for tests of the reference; the game uses [`EMBED_LIMIT`]).
pub fn saved_game_to_text_with_limit<S: SceneSave>(game: &SavedGame<S>, embed_limit: usize) -> String {
    to_ron(&FileV2 {
        format: SAVE_FORMAT,
        mode: game.mode,
        game: game.game.clone(),
        seats: game.seats.clone(),
        save: game.save.to_body(embed_limit),
    })
}

/// Whether the text is a plain engine save named `engine_name`.
fn is_engine_save(text: &str, engine_name: &str) -> bool {
    text.trim_start().strip_prefix(engine_name).is_some_and(|rest| rest.trim_start().starts_with('('))
}

/// The mode of a save's text (plain engine saves are recognised by the kinds' struct names).
pub fn mode_of(name: &str, text: &str, kinds: &SaveKinds) -> Result<Mode, String> {
    if let Some(kind) = kinds.0.iter().find(|k| is_engine_save(text, k.engine_name)) {
        return Ok(kind.mode);
    }
    parse_ron::<Probe>(name, text).map(|p| p.mode).map_err(|e| explain(text, e.to_string()))
}

/// Reads a save of scene `S` from text (a slot, a file the player picked, or a download): the
/// current format, every earlier one (migrated), or a plain engine save (people on every seat).
pub fn saved_game_from_text<S: SceneSave>(name: &str, text: &str) -> Result<SavedGame<S>, String> {
    read_save::<S>(name, text).map_err(|e| explain(text, e))
}

fn read_save<S: SceneSave>(name: &str, text: &str) -> Result<SavedGame<S>, String> {
    if is_engine_save(text, S::ENGINE_NAME) {
        return S::from_engine_text(name, text);
    }
    match parse_ron::<Probe>(name, text) {
        Ok(Probe { format: SAVE_FORMAT, mode }) if mode != S::MODE => Err(not_this_scene(name, mode, S::MODE)),
        Ok(Probe { format: SAVE_FORMAT, .. }) => {
            let file: FileV2<S::Body> = parse_ron(name, text).map_err(|e| e.to_string())?;
            let save = S::from_body(name, file.save)?;
            Ok(SavedGame { mode: file.mode, game: file.game, seats: file.seats, save })
        }
        Ok(Probe { format: 0, .. }) => S::from_format1(name, text),
        Ok(Probe { format, .. }) => Err(format!(
            "{name}: the save has format {format}, this game reads formats 1 to {SAVE_FORMAT} (was it made by a newer version?)"
        )),
        Err(e) => Err(e.to_string()),
    }
}

fn not_this_scene(name: &str, found: Mode, wanted: Mode) -> String {
    format!(
        "{name}: this is a save of the {} scene, not of the {}, so it cannot be opened here",
        found.name(),
        wanted.name()
    )
}

/// A name for a game that has none (saves of format 1, engine saves): dated when it is opened,
/// so its autosaves sort and are pruned with the others.
pub fn old_game_name(scenario: &str) -> String {
    new_game_name(scenario)
}

/// Writes a save under `key` (the previous version becomes its backup).
pub fn write_save<S: SceneSave>(key: &str, game: &SavedGame<S>) -> Result<(), StoreError> {
    storage::store()?.write(key, &saved_game_to_text(game))
}

/// Writes a save slot.
pub fn save_slot<S: SceneSave>(slot: &str, game: &SavedGame<S>) -> Result<(), String> {
    write_save(slot, game).map_err(|e| storage::describe(&e))
}

/// Reads a save; one that cannot be read is set aside (`KEY.ron.corrupt-N`) and the error says so.
pub fn load_slot<S: SceneSave>(slot: &str) -> Result<SavedGame<S>, String> {
    load_slot_in(&storage::store().map_err(|e| e.to_string())?, slot)
}

/// [`load_slot`] from a given store.
pub fn load_slot_in<S: SceneSave>(store: &Store, slot: &str) -> Result<SavedGame<S>, String> {
    let text = store.read(slot).map_err(|e| e.to_string())?.ok_or_else(|| format!("{slot} is empty"))?;
    saved_game_from_text(&format!("{slot}.ron"), &text).map_err(|e| set_aside(store, slot, &e))
}

/// Sets an unreadable save aside and says so in one sentence.
fn set_aside(store: &Store, key: &str, why: &str) -> String {
    // A save that needs a scenario (or a scene) this game lacks is not damaged: it stays.
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
    storage::store().and_then(|s| s.restore_backup(slot)).map_err(|e| e.to_string())
}

// ---- the kinds of saves the scenes register ----

/// UI limit: how many saves' summaries are remembered (more than the slots and autosaves listed).
const SUMMARIES_KEPT: usize = 64;

/// Summaries already read, by save name and text ([`SaveKinds::summary`]).
type Summaries = Vec<((String, u64), Result<(Mode, SaveSummary), String>)>;
static SUMMARIES: std::sync::Mutex<Summaries> = std::sync::Mutex::new(Vec::new());

/// A save's name and a hash of its text and of the scenes that read it (a save rewritten under
/// the same name is read again).
fn summary_key(name: &str, text: &str, kinds: &SaveKinds) -> (String, u64) {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    text.hash(&mut h);
    kinds.0.iter().for_each(|k| k.mode.hash(&mut h));
    (name.to_string(), h.finish())
}

/// What a save holds, for the menu.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SaveSummary {
    pub scenario: String,
    pub orders: usize,
    pub turn: u32,
}

/// One scene's saves, as the shell handles them.
#[derive(Clone, Debug)]
pub struct SaveKind {
    pub mode: Mode,
    pub engine_name: &'static str,
    /// Reads a save fully (so a damaged one is found) and says what it holds.
    pub summary: fn(&str, &str) -> Result<SaveSummary, String>,
    /// Replays a save to its end and gives its final state hash (the browser's check).
    pub replay_hash: fn(&str, &str) -> Result<String, String>,
    /// The files to fetch before the save can be read (see [`SceneSave::fetch_first`]).
    pub fetch_first: fn(&str, &str) -> Option<FetchFirst>,
}

/// The kinds of saves this build can open: one per scene.
#[derive(Resource, Clone, Debug, Default)]
pub struct SaveKinds(pub Vec<SaveKind>);

impl SaveKinds {
    pub fn get(&self, mode: Mode) -> Result<&SaveKind, String> {
        self.0.iter().find(|k| k.mode == mode).ok_or_else(|| {
            format!("this is a save of the {} scene, which this version lacks, so it cannot be opened", mode.name())
        })
    }

    /// Reads a save's text through its scene: its mode and what it holds.
    pub fn summary(&self, name: &str, text: &str) -> Result<(Mode, SaveSummary), String> {
        // The title's "Continue" and the saves menu ask again and again; reading a save of a large
        // scenario finds and parses its map (Europe: most of a second), so each text is read once.
        let key = summary_key(name, text, self);
        if let Some(known) =
            SUMMARIES.lock().ok().and_then(|c| c.iter().find(|(k, _)| *k == key).map(|(_, r)| r.clone()))
        {
            return known;
        }
        let found = self.read_summary(name, text);
        if let Ok(mut cache) = SUMMARIES.lock() {
            if cache.len() >= SUMMARIES_KEPT {
                drop(cache.remove(0));
            }
            cache.push((key, found.clone()));
        }
        found
    }

    fn read_summary(&self, name: &str, text: &str) -> Result<(Mode, SaveSummary), String> {
        let mode = mode_of(name, text, self)?;
        let kind = self.get(mode).map_err(|e| format!("{name}: {e}"))?;
        // A save of a scenario still to be fetched is read whole once its files have come.
        if let Some(f) = (kind.fetch_first)(name, text) {
            return Ok((mode, SaveSummary { scenario: f.name, orders: f.orders, turn: f.turn }));
        }
        Ok((mode, (kind.summary)(name, text)?))
    }
}

fn summary_of<S: SceneSave>(name: &str, text: &str) -> Result<SaveSummary, String> {
    let game = saved_game_from_text::<S>(name, text)?;
    Ok(SaveSummary { scenario: game.save.scenario_name(), orders: game.save.order_count(), turn: game.save.turn() })
}

fn replay_hash_of<S: SceneSave>(name: &str, text: &str) -> Result<String, String> {
    saved_game_from_text::<S>(name, text)?.save.replay_hash()
}

/// Registers a scene's saves.
pub fn register<S: SceneSave>(app: &mut App) {
    app.init_resource::<SaveKinds>();
    app.world_mut().resource_mut::<SaveKinds>().0.push(SaveKind {
        mode: S::MODE,
        engine_name: S::ENGINE_NAME,
        summary: summary_of::<S>,
        replay_hash: replay_hash_of::<S>,
        fetch_first: fetch_first_of::<S>,
    });
}

/// Open a save (checked by its kind's summary first): continue it, or watch it in the replay
/// viewer. The scene of its mode reads it.
#[derive(Message, Clone, Debug, PartialEq, Eq)]
pub struct OpenSave {
    pub mode: Mode,
    /// The file's name, for messages.
    pub name: String,
    pub text: String,
    pub replay: bool,
}

/// Reads a slot for opening; a save that cannot be read is set aside and the error says so.
pub fn open_slot(kinds: &SaveKinds, slot: &str, replay: bool) -> Result<OpenSave, String> {
    let store = storage::store().map_err(|e| e.to_string())?;
    let text = store.read(slot).map_err(|e| e.to_string())?.ok_or_else(|| format!("{slot} is empty"))?;
    let name = format!("{slot}.ron");
    let (mode, _) = kinds.summary(&name, &text).map_err(|e| set_aside(&store, slot, &explain(&text, e)))?;
    Ok(OpenSave { mode, name, text, replay })
}

/// A file's text for opening (a file the player picked).
pub fn open_text(kinds: &SaveKinds, name: &str, text: String, replay: bool) -> Result<OpenSave, String> {
    let (mode, _) = kinds.summary(name, &text).map_err(|e| explain(&text, e))?;
    Ok(OpenSave { mode, name: name.to_string(), text, replay })
}

// ---- slots ----

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

/// Every save: slots, autosaves (newest first) and the autosave of format 1.
pub fn list_slots(kinds: &SaveKinds) -> Vec<SlotInfo> {
    let Ok(store) = storage::store() else { return Vec::new() };
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
                match kinds.summary(&format!("{key}.ron"), &text) {
                    Ok((_, s)) => {
                        info.scenario = s.scenario;
                        info.orders = s.orders;
                        info.turn = s.turn;
                    }
                    Err(e) => info.problem = Some(set_aside(&store, &key, &explain(&text, e))),
                }
            }
            Some(info)
        })
        .collect()
}

/// The newest autosave that can be opened (the title screen's "Continue").
pub fn latest_autosave(kinds: &SaveKinds) -> Option<OpenSave> {
    let store = storage::store().ok()?;
    let mut keys = store.keys(AUTO_PREFIX);
    keys.reverse();
    keys.push(OLD_AUTOSAVE.to_string());
    keys.iter().find(|k| store.read(k).ok().flatten().is_some()).and_then(|k| open_slot(kinds, k, false).ok())
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
/// `20261130-161502-borodino`; names sort by date. A second game of the same scenario begun in
/// the same second gets `-2`, `-3`... so it never writes over the first one's autosaves.
pub fn new_game_name(scenario: &str) -> String {
    let secs = web_time::SystemTime::now().duration_since(web_time::UNIX_EPOCH).map_or(0, |d| d.as_secs());
    let name = format!("{}-{}", utc_stamp(secs), slug(scenario));
    // Names given in this run count as taken before their first autosave is written.
    static GIVEN: std::sync::Mutex<Vec<String>> = std::sync::Mutex::new(Vec::new());
    let store = storage::store().ok();
    let Ok(mut given) = GIVEN.lock() else { return name };
    let taken = |n: &str| {
        given.iter().any(|g| g == n)
            || store.as_ref().is_some_and(|s| !s.keys(&format!("{AUTO_PREFIX}{n}-t")).is_empty())
    };
    let free = std::iter::once(name.clone())
        .chain((2..1000).map(|i| format!("{name}-{i}")))
        .find(|n| !taken(n))
        .unwrap_or(name);
    given.push(free.clone());
    free
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
pub fn autosave<S: SceneSave>(game: &SavedGame<S>, turn: u32) -> Result<(), StoreError> {
    let store = storage::store()?;
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
