//! The battle's files: the shipped battles compiled in (the browser has no folder to read), any
//! scenario in `scenarios/` natively (mods), their headers for the catalogue, and the full parse
//! when one is chosen.

use crate::catalog::{PlayerHeader, ScenarioHeader};
use rules::data::parse_ron;
use rules::tactical::Scenario;
use rules::tactical::Side;
use rules::tactical::scenario::{BundledFiles, FileSource, normalise};
use serde::Deserialize;
use std::path::Path;

/// The shipped battles and the files they name.
pub const BUNDLED: [(&str, &str); 13] = [
    ("scenarios/open_field.ron", include_str!("../../scenarios/open_field.ron")),
    ("scenarios/borodino.ron", include_str!("../../scenarios/borodino.ron")),
    ("scenarios/badajoz.ron", include_str!("../../scenarios/badajoz.ron")),
    ("scenarios/worked_example_a.ron", include_str!("../../scenarios/worked_example_a.ron")),
    ("scenarios/worked_example_b.ron", include_str!("../../scenarios/worked_example_b.ron")),
    ("scenarios/tutorial.ron", include_str!("../../scenarios/tutorial.ron")),
    ("maps/open_field.ron", include_str!("../../maps/open_field.ron")),
    ("maps/borodino.ron", include_str!("../../maps/borodino.ron")),
    ("maps/badajoz.ron", include_str!("../../maps/badajoz.ron")),
    ("maps/worked_example.ron", include_str!("../../maps/worked_example.ron")),
    ("assets/data/napoleonic_units.ron", include_str!("../../assets/data/napoleonic_units.ron")),
    ("assets/data/napoleonic_rules.ron", include_str!("../../assets/data/napoleonic_rules.ron")),
    ("assets/i18n/en.ron", include_str!("../../assets/i18n/en.ron")),
];

/// Reads a bundled file (for the engine's file source).
pub fn bundled() -> impl FileSource {
    BundledFiles(BUNDLED.to_vec())
}

/// A file's text: bundled, else (natively) on disk.
fn read(path: &str) -> Result<String, String> {
    let found = bundled().read(path);
    #[cfg(not(target_arch = "wasm32"))]
    let found = found.or_else(|_| rules::tactical::scenario::DiskFiles.read(path));
    found.map_err(|e| e.to_string())
}

/// The battles a player can choose: the shipped ones, then natively any in `scenarios/`.
pub fn scenario_paths() -> Vec<String> {
    let shipped = BUNDLED.iter().filter(|(p, _)| p.starts_with("scenarios/")).map(|(p, _)| p.to_string()).collect();
    with_mods(shipped)
}

/// Adds the scenarios in `scenarios/` (mods) after the shipped ones.
#[cfg(not(target_arch = "wasm32"))]
fn with_mods(mut paths: Vec<String>) -> Vec<String> {
    let Ok(dir) = std::fs::read_dir("scenarios") else { return paths };
    let mut on_disk: Vec<String> = dir
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "ron"))
        .map(|p| p.to_string_lossy().replace('\\', "/"))
        .collect();
    on_disk.sort();
    for p in on_disk {
        if !paths.contains(&p) {
            paths.push(p);
        }
    }
    paths
}

/// The browser has no folder of mods.
#[cfg(target_arch = "wasm32")]
fn with_mods(paths: Vec<String>) -> Vec<String> {
    paths
}

/// Parses a chosen scenario with the map and tables it names.
pub fn load_scenario(path: &str) -> Result<Scenario, String> {
    let found = Scenario::load_from(&bundled(), path);
    #[cfg(not(target_arch = "wasm32"))]
    let found = found.or_else(|e| if Path::new(path).exists() { Scenario::load(Path::new(path)) } else { Err(e) });
    found.map_err(|e| e.to_string())
}

/// What the catalogue reads of a scenario file (the rest is skipped unread).
#[derive(Deserialize)]
#[serde(rename = "Scenario")]
struct HeaderFile {
    name: String,
    #[serde(default)]
    name_ru: String,
    #[serde(default)]
    description: String,
    map: String,
    attacker: Side,
    red: SideHeader,
    blue: SideHeader,
    #[serde(default)]
    units: Vec<UnitHeader>,
}

#[derive(Deserialize)]
struct SideHeader {
    name: String,
    #[serde(default)]
    name_ru: String,
}

#[derive(Deserialize)]
struct UnitHeader {
    side: Side,
}

/// What the catalogue reads of a map: its size.
#[derive(Deserialize)]
#[serde(rename = "Map")]
struct MapHeader {
    #[serde(default)]
    size: Option<(i32, i32)>,
    #[serde(default)]
    rows: Vec<String>,
}

/// A file named relative to another.
fn beside(base: &str, relative: &str) -> String {
    let joined = Path::new(base).parent().unwrap_or_else(|| Path::new("")).join(relative);
    normalise(&joined).to_string_lossy().replace('\\', "/")
}

/// The header of a scenario: names, description, sides, size (the map's size from its rows).
pub fn scenario_header(path: &str) -> Result<ScenarioHeader, String> {
    let file: HeaderFile = parse_ron(path, &read(path)?).map_err(|e| e.to_string())?;
    let map_path = beside(path, &file.map);
    let map: MapHeader = parse_ron(&map_path, &read(&map_path)?).map_err(|e| e.to_string())?;
    let (w, h) = match map.rows.first() {
        Some(row) => (row.chars().count() as i64, map.rows.len() as i64),
        None => map.size.map_or((20, 14), |(w, h)| (i64::from(w), i64::from(h))),
    };
    let count = |side: Side| file.units.iter().filter(|u| u.side == side).count().to_string();
    let player = |side: Side, spec: &SideHeader| PlayerHeader {
        label: format!("side.{}", side.name()),
        army: spec.name.clone(),
        army_ru: spec.name_ru.clone(),
        role: Some(if side == file.attacker { "ui.setup.attacker" } else { "ui.setup.defender" }.to_string()),
        alliance: None,
    };
    Ok(ScenarioHeader {
        name: file.name.clone(),
        name_ru: file.name_ru.clone(),
        description: file.description.clone(),
        players: vec![player(Side::Red, &file.red), player(Side::Blue, &file.blue)],
        size: Some((
            "ui.setup.size".to_string(),
            vec![
                ("red".to_string(), count(Side::Red)),
                ("blue".to_string(), count(Side::Blue)),
                ("w".to_string(), w.to_string()),
                ("h".to_string(), h.to_string()),
            ],
        )),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The catalogue's header says what the parsed scenario says, for every shipped battle.
    #[test]
    fn headers_agree_with_the_parsed_scenarios() {
        for path in scenario_paths().iter().filter(|p| BUNDLED.iter().any(|(b, _)| b == *p)) {
            let header = scenario_header(path).unwrap_or_else(|e| panic!("{path}: {e}"));
            let s = load_scenario(path).unwrap_or_else(|e| panic!("{path}: {e}"));
            assert_eq!((header.name.as_str(), header.name_ru.as_str()), (s.name.as_str(), s.name_ru.as_str()));
            assert_eq!(header.description, s.description, "{path}");
            let size = header.size.expect("a size line").1;
            let want = [
                s.units_of(Side::Red).count().to_string(),
                s.units_of(Side::Blue).count().to_string(),
                s.map.width.to_string(),
                s.map.height.to_string(),
            ];
            let got: Vec<String> = size.into_iter().map(|(_, v)| v).collect();
            assert_eq!(got, want, "{path}");
            assert_eq!(header.players[0].army, s.red.name, "{path}");
            assert_eq!(header.players[1].army, s.blue.name, "{path}");
        }
    }
}
