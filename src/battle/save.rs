//! A battle's save inside the envelope: the engine's `SaveGame` to the byte when the scenario is
//! embedded; a scenario too large to embed is referenced by its path and content hash. Also the
//! battle's older files: envelopes of format 1 and plain engine saves (`umpire play --save`).

use super::files::{bundled, load_scenario, scenario_paths};
use crate::saves::{SavedGame, Seat, old_game_name};
use crate::screens::Mode;
use rules::data::{parse_ron, to_ron};
use rules::tactical::{SaveGame, Scenario};
use serde::Deserialize;

/// The engine's save as written in an envelope: the scenario embedded, or (when large)
/// referenced by path and content hash. Embedded, it is the engine's `SaveGame` to the byte
/// (the format is the engine's, [`rules::savefile`], which the referee reads too).
pub type SaveBody = rules::savefile::BattleBody;

/// The envelope of format 1 (written before autosaves per game).
#[derive(Deserialize)]
#[serde(rename = "SavedGame")]
struct FileV1 {
    seats: [Seat; 2],
    save: SaveGame,
}

/// Where a scenario can be found again: the bundled or on-disk file whose content hash matches
/// (each battle is parsed here, only when a save is too large to embed its scenario).
fn scenario_path_of(scenario: &Scenario) -> Option<String> {
    let hash = scenario.hash();
    scenario_paths().into_iter().find(|p| load_scenario(p).is_ok_and(|s| s.hash() == hash))
}

/// Loads a referenced scenario: the bundled file at `path`, or the file on disk.
fn load_referenced(path: &str) -> Result<Scenario, String> {
    let found = Scenario::load_from(&bundled(), path);
    #[cfg(not(target_arch = "wasm32"))]
    let found = found.or_else(|_| Scenario::load(std::path::Path::new(path)));
    found.map_err(|e| e.to_string())
}

/// The save as written inside the envelope.
pub fn to_body(save: &SaveGame, embed_limit: usize) -> SaveBody {
    // A scenario that no shipped file matches is embedded whatever its size.
    let embed = to_ron(&save.scenario).len() <= embed_limit;
    SaveBody::new(save, (!embed).then(|| scenario_path_of(&save.scenario)).flatten())
}

/// The save from the envelope (a referenced scenario is found and checked).
pub fn from_body(name: &str, b: SaveBody) -> Result<SaveGame, String> {
    b.into_save(name, load_referenced)
}

/// An envelope of format 1.
pub fn from_format1(name: &str, text: &str) -> Result<SavedGame<SaveGame>, String> {
    let file: FileV1 = parse_ron(name, text).map_err(|e| e.to_string())?;
    Ok(SavedGame {
        mode: Mode::Battle,
        game: old_game_name(&file.save.scenario.name),
        seats: file.seats.to_vec(),
        save: file.save,
    })
}
