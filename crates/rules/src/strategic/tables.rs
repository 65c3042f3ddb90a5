//! Unit tables and house values of the Great War (MD-S1…MD-S5), read from
//! `assets/data/great_war_units.ron` and `assets/data/great_war_rules.ron`.

use crate::data::{DataError, Pos, parse_checked, place, position_of};
use crate::path;
use serde::{Deserialize, Serialize};

/// Infantry model (S-LAND-1, S-LAND-4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Model {
    M1914,
    M1916,
}

impl Model {
    /// The model's name in the string tables.
    pub fn key(self) -> &'static str {
        match self {
            Model::M1914 => "gw.model.m1914",
            Model::M1916 => "gw.model.m1916",
        }
    }
}

/// One row of MD-S1.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct InfantryRow {
    pub group: u8,
    pub model: Model,
    pub class: u8,
    pub stats: Stats,
}

/// One row of MD-S2 (1914 = 1916).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CavalryRow {
    pub class: u8,
    pub stats: Stats,
}

/// Combat values, Health and Morale of a division.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Stats {
    pub attack: i32,
    pub defense: i32,
    /// Level-1 fortification or city.
    pub f1: i32,
    /// Level-2 fortification, mountains or fortress.
    pub f2: i32,
    pub health: i32,
    pub morale: i32,
}

impl Stats {
    /// Adds `bonus` to Attack and the Defense columns (S-LAND-5, S-LAND-6 resolution).
    pub fn plus(self, bonus: i32) -> Stats {
        Stats {
            attack: self.attack + bonus,
            defense: self.defense + bonus,
            f1: self.f1 + bonus,
            f2: self.f2 + bonus,
            ..self
        }
    }
}

/// A tank type of MD-S3, by its verbatim name.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TankType {
    pub name: String,
    pub countries: Vec<String>,
    pub attack: i32,
    pub speed: u32,
    pub health: i32,
    pub morale: i32,
}

/// A heavy gun of MD-S4, by its verbatim name.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GunType {
    pub name: String,
    pub country: String,
    pub range: u32,
    pub attack: i32,
    pub speed: u32,
    pub health: i32,
}

/// S-LAND-2: which group a colonial contingent fights as.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Colonial {
    /// Contingent id used in scenarios, e.g. "canadian".
    pub id: String,
    /// The power it belongs to.
    pub power: String,
    pub group: u8,
}

/// `assets/data/great_war_units.ron`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename = "GreatWarUnits")]
pub struct UnitTables {
    pub infantry: Vec<InfantryRow>,
    pub cavalry: Vec<CavalryRow>,
    pub tanks: Vec<TankType>,
    pub guns: Vec<GunType>,
    pub colonial: Vec<Colonial>,
    /// S-LAND-3 and S-LAND-8 speeds.
    pub infantry_speed: u32,
    pub cavalry_speed: u32,
}

impl UnitTables {
    pub fn infantry(&self, group: u8, model: Model, class: u8) -> Option<Stats> {
        self.infantry.iter().find(|r| r.group == group && r.model == model && r.class == class).map(|r| r.stats)
    }

    pub fn cavalry(&self, class: u8) -> Option<Stats> {
        self.cavalry.iter().find(|r| r.class == class).map(|r| r.stats)
    }

    pub fn tank(&self, name: &str) -> Option<usize> {
        self.tanks.iter().position(|t| t.name == name)
    }

    pub fn gun(&self, name: &str) -> Option<usize> {
        self.guns.iter().position(|g| g.name == name)
    }

    pub fn colonial(&self, id: &str) -> Option<&Colonial> {
        self.colonial.iter().find(|c| c.id == id)
    }

    pub fn parse(path: &str, text: &str) -> Result<UnitTables, DataError> {
        let t: UnitTables = parse_checked(path, text)?;
        for group in [1, 2] {
            for model in [Model::M1914, Model::M1916] {
                for class in [1, 2] {
                    if t.infantry(group, model, class).is_none() {
                        return Err(DataError::at(
                            path,
                            place(text, &path!["infantry"]),
                            format!("no infantry row for group {group}, {model:?}, class {class}"),
                        ));
                    }
                }
            }
        }
        for class in [1, 2] {
            if t.cavalry(class).is_none() {
                return Err(DataError::at(
                    path,
                    place(text, &path!["cavalry"]),
                    format!("no cavalry row for class {class}"),
                ));
            }
        }
        for (i, g) in t.guns.iter().enumerate() {
            if g.range == 0 || g.speed == 0 || g.health <= 0 {
                return Err(DataError::at(
                    path,
                    place(text, &path!["guns", i]),
                    format!("gun `{}` needs range, speed and Health of at least 1", g.name),
                ));
            }
            if t.guns[..i].iter().any(|o| o.name == g.name) {
                return Err(DataError::at(
                    path,
                    place(text, &path!["guns", i, "name"]),
                    format!("gun `{}` is listed twice", g.name),
                ));
            }
        }
        Ok(t)
    }
}

/// Movement costs (S-TERR; marsh, desert and northern are house values).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TerrainCosts {
    pub clear: u32,
    pub forest: u32,
    pub mountains: u32,
    pub desert: u32,
    pub northern: u32,
    pub marsh: u32,
}

/// Prices and upkeep (MD-S5: the economy data file).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Economy {
    /// Money per turn for one division (infantry, cavalry), tank battalion or artillery division.
    pub upkeep_division: u32,
    pub upkeep_tank: u32,
    pub upkeep_artillery: u32,
    /// Ammunition spent by a unit in a turn it fights or fires.
    pub ammo_per_action: u32,
    /// S-FORT-1 prices of a level-1 and a level-2 fortification.
    pub fortification: [u32; 2],
    /// S-LAND-4 price of upgrading one division to 1916.
    pub upgrade: u32,
    /// Price of a new division (S-LOSS-1 halves it to restore a dispersed one).
    pub division: u32,
    /// Manpower of a new division (S-LOSS-1 halves it).
    pub division_manpower: u32,
    /// Prices of the technologies (S-LAND-4, S-LAND-9, S-CHEM-1).
    pub research_tanks: u32,
    pub research_gas: u32,
    pub research_infantry: u32,
    /// Price of a transport for one land unit (S-NAVAL-11; capacity 1, MD-S5).
    pub transport: u32,
    /// Public-order penalty of an occupied province, as a share of its income in percent (S-CITY-4).
    pub occupation_penalty_percent: u32,
}

/// House values of the war at sea that the sources do not give (issue 11: moved out of the code).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NavalRules {
    /// House (S-NAVAL-10 resolution): a surface battle stops after this many rounds, a tie at sea.
    pub max_battle_rounds: u32,
}

/// S-SUP-1, S-SUP-3: ammunition of fleets and aviation, spent from the power's stock per action, and
/// its price. The sources leave the amounts to the economy rules: all house values. (Land units and
/// heavy artillery spend `economy.ammo_per_action`.)
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Ammunition {
    /// Per fleet with warships and surface battle (S-NAVAL-6…10).
    pub fleet_battle: u32,
    /// Per bombardment (S-NAVAL-13).
    pub bombardment: u32,
    /// Per submarine flotilla attack (S-SUB-1…5).
    pub submarine_attack: u32,
    /// Per bomber squadron and attack (S-AIR-2).
    pub bombing: u32,
    /// Money for one unit of ammunition bought (resupply, S-SUP-1).
    pub price: u32,
}

/// `assets/data/great_war_rules.ron`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename = "GreatWarRules")]
pub struct RulesTables {
    pub terrain: TerrainCosts,
    pub economy: Economy,
    /// Saves of format 1 predate this block: they read it as [`NavalRules::FORMAT_1`], and a block
    /// equal to that is left out of saves and hashes, so those saves keep their hashes (issue 18).
    /// A data file must name it ([`RulesTables::parse`]).
    #[serde(default = "NavalRules::format_1", skip_serializing_if = "NavalRules::is_format_1")]
    pub naval: NavalRules,
    /// As `naval`: format-1 games spent no ammunition at sea or in the air.
    #[serde(default = "Ammunition::format_1", skip_serializing_if = "Ammunition::is_format_1")]
    pub ammunition: Ammunition,
    /// Issue 12: prices of what a power may buy. Saves written before it have none (nothing for
    /// sale); a data file must name it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub purchases: Option<Purchases>,
    /// Issue 12: devastation and uprisings (S-CITY-2, S-CITY-3). As `purchases`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub occupation: Option<OccupationRules>,
}

/// Money and manpower of one purchase.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Price {
    pub money: u32,
    pub manpower: u32,
}

/// Issue 12: prices of purchases (MD-S5: house values). An infantry division costs
/// `economy.division` and `economy.division_manpower`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Purchases {
    /// Extra money for a mountain division (S-LAND-5) and for an elite one (S-LAND-6).
    pub mountain_extra: u32,
    pub elite_extra: u32,
    /// Powers (scenario ids) that may raise mountain infantry (S-LAND-5).
    pub mountain_powers: Vec<String>,
    pub cavalry: Price,
    /// A tank battalion (S-LAND-9).
    pub tank: Price,
    /// A heavy artillery division (S-ART-1).
    pub artillery: Price,
    /// Money per ship by type; a type not listed is not for sale (S-NAVAL-1).
    pub ships: Vec<(super::naval::ShipType, u32)>,
    /// Money for an air squadron of any type (S-AIR).
    pub squadron: u32,
    /// Money for one chemical shell (S-CHEM-3) and one gas cylinder (S-CHEM-1).
    pub gas_shell: u32,
    pub cylinder: u32,
}

impl Purchases {
    pub fn ship(&self, kind: super::naval::ShipType) -> Option<u32> {
        self.ships.iter().find(|(k, _)| *k == kind).map(|(_, p)| *p)
    }
}

/// Issue 12: house rules of occupation (S-CITY-2, S-CITY-3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OccupationRules {
    /// S-CITY-2: a province is devastated for good when the city destruction on its capital's
    /// hexes (S-ART-4) reaches this total, or its capital's fortress is destroyed.
    pub devastation_destruction: u32,
    /// S-CITY-3: an occupied province rises when fewer than `uprising_garrison` land units of the
    /// occupier's alliance stand within `uprising_radius` hexes of its capital ...
    pub uprising_garrison: u32,
    pub uprising_radius: u32,
    /// ... and a d6 thrown in Upkeep shows at least this (7: never).
    pub uprising_roll: u8,
}

impl NavalRules {
    /// What the engine played before the block existed: the 30-round limit was in its code.
    pub const FORMAT_1: NavalRules = NavalRules { max_battle_rounds: 30 };
    fn format_1() -> Self {
        Self::FORMAT_1
    }
    fn is_format_1(&self) -> bool {
        *self == Self::FORMAT_1
    }
}

impl Ammunition {
    /// What the engine played before the block existed: fleets and aviation spent nothing, and
    /// ammunition could not be bought.
    pub const FORMAT_1: Ammunition =
        Ammunition { fleet_battle: 0, bombardment: 0, submarine_attack: 0, bombing: 0, price: 0 };
    fn format_1() -> Self {
        Self::FORMAT_1
    }
    fn is_format_1(&self) -> bool {
        *self == Self::FORMAT_1
    }
}

impl RulesTables {
    pub fn parse(path: &str, text: &str) -> Result<RulesTables, DataError> {
        let t: RulesTables = parse_checked(path, text)?;
        // Only saves may leave out the blocks that came later; a data file names them.
        for block in ["naval", "ammunition", "purchases", "occupation"] {
            if position_of(text, &path![block]).is_none() {
                return Err(DataError::at(path, Pos::START, format!("missing field `{block}` in `GreatWarRules`")));
            }
        }
        let c = &t.terrain;
        if [c.clear, c.forest, c.mountains, c.desert, c.northern, c.marsh].contains(&0) {
            return Err(DataError::at(path, place(text, &path!["terrain"]), "every terrain costs at least 1 MP"));
        }
        if t.naval.max_battle_rounds == 0 {
            return Err(DataError::at(
                path,
                place(text, &path!["naval", "max_battle_rounds"]),
                "a surface battle lasts at least 1 round (naval.max_battle_rounds)",
            ));
        }
        if let Some(o) = &t.occupation
            && (o.devastation_destruction == 0 || !(1..=7).contains(&o.uprising_roll) || o.uprising_radius > 50)
        {
            return Err(DataError::at(
                path,
                place(text, &path!["occupation"]),
                "occupation: devastation_destruction at least 1, uprising_roll 1–7, uprising_radius at most 50",
            ));
        }
        if t.ammunition.price == 0 {
            return Err(DataError::at(
                path,
                place(text, &path!["ammunition", "price"]),
                "ammunition costs at least 1 (ammunition.price)",
            ));
        }
        Ok(t)
    }
}

/// A type of air squadron (MD-S5: the aviation data file; house values).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AirType {
    pub name: String,
    /// Reconnaissance (S-AIR-1) or bombers (S-AIR-2).
    pub recon: bool,
    /// Hexes from its base it reaches.
    pub radius: u32,
    /// Bombing value (0 for reconnaissance).
    pub bombing: u8,
    /// Aircraft in a squadron (S-AIR-3 losses are shares of them).
    pub aircraft: u32,
}

/// `assets/data/great_war_aviation.ron`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename = "GreatWarAviation")]
pub struct AviationTables {
    pub squadrons: Vec<AirType>,
}

impl AviationTables {
    pub fn parse(path: &str, text: &str) -> Result<AviationTables, DataError> {
        let t: AviationTables = parse_checked(path, text)?;
        for (i, a) in t.squadrons.iter().enumerate() {
            if a.aircraft == 0 || a.radius == 0 || (!a.recon && a.bombing == 0) {
                return Err(DataError::at(
                    path,
                    place(text, &path!["squadrons", i]),
                    format!(
                        "squadron type `{}` needs aircraft, a radius, and bombing unless it is reconnaissance",
                        a.name
                    ),
                ));
            }
        }
        Ok(t)
    }

    pub fn get(&self, name: &str) -> Option<&AirType> {
        self.squadrons.iter().find(|a| a.name == name)
    }
}
