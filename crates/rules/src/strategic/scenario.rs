//! Great War scenario files and the resolved scenario a game starts from.

use super::campaign::{Calendar, Entry, Victory};
use super::hexmap::{Climate, HexAt, HexMap};
use super::naval::model::{FLEET_LIMIT, MINES_PER_AREA, ShipType, scaled_count};
use super::tables::{AviationTables, Model, RulesTables, UnitTables};
use super::tech::Techs;
use crate::data::{DataError, Pos, Step, beside, parse_checked, place};
use crate::hash::{StateHash, hash_of};
use crate::limits::{Limit, LimitError, MAX_SHIPS_PER_FLEET};
use crate::path;
use crate::source::{DiskFiles, FileSource};
use serde::{Deserialize, Serialize};
use std::path::Path;

/// A power as the scenario sets it up.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PowerSpec {
    pub id: String,
    pub name: String,
    /// Powers of one alliance are friends; the others are enemies.
    pub alliance: u8,
    /// Country group of S-LAND-1 (1 or 2).
    pub group: u8,
    #[serde(default)]
    pub money: i64,
    #[serde(default)]
    pub ammo: i64,
    #[serde(default)]
    pub chem_shells: u32,
    #[serde(default)]
    pub cylinders: u32,
    #[serde(default)]
    pub manpower: [u32; 2],
    #[serde(default)]
    pub techs: Techs,
    /// Climates its troops are local to (S-SUP-5).
    #[serde(default)]
    pub local_climates: Vec<Climate>,
    /// Neutral at the start, entering the war on a turn or when invaded (house rule, issue 12);
    /// none: at war from the start.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub entry: Option<Entry>,
    /// Province id of its capital for the surrender rule; none: its home province with the largest
    /// GDP (the first on the map among equals).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub capital: Option<String>,
}

/// What a unit of the order of battle is.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub enum KindSpec {
    Infantry {
        model: Model,
        class: u8,
        #[serde(default)]
        mountain: bool,
        #[serde(default)]
        elite: bool,
        /// Colonial contingent id of the unit table (S-LAND-2); `"foreign_legion"` is exempt from
        /// desert attrition without changing its group.
        #[serde(default)]
        colonial: Option<String>,
    },
    Cavalry {
        class: u8,
        #[serde(default = "m1914")]
        model: Model,
        #[serde(default)]
        elite: bool,
    },
    Tank(String),
    Artillery(String),
}

fn m1914() -> Model {
    Model::M1914
}

/// One unit of the order of battle.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ForceSpec {
    pub id: u32,
    pub power: String,
    pub kind: KindSpec,
    /// Hex on the map; none for reserves and attached artillery.
    #[serde(default)]
    pub at: Option<HexAt>,
    #[serde(default)]
    pub name: Option<String>,
    #[serde(default)]
    pub health: Option<i32>,
    #[serde(default)]
    pub morale: Option<i32>,
    /// A unit that comes later (reinforcements by sea or rail, a neutral's army): off the map until
    /// it lands (house rule, issue 12). Left out of files and hashes when none, so older
    /// scenarios and saves keep theirs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub arrives: Option<Arrival>,
}

/// Where and when a unit arrives: in the Preparation phase of its turn (or of the first turn
/// after, once its power is at war), on the free land hex nearest `at` (a port, a railway
/// station).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Arrival {
    pub at: HexAt,
    /// Its turn; none: as soon as its power is at war.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub turn: Option<u32>,
}

/// A corps at the start.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CorpsSpec {
    pub id: u32,
    pub name: String,
    pub units: Vec<u32>,
    /// Heavy artillery attached (S-ARMY-5).
    #[serde(default)]
    pub attached: Vec<u32>,
}

/// An army at the start.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ArmySpec {
    pub id: u32,
    pub name: String,
    pub corps: Vec<u32>,
    #[serde(default)]
    pub reserves: Vec<u32>,
    #[serde(default)]
    pub attached: Vec<u32>,
}

/// A fortification at the start: hex, level, builder power.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FortSpec {
    pub at: HexAt,
    pub level: u8,
    pub power: String,
}

/// The scenario file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename = "GreatWarScenario")]
pub struct ScenarioFile {
    pub name: String,
    pub map: String,
    pub units: String,
    pub rules: String,
    #[serde(default = "one")]
    pub start_turn: u32,
    pub max_turns: u32,
    pub powers: Vec<PowerSpec>,
    pub forces: Vec<ForceSpec>,
    #[serde(default)]
    pub corps: Vec<CorpsSpec>,
    #[serde(default)]
    pub armies: Vec<ArmySpec>,
    #[serde(default)]
    pub fortifications: Vec<FortSpec>,
    /// Gas cylinders in place at the start: hex and power (S-CHEM-1).
    #[serde(default)]
    pub cylinders: Vec<(HexAt, String)>,
    /// The aviation data file, if the scenario has squadrons.
    #[serde(default)]
    pub aviation: Option<String>,
    #[serde(default)]
    pub fleets: Vec<FleetSpec>,
    #[serde(default)]
    pub squadrons: Vec<SquadronSpec>,
    #[serde(default)]
    pub mines: Vec<MineSpec>,
    #[serde(default)]
    pub sea_lanes: Vec<LaneSpec>,
    /// The date of the first turn and the turn length; none: turns only.
    #[serde(default)]
    pub calendar: Option<Calendar>,
    /// Surrender, victory and victory points; none: the game ends at the turn limit undecided.
    #[serde(default)]
    pub victory: Option<Victory>,
    /// The Russian names of units, corps and armies named in English by `name` (issue 27: the
    /// English interface names Russian formations in English, the Russian one in Russian), by
    /// ID. Left out of files and hashes when empty, so older scenarios and saves keep theirs.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub names_ru: Vec<(u32, String)>,
}

impl ScenarioFile {
    /// Checks the counts of the file against the limits of the referee (before the pairwise
    /// checks of `resolve`); on failure, the field to point at and the limit.
    pub fn check_limits(&self) -> Result<(), (&'static str, LimitError)> {
        Limit::Forces.check_len(self.forces.len()).map_err(|e| ("forces", e))?;
        let lists: [(&'static str, usize); 12] = [
            ("powers", self.powers.len()),
            ("corps", self.corps.len()),
            ("armies", self.armies.len()),
            ("fortifications", self.fortifications.len()),
            ("cylinders", self.cylinders.len()),
            ("fleets", self.fleets.len()),
            ("squadrons", self.squadrons.len()),
            ("mines", self.mines.len()),
            ("sea_lanes", self.sea_lanes.len()),
            ("victory", self.victory.as_ref().map_or(0, |v| v.vp.len())),
            ("names_ru", self.names_ru.len()),
            ("corps", self.corps.iter().map(|c| c.units.len() + c.attached.len()).sum()),
        ];
        for (field, n) in lists {
            Limit::ListEntries.check_len(n).map_err(|e| (field, e))?;
        }
        for f in &self.fleets {
            f.ship_count().map_err(|e| ("fleets", e))?;
        }
        Ok(())
    }
}

fn one() -> u32 {
    1
}

fn yes() -> bool {
    true
}

/// A fleet at the start (S-NAVAL-1, S-NAVAL-2).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FleetSpec {
    pub id: u32,
    pub power: String,
    pub name: String,
    pub at: HexAt,
    /// Ship types and counts.
    pub ships: Vec<(ShipType, u32)>,
    /// Counts are historical lists: every type but battleships is divided by 4 (S-NAVAL-1).
    #[serde(default)]
    pub historical: bool,
    #[serde(default)]
    pub intercept: bool,
    #[serde(default = "yes")]
    pub withdraw: bool,
}

impl FleetSpec {
    /// How many ships the fleet puts to sea, after S-NAVAL-1 scaling, counted without
    /// allocating; `Err` when the counts as written exceed the referee's limit.
    pub fn ship_count(&self) -> Result<u64, LimitError> {
        let mut written: u64 = 0;
        let mut afloat: u64 = 0;
        for (k, n) in &self.ships {
            written = written.saturating_add(u64::from(*n));
            Limit::ShipsPerFleet.check(written)?;
            afloat += u64::from(if self.historical { scaled_count(*k, *n) } else { *n });
        }
        Ok(afloat)
    }

    /// The ships the fleet puts to sea, after S-NAVAL-1 scaling. Never more than the referee's
    /// limit of ships per fleet (a checked scenario has at most S-NAVAL-2's 20).
    pub fn ship_list(&self) -> Vec<ShipType> {
        let cap = usize::try_from(MAX_SHIPS_PER_FLEET).unwrap_or(usize::MAX);
        self.ships
            .iter()
            .flat_map(|(k, n)| {
                let n = if self.historical { scaled_count(*k, *n) } else { *n };
                std::iter::repeat_n(*k, usize::try_from(n).unwrap_or(usize::MAX).min(cap))
            })
            .take(cap)
            .collect()
    }
}

/// An air squadron at the start.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SquadronSpec {
    pub id: u32,
    pub power: String,
    /// Its type in the aviation data file.
    pub kind: String,
    pub base: HexAt,
    #[serde(default)]
    pub name: Option<String>,
}

/// Mines in a sea area at the start.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MineSpec {
    pub area: String,
    pub power: String,
    pub mines: u8,
}

/// A sea lane (S-NAVAL-15).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LaneSpec {
    pub id: String,
    pub area: String,
    pub owner: String,
    #[serde(default = "hundred")]
    pub efficiency: u32,
}

fn hundred() -> u32 {
    100
}

/// A resolved scenario: the file with its map and tables, everything checked.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Scenario {
    pub name: String,
    pub start_turn: u32,
    pub max_turns: u32,
    pub powers: Vec<PowerSpec>,
    pub forces: Vec<ForceSpec>,
    pub corps: Vec<CorpsSpec>,
    pub armies: Vec<ArmySpec>,
    pub fortifications: Vec<FortSpec>,
    pub cylinders: Vec<(HexAt, String)>,
    pub fleets: Vec<FleetSpec>,
    pub squadrons: Vec<SquadronSpec>,
    pub mines: Vec<MineSpec>,
    pub sea_lanes: Vec<LaneSpec>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub calendar: Option<Calendar>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub victory: Option<Victory>,
    /// Russian names by unit, corps or army ID, sorted by ID (see [`ScenarioFile::names_ru`]).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub names_ru: Vec<(u32, String)>,
    pub map: HexMap,
    pub units: UnitTables,
    pub rules: RulesTables,
    pub aviation: AviationTables,
}

impl Scenario {
    pub fn hash(&self) -> StateHash {
        hash_of(self)
    }

    /// The Russian name of a unit, corps or army, where the scenario gives one.
    pub fn name_ru(&self, id: u32) -> Option<&str> {
        self.names_ru.binary_search_by_key(&id, |(i, _)| *i).ok().map(|i| self.names_ru[i].1.as_str())
    }

    pub fn power_index(&self, id: &str) -> Option<usize> {
        self.powers.iter().position(|p| p.id == id)
    }

    /// Loads a scenario file and the map and tables it names (paths relative to it).
    pub fn load(path: &Path) -> Result<Scenario, DataError> {
        Scenario::load_from(&DiskFiles, &path.display().to_string())
    }

    /// Loads a scenario from any file source (the disk, or the bundle the browser build carries),
    /// with the map and tables it names beside it.
    pub fn load_from(files: &dyn FileSource, path: &str) -> Result<Scenario, DataError> {
        Scenario::load_with(files, Path::new(path), files.read(path)?)
    }

    /// Loads a scenario from its text, reading the map and tables it names beside `path`.
    pub fn load_text(path: &Path, text: &str) -> Result<Scenario, DataError> {
        Scenario::load_with(&DiskFiles, path, text.to_string())
    }

    fn load_with(files: &dyn FileSource, path: &Path, text: String) -> Result<Scenario, DataError> {
        let shown = path.display().to_string();
        let file: ScenarioFile = parse_checked(&shown, &text)?;
        let load = |rel: &str| -> Result<(String, String), DataError> {
            let p = beside(path, rel).display().to_string();
            let text = files.read(&p)?;
            Ok((p, text))
        };
        let (mp, mt) = load(&file.map)?;
        let map = HexMap::parse(&mp, &mt)?;
        let (up, ut) = load(&file.units)?;
        let units = UnitTables::parse(&up, &ut)?;
        let (rp, rt) = load(&file.rules)?;
        let rules = RulesTables::parse(&rp, &rt)?;
        let aviation = match &file.aviation {
            Some(a) => {
                let (ap, at) = load(a)?;
                AviationTables::parse(&ap, &at)?
            }
            None => AviationTables { squadrons: Vec::new() },
        };
        Scenario::resolve(&shown, &text, file, map, units, rules, aviation)
    }

    /// Checks a parsed file against its map and tables.
    pub fn resolve(
        path: &str,
        text: &str,
        file: ScenarioFile,
        map: HexMap,
        units: UnitTables,
        rules: RulesTables,
        aviation: AviationTables,
    ) -> Result<Scenario, DataError> {
        let at = |steps: &[Step<'_>]| place(text, steps);
        let err = |pos: Pos, msg: String| DataError::at(path, pos, msg);
        file.check_limits().map_err(|(field, e)| DataError::over_limit(path, at(&path![field]), e))?;
        if file.powers.is_empty() {
            return Err(err(at(&path!["powers"]), "a scenario needs at least one power".into()));
        }
        for (i, p) in file.powers.iter().enumerate() {
            if file.powers[..i].iter().any(|q| q.id == p.id) {
                return Err(err(at(&path!["powers", i, "id"]), format!("power `{}` is listed twice", p.id)));
            }
            if p.alliance > 1 {
                return Err(err(
                    at(&path!["powers", i, "alliance"]),
                    format!("power `{}`: alliance must be 0 or 1 (two sides)", p.id),
                ));
            }
            if !(1..=2).contains(&p.group) {
                return Err(err(at(&path!["powers", i, "group"]), format!("power `{}`: group must be 1 or 2", p.id)));
            }
        }
        let power_ok = |id: &str, pos: Pos| -> Result<(), DataError> {
            if file.powers.iter().any(|p| p.id == id) {
                Ok(())
            } else {
                Err(err(pos, format!("`{id}` is not a power of this scenario")))
            }
        };
        for p in &map.provinces {
            power_ok(&p.owner, Pos::START)
                .map_err(|e| DataError { message: format!("map province `{}`: {}", p.id, e.message), ..e })?;
        }
        let mut ids: Vec<u32> = Vec::new();
        let mut taken: Vec<(HexAt, u32)> = Vec::new();
        for (i, f) in file.forces.iter().enumerate() {
            let pos = at(&path!["forces", i, "id"]);
            if ids.contains(&f.id) {
                return Err(err(pos, format!("unit id {} is used twice", f.id)));
            }
            ids.push(f.id);
            power_ok(&f.power, pos)?;
            match &f.kind {
                KindSpec::Infantry { class, colonial, .. } => {
                    if !(1..=2).contains(class) {
                        return Err(err(pos, format!("unit {}: infantry class must be 1 or 2", f.id)));
                    }
                    if let Some(c) = colonial
                        && c != "foreign_legion"
                        && units.colonial(c).is_none()
                    {
                        return Err(err(
                            pos,
                            format!("unit {}: `{c}` is no colonial contingent of the unit table", f.id),
                        ));
                    }
                }
                KindSpec::Cavalry { class, .. } => {
                    if !(1..=2).contains(class) {
                        return Err(err(pos, format!("unit {}: cavalry class must be 1 or 2", f.id)));
                    }
                }
                KindSpec::Tank(name) => {
                    if units.tank(name).is_none() {
                        return Err(err(pos, format!("unit {}: `{name}` is not a tank of the unit table", f.id)));
                    }
                    // S-LAND-9: tanks need their technology, not before turn 4.
                    let tech = file.powers.iter().any(|p| p.id == f.power && p.techs.tanks);
                    if !tech || file.start_turn < super::tech::TANKS_FROM_TURN {
                        return Err(err(
                            pos,
                            format!("unit {}: tanks need the tank technology and turn 4 or later (S-LAND-9)", f.id),
                        ));
                    }
                }
                KindSpec::Artillery(name) => {
                    if units.gun(name).is_none() {
                        return Err(err(pos, format!("unit {}: `{name}` is not a gun of the unit table", f.id)));
                    }
                }
            }
            if let Some(a) = f.arrives {
                if f.at.is_some() || !map.is_land(a.at) {
                    return Err(err(
                        pos,
                        format!(
                            "unit {} arrives at {}: an arrival has no hex yet and arrives on a land hex",
                            f.id, a.at
                        ),
                    ));
                }
                if a.turn.is_some_and(|t| t <= file.start_turn.max(1)) {
                    return Err(err(
                        pos,
                        format!(
                            "unit {} arrives in a turn after the first ({}); place it on the map",
                            f.id, file.start_turn
                        ),
                    ));
                }
            }
            if let Some(h) = f.at {
                if !map.contains(h) {
                    return Err(err(pos, format!("unit {} stands at {h}, off the map", f.id)));
                }
                if !map.is_land(h) {
                    return Err(err(pos, format!("unit {} stands at {h}, which is water", f.id)));
                }
                taken.push((h, f.id));
            }
        }
        let force = |id: u32| file.forces.iter().find(|f| f.id == id);
        let mut in_corps: Vec<u32> = Vec::new();
        for (i, c) in file.corps.iter().enumerate() {
            let pos = at(&path!["corps", i]);
            if !(2..=4).contains(&c.units.len()) {
                return Err(err(
                    pos,
                    format!("corps `{}` has {} units; a corps has 2–4 (S-ARMY-2)", c.name, c.units.len()),
                ));
            }
            let first = c.units.first().and_then(|u| force(*u));
            for u in &c.units {
                let Some(f) = force(*u) else {
                    return Err(err(pos, format!("corps `{}` lists unit {u}, which does not exist", c.name)));
                };
                if matches!(f.kind, KindSpec::Artillery(_)) {
                    return Err(err(pos, format!("corps `{}`: artillery {u} is attached, not a member", c.name)));
                }
                if f.at.is_none() || f.at != first.and_then(|x| x.at) || f.power != first.map_or("", |x| &x.power) {
                    return Err(err(
                        pos,
                        format!("corps `{}`: its units stand on one hex and serve one power", c.name),
                    ));
                }
                if in_corps.contains(u) {
                    return Err(err(pos, format!("unit {u} is in two corps")));
                }
                in_corps.push(*u);
            }
            for u in &c.attached {
                if !force(*u).is_some_and(|f| matches!(f.kind, KindSpec::Artillery(_)) && f.at.is_none()) {
                    return Err(err(
                        pos,
                        format!("corps `{}`: attached unit {u} must be off-map heavy artillery", c.name),
                    ));
                }
            }
        }
        // S-ARMY-4: one division, one corps or one artillery division per hex.
        for (i, (h, id)) in taken.iter().enumerate() {
            for (h2, id2) in &taken[..i] {
                let same_corps = || file.corps.iter().any(|c| c.units.contains(id) && c.units.contains(id2));
                if h == h2 && !same_corps() {
                    return Err(err(
                        at(&path!["forces", file.forces.iter().position(|f| f.id == *id).unwrap_or(0), "at"]),
                        format!(
                            "units {id2} and {id} share hex {h}; a hex holds one division, corps or artillery (S-ARMY-4)"
                        ),
                    ));
                }
            }
        }
        for (i, a) in file.armies.iter().enumerate() {
            let pos = at(&path!["armies", i]);
            if !(2..=4).contains(&a.corps.len()) {
                return Err(err(
                    pos,
                    format!("army `{}` has {} corps; an army has 2–4 (S-ARMY-2)", a.name, a.corps.len()),
                ));
            }
            for c in &a.corps {
                if !file.corps.iter().any(|k| k.id == *c) {
                    return Err(err(pos, format!("army `{}` lists corps {c}, which does not exist", a.name)));
                }
                if file.armies.iter().filter(|b| b.corps.contains(c)).count() > 1 {
                    return Err(err(pos, format!("corps {c} is in two armies")));
                }
            }
            for u in a.reserves.iter().chain(&a.attached) {
                if force(*u).is_none_or(|f| f.at.is_some()) {
                    return Err(err(
                        pos,
                        format!("army `{}`: reserve or attached unit {u} must exist and be off the map", a.name),
                    ));
                }
            }
        }
        for (i, c) in file.corps.iter().enumerate() {
            if file.armies.iter().any(|a| a.id == c.id) {
                return Err(err(at(&path!["corps", i, "id"]), format!("corps and army ids share the number {}", c.id)));
            }
        }
        for (i, f) in file.forces.iter().enumerate() {
            let placed_off = file.corps.iter().any(|c| c.attached.contains(&f.id))
                || file.armies.iter().any(|a| a.reserves.contains(&f.id) || a.attached.contains(&f.id));
            if f.at.is_none() && f.arrives.is_none() && !placed_off {
                return Err(err(
                    at(&path!["forces", i]),
                    format!("unit {} has no hex and is no reserve, attached artillery or arrival", f.id),
                ));
            }
        }
        for (i, fo) in file.fortifications.iter().enumerate() {
            let pos = at(&path!["fortifications", i]);
            power_ok(&fo.power, pos)?;
            if !(1..=2).contains(&fo.level) || !map.is_land(fo.at) {
                return Err(err(pos, format!("fortification at {}: level 1 or 2 on a land hex", fo.at)));
            }
        }
        for (i, (h, p)) in file.cylinders.iter().enumerate() {
            power_ok(p, at(&path!["cylinders", i, 1]))?;
            if !map.is_land(*h) {
                return Err(err(at(&path!["cylinders", i, 0]), format!("gas cylinder at {h} is not on land")));
            }
        }
        let navigable =
            |h: HexAt| map.cell(h).is_some_and(|c| c.terrain.is_water() || c.has(super::hexmap::flag::PORT));
        let area = |id: &str| map.sea_areas.iter().position(|a| a.id == id);
        for (i, f) in file.fleets.iter().enumerate() {
            let pos = at(&path!["fleets", i]);
            power_ok(&f.power, pos)?;
            if file.fleets[..i].iter().any(|g| g.id == f.id) {
                return Err(err(pos, format!("fleet id {} is used twice", f.id)));
            }
            if !navigable(f.at) {
                return Err(err(pos, format!("fleet `{}` lies at {}, which is neither sea nor a port", f.name, f.at)));
            }
            let n = f.ship_count().map_err(|e| DataError::over_limit(path, pos, e))?;
            if n == 0 || n > FLEET_LIMIT as u64 {
                return Err(err(pos, format!("fleet `{}` has {n} ships; a fleet has 1–20 (S-NAVAL-2)", f.name)));
            }
        }
        for (i, sq) in file.squadrons.iter().enumerate() {
            let pos = at(&path!["squadrons", i]);
            power_ok(&sq.power, pos)?;
            if aviation.get(&sq.kind).is_none() {
                return Err(err(pos, format!("squadron {}: `{}` is no type of the aviation file", sq.id, sq.kind)));
            }
            if !map.contains(sq.base) {
                return Err(err(pos, format!("squadron {} is based off the map", sq.id)));
            }
        }
        for (i, m) in file.mines.iter().enumerate() {
            let pos = at(&path!["mines", i]);
            power_ok(&m.power, pos)?;
            if area(&m.area).is_none() {
                return Err(err(pos, format!("mines in `{}`, which is no sea area of the map", m.area)));
            }
            let total: u32 = file.mines.iter().filter(|x| x.area == m.area).map(|x| u32::from(x.mines)).sum();
            if total > u32::from(MINES_PER_AREA) {
                return Err(err(pos, format!("{total} mines in `{}`; a sea area holds at most 3 (S-MINE-1)", m.area)));
            }
        }
        for (i, l) in file.sea_lanes.iter().enumerate() {
            let pos = at(&path!["sea_lanes", i]);
            power_ok(&l.owner, pos)?;
            if area(&l.area).is_none() {
                return Err(err(pos, format!("sea lane `{}` runs through `{}`, which is no sea area", l.id, l.area)));
            }
        }
        check_campaign(&file, &map, &at, &err)?;
        if file.max_turns == 0 {
            return Err(err(at(&path!["max_turns"]), "max_turns must be at least 1".into()));
        }
        let mut names_ru = file.names_ru;
        for (i, (id, _)) in names_ru.iter().enumerate() {
            let known = file.forces.iter().any(|f| f.id == *id)
                || file.corps.iter().any(|c| c.id == *id)
                || file.armies.iter().any(|a| a.id == *id);
            if !known {
                return Err(err(at(&path!["names_ru", i]), format!("{id} is no unit, corps or army of the scenario")));
            }
        }
        names_ru.sort_by_key(|(id, _)| *id);
        if let Some(w) = names_ru.windows(2).find(|w| w[0].0 == w[1].0) {
            return Err(err(at(&path!["names_ru"]), format!("{} has two Russian names", w[0].0)));
        }
        Ok(Scenario {
            name: file.name,
            start_turn: file.start_turn.max(1),
            max_turns: file.max_turns,
            powers: file.powers,
            forces: file.forces,
            corps: file.corps,
            armies: file.armies,
            fortifications: file.fortifications,
            cylinders: file.cylinders,
            fleets: file.fleets,
            squadrons: file.squadrons,
            mines: file.mines,
            sea_lanes: file.sea_lanes,
            calendar: file.calendar,
            victory: file.victory,
            names_ru,
            map,
            units,
            rules,
            aviation,
        })
    }
}

/// Checks the campaign blocks: neutral entries, capitals, the calendar and the victory block.
fn check_campaign(
    file: &ScenarioFile,
    map: &HexMap,
    at: &dyn Fn(&[Step<'_>]) -> Pos,
    err: &dyn Fn(Pos, String) -> DataError,
) -> Result<(), DataError> {
    for (i, p) in file.powers.iter().enumerate() {
        if let Some(e) = &p.entry
            && e.turn == Some(0)
        {
            // A turn after the scenario's last is allowed: the power then stays neutral.
            return Err(err(
                at(&path!["powers", i, "entry"]),
                format!("power `{}`: turns are counted from 1 (S-TURN-1)", p.id),
            ));
        }
        if let Some(c) = &p.capital
            && !map.provinces.iter().any(|q| &q.id == c && q.owner == p.id)
        {
            return Err(err(
                at(&path!["powers", i, "capital"]),
                format!("power `{}`: its capital `{c}` is no province of the map it owns", p.id),
            ));
        }
    }
    if let Some(c) = &file.calendar
        && (!(1..=12).contains(&c.month) || !(1..=12).contains(&c.months_per_turn) || !(1000..=3000).contains(&c.year))
    {
        return Err(err(
            at(&path!["calendar"]),
            "calendar: month and months_per_turn are 1–12, the year 1000–3000".into(),
        ));
    }
    if let Some(v) = &file.victory {
        if !(1..=100).contains(&v.surrender_share_percent) {
            return Err(err(
                at(&path!["victory", "surrender_share_percent"]),
                "victory: surrender_share_percent is 1–100".into(),
            ));
        }
        for (i, (p, n)) in v.vp.iter().enumerate() {
            if map.province_index(p).is_none() {
                return Err(err(
                    at(&path!["victory", "vp", i]),
                    format!("victory points for `{p}`, no province of the map"),
                ));
            }
            if *n > 1_000_000 || v.vp[..i].iter().any(|(q, _)| q == p) {
                return Err(err(
                    at(&path!["victory", "vp", i]),
                    format!("victory points for `{p}`: listed twice or above 1000000"),
                ));
            }
        }
        if v.province_vp > 1_000_000 {
            return Err(err(at(&path!["victory", "province_vp"]), "victory: province_vp is at most 1000000".into()));
        }
    }
    Ok(())
}
