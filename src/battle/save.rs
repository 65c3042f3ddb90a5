//! A battle's save inside the envelope: the engine's `SaveGame` to the byte when the scenario is
//! embedded; a scenario too large to embed is referenced by its path and content hash. Also the
//! battle's older files: envelopes of format 1 and plain engine saves (`umpire play --save`).

use super::files::{bundled, load_scenario, scenario_paths};
use crate::saves::{SavedGame, Seat, old_game_name};
use crate::screens::Mode;
use rules::data::{parse_ron, to_ron};
use rules::hash::StateHash;
use rules::replay::Checkpoint;
use rules::tactical::{Order, SaveGame, Scenario};
use serde::{Deserialize, Serialize};

/// The engine's save as written in an envelope: the scenario embedded, or (when large)
/// referenced by path and content hash. Embedded, it is the engine's `SaveGame` to the byte.
#[derive(Serialize, Deserialize)]
#[serde(rename = "SaveGame", deny_unknown_fields)]
pub struct SaveBody {
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

/// Finds a referenced scenario: the file at `path` (bundled, or on disk) must have `hash`.
fn resolve_scenario(name: &str, path: &str, hash: StateHash) -> Result<Scenario, String> {
    let found = Scenario::load_from(&bundled(), path);
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

/// The save as written inside the envelope.
pub fn to_body(save: &SaveGame, embed_limit: usize) -> SaveBody {
    let embed = to_ron(&save.scenario).len() <= embed_limit;
    SaveBody {
        format: save.format,
        scenario_hash: save.scenario_hash,
        seed: save.seed,
        orders: save.orders.clone(),
        checkpoints: save.checkpoints.clone(),
        final_hash: save.final_hash,
        scenario: embed.then(|| save.scenario.clone()),
        scenario_path: (!embed).then(|| scenario_path_of(&save.scenario)).flatten(),
    }
}

/// The save from the envelope (a referenced scenario is found and checked).
pub fn from_body(name: &str, b: SaveBody) -> Result<SaveGame, String> {
    let scenario = match (b.scenario, b.scenario_path) {
        (Some(s), _) => s,
        (None, Some(path)) => resolve_scenario(name, &path, b.scenario_hash)?,
        (None, None) => return Err(format!("{name}: the save holds no scenario and names none")),
    };
    Ok(SaveGame {
        format: b.format,
        scenario_hash: b.scenario_hash,
        seed: b.seed,
        orders: b.orders,
        checkpoints: b.checkpoints,
        final_hash: b.final_hash,
        scenario,
    })
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
