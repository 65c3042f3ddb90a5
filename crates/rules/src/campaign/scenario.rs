//! Campaign scenario files (`CampaignScenario(..)`) and the resolved scenario a campaign starts
//! from (what a save embeds: map, tables and hand-made battlefields inline).

use super::map::{CampaignMap, HexAt};
use super::rules::CampaignRules;
use crate::data::{DataError, Step, parse_ron, place};
use crate::limits::{Limit, LimitError};
use crate::path;
use crate::source::{FileSource, normalise};
use crate::tactical::config::RulesConfig;
use crate::tactical::scenario::{MapFile, check_rivers, parse_map_with};
use crate::tactical::units::{UnitTable, UnitType};
use crate::tactical::{GridMap, Side, UnitId};
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;
use std::path::Path;

/// One side of a campaign.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CampaignSide {
    pub name: String,
    #[serde(default)]
    pub name_ru: String,
    /// Faction whose special units it may have (T-STRAT-10).
    pub faction: String,
}

/// A hex whose holder counts for victory.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct KeyHex {
    pub at: HexAt,
    /// Who holds it at the start.
    pub holder: Side,
}

/// One unit (a regiment) of an army: a unit type of the battle's table (T-UNIT, T-RUS).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CampaignUnit {
    /// Stable through the campaign and its battles.
    pub id: UnitId,
    pub unit: String,
    #[serde(default)]
    pub name: Option<String>,
    /// Health at the start, if below full.
    #[serde(default)]
    pub health: Option<i32>,
}

/// An army on the map at the start.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ArmySpec {
    pub id: u32,
    pub side: Side,
    pub name: String,
    pub at: HexAt,
    /// In army-list order (T-STRAT-5 default choice, T-AUTO-1 damage order).
    pub units: Vec<CampaignUnit>,
}

/// A hand-made battlefield for battles in one hex, in a file (`fields: [(at: .., map: "..")]`).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct FieldFile {
    at: HexAt,
    map: String,
}

/// A hand-made battlefield, inline.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HandField {
    pub at: HexAt,
    pub map: MapFile,
}

/// How the campaign is won.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Victory {
    /// The campaign ends after this many campaign turns.
    pub turns: u32,
    /// A side that holds every one of them at the end of a campaign turn, not having held them
    /// all at the start, wins at once; at the turn limit the side holding more of them wins.
    pub key_hexes: Vec<KeyHex>,
    /// Who wins a tie at the turn limit.
    pub on_tie: Side,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields, rename = "CampaignScenario")]
struct CampaignFile {
    name: String,
    #[serde(default)]
    name_ru: String,
    #[serde(default)]
    description: String,
    map: String,
    #[serde(default = "default_units")]
    units_table: String,
    #[serde(default = "default_rules")]
    rules: String,
    #[serde(default = "default_campaign_rules")]
    campaign_rules: String,
    /// The side that moves first in every campaign turn.
    first: Side,
    red: CampaignSide,
    blue: CampaignSide,
    victory: Victory,
    #[serde(default)]
    fields: Vec<FieldFile>,
    armies: Vec<ArmySpec>,
}

fn default_units() -> String {
    "../../assets/data/napoleonic_units.ron".to_string()
}

fn default_rules() -> String {
    "../../assets/data/napoleonic_rules.ron".to_string()
}

fn default_campaign_rules() -> String {
    "../../assets/data/campaign_rules.ron".to_string()
}

/// Everything a campaign needs, inline.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CampaignScenario {
    pub name: String,
    #[serde(default)]
    pub name_ru: String,
    #[serde(default)]
    pub description: String,
    pub first: Side,
    pub red: CampaignSide,
    pub blue: CampaignSide,
    pub victory: Victory,
    pub map: CampaignMap,
    #[serde(default)]
    pub fields: Vec<HandField>,
    pub armies: Vec<ArmySpec>,
    /// The unit types of the battle's table.
    pub unit_types: Vec<UnitType>,
    /// The battle's rule numbers.
    pub rules: RulesConfig,
    pub campaign_rules: CampaignRules,
}

fn beside(base: &str, relative: &str) -> String {
    let joined = Path::new(base).parent().unwrap_or_else(|| Path::new("")).join(relative);
    normalise(&joined).to_string_lossy().replace('\\', "/")
}

/// A problem found after parsing, placed by the path of the value that shows it.
pub(crate) struct Problem {
    pub path: Vec<Step<'static>>,
    pub message: String,
    pub limit: Option<Limit>,
}

impl Problem {
    fn at(path: &[Step<'static>], message: String) -> Problem {
        Problem { path: path.to_vec(), message, limit: None }
    }

    fn limit(path: &[Step<'static>], e: LimitError) -> Problem {
        Problem { limit: Some(e.limit), ..Problem::at(path, e.to_string()) }
    }

    fn into_data_error(self, path: &str, text: &str, within: &[Step<'static>]) -> DataError {
        let full: Vec<Step<'static>> = within.iter().chain(&self.path).copied().collect();
        DataError { limit: self.limit, ..DataError::at(path, place(text, &full), self.message) }
    }
}

impl CampaignScenario {
    /// Loads a campaign scenario from disk with the files it names.
    pub fn load(path: &Path) -> Result<CampaignScenario, DataError> {
        Self::load_from(&crate::source::DiskFiles, &path.to_string_lossy())
    }

    pub fn load_from(files: &dyn FileSource, path: &str) -> Result<CampaignScenario, DataError> {
        let text = files.read(path)?;
        let file: CampaignFile = parse_ron(path, &text)?;
        let rules_path = beside(path, &file.rules);
        let rules = RulesConfig::parse(&rules_path, &files.read(&rules_path)?)?;
        let crules_path = beside(path, &file.campaign_rules);
        let campaign_rules = CampaignRules::parse(&crules_path, &files.read(&crules_path)?)?;
        let map_path = beside(path, &file.map);
        let map = CampaignMap::parse(&map_path, &files.read(&map_path)?)?;
        let table_path = beside(path, &file.units_table);
        let table = UnitTable::parse(&table_path, &files.read(&table_path)?)?;
        Limit::ListEntries
            .check_len(file.fields.len())
            .map_err(|e| DataError::over_limit(path, place(&text, &path!["fields"]), e))?;
        let mut fields = Vec::new();
        for f in &file.fields {
            let field_path = beside(path, &f.map);
            let field_text = files.read(&field_path)?;
            let grid = parse_map_with(&field_path, &field_text, &rules)?;
            fields.push(HandField { at: f.at, map: MapFile::from_grid(&grid) });
        }
        for (i, a) in file.armies.iter().enumerate() {
            for (j, u) in a.units.iter().enumerate() {
                if table.get(&u.unit).is_none() {
                    return Err(DataError::at(
                        path,
                        place(&text, &path!["armies", i, "units", j, "unit"]),
                        format!("unknown unit type `{}` (known: {})", u.unit, table.ids().join(", ")),
                    ));
                }
            }
        }
        let scenario = CampaignScenario {
            name: file.name,
            name_ru: file.name_ru,
            description: file.description,
            first: file.first,
            red: file.red,
            blue: file.blue,
            victory: file.victory,
            map,
            fields,
            armies: file.armies,
            unit_types: table.types,
            rules,
            campaign_rules,
        };
        scenario.check().map_err(|e| e.into_data_error(path, &text, &[]))?;
        Ok(scenario)
    }

    /// Parses a resolved scenario (as a save embeds it) and checks it.
    pub fn from_resolved(path: &str, text: &str) -> Result<CampaignScenario, DataError> {
        let scenario: CampaignScenario = parse_ron(path, text)?;
        scenario.check().map_err(|e| e.into_data_error(path, text, &[]))?;
        Ok(scenario)
    }

    /// Checks a resolved scenario embedded in a save, at field `field` of its top level.
    pub fn check_embedded(&self, path: &str, text: &str, field: &'static str) -> Result<(), DataError> {
        self.check().map_err(|e| e.into_data_error(path, text, &[Step::Field(field)]))
    }

    pub fn side(&self, side: Side) -> &CampaignSide {
        match side {
            Side::Red => &self.red,
            Side::Blue => &self.blue,
        }
    }

    pub fn unit_type(&self, id: &str) -> Option<&UnitType> {
        self.unit_types.iter().find(|t| t.id == id)
    }

    /// The hand-made battlefield of a hex, if the scenario names one.
    pub fn field_at(&self, at: HexAt) -> Option<&HandField> {
        self.fields.iter().find(|f| f.at == at)
    }

    pub fn hash(&self) -> crate::hash::StateHash {
        crate::hash::hash_of(self)
    }

    pub(crate) fn check(&self) -> Result<(), Problem> {
        let units: usize = self.armies.iter().map(|a| a.units.len()).sum();
        Limit::ListEntries.check_len(self.armies.len()).map_err(|e| Problem::limit(&path!["armies"], e))?;
        Limit::BattleUnits.check_len(units).map_err(|e| Problem::limit(&path!["armies"], e))?;
        Limit::ListEntries.check_len(self.victory.key_hexes.len()).map_err(|e| Problem::limit(&path!["victory"], e))?;
        Limit::ListEntries.check_len(self.unit_types.len()).map_err(|e| Problem::limit(&path!["unit_types"], e))?;
        // A save embeds the resolved scenario: its rule numbers and unit types were not read
        // through their own files' checks.
        crate::limits::check_numbers(&self.rules).map_err(|e| Problem::limit(&path!["rules"], e))?;
        self.rules.check().map_err(|m| Problem::at(&path!["rules"], m))?;
        crate::limits::check_numbers(&self.campaign_rules).map_err(|e| Problem::limit(&path!["campaign_rules"], e))?;
        crate::limits::check_numbers(&self.unit_types).map_err(|e| Problem::limit(&path!["unit_types"], e))?;
        self.campaign_rules.validate().map_err(|m| Problem::at(&path!["campaign_rules"], m))?;
        if self.victory.turns == 0 || self.victory.turns > 1000 {
            return Err(Problem::at(&path!["victory", "turns"], "a campaign lasts 1 to 1000 turns".to_string()));
        }
        for (i, k) in self.victory.key_hexes.iter().enumerate() {
            if !self.map.passable(k.at) {
                return Err(Problem::at(
                    &path!["victory", "key_hexes", i, "at"],
                    format!("key hex {} is off the map or water", k.at),
                ));
            }
        }
        for (i, f) in self.fields.iter().enumerate() {
            let problem = |m: String| Problem::at(&path!["fields", i, "at"], m);
            if !self.map.passable(f.at) {
                return Err(problem(format!("battlefield hex {} is off the map or water", f.at)));
            }
            let grid: GridMap = f.map.to_grid().map_err(&problem)?;
            check_rivers(&grid, &self.rules).map_err(|(_, m)| problem(m))?;
            let (w, h) = (grid.width, grid.height);
            if w < 8 || h < 2 * self.rules.deployment_rows + 2 {
                return Err(problem(format!("battlefield {w} × {h} is too small for two deployment zones")));
            }
        }
        let mut armies = BTreeSet::new();
        let mut ids = BTreeSet::new();
        for (i, a) in self.armies.iter().enumerate() {
            if !armies.insert(a.id) {
                return Err(Problem::at(&path!["armies", i, "id"], format!("army id {} is used twice", a.id)));
            }
            if !self.map.passable(a.at) {
                return Err(Problem::at(
                    &path!["armies", i, "at"],
                    format!("army {} stands off the map or on water at {}", a.id, a.at),
                ));
            }
            if a.units.is_empty() {
                return Err(Problem::at(&path!["armies", i, "units"], format!("army {} has no units", a.id)));
            }
            for (j, u) in a.units.iter().enumerate() {
                let at = |f: &'static str| path!["armies", i, "units", j, f];
                if !ids.insert(u.id) {
                    return Err(Problem::at(&at("id"), format!("unit id {} is used twice", u.id.0)));
                }
                let Some(ty) = self.unit_type(&u.unit) else {
                    return Err(Problem::at(&at("unit"), format!("unknown unit type `{}`", u.unit)));
                };
                let faction = &self.side(a.side).faction;
                if ty.faction.as_ref().is_some_and(|f| f != faction) {
                    return Err(Problem::at(
                        &at("unit"),
                        format!(
                            "unit {}: `{}` is a special unit of another faction than {faction} (T-STRAT-10)",
                            u.id.0, u.unit
                        ),
                    ));
                }
                if !ty.fielded_by(faction) {
                    return Err(Problem::at(
                        &at("unit"),
                        format!(
                            "unit {}: {faction} does not field `{}`; only {} do (T-ART-1)",
                            u.id.0,
                            u.unit,
                            ty.factions.join(", ")
                        ),
                    ));
                }
                if u.health.is_some_and(|h| !(1..=ty.health).contains(&h)) {
                    return Err(Problem::at(
                        &at("health"),
                        format!("unit {}: health is not within 1..={}", u.id.0, ty.health),
                    ));
                }
            }
        }
        for side in Side::BOTH {
            if !self.armies.iter().any(|a| a.side == side) {
                return Err(Problem::at(&path!["armies"], format!("{} has no army", side.name())));
            }
        }
        Ok(())
    }
}
