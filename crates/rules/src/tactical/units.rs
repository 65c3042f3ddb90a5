//! Unit types of the Napoleonic battle (T-UNIT, T-RUS), read from `assets/data/napoleonic_units.ron`.

use crate::data::{DataError, parse_checked, place};
use crate::path;
use serde::{Deserialize, Serialize};

/// The three arms; most rules speak of "infantry", "cavalry" or "artillery".
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Arm {
    Infantry,
    Cavalry,
    Artillery,
}

/// How far a unit fires.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Range {
    /// Up to this many cells (Chebyshev).
    Cells(i32),
    /// Artillery: "fires at any cell" (T-FIRE-5).
    WholeMap,
}

/// What sets a unit type apart beyond its numbers; each names the rule that gives it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Ability {
    /// T-TERR-2: hidden in forest until it fires or an enemy is adjacent.
    Ambush,
    /// T-SKIRM-1: may take open (skirmish) order.
    SkirmishOrder,
    /// T-FIRE-10: counter-volley at flank or rear attackers at half value.
    FlankCounterVolley,
    /// T-UNIT-3: Guard infantry, −2 morale to enemies in contact.
    Guard,
    /// T-UNIT-2: lancers, −1 morale to the units they attack in melee.
    Lancers,
    /// T-RUS-1, T-RUS-3: at low Health not dispersed, fights to the end (no morale tests).
    FightsToTheEnd,
    /// T-UNIT-2, T-CMD-4: light/irregular cavalry ignores command distance.
    IgnoresCommandDistance,
    /// T-ART-1: horse artillery needs no deployment after a move and may fire a second shot, by
    /// the shots test.
    HorseArtillery,
}

/// Which number of a type is a house value (MD-T1), not from the sources.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Stat {
    Melee,
    Ranged,
    Range,
    Speed,
    Health,
}

/// One row of the unit table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UnitType {
    pub id: String,
    pub name: String,
    pub name_ru: String,
    pub arm: Arm,
    pub melee: i32,
    /// T-FORT-5: grenadiers storming a wall, breach or redoubt.
    #[serde(default)]
    pub storming_melee: Option<i32>,
    #[serde(default)]
    pub ranged: Option<i32>,
    #[serde(default)]
    pub range: Option<Range>,
    pub speed: i32,
    pub health: i32,
    #[serde(default)]
    pub abilities: Vec<Ability>,
    /// Special units belong to one faction's list (T-STRAT-10); generic units have none.
    #[serde(default)]
    pub faction: Option<String>,
    /// A type only some factions field (T-ART-1: horse artillery); empty: every faction. Left
    /// out of files and hashes when empty.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub factions: Vec<String>,
    /// Values that are house values (MD-T1, MD-T2).
    #[serde(default)]
    pub house: Vec<Stat>,
    /// The rule that defines this row.
    pub rule: String,
}

impl UnitType {
    pub fn has(&self, ability: Ability) -> bool {
        self.abilities.contains(&ability)
    }

    /// Whether `faction` may field this type: a special unit only its own faction (T-STRAT-10),
    /// a type with a list of factions only those (T-ART-1), any other every faction.
    pub fn fielded_by(&self, faction: &str) -> bool {
        self.faction.as_ref().is_none_or(|f| f == faction)
            && (self.factions.is_empty() || self.factions.iter().any(|f| f == faction))
    }

    /// Ranged value, if the unit can fire at all (T-FIRE-4: heavy cavalry cannot).
    pub fn fires(&self) -> Option<(i32, Range)> {
        match (self.ranged, self.range) {
            (Some(v), Some(r)) if v > 0 => Some((v, r)),
            _ => None,
        }
    }
}

/// The whole unit table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UnitTable {
    pub types: Vec<UnitType>,
}

impl UnitTable {
    /// The table shipped with the game (also compiled in, so the browser build has it).
    pub fn builtin() -> UnitTable {
        // The shipped file is tested to parse; an empty table here would fail every scenario loudly.
        Self::parse("assets/data/napoleonic_units.ron", BUILTIN_UNITS).unwrap_or(UnitTable { types: Vec::new() })
    }

    pub fn parse(path: &str, text: &str) -> Result<UnitTable, DataError> {
        let table: UnitTable = parse_checked(path, text)?;
        table.check(path, text)?;
        Ok(table)
    }

    fn check(&self, path: &str, text: &str) -> Result<(), DataError> {
        for (i, t) in self.types.iter().enumerate() {
            let at = || place(text, &path!["types", i, "id"]);
            if self.types[..i].iter().any(|u| u.id == t.id) {
                return Err(DataError::at(path, at(), format!("unit type `{}` is defined twice", t.id)));
            }
            if t.health <= 0 || t.speed < 0 || t.melee < 0 {
                return Err(DataError::at(
                    path,
                    at(),
                    format!("unit type `{}`: health must be positive, speed and melee not negative", t.id),
                ));
            }
            if t.ranged.is_some() != t.range.is_some() {
                return Err(DataError::at(
                    path,
                    place(text, &path!["types", i, if t.range.is_some() { "range" } else { "ranged" }]),
                    format!("unit type `{}`: give both `ranged` and `range`, or neither", t.id),
                ));
            }
            if matches!(t.range, Some(Range::Cells(n)) if n < 1) {
                return Err(DataError::at(
                    path,
                    place(text, &path!["types", i, "range"]),
                    format!("unit type `{}`: range must be at least 1 cell", t.id),
                ));
            }
        }
        Ok(())
    }

    pub fn get(&self, id: &str) -> Option<&UnitType> {
        self.types.iter().find(|t| t.id == id)
    }

    pub fn ids(&self) -> Vec<&str> {
        self.types.iter().map(|t| t.id.as_str()).collect()
    }
}

/// The shipped unit table, compiled in.
pub const BUILTIN_UNITS: &str = include_str!("../../../../assets/data/napoleonic_units.ron");
