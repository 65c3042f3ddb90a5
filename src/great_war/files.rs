//! The Great War's files: the small shipped scenarios compiled in (the browser has no folder to
//! read), the theatre and Europe scenarios read from disk natively (the browser fetches large maps
//! on demand, see `web/`), their headers for the catalogue, and the full parse when one is chosen.
//! Every file is read through the engine's [`FileSource`], never with `std::fs` directly.

use crate::catalog::{PlayerHeader, ScenarioHeader};
use rules::data::{DataError, parse_ron};
use rules::source::{BundledFiles, FileSource, normalise};
use rules::strategic::Scenario;
use serde::Deserialize;
use std::path::Path;

/// The shipped Great War scenarios small enough to carry in the download, and the files they name.
pub const BUNDLED: [(&str, &str); 8] = [
    ("scenarios/great_war/test_front.ron", include_str!("../../scenarios/great_war/test_front.ron")),
    ("scenarios/great_war/north_sea_1916.ron", include_str!("../../scenarios/great_war/north_sea_1916.ron")),
    ("maps/great_war/test_front.ron", include_str!("../../maps/great_war/test_front.ron")),
    ("maps/europe_1914_north_sea.ron", include_str!("../../maps/europe_1914_north_sea.ron")),
    ("assets/data/great_war_units.ron", include_str!("../../assets/data/great_war_units.ron")),
    ("assets/data/great_war_rules.ron", include_str!("../../assets/data/great_war_rules.ron")),
    ("assets/data/great_war_aviation.ron", include_str!("../../assets/data/great_war_aviation.ron")),
    ("assets/i18n/en.ron", include_str!("../../assets/i18n/en.ron")),
];

/// The shipped scenarios read from disk (natively): the theatres and the whole of Europe.
#[cfg(not(target_arch = "wasm32"))]
const ON_DISK: [&str; 3] = [
    "scenarios/great_war/east_prussia_1914.ron",
    "scenarios/great_war/frontiers_marne_1914.ron",
    "scenarios/great_war/august_1914.ron",
];

/// Bundled files first, then (natively) the disk.
pub struct GwFiles;

impl FileSource for GwFiles {
    fn read(&self, path: &str) -> Result<String, DataError> {
        let found = BundledFiles(BUNDLED.to_vec()).read(path);
        #[cfg(not(target_arch = "wasm32"))]
        let found = found.or_else(|_| rules::source::DiskFiles.read(path));
        found
    }
}

/// The Great War scenarios a player can choose: the bundled ones, then natively those on disk.
pub fn scenario_paths() -> Vec<String> {
    let bundled = BUNDLED.iter().filter(|(p, _)| p.starts_with("scenarios/")).map(|(p, _)| p.to_string());
    #[cfg(not(target_arch = "wasm32"))]
    let bundled = bundled.chain(ON_DISK.iter().filter(|p| Path::new(p).exists()).map(|p| p.to_string()));
    bundled.collect()
}

/// Parses a chosen scenario with the map and tables it names.
pub fn load_scenario(path: &str) -> Result<Scenario, String> {
    Scenario::load_from(&GwFiles, path).map_err(|e| e.to_string())
}

/// What the catalogue reads of a scenario file (the rest is skipped unread).
#[derive(Deserialize)]
#[serde(rename = "GreatWarScenario")]
struct HeaderFile {
    name: String,
    map: String,
    powers: Vec<PowerHeader>,
    #[serde(default)]
    forces: Vec<ForceHeader>,
    #[serde(default)]
    fleets: Vec<ForceHeader>,
}

/// A power as the catalogue reads it (its name in the interface's language comes from the string
/// tables, `gw.power.ID`; the scenario's own name is shown beside it when they differ).
#[derive(Deserialize)]
struct PowerHeader {
    id: String,
    name: String,
}

#[derive(Deserialize)]
struct ForceHeader {
    #[serde(default)]
    #[allow(dead_code)]
    power: String,
}

/// What the catalogue reads of a map: its size.
#[derive(Deserialize)]
#[serde(rename = "GreatWarMap")]
struct MapHeader {
    width: u32,
    height: u32,
}

/// A file named relative to another.
fn beside(base: &str, relative: &str) -> String {
    let joined = Path::new(base).parent().unwrap_or_else(|| Path::new("")).join(relative);
    normalise(&joined).to_string_lossy().replace('\\', "/")
}

/// A power's name in the interface's language: the string table's, else the scenario's.
pub fn power_key(id: &str) -> String {
    format!("gw.power.{id}")
}

/// The header of a scenario: name, powers, the size of its map and forces.
pub fn scenario_header(path: &str) -> Result<ScenarioHeader, String> {
    let file: HeaderFile =
        parse_ron(path, &GwFiles.read(path).map_err(|e| e.to_string())?).map_err(|e| e.to_string())?;
    let map_path = beside(path, &file.map);
    let map: MapHeader =
        parse_ron(&map_path, &GwFiles.read(&map_path).map_err(|e| e.to_string())?).map_err(|e| e.to_string())?;
    let players = file
        .powers
        .iter()
        .map(|p| PlayerHeader { label: power_key(&p.id), army: p.name.clone(), army_ru: String::new(), role: None })
        .collect();
    Ok(ScenarioHeader {
        name: file.name.clone(),
        name_ru: String::new(),
        description: String::new(),
        players,
        size: Some((
            "gw.setup.size".to_string(),
            vec![
                ("powers".to_string(), file.powers.len().to_string()),
                ("forces".to_string(), file.forces.len().to_string()),
                ("fleets".to_string(), file.fleets.len().to_string()),
                ("w".to_string(), map.width.to_string()),
                ("h".to_string(), map.height.to_string()),
            ],
        )),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The catalogue's header says what the parsed scenario says, for every bundled scenario.
    #[test]
    fn headers_agree_with_the_parsed_scenarios() {
        for (path, _) in BUNDLED.iter().filter(|(p, _)| p.starts_with("scenarios/")) {
            let header = scenario_header(path).unwrap_or_else(|e| panic!("{path}: {e}"));
            let s = load_scenario(path).unwrap_or_else(|e| panic!("{path}: {e}"));
            assert_eq!(header.name, s.name, "{path}");
            assert_eq!(header.players.len(), s.powers.len(), "{path}");
            let size: Vec<String> = header.size.expect("a size line").1.into_iter().map(|(_, v)| v).collect();
            let want = [
                s.powers.len().to_string(),
                s.forces.len().to_string(),
                s.fleets.len().to_string(),
                s.map.width.to_string(),
                s.map.height.to_string(),
            ];
            assert_eq!(size, want, "{path}");
        }
    }
}
