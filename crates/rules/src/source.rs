//! Where game files come from, for both wars: the disk natively, a bundle compiled into the
//! program in the browser. Scenario loaders read every file they name through a [`FileSource`].
//!
//! A catalog of scenarios reads only their headers ([`read_header`]): the name and description,
//! without the map and tables a scenario names, so a menu lists every scenario at once and a
//! scenario is loaded in full only when it is chosen.

use crate::data::{DataError, Pos, parse_ron, pos_of, read_text};
use crate::tactical::scenario::BattleKind;
use serde::Deserialize;
use std::path::{Component, Path, PathBuf};

/// Reads the files a scenario names; on disk natively, from a bundle in the browser.
pub trait FileSource {
    fn read(&self, path: &str) -> Result<String, DataError>;
}

/// Files on disk.
pub struct DiskFiles;

impl FileSource for DiskFiles {
    fn read(&self, path: &str) -> Result<String, DataError> {
        read_text(Path::new(path))
    }
}

/// Files compiled into the program (the browser build), looked up by normalised path.
pub struct BundledFiles(pub Vec<(&'static str, &'static str)>);

impl FileSource for BundledFiles {
    fn read(&self, path: &str) -> Result<String, DataError> {
        let wanted = normalise(Path::new(path));
        self.0
            .iter()
            .find(|(p, _)| normalise(Path::new(p)) == wanted)
            .map(|(_, text)| text.to_string())
            .ok_or_else(|| DataError::at(path, Pos::START, "no such file in the game's bundle"))
    }
}

/// Removes `.` and `..` components so relative references compare equal.
pub fn normalise(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for part in path.components() {
        match part {
            Component::CurDir => {}
            Component::ParentDir => {
                if !out.pop() {
                    out.push("..");
                }
            }
            other => out.push(other),
        }
    }
    out
}

/// The first struct name of a RON file (after comments and `#![enable(..)]` lines) and its byte
/// offset; `"["` for a list. Tells the kinds of game files apart without parsing them.
pub fn struct_name(text: &str) -> (&str, usize) {
    let mut rest = text;
    loop {
        rest = rest.trim_start();
        if let Some(r) = rest.strip_prefix("//") {
            rest = r.split_once('\n').map_or("", |x| x.1);
        } else if let Some(r) = rest.strip_prefix("/*") {
            rest = r.split_once("*/").map_or("", |x| x.1);
        } else if rest.starts_with("#![") {
            rest = rest.split_once(']').map_or("", |x| x.1);
        } else {
            break;
        }
    }
    let offset = text.len() - rest.len();
    if rest.starts_with('[') {
        return ("[", offset);
    }
    let len = rest.find(|c: char| !(c.is_alphanumeric() || c == '_')).unwrap_or(rest.len());
    (&rest[..len], offset)
}

/// Which war a scenario is of.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum War {
    /// A Napoleonic battle (`Scenario(..)`).
    Battle,
    /// The Great War (`GreatWarScenario(..)`).
    GreatWar,
}

/// What a catalog shows of a scenario before it is loaded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScenarioHeader {
    pub war: War,
    pub name: String,
    /// The Russian name, where the file gives one (empty otherwise).
    pub name_ru: String,
    /// Empty where the file has none.
    pub description: String,
    /// A battle's kind (field battle or fortress); `None` for the Great War.
    pub battle: Option<BattleKind>,
}

/// The header fields of a battle scenario; every other field is skipped unread.
#[derive(Deserialize)]
#[serde(rename = "Scenario")]
struct BattleHeader {
    name: String,
    #[serde(default)]
    name_ru: String,
    #[serde(default)]
    description: String,
    kind: BattleKind,
}

/// The header fields of a Great War scenario.
#[derive(Deserialize)]
#[serde(rename = "GreatWarScenario")]
struct GreatWarHeader {
    name: String,
}

/// Reads a scenario file's header: which war, the name, and the description and kind where the
/// file has them. The map and tables the scenario names are not read, nor is it checked: a
/// scenario that passes here may still be refused when it is loaded. A malformed file gives
/// `path:line:col: what is wrong`.
pub fn read_header(path: &str, text: &str) -> Result<ScenarioHeader, DataError> {
    match struct_name(text) {
        ("Scenario", _) => {
            let h: BattleHeader = parse_ron(path, text)?;
            Ok(ScenarioHeader {
                war: War::Battle,
                name: h.name,
                name_ru: h.name_ru,
                description: h.description,
                battle: Some(h.kind),
            })
        }
        ("GreatWarScenario", _) => {
            let h: GreatWarHeader = parse_ron(path, text)?;
            Ok(ScenarioHeader {
                war: War::GreatWar,
                name: h.name,
                name_ru: String::new(),
                description: String::new(),
                battle: None,
            })
        }
        (_, offset) => Err(DataError::at(
            path,
            pos_of(text, offset),
            "not a scenario (expected Scenario(..) or GreatWarScenario(..))",
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_battle_header_is_read_without_its_map() {
        let text = "// a battle\n#![enable(implicit_some)]\nScenario(\n  name: \"Hill\",\n  description: \"Take it.\",\n  map: \"nowhere.ron\",\n  kind: Fortress,\n  units: [Unit(x: (1, 2))],\n)";
        let h = read_header("hill.ron", text).expect("reads");
        assert_eq!(h.war, War::Battle);
        assert_eq!((h.name.as_str(), h.description.as_str()), ("Hill", "Take it."));
        assert_eq!(h.battle, Some(BattleKind::Fortress));
    }

    #[test]
    fn a_great_war_header_is_read() {
        let text = "GreatWarScenario(name: \"1914\", map: \"m.ron\", powers: [], forces: [])";
        let h = read_header("gw.ron", text).expect("reads");
        assert_eq!((h.war, h.name.as_str(), h.battle), (War::GreatWar, "1914", None));
    }

    #[test]
    fn a_malformed_header_gives_its_place() {
        let e = read_header("bad.ron", "Scenario(\n  name: 12,\n  kind: Field,\n)").expect_err("refused");
        assert!(e.to_string().starts_with("bad.ron:2:"), "{e}");
        let e = read_header("list.ron", "\n\n  [1, 2]").expect_err("refused");
        assert!(e.to_string().starts_with("list.ron:3:3: not a scenario"), "{e}");
    }

    #[test]
    fn bundled_files_are_found_by_normalised_path() {
        let files = BundledFiles(vec![("scenarios/a.ron", "A"), ("assets/b.ron", "B")]);
        assert_eq!(files.read("scenarios/../assets/./b.ron"), Ok("B".to_string()));
        let e = files.read("scenarios/c.ron").expect_err("missing");
        assert!(e.to_string().contains("no such file in the game's bundle"), "{e}");
    }
}
