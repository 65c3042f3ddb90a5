//! The campaigns' files: the shipped campaigns compiled in (the browser has no folder to read),
//! any campaign in `scenarios/campaign/` natively (new ones appear in the catalogue without a
//! change here), their headers for the catalogue, and the full parse when one is chosen.

use crate::catalog::{PlayerHeader, ScenarioHeader};
use rules::campaign::CampaignScenario;
use rules::data::parse_ron;
use rules::source::{BundledFiles, FileSource};
use rules::tactical::Side;
use serde::Deserialize;
#[cfg(not(target_arch = "wasm32"))]
use std::path::Path;

/// The shipped campaigns and the files they name.
pub const BUNDLED: [(&str, &str); 10] = [
    ("scenarios/campaign/linden.ron", include_str!("../../scenarios/campaign/linden.ron")),
    ("scenarios/campaign/linden_map.ron", include_str!("../../scenarios/campaign/linden_map.ron")),
    ("scenarios/campaign/russia_1812.ron", include_str!("../../scenarios/campaign/russia_1812.ron")),
    ("scenarios/campaign/russia_1812_map.ron", include_str!("../../scenarios/campaign/russia_1812_map.ron")),
    ("scenarios/campaign/austerlitz_1805.ron", include_str!("../../scenarios/campaign/austerlitz_1805.ron")),
    ("scenarios/campaign/austerlitz_1805_map.ron", include_str!("../../scenarios/campaign/austerlitz_1805_map.ron")),
    ("maps/borodino.ron", include_str!("../../maps/borodino.ron")),
    ("assets/data/campaign_rules.ron", include_str!("../../assets/data/campaign_rules.ron")),
    ("assets/data/napoleonic_units.ron", include_str!("../../assets/data/napoleonic_units.ron")),
    ("assets/data/napoleonic_rules.ron", include_str!("../../assets/data/napoleonic_rules.ron")),
];

/// Where campaigns lie on disk.
const FOLDER: &str = "scenarios/campaign";

fn bundled() -> BundledFiles {
    BundledFiles(BUNDLED.to_vec())
}

/// A file's text: bundled, else (natively) on disk.
fn read(path: &str) -> Result<String, String> {
    let found = bundled().read(path);
    #[cfg(not(target_arch = "wasm32"))]
    let found = found.or_else(|_| rules::source::DiskFiles.read(path));
    found.map_err(|e| e.to_string())
}

/// Whether a file is a campaign (its maps lie beside it and are not offered).
fn is_campaign(text: &str) -> bool {
    text.lines()
        .map(str::trim)
        .find(|l| !l.is_empty() && !l.starts_with("//") && !l.starts_with("#!"))
        .is_some_and(|l| l.starts_with("CampaignScenario"))
}

/// The campaigns a player can choose: the shipped ones, then natively every other campaign in
/// `scenarios/campaign/` (maps and order files there are skipped).
pub fn scenario_paths() -> Vec<String> {
    let shipped: Vec<String> =
        BUNDLED.iter().filter(|(p, t)| p.starts_with(FOLDER) && is_campaign(t)).map(|(p, _)| p.to_string()).collect();
    with_disk(shipped)
}

#[cfg(not(target_arch = "wasm32"))]
fn with_disk(mut paths: Vec<String>) -> Vec<String> {
    let Ok(dir) = std::fs::read_dir(FOLDER) else { return paths };
    let mut on_disk: Vec<String> = dir
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "ron"))
        .map(|p| p.to_string_lossy().replace('\\', "/"))
        .filter(|p| std::fs::read_to_string(p).is_ok_and(|t| is_campaign(&t)))
        .collect();
    on_disk.sort();
    for p in on_disk {
        if !paths.contains(&p) {
            paths.push(p);
        }
    }
    paths
}

#[cfg(target_arch = "wasm32")]
fn with_disk(paths: Vec<String>) -> Vec<String> {
    paths
}

/// Parses a chosen campaign with the map and tables it names.
pub fn load_scenario(path: &str) -> Result<CampaignScenario, String> {
    let found = CampaignScenario::load_from(&bundled(), path);
    #[cfg(not(target_arch = "wasm32"))]
    let found =
        found.or_else(|e| if Path::new(path).exists() { CampaignScenario::load(Path::new(path)) } else { Err(e) });
    found.map_err(|e| e.to_string())
}

/// What the catalogue reads of a campaign file (the rest is skipped unread).
#[derive(Deserialize)]
#[serde(rename = "CampaignScenario")]
struct HeaderFile {
    name: String,
    #[serde(default)]
    name_ru: String,
    #[serde(default)]
    description: String,
    first: Side,
    red: SideHeader,
    blue: SideHeader,
    victory: VictoryHeader,
    #[serde(default)]
    armies: Vec<ArmyHeader>,
}

#[derive(Deserialize)]
struct SideHeader {
    name: String,
    #[serde(default)]
    name_ru: String,
}

#[derive(Deserialize)]
struct VictoryHeader {
    turns: u32,
}

#[derive(Deserialize)]
struct ArmyHeader {
    side: Side,
}

/// The header of a campaign: names, description, sides, armies and turns.
pub fn scenario_header(path: &str) -> Result<ScenarioHeader, String> {
    let file: HeaderFile = parse_ron(path, &read(path)?).map_err(|e| e.to_string())?;
    let armies = |side: Side| file.armies.iter().filter(|a| a.side == side).count().to_string();
    let player = |side: Side, spec: &SideHeader| PlayerHeader {
        label: format!("side.{}", side.name()),
        army: spec.name.clone(),
        army_ru: spec.name_ru.clone(),
        role: (side == file.first).then(|| "ui.campaign.moves_first".to_string()),
        alliance: None,
    };
    Ok(ScenarioHeader {
        name: file.name.clone(),
        name_ru: file.name_ru.clone(),
        description: file.description.clone(),
        players: vec![player(Side::Red, &file.red), player(Side::Blue, &file.blue)],
        size: Some((
            "ui.campaign.size".to_string(),
            vec![
                ("red".to_string(), armies(Side::Red)),
                ("blue".to_string(), armies(Side::Blue)),
                ("turns".to_string(), file.victory.turns.to_string()),
            ],
        )),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The catalogue's header says what the parsed campaign says, for every campaign found.
    #[test]
    fn headers_agree_with_the_parsed_campaigns() {
        let paths = scenario_paths();
        assert!(paths.iter().any(|p| p.ends_with("linden.ron")), "{paths:?}");
        assert!(!paths.iter().any(|p| p.ends_with("_map.ron")), "maps are not campaigns: {paths:?}");
        for path in &paths {
            let header = scenario_header(path).unwrap_or_else(|e| panic!("{path}: {e}"));
            let s = load_scenario(path).unwrap_or_else(|e| panic!("{path}: {e}"));
            assert_eq!((header.name.as_str(), header.name_ru.as_str()), (s.name.as_str(), s.name_ru.as_str()));
            assert_eq!(header.players[0].army, s.red.name, "{path}");
            assert_eq!(header.players[1].army, s.blue.name, "{path}");
            let size = header.size.expect("a size line").1;
            let turns = size.iter().find(|(k, _)| k == "turns").map(|(_, v)| v.clone());
            assert_eq!(turns, Some(s.victory.turns.to_string()), "{path}");
        }
    }
}
