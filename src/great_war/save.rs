//! A Great War save inside the envelope: the engine's `GreatWarSave` to the byte when the scenario
//! is embedded; a scenario too large to embed (a theatre or the whole of Europe, whose resolved map
//! runs to megabytes) is referenced by its path and content hash, and refused with a sentence if
//! the file found there has changed.

use super::files::{load_scenario, scenario_paths};
use rules::data::to_ron;
use rules::hash::StateHash;
use rules::strategic::SaveGame;
use std::sync::Mutex;

/// The engine's save as written in an envelope (the format is the engine's,
/// [`rules::savefile`], which the referee reads too).
pub type SaveBody = rules::savefile::GreatWarBody;

/// UI limit: a map of more hexes than this is never embedded in a save (its resolved cells alone
/// run past the embedding limit), so the save's size is not worked out by writing it.
const EMBED_HEXES: usize = 20_000;

/// The shipped scenarios' content hashes, worked out once a run (loading Europe takes a while).
static KNOWN: Mutex<Vec<(String, StateHash)>> = Mutex::new(Vec::new());

/// Where a scenario can be found again: the shipped file whose content hash matches.
fn scenario_path_of(hash: StateHash) -> Option<String> {
    let mut known = KNOWN.lock().ok()?;
    for path in scenario_paths() {
        let found = match known.iter().find(|(p, _)| *p == path) {
            Some((_, h)) => *h,
            None => {
                let Ok(s) = load_scenario(&path) else { continue };
                let h = s.hash();
                known.push((path.clone(), h));
                h
            }
        };
        if found == hash {
            return Some(path);
        }
    }
    None
}

/// The save as written inside the envelope.
pub fn to_body(save: &SaveGame, embed_limit: usize) -> SaveBody {
    // A scenario of the shipped files is referenced whenever its resolved form would be large.
    let embed = save.scenario.map.len() <= EMBED_HEXES && to_ron(&save.scenario).len() <= embed_limit;
    // A scenario that no shipped file matches is embedded whatever its size.
    SaveBody::new(save, (!embed).then(|| scenario_path_of(save.scenario_hash)).flatten())
}

/// What a save that references a scenario to be fetched first needs (see
/// [`crate::saves::SceneSave::fetch_first`]); `missing` gives a scenario's files not yet at hand
/// ([`super::files::missing`]: none natively).
pub fn fetch_first(b: &SaveBody, missing: fn(&str) -> Vec<&'static str>) -> Option<crate::saves::FetchFirst> {
    let path = b.scenario_path.as_deref().filter(|_| b.scenario.is_none())?;
    let fetched = super::files::fetched(path)?;
    let files = missing(path);
    (!files.is_empty()).then(|| crate::saves::FetchFirst {
        name: fetched.name.to_string(),
        files,
        orders: b.orders.len(),
        turn: b.checkpoints.last().map_or(0, |c| c.turn),
    })
}

/// The save from the envelope (a referenced scenario is found and checked).
pub fn from_body(name: &str, b: SaveBody) -> Result<SaveGame, String> {
    b.into_save(name, |path| load_scenario(path).map_err(|e| e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use rules::hash::StateHash;
    use rules::replay::Checkpoint;
    use rules::strategic::Order;

    fn body(scenario_path: Option<&str>) -> SaveBody {
        let hash = StateHash(7);
        SaveBody {
            format: 1,
            scenario_hash: hash,
            seed: 1,
            orders: vec![Order::EndPhase; 3],
            checkpoints: vec![Checkpoint { after: 0, turn: 1, hash }, Checkpoint { after: 3, turn: 2, hash }],
            final_hash: hash,
            scenario: None,
            scenario_path: scenario_path.map(str::to_string),
        }
    }

    /// A browser save of a fetched scenario names the files to fetch before it is read, and what
    /// the saves menu shows meanwhile; nothing is wanted once the files are at hand, nor for a
    /// scenario the download carries.
    #[test]
    fn a_save_of_a_fetched_scenario_wants_its_files_first() {
        let path = "scenarios/great_war/north_sea_1916.ron";
        let all = |p: &str| super::super::files::fetched(p).map_or(Vec::new(), |f| f.files.to_vec());
        let wanted = fetch_first(&body(Some(path)), all).expect("its files are wanted");
        assert_eq!(wanted.name, super::super::files::fetched(path).map(|f| f.name).unwrap_or_default());
        assert_eq!(wanted.files, ["scenarios/great_war/north_sea_1916.ron", "maps/europe_1914_north_sea.ron"]);
        assert_eq!((wanted.orders, wanted.turn), (3, 2));
        assert_eq!(fetch_first(&body(Some(path)), |_| Vec::new()), None, "all at hand");
        assert_eq!(fetch_first(&body(Some("scenarios/great_war/test_front.ron")), all), None, "bundled");
        assert_eq!(fetch_first(&body(None), all), None, "embedded");
        // Natively nothing is ever fetched.
        assert_eq!(fetch_first(&body(Some(path)), super::super::files::missing), None);
    }
}
