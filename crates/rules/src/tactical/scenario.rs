//! Scenario and map files, and the resolved scenario a battle starts from.
//!
//! A campaign (or a test) may also build a [`Scenario`] in code from the armies that meet and
//! start a battle with it; the battle's result is read back with `Battle::result`.

use super::components::{Reactions, Side, UnitId};
use super::config::{GeneralFate, RulesConfig};
use super::grid::{Cell, Dir, GridMap, Terrain};
use super::units::{Arm, UnitTable, UnitType};
use crate::data::{DataError, Pos, Step, parse_ron, place, position_of};
use crate::limits::{Limit, LimitError};
use crate::path;
/// The file sources live in [`crate::source`], shared by both wars; named here too for the app.
pub use crate::source::{BattleKind, BundledFiles, DiskFiles, FileSource, normalise};
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;
use std::path::Path;

/// One army's set-up.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SideSpec {
    /// Shown to players, e.g. "Britain".
    pub name: String,
    #[serde(default)]
    pub name_ru: String,
    /// Faction whose special units it may field (T-STRAT-10).
    pub faction: String,
    /// The map edge the army deploys at (T-SETUP-2).
    pub edge: Dir,
    /// Redoubts it may place before the battle (T-STRAT-8).
    #[serde(default)]
    pub redoubts: u32,
    /// HQ unit (T-CMD-1); default the first unit of its list.
    #[serde(default)]
    pub hq: Option<UnitId>,
    /// Divisions and brigades (T-CMD-1); default one formation of all units.
    #[serde(default)]
    pub formations: Vec<FormationSpec>,
    /// T-STRAT-6: how many of its reserve units (`reserve: true`) it may bring up during the
    /// battle (a campaign's larger side facing at most 6 units); 0 for a battle on its own.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub bring_up: u32,
    /// T-STRAT-6: the first turn at whose start a reserve unit may be brought up.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub bring_up_from_turn: u32,
    /// T-CMD-3: the army's general was killed or badly wounded in an earlier battle of its
    /// campaign and is gone: every formation of the side starts without a general.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub general_lost: Option<GeneralFate>,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

fn is_false(b: &bool) -> bool {
    !*b
}

/// A formation named in a scenario.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FormationSpec {
    pub name: String,
    pub units: Vec<UnitId>,
    pub general: UnitId,
}

/// One unit of an army list.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UnitSpec {
    pub id: UnitId,
    pub side: Side,
    /// Unit type id from the unit table.
    pub unit: String,
    #[serde(default)]
    pub name: Option<String>,
    /// The name in Russian, if it differs.
    #[serde(default)]
    pub name_ru: Option<String>,
    /// Placed here from the start (otherwise placed at deployment).
    #[serde(default)]
    pub at: Option<Cell>,
    #[serde(default)]
    pub facing: Option<Dir>,
    /// Health at the start, if below full (a campaign's damaged unit).
    #[serde(default)]
    pub health: Option<i32>,
    #[serde(default)]
    pub reactions: Option<Reactions>,
    /// Starts in skirmish order (T-SKIRM-1).
    #[serde(default)]
    pub skirmish: bool,
    /// T-STRAT-6: held back at set-up; its side may bring it up during the battle.
    #[serde(default, skip_serializing_if = "is_false")]
    pub reserve: bool,
}

/// A scenario as written in `scenarios/*.ron`: files are named by paths relative to it.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields, rename = "Scenario")]
struct ScenarioFile {
    name: String,
    #[serde(default)]
    name_ru: String,
    #[serde(default)]
    description: String,
    map: String,
    #[serde(default = "default_units_path")]
    units_table: String,
    #[serde(default = "default_rules_path")]
    rules: String,
    kind: BattleKind,
    attacker: Side,
    red: SideSpec,
    blue: SideSpec,
    units: Vec<UnitSpec>,
}

fn default_units_path() -> String {
    "../assets/data/napoleonic_units.ron".to_string()
}

fn default_rules_path() -> String {
    "../assets/data/napoleonic_rules.ron".to_string()
}

/// A map file in `maps/*.ron`: rows of terrain symbols, north row first.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename = "Map")]
pub struct MapFile {
    pub name: String,
    /// Width and height for a map without rows (all open); default 20 × 14 (MD-T2).
    #[serde(default)]
    pub size: Option<(i32, i32)>,
    #[serde(default)]
    pub rows: Vec<String>,
}

impl MapFile {
    pub fn to_grid(&self) -> Result<GridMap, String> {
        if self.rows.is_empty() {
            let (w, h) = self.size.unwrap_or((20, 14));
            if w < 1 || h < 1 {
                return Err(format!("map size {w} × {h} is empty"));
            }
            GridMap::check_size(u64::from(w.unsigned_abs()), u64::from(h.unsigned_abs())).map_err(|e| e.to_string())?;
            return Ok(GridMap::open(&self.name, w, h));
        }
        let rows: Vec<&str> = self.rows.iter().map(String::as_str).collect();
        let grid = GridMap::from_rows(&self.name, &rows)?;
        if let Some((w, h)) = self.size
            && (w, h) != (grid.width, grid.height)
        {
            return Err(format!("size says {w} × {h} but the rows make {} × {}", grid.width, grid.height));
        }
        Ok(grid)
    }

    pub fn from_grid(grid: &GridMap) -> MapFile {
        MapFile { name: grid.name.clone(), size: None, rows: grid.rows() }
    }
}

/// Loads a map file.
pub fn parse_map(path: &str, text: &str) -> Result<GridMap, DataError> {
    let file: MapFile = parse_ron(path, text)?;
    file.to_grid().map_err(|message| {
        let limit = LimitError::recognise(&message);
        // Point at the offending row if the message names one, else at the rows or the size.
        let row = message
            .split("row ")
            .nth(1)
            .and_then(|rest| rest.split(|c: char| !c.is_ascii_digit()).next())
            .and_then(|n| n.parse::<usize>().ok());
        let pos = match row {
            Some(n) => place(text, &path!["rows", n]),
            None if file.rows.is_empty() => place(text, &path!["size"]),
            None => place(text, &path!["rows"]),
        };
        DataError { limit, ..DataError::at(path, pos, message) }
    })
}

/// Loads a map file for a battle under these rule numbers: [`parse_map`], then T-TERR-3.
pub fn parse_map_with(path: &str, text: &str, rules: &RulesConfig) -> Result<GridMap, DataError> {
    let grid = parse_map(path, text)?;
    check_rivers(&grid, rules).map_err(|(cell, message)| DataError::at(path, cell_pos(text, cell), message))?;
    Ok(grid)
}

/// T-TERR-3: every river has 2 or 3 fords (`river_fords`); the first river that has not, and why.
pub fn check_rivers(map: &GridMap, rules: &RulesConfig) -> Result<(), (Cell, String)> {
    let (fewest, most) = rules.river_fords;
    match map.rivers().into_iter().find(|r| !(fewest..=most).contains(&r.fords)) {
        Some(r) => Err((
            r.first,
            format!(
                "the river through {} has {} ford(s); a river has {fewest} to {most} fords (T-TERR-3)",
                r.first, r.fords
            ),
        )),
        None => Ok(()),
    }
}

/// Where a cell's symbol stands in the text that holds the map's rows.
fn cell_pos(text: &str, cell: Cell) -> Pos {
    let (Ok(y), Ok(x)) = (usize::try_from(cell.y), usize::try_from(cell.x)) else { return Pos::START };
    match position_of(text, &path!["rows", y]) {
        // The parser stands at the row's opening quote; the cell's symbol is x places after it.
        Some(pos) => Pos { line: pos.line, col: pos.col + 1 + x },
        None => Pos::START,
    }
}

/// Everything a battle needs, with the map and tables inline (what a save embeds).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Scenario {
    pub name: String,
    #[serde(default)]
    pub name_ru: String,
    #[serde(default)]
    pub description: String,
    pub kind: BattleKind,
    pub attacker: Side,
    pub red: SideSpec,
    pub blue: SideSpec,
    #[serde(with = "map_as_rows")]
    pub map: GridMap,
    /// The unit types the armies use, in table order.
    pub unit_types: Vec<UnitType>,
    pub rules: RulesConfig,
    pub units: Vec<UnitSpec>,
}

mod map_as_rows {
    use super::{GridMap, MapFile};
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    pub fn serialize<S: Serializer>(map: &GridMap, s: S) -> Result<S::Ok, S::Error> {
        MapFile::from_grid(map).serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<GridMap, D::Error> {
        MapFile::deserialize(d)?.to_grid().map_err(serde::de::Error::custom)
    }
}

fn beside(base: &str, relative: &str) -> String {
    let joined = Path::new(base).parent().unwrap_or_else(|| Path::new("")).join(relative);
    normalise(&joined).to_string_lossy().replace('\\', "/")
}

impl Scenario {
    /// Loads a scenario file from disk with the map and tables it names.
    pub fn load(path: &Path) -> Result<Scenario, DataError> {
        Self::load_from(&DiskFiles, &path.to_string_lossy())
    }

    /// Loads a scenario from any file source.
    pub fn load_from(files: &dyn FileSource, path: &str) -> Result<Scenario, DataError> {
        let text = files.read(path)?;
        let file: ScenarioFile = parse_ron(path, &text)?;
        let rules_path = beside(path, &file.rules);
        let rules = RulesConfig::parse(&rules_path, &files.read(&rules_path)?)?;
        let map_path = beside(path, &file.map);
        let map = parse_map_with(&map_path, &files.read(&map_path)?, &rules)?;
        let table_path = beside(path, &file.units_table);
        let table = UnitTable::parse(&table_path, &files.read(&table_path)?)?;
        Self::resolve(file, map, &table, rules).map_err(|e| e.into_data_error(path, &text, &[]))
    }

    fn resolve(file: ScenarioFile, map: GridMap, table: &UnitTable, rules: RulesConfig) -> Result<Scenario, Problem> {
        for (i, u) in file.units.iter().enumerate() {
            if table.get(&u.unit).is_none() {
                return Err(Problem::at(
                    &path!["units", i, "unit"],
                    format!("unknown unit type `{}` (known: {})", u.unit, table.ids().join(", ")),
                ));
            }
        }
        let used: BTreeSet<&str> = file.units.iter().map(|u| u.unit.as_str()).collect();
        let unit_types = table.types.iter().filter(|t| used.contains(t.id.as_str())).cloned().collect();
        let scenario = Scenario {
            name: file.name,
            name_ru: file.name_ru,
            description: file.description,
            kind: file.kind,
            attacker: file.attacker,
            red: file.red,
            blue: file.blue,
            map,
            unit_types,
            rules,
            units: file.units,
        };
        scenario.check()?;
        Ok(scenario)
    }

    /// Parses a resolved scenario (as embedded in a save) and checks it.
    pub fn from_resolved_text(path: &str, text: &str) -> Result<Scenario, DataError> {
        let scenario: Scenario = parse_ron(path, text)?;
        scenario.check().map_err(|e| e.into_data_error(path, text, &[]))?;
        Ok(scenario)
    }

    /// Checks a resolved scenario embedded in a file (a save), at field `field` of its top level.
    pub fn check_embedded(&self, path: &str, text: &str, field: &'static str) -> Result<(), DataError> {
        self.check().map_err(|e| e.into_data_error(path, text, &[Step::Field(field)]))
    }

    pub fn side(&self, side: Side) -> &SideSpec {
        match side {
            Side::Red => &self.red,
            Side::Blue => &self.blue,
        }
    }

    pub fn defender(&self) -> Side {
        self.attacker.other()
    }

    pub fn unit_type(&self, id: &str) -> Option<&UnitType> {
        self.unit_types.iter().find(|t| t.id == id)
    }

    pub fn units_of(&self, side: Side) -> impl Iterator<Item = &UnitSpec> {
        self.units.iter().filter(move |u| u.side == side)
    }

    /// Whether a unit is held back to be brought up (T-STRAT-6).
    pub fn is_reserve(&self, id: UnitId) -> bool {
        self.units.iter().any(|u| u.id == id && u.reserve)
    }

    /// The cells a side may deploy on (T-SETUP-2, T-FORT-2).
    pub fn zone(&self, side: Side) -> Vec<Cell> {
        if self.kind == BattleKind::Fortress && side == self.defender() {
            let inside = fortress_inside(&self.map, self.side(side).edge);
            return self.map.cells().filter(|c| inside[(c.y * self.map.width + c.x) as usize]).collect();
        }
        let depth = self.rules.deployment_rows;
        let edge = self.side(side).edge;
        self.map.cells().filter(|c| distance_from_edge(&self.map, edge, *c) < depth).collect()
    }

    /// Whether a cell is inside the fortress: on the wall, in a breach or behind them (T-FORT-6).
    pub fn in_fortress(&self, cell: Cell) -> bool {
        self.kind == BattleKind::Fortress
            && self.map.contains(cell)
            && fortress_inside(&self.map, self.side(self.defender()).edge)[(cell.y * self.map.width + cell.x) as usize]
    }

    fn check(&self) -> Result<(), Problem> {
        let r = &self.rules;
        // A save embeds the resolved scenario: its rule numbers and unit types were not read
        // through their own files' checks.
        crate::limits::check_numbers(r).map_err(|e| Problem::limit(&path!["rules"], e))?;
        r.check().map_err(|m| Problem::at(&path!["rules"], m))?;
        crate::limits::check_numbers(&self.unit_types).map_err(|e| Problem::limit(&path!["unit_types"], e))?;
        Limit::BattleUnits.check_len(self.units.len()).map_err(|e| Problem::limit(&path!["units"], e))?;
        let members = self.red.formations.iter().chain(&self.blue.formations).map(|f| f.units.len()).sum();
        Limit::ListEntries.check_len(members).map_err(|e| Problem::limit(&path!["red", "formations"], e))?;
        if self.red.edge == self.blue.edge {
            return Err(Problem::at(&path!["blue", "edge"], "both armies deploy at the same map edge".to_string()));
        }
        for side in Side::BOTH {
            if self
                .side(side)
                .general_lost
                .is_some_and(|f| !matches!(f, GeneralFate::Killed | GeneralFate::BadlyWounded))
            {
                return Err(Problem::at(
                    &path![side.name(), "general_lost"],
                    "only a general killed or badly wounded is gone for the next battles (T-CMD-3)".to_string(),
                ));
            }
        }
        let mut ids = BTreeSet::new();
        let mut cells = BTreeSet::new();
        for (i, u) in self.units.iter().enumerate() {
            let field = |name: &'static str| path!["units", i, name];
            if !ids.insert(u.id) {
                return Err(Problem::at(&field("id"), format!("unit id {} is used twice", u.id.0)));
            }
            let Some(ty) = self.unit_type(&u.unit) else {
                return Err(Problem::at(&field("unit"), format!("unknown unit type `{}`", u.unit)));
            };
            if let Some(f) = &ty.faction
                && f != &self.side(u.side).faction
            {
                return Err(Problem::at(
                    &field("unit"),
                    format!(
                        "unit {}: `{}` is a special unit of {f}, not of {} (T-STRAT-10)",
                        u.id.0,
                        u.unit,
                        self.side(u.side).faction
                    ),
                ));
            }
            if !ty.fielded_by(&self.side(u.side).faction) {
                return Err(Problem::at(
                    &field("unit"),
                    format!(
                        "unit {}: {} does not field `{}`; only {} do (T-ART-1)",
                        u.id.0,
                        self.side(u.side).faction,
                        u.unit,
                        ty.factions.join(", ")
                    ),
                ));
            }
            if let Some(h) = u.health
                && !(1..=ty.health).contains(&h)
            {
                return Err(Problem::at(
                    &field("health"),
                    format!("unit {}: start health {h} is not within 1..={}", u.id.0, ty.health),
                ));
            }
            if u.skirmish && !ty.has(super::units::Ability::SkirmishOrder) {
                return Err(Problem::at(
                    &field("skirmish"),
                    format!("unit {}: only light infantry takes skirmish order (T-SKIRM-1)", u.id.0),
                ));
            }
            if u.reserve && (u.at.is_some() || self.side(u.side).bring_up == 0) {
                return Err(Problem::at(
                    &field("reserve"),
                    format!(
                        "unit {}: a reserve unit starts off the field, and only a side that may bring units up has one (T-STRAT-6)",
                        u.id.0
                    ),
                ));
            }
            if let Some(cell) = u.at {
                let tokens = field("at");
                let Some(terrain) = self.map.terrain(cell) else {
                    return Err(Problem::at(
                        &tokens,
                        format!(
                            "unit {}: cell {cell} is outside the {} × {} map",
                            u.id.0, self.map.width, self.map.height
                        ),
                    ));
                };
                if let Err((rule, why)) = can_stand(ty.arm, terrain) {
                    return Err(Problem::at(
                        &tokens,
                        format!("unit {}: cannot stand on {cell}: {why} ({rule})", u.id.0),
                    ));
                }
                if !cells.insert(cell) {
                    return Err(Problem::at(
                        &tokens,
                        format!("unit {}: cell {cell} already holds a unit (T-MOVE-3)", u.id.0),
                    ));
                }
            }
        }
        for side in Side::BOTH {
            // T-STRAT-6: the reserve units a side may bring up are not among the units it fields.
            let count = self.units_of(side).filter(|u| !u.reserve).count();
            let max = match (self.kind, side == self.attacker) {
                (BattleKind::Field, _) => r.max_units_field,
                (BattleKind::Fortress, true) => r.max_units_fortress_attacker,
                (BattleKind::Fortress, false) => r.max_units_fortress_defender,
            };
            if count == 0 || count > max {
                return Err(Problem::at(
                    &path!["units"],
                    format!("{} fields {count} units; a side needs 1 to {max} (T-STRAT-5, T-FORT-1)", side.name()),
                ));
            }
            let spec = self.side(side);
            if spec.redoubts > r.max_redoubts {
                return Err(Problem::at(
                    &path![side.name(), "redoubts"],
                    format!("{} may place at most {} redoubts (T-STRAT-8)", side.name(), r.max_redoubts),
                ));
            }
            let own = |id: UnitId| self.units.iter().any(|u| u.id == id && u.side == side);
            if let Some(hq) = spec.hq
                && !own(hq)
            {
                return Err(Problem::at(
                    &path![side.name(), "hq"],
                    format!("{}: HQ unit {} is not one of its units (T-CMD-1)", side.name(), hq.0),
                ));
            }
            let mut placed = BTreeSet::new();
            for (fi, f) in spec.formations.iter().enumerate() {
                let at = |name: &'static str| path![side.name(), "formations", fi, name];
                for id in f.units.iter().chain(std::iter::once(&f.general)) {
                    if !own(*id) {
                        return Err(Problem::at(
                            &at("units"),
                            format!("formation `{}`: unit {} is not a {} unit", f.name, id.0, side.name()),
                        ));
                    }
                }
                if !f.units.contains(&f.general) {
                    return Err(Problem::at(
                        &at("general"),
                        format!("formation `{}`: the general's unit {} is not in it (T-CMD-1)", f.name, f.general.0),
                    ));
                }
                for id in &f.units {
                    if !placed.insert(*id) {
                        return Err(Problem::at(&at("units"), format!("unit {} is in two formations", id.0)));
                    }
                }
            }
        }
        if let Err((cell, message)) = check_rivers(&self.map, r) {
            let y = usize::try_from(cell.y).unwrap_or_default();
            return Err(Problem::at(&path!["map", "rows", y], message));
        }
        if self.kind == BattleKind::Fortress {
            self.check_wall()?;
        }
        Ok(())
    }

    /// T-FORT-2: an unbroken wall across the map with 2 breaches (3 if the attacker has artillery).
    fn check_wall(&self) -> Result<(), Problem> {
        let inside = fortress_inside(&self.map, self.side(self.defender()).edge);
        let attacker_edge = self.side(self.attacker).edge;
        let breached = self.map.cells().any(|c| {
            distance_from_edge(&self.map, attacker_edge, c) == 0 && inside[(c.y * self.map.width + c.x) as usize]
        });
        if breached || !self.map.cells().any(|c| self.map.terrain(c) == Some(Terrain::Wall)) {
            return Err(Problem::at(
                &path!["map"],
                "a fortress map needs a wall line across the whole map between the armies (T-FORT-2)".to_string(),
            ));
        }
        let has_artillery =
            self.units_of(self.attacker).any(|u| self.unit_type(&u.unit).is_some_and(|t| t.arm == Arm::Artillery));
        let wanted = if has_artillery { self.rules.breaches_with_artillery } else { self.rules.breaches };
        let found = count_breaches(&self.map);
        if found != wanted {
            return Err(Problem::at(
                &path!["map"],
                format!(
                    "the wall has {found} breaches; T-FORT-2 wants {wanted} ({} attacking artillery)",
                    if has_artillery { "with" } else { "without" }
                ),
            ));
        }
        Ok(())
    }

    /// Canonical hash of the scenario, stored in saves.
    pub fn hash(&self) -> crate::hash::StateHash {
        crate::hash::hash_of(self)
    }
}

/// Why a unit of an arm cannot stand on a terrain: the rule and the reason (T-TERR-3, T-TERR-6, T-FORT-4).
pub fn can_stand(arm: Arm, terrain: Terrain) -> Result<(), (&'static str, &'static str)> {
    if terrain.is_impassable() {
        return Err(("T-TERR-3", "swamp, river and sea cannot be entered"));
    }
    if terrain.infantry_only() && arm != Arm::Infantry {
        return Err(if terrain == Terrain::Wall {
            ("T-FORT-4", "only infantry climbs the wall")
        } else {
            ("T-TERR-6", "only infantry occupies buildings")
        });
    }
    Ok(())
}

/// Rows between a cell and a map edge (0 = on that edge).
pub fn distance_from_edge(map: &GridMap, edge: Dir, cell: Cell) -> i32 {
    match edge {
        Dir::North => cell.y,
        Dir::South => map.height - 1 - cell.y,
        Dir::West => cell.x,
        Dir::East => map.width - 1 - cell.x,
    }
}

/// Cells on the defender's side of the wall, the wall and breaches included.
fn fortress_inside(map: &GridMap, defender_edge: Dir) -> Vec<bool> {
    let idx = |c: Cell| (c.y * map.width + c.x) as usize;
    let mut inside = vec![false; (map.width * map.height) as usize];
    let mut stack: Vec<Cell> = map
        .cells()
        .filter(|c| {
            distance_from_edge(map, defender_edge, *c) == 0
                && !matches!(map.terrain(*c), Some(Terrain::Wall | Terrain::Breach))
        })
        .collect();
    while let Some(c) = stack.pop() {
        if inside[idx(c)] {
            continue;
        }
        inside[idx(c)] = true;
        for n in c.neighbours() {
            if map.contains(n) && !inside[idx(n)] && !matches!(map.terrain(n), Some(Terrain::Wall | Terrain::Breach)) {
                stack.push(n);
            }
        }
    }
    for c in map.cells() {
        if matches!(map.terrain(c), Some(Terrain::Wall | Terrain::Breach)) {
            inside[idx(c)] = true;
        }
    }
    inside
}

/// Breaches are groups of orthogonally connected breach cells.
fn count_breaches(map: &GridMap) -> usize {
    let mut seen = BTreeSet::new();
    let mut groups = 0;
    for c in map.cells().filter(|c| map.terrain(*c) == Some(Terrain::Breach)) {
        if !seen.insert(c) {
            continue;
        }
        groups += 1;
        let mut stack = vec![c];
        while let Some(x) = stack.pop() {
            for n in x.neighbours() {
                if map.terrain(n) == Some(Terrain::Breach) && seen.insert(n) {
                    stack.push(n);
                }
            }
        }
    }
    groups
}

/// A semantic problem found after parsing, located by the path of the value that shows it.
struct Problem {
    path: Vec<Step<'static>>,
    message: String,
    limit: Option<Limit>,
}

impl Problem {
    fn at(path: &[Step<'static>], message: String) -> Problem {
        Problem { path: path.to_vec(), message, limit: None }
    }

    fn limit(path: &[Step<'static>], e: LimitError) -> Problem {
        Problem { limit: Some(e.limit), ..Problem::at(path, e.to_string()) }
    }

    /// The error, placed by the parser in `text`, where the scenario sits at `within`.
    fn into_data_error(self, path: &str, text: &str, within: &[Step<'static>]) -> DataError {
        let full: Vec<Step<'static>> = within.iter().chain(&self.path).copied().collect();
        DataError { limit: self.limit, ..DataError::at(path, place(text, &full), self.message) }
    }
}
