//! Builds the Great War scenarios of 1914 (and North Sea 1916) from the hand-made order-of-battle
//! tables in `scenarios/great_war/data/` and the Europe map (`mapgen scenarios`).
//!
//! Deterministic: the tables are read in a fixed order (the scenario list names its files), places
//! become hexes through the map's own projection (`HexMap::place_at`), and a unit that would stand
//! on water, off its side's ground or on a taken hex goes to the nearest legal hex, searched ring by
//! ring and, within a ring, by (row, column). Nothing depends on hash-map order, threads or a clock.
//!
//! The scenario is built as the rules crate's own [`ScenarioFile`] and written through `Serialize`,
//! so fields the format gains (a neutral's entry, a calendar, victory) come with it; per-power extra
//! data lives in the tables (`PowerOob`).

use rules::strategic::campaign::{Calendar, Victory};
use rules::strategic::hexmap::{Climate, HexAt, HexMap, flag};
use rules::strategic::naval::ShipType;
use rules::strategic::scenario::{
    ArmySpec, Arrival, CorpsSpec, FleetSpec, ForceSpec, KindSpec, LaneSpec, MineSpec, PowerSpec, ScenarioFile,
    SquadronSpec,
};
use rules::strategic::state::{Phase, Techs};
use rules::strategic::tables::Model;
use rules::strategic::{GreatWar, Order, Scenario};
use serde::Deserialize;
use std::path::{Path, PathBuf};

/// A place: its name as the sources give it, latitude and longitude in degrees.
pub type Place = (String, f64, f64);

/// When a power goes to war (for the scenario's neutrals; the format's `entry` is the economy's).
#[derive(Clone, Debug, PartialEq, Deserialize)]
pub enum Entry {
    /// At war on the scenario's first turn.
    AtWar,
    /// Entered the war in this year and month historically (house trigger: or when invaded).
    Historical(u32, u32),
    /// Stayed neutral (enters only when invaded).
    WhenInvaded,
}

/// A power of the tables, with the data the scenario format does not carry yet.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PowerOob {
    pub id: String,
    pub name: String,
    /// 0: the Entente and its later allies; 1: the Central Powers and theirs.
    pub alliance: u8,
    /// S-LAND-1 country group.
    pub group: u8,
    pub entry: Entry,
    #[serde(default)]
    pub local_climates: Vec<Climate>,
    /// GDP and manpower per turn of a power with no province on the map (the USA), house values.
    #[serde(default)]
    pub off_map: Option<(u32, [u32; 2])>,
    /// Province id of its national capital, for the surrender rule (the scenario's `capital`);
    /// where the map's window leaves that province out, the scenario falls back to the home
    /// province of largest GDP.
    #[serde(default)]
    pub capital: Option<String>,
    /// How it enters (free text for the reader: ports of arrival and the like).
    #[serde(default)]
    pub note: String,
}

/// What a division is (S-LAND-1, -2, -5, -6, -8).
#[derive(Clone, Debug, PartialEq, Deserialize)]
pub enum Div {
    /// Active infantry (class 1).
    Inf,
    /// Reserve, Landwehr, territorial, second-ban infantry (class 2).
    Res,
    /// Mountain infantry (class 1, S-LAND-5).
    Mtn,
    /// Elite infantry (class 1, S-LAND-6).
    Elite,
    /// Active cavalry (class 1).
    Cav,
    /// Reserve or Cossack second-line cavalry (class 2).
    CavRes,
    /// Elite cavalry (Guards, S-LAND-8 with S-LAND-6).
    CavElite,
    /// Colonial contingent of the unit table (S-LAND-2), class 1.
    Colonial(String),
}

/// A corps: its divisions stand on one hex (S-ARMY-4).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CorpsOob {
    pub name: String,
    #[serde(default)]
    pub commander: String,
    pub at: Place,
    pub divisions: Vec<(String, Div)>,
}

/// A division standing alone.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DivOob {
    pub name: String,
    /// A fixed id (for a scenario whose orders and tests name it); else the next of its power.
    #[serde(default)]
    pub id: Option<u32>,
    pub kind: Div,
    pub at: Place,
    /// For `arrivals`: the (year, month) it arrives, turned into a turn by the scenario's
    /// calendar; none: as soon as its power is at war.
    #[serde(default)]
    pub date: Option<(u32, u32)>,
}

/// Heavy artillery: attached to its army (off the map, S-ARMY-5) or standing on a hex.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GunOob {
    pub name: String,
    /// A fixed id (for a scenario whose orders and tests name it); else the next of its power.
    #[serde(default)]
    pub id: Option<u32>,
    /// Gun type of the unit table.
    pub gun: String,
    #[serde(default)]
    pub at: Option<Place>,
}

/// An army (or army group) as mobilised.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ArmyOob {
    pub name: String,
    #[serde(default)]
    pub commander: String,
    pub corps: Vec<CorpsOob>,
    /// Divisions of the army outside its corps (reserve divisions, cavalry, Landwehr).
    #[serde(default)]
    pub divisions: Vec<DivOob>,
    /// Heavy artillery attached to the army.
    #[serde(default)]
    pub artillery: Vec<GunOob>,
}

/// A fleet, from historical lists (S-NAVAL-1 scales every type but battleships by 4).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FleetOob {
    pub name: String,
    /// A fixed id (for a scenario whose orders and tests name it); else the next of its power.
    #[serde(default)]
    pub id: Option<u32>,
    pub at: Place,
    pub ships: Vec<(ShipType, u32)>,
    #[serde(default)]
    pub intercept: bool,
}

/// An air squadron (1916).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SquadronOob {
    pub name: String,
    /// A fixed id (for a scenario whose orders and tests name it); else the next of its power.
    #[serde(default)]
    pub id: Option<u32>,
    pub kind: String,
    pub base: Place,
}

/// One power's forces in one table file.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PowerForces {
    pub power: String,
    #[serde(default)]
    pub armies: Vec<ArmyOob>,
    /// Corps outside any army.
    #[serde(default)]
    pub corps: Vec<CorpsOob>,
    /// Divisions outside any army or corps (home defence, garrisons of fortresses).
    #[serde(default)]
    pub divisions: Vec<DivOob>,
    #[serde(default)]
    pub artillery: Vec<GunOob>,
    #[serde(default)]
    pub fleets: Vec<FleetOob>,
    #[serde(default)]
    pub squadrons: Vec<SquadronOob>,
    /// Divisions that arrive later by sea (not placed; for the economy's entry rules).
    #[serde(default)]
    pub arrivals: Vec<DivOob>,
}

/// A table file: the forces of several powers.
pub type OobFile = Vec<PowerForces>;

/// A latitude/longitude box: (south, north), (west, east).
pub type LatLonBox = ((f64, f64), (f64, f64));

/// One scenario to write (`scenarios/great_war/data/scenarios.ron`).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScenarioDef {
    /// Output file, relative to the scenarios folder.
    pub file: String,
    pub name: String,
    /// Lines of the header comment.
    pub header: Vec<String>,
    /// Map, unit, rules and aviation files, relative to the output file (as the scenario names them).
    pub map: String,
    pub units: String,
    pub rules: String,
    #[serde(default)]
    pub aviation: Option<String>,
    pub start_turn: u32,
    /// How many turns it lasts: a number, or (`ends`) the (year, month) of its last turn by the
    /// calendar; exactly one of the two.
    #[serde(default)]
    pub max_turns: Option<u32>,
    #[serde(default)]
    pub ends: Option<(u32, u32)>,
    /// Table files (in `data/`) to read, in this order.
    pub tables: Vec<String>,
    /// Only formations whose place lies in this box (a theatre).
    #[serde(default)]
    pub theatre: Option<LatLonBox>,
    #[serde(default)]
    pub mines: Vec<MineSpec>,
    #[serde(default)]
    pub sea_lanes: Vec<LaneSpec>,
    /// Turn length (the economy's calendar): also turns the neutrals' historical dates into entry turns.
    #[serde(default)]
    pub calendar: Option<Calendar>,
    /// Surrender and victory points (the economy's victory block).
    #[serde(default)]
    pub victory: Option<Victory>,
    /// Lists of orders to write beside the scenario (for CI's `umpire play --orders` and the tests):
    /// file name (relative to the scenarios folder), header lines and the script.
    #[serde(default)]
    pub orders: Vec<OrderScript>,
}

/// Orders written from a script whose places are names and latitudes/longitudes, so that they
/// follow the map: fleets sail the shortest sea path toward a place, cut to a number of hexes.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OrderScript {
    pub file: String,
    /// The seed CI plays the orders with: the generator plays them too, with it, and refuses a
    /// script whose orders the referee would refuse.
    pub seed: u64,
    pub header: Vec<String>,
    pub steps: Vec<ScriptStep>,
}

/// One step of an order script; units, fleets and squadrons are named as in the tables.
#[derive(Clone, Debug, Deserialize)]
pub enum ScriptStep {
    /// `EndPhase`, this many times.
    End(u32),
    /// `EndPhase` until this power's part of this phase.
    Until(String, Phase),
    /// `EndPhase` until this many turns are over: every power passes.
    Turns(u32),
    Embark {
        unit: String,
        fleet: String,
    },
    /// Sail toward a place by the shortest path over water, at most `hexes` hexes.
    Sail {
        fleet: String,
        to: Place,
        hexes: u32,
    },
    /// Sail to a water hex next to another fleet (as the script has moved it), at most `hexes`.
    SailNextTo {
        fleet: String,
        target: String,
        hexes: u32,
    },
    SubmarineAttack {
        flotilla: String,
        target: String,
    },
    /// Lay mines, where the fleet's hex lies in a sea area of the map (skipped where none).
    LayMine {
        fleet: String,
    },
    Reconnaissance {
        squadron: String,
    },
    /// Bomb the first ship of this type in a fleet.
    Bomb {
        squadrons: Vec<String>,
        fleet: String,
        ship: ShipType,
    },
    /// Coastal fire at the first ship of this type in a fleet.
    CoastalFire {
        unit: String,
        fleet: String,
        ship: ShipType,
    },
    /// Land a unit on the first free land hex next to its fleet (in the order of the sides).
    Disembark {
        unit: String,
        fleet: String,
    },
}

/// The house values of the start economy (`scenarios.ron`).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Economy {
    /// Money at the start: this many turns of the power's provinces' GDP.
    pub money_turns: u32,
    /// Manpower at the start: this many turns of its provinces' manpower.
    pub manpower_turns: u32,
    /// Ammunition at the start per land unit and per fleet.
    pub ammo_per_unit: u32,
    pub ammo_per_fleet: u32,
}

/// The scenario list.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScenarioList {
    pub economy: Economy,
    pub powers: Vec<PowerOob>,
    pub scenarios: Vec<ScenarioDef>,
}

/// How many units of each kind a generated scenario holds (for reports and tests).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Census {
    /// Per power: infantry, cavalry, artillery, fleets, corps, armies.
    pub powers: Vec<(String, [usize; 6])>,
}

/// A generated scenario: its file name, text and what it holds.
pub struct Generated {
    pub file: String,
    pub text: String,
    /// The order lists written beside it: file name and text.
    pub orders: Vec<(String, String)>,
    pub scenario: ScenarioFile,
    pub census: Census,
    /// Units moved from their place to the nearest legal hex: (unit, km moved).
    pub nudged: Vec<(String, u32)>,
}

/// Where the tables and scenarios are.
pub struct Folders {
    /// `scenarios/great_war`.
    pub scenarios: PathBuf,
    /// `scenarios/great_war/data`.
    pub data: PathBuf,
}

impl Folders {
    pub fn at(root: &Path) -> Folders {
        let scenarios = root.join("scenarios/great_war");
        Folders { data: scenarios.join("data"), scenarios }
    }
}

/// Reads the scenario list and builds every scenario.
pub fn generate_all(folders: &Folders) -> Result<Vec<Generated>, String> {
    let list: ScenarioList = crate::read_table(&folders.data.join("scenarios.ron"))?;
    let names: crate::names::RussianNames = crate::read_table(&folders.data.join("russian_names.ron"))?;
    let mut out = Vec::new();
    for def in &list.scenarios {
        let out_path = folders.scenarios.join(&def.file);
        let map_path = rules::data::beside(&out_path, &def.map);
        let text = std::fs::read_to_string(&map_path).map_err(|e| format!("{}: {e}", map_path.display()))?;
        let map = HexMap::parse(&map_path.display().to_string(), &text).map_err(|e| e.to_string())?;
        let mut tables: Vec<PowerForces> = Vec::new();
        for t in &def.tables {
            let file: OobFile = crate::read_table(&folders.data.join(t))?;
            tables.extend(file);
        }
        let mut g = build(&list, def, &map, &tables, &names)?;
        if !def.orders.is_empty() {
            let scenario = Scenario::load_text(&out_path, &g.text).map_err(|e| e.to_string())?;
            for script in &def.orders {
                g.orders.push((script.file.clone(), write_orders(script, &scenario)?));
            }
        }
        out.push(g);
    }
    Ok(out)
}

/// The builder's working state for one scenario.
struct Builder<'a> {
    map: &'a HexMap,
    powers: &'a [PowerOob],
    theatre: Option<LatLonBox>,
    /// Hexes taken by a unit or corps.
    taken: Vec<bool>,
    forces: Vec<ForceSpec>,
    corps: Vec<CorpsSpec>,
    armies: Vec<ArmySpec>,
    fleets: Vec<FleetSpec>,
    squadrons: Vec<SquadronSpec>,
    nudged: Vec<(String, u32)>,
}

/// How far the search for a legal hex goes (hexes of 5 km: 300 km).
const SEARCH_RADIUS: i32 = 60;

impl Builder<'_> {
    fn power(&self, id: &str) -> Result<&PowerOob, String> {
        self.powers.iter().find(|p| p.id == id).ok_or(format!("`{id}` is not a power of scenarios.ron"))
    }

    /// Whether a unit of `power` may stand on hex `at` at the start: land of its own or of an ally
    /// at war with it (a neutral stays at home), and free.
    fn legal(&self, power: &PowerOob, at: HexAt) -> bool {
        let Some(i) = self.map.index(at) else { return false };
        if self.taken[i] || !self.map.is_land(at) {
            return false;
        }
        let Some(owner) = self.map.province_at(at).map(|p| p.owner.as_str()) else { return false };
        if owner == power.id {
            return true;
        }
        let at_war = |p: &PowerOob| p.entry == Entry::AtWar;
        self.powers.iter().any(|o| o.id == owner && o.alliance == power.alliance && at_war(o)) && at_war(power)
    }

    /// The nearest hex to a place where `ok` holds: ring by ring, each ring by (row, column).
    fn nearest(&self, place: &Place, ok: impl Fn(HexAt) -> bool) -> Result<(HexAt, u32), String> {
        let projection = self.map.projection.as_ref().ok_or("the map records no projection")?;
        let centre = projection.hex_of(place.1, place.2);
        for r in 0..=SEARCH_RADIUS {
            let mut ring: Vec<HexAt> = Vec::new();
            for row in centre.row - r..=centre.row + r {
                for col in centre.col - r - 1..=centre.col + r + 1 {
                    let h = HexAt::new(col, row);
                    if h.distance(centre) == r as u32 {
                        ring.push(h);
                    }
                }
            }
            ring.sort_by_key(|h| (h.row, h.col));
            if let Some(h) = ring.into_iter().find(|h| ok(*h)) {
                return Ok((h, r as u32));
            }
        }
        Err(format!("no legal hex within {} km of {} ({}, {})", SEARCH_RADIUS * 5, place.0, place.1, place.2))
    }

    fn stand(&mut self, power: &str, place: &Place, what: &str) -> Result<HexAt, String> {
        let p = self.power(power)?.clone();
        let (h, r) = self.nearest(place, |h| self.legal(&p, h))?;
        if r > 0 {
            self.nudged.push((format!("{what} ({power}, {})", place.0), r * 5));
        }
        if let Some(i) = self.map.index(h) {
            self.taken[i] = true;
        }
        Ok(h)
    }

    fn next_id(&self, power: &str) -> Result<u32, String> {
        let base = self.power_base(power)?;
        let n = self.forces.iter().filter(|f| f.power == power).count() as u32;
        Ok(base * 1000 + n + 1)
    }

    fn power_base(&self, power: &str) -> Result<u32, String> {
        let i = self.powers.iter().position(|p| p.id == power).ok_or(format!("`{power}` is not a power"))?;
        Ok(i as u32 + 1)
    }

    fn kind(&self, power: &str, div: &Div) -> Result<KindSpec, String> {
        let inf = |class, mountain, elite, colonial| KindSpec::Infantry {
            model: Model::M1914,
            class,
            mountain,
            elite,
            colonial,
        };
        let _ = self.power(power)?;
        Ok(match div {
            Div::Inf => inf(1, false, false, None),
            Div::Res => inf(2, false, false, None),
            Div::Mtn => inf(1, true, false, None),
            Div::Elite => inf(1, false, true, None),
            Div::Colonial(c) => inf(1, false, false, Some(c.clone())),
            Div::Cav => KindSpec::Cavalry { class: 1, model: Model::M1914, elite: false },
            Div::CavRes => KindSpec::Cavalry { class: 2, model: Model::M1914, elite: false },
            Div::CavElite => KindSpec::Cavalry { class: 1, model: Model::M1914, elite: true },
        })
    }

    fn add_force(&mut self, power: &str, name: &str, kind: KindSpec, at: Option<HexAt>) -> Result<u32, String> {
        self.add_force_as(None, power, name, kind, at)
    }

    fn add_force_as(
        &mut self,
        id: Option<u32>,
        power: &str,
        name: &str,
        kind: KindSpec,
        at: Option<HexAt>,
    ) -> Result<u32, String> {
        let id = match id {
            Some(id) => id,
            None => self.next_id(power)?,
        };
        let name = Some(name.to_string());
        self.forces.push(ForceSpec {
            id,
            power: power.into(),
            kind,
            at,
            name,
            health: None,
            morale: None,
            arrives: None,
        });
        Ok(id)
    }

    fn division(&mut self, power: &str, d: &DivOob) -> Result<u32, String> {
        let h = self.stand(power, &d.at, &d.name)?;
        let kind = self.kind(power, &d.kind)?;
        self.add_force_as(d.id, power, &d.name, kind, Some(h))
    }

    fn gun(&mut self, power: &str, g: &GunOob) -> Result<u32, String> {
        let at = match &g.at {
            Some(p) => Some(self.stand(power, p, &g.name)?),
            None => None,
        };
        self.add_force_as(g.id, power, &g.name, KindSpec::Artillery(g.gun.clone()), at)
    }

    /// A corps of 2–4 divisions on one hex; a corps of one division stands alone, and a larger
    /// one is split into corps of at most four (S-ARMY-2).
    fn corps(&mut self, power: &str, c: &CorpsOob) -> Result<Option<u32>, String> {
        let label = if c.commander.is_empty() { c.name.clone() } else { format!("{} ({})", c.name, c.commander) };
        if c.divisions.len() == 1 {
            let (name, kind) = &c.divisions[0];
            let d = DivOob {
                name: format!("{name}, {}", c.name),
                id: None,
                kind: kind.clone(),
                at: c.at.clone(),
                date: None,
            };
            self.division(power, &d)?;
            return Ok(None);
        }
        let chunks: Vec<&[(String, Div)]> = split_corps(&c.divisions);
        let mut first = None;
        for (k, chunk) in chunks.iter().enumerate() {
            let h = self.stand(power, &c.at, &c.name)?;
            let mut units = Vec::new();
            for (name, kind) in chunk.iter() {
                let kind = self.kind(power, kind)?;
                units.push(self.add_force(power, name, kind, Some(h))?);
            }
            let mine = self
                .corps
                .iter()
                .filter(|c| self.forces.iter().any(|f| f.id == c.units[0] && f.power == power))
                .count();
            let id = 100_000 + self.power_base(power)? * 1000 + mine as u32 + 1;
            let name = if chunks.len() > 1 { format!("{label}, part {}", k + 1) } else { label.clone() };
            self.corps.push(CorpsSpec { id, name, units, attached: Vec::new() });
            first.get_or_insert(id);
        }
        Ok(first)
    }

    fn army(&mut self, power: &str, a: &ArmyOob) -> Result<(), String> {
        let theatre = self.theatre;
        let corps: Vec<CorpsOob> = merge_corps(a.corps.iter().filter(|c| inside(theatre, &c.at)).cloned().collect());
        let mut ids = Vec::new();
        for c in &corps {
            if let Some(id) = self.corps(power, c)? {
                ids.push(id);
            }
        }
        for d in a.divisions.iter().filter(|d| inside(theatre, &d.at)) {
            self.division(power, d)?;
        }
        let label = if a.commander.is_empty() { a.name.clone() } else { format!("{} ({})", a.name, a.commander) };
        if ids.len() >= 2 {
            let mut attached = Vec::new();
            for g in &a.artillery {
                attached.push(self.gun(power, &GunOob { at: None, ..g.clone() })?);
            }
            let mine = self.armies.iter().filter(|a| a.id / 100 == 2000 + self.power_base(power).unwrap_or(0)).count();
            let id = 200_000 + self.power_base(power)? * 100 + mine as u32 + 1;
            self.armies.push(ArmySpec { id, name: label, corps: ids, reserves: Vec::new(), attached });
        } else if !ids.is_empty() {
            // One corps left in the theatre: it stands alone, its army's guns on the map beside it.
            let at = corps[0].at.clone();
            for g in &a.artillery {
                self.gun(power, &GunOob { at: Some(at.clone()), ..g.clone() })?;
            }
        }
        Ok(())
    }

    fn fleet(&mut self, power: &str, f: &FleetOob) -> Result<(), String> {
        let map = self.map;
        // A port, or open water: not a pond of a few hexes that the coast line cut off.
        let navigable =
            |h: HexAt| map.cell(h).is_some_and(|c| c.has(flag::PORT) || (c.terrain.is_water() && open_water(map, h)));
        let (at, _) = self.nearest(&f.at, navigable)?;
        let next = self.power_base(power)? * 100 + self.fleets.iter().filter(|x| x.power == power).count() as u32 + 1;
        let id = f.id.unwrap_or(next);
        self.fleets.push(FleetSpec {
            id,
            power: power.into(),
            name: f.name.clone(),
            at,
            ships: f.ships.clone(),
            historical: true,
            intercept: f.intercept,
            withdraw: true,
        });
        Ok(())
    }
}

/// Whether a place lies in the theatre (everywhere when there is none).
fn inside(theatre: Option<LatLonBox>, at: &Place) -> bool {
    theatre.is_none_or(|((s, n), (w, e))| (s..=n).contains(&at.1) && (w..=e).contains(&at.2))
}

/// Splits a corps' divisions into chunks of 2–4 (a corps of five becomes three and two).
fn split_corps(divs: &[(String, Div)]) -> Vec<&[(String, Div)]> {
    if divs.len() <= 4 {
        return vec![divs];
    }
    let half = divs.len().div_ceil(2);
    let (a, b) = divs.split_at(half);
    let mut out = split_corps(a);
    out.extend(split_corps(b));
    out
}

/// S-ARMY-2 allows four corps to an army: while an army has more, the two smallest neighbouring
/// corps that fit in four divisions (the last such pair: the tables list reserve corps last) are joined under both names (a house aggregation, reported in
/// the scenario's name of the corps).
fn merge_corps(mut corps: Vec<CorpsOob>) -> Vec<CorpsOob> {
    while corps.len() > 4 {
        let best = (0..corps.len() - 1)
            .filter(|&i| corps[i].divisions.len() + corps[i + 1].divisions.len() <= 4)
            .min_by_key(|&i| (corps[i].divisions.len() + corps[i + 1].divisions.len(), std::cmp::Reverse(i)));
        let Some(i) = best else { break };
        let b = corps.remove(i + 1);
        let a = &mut corps[i];
        a.name = format!("{} and {}", a.name, b.name);
        if !b.commander.is_empty() {
            a.commander = format!("{}; {}", a.commander, b.commander);
        }
        a.divisions.extend(b.divisions);
    }
    corps
}

/// Builds one scenario.
pub fn build(
    list: &ScenarioList,
    def: &ScenarioDef,
    map: &HexMap,
    tables: &[PowerForces],
    names: &crate::names::RussianNames,
) -> Result<Generated, String> {
    let mut b = Builder {
        map,
        powers: &list.powers,
        theatre: def.theatre,
        taken: vec![false; map.len()],
        forces: Vec::new(),
        corps: Vec::new(),
        armies: Vec::new(),
        fleets: Vec::new(),
        squadrons: Vec::new(),
        nudged: Vec::new(),
    };
    // Corps first (they need a whole hex), then armies' loose divisions, then the rest.
    let theatre = def.theatre;
    for t in tables {
        for a in &t.armies {
            b.army(&t.power, a)?;
        }
        for c in t.corps.iter().filter(|c| inside(theatre, &c.at)) {
            b.corps(&t.power, c)?;
        }
    }
    for t in tables {
        for d in t.divisions.iter().filter(|d| inside(theatre, &d.at)) {
            b.division(&t.power, d)?;
        }
        for g in &t.artillery {
            if g.at.as_ref().is_some_and(|p| inside(theatre, p)) {
                b.gun(&t.power, g)?;
            }
        }
        for f in t.fleets.iter().filter(|f| inside(theatre, &f.at)) {
            b.fleet(&t.power, f)?;
        }
        for s in t.squadrons.iter().filter(|s| inside(theatre, &s.base)) {
            let projection = map.projection.as_ref().ok_or("the map records no projection")?;
            let base = projection.hex_of(s.base.1, s.base.2);
            let mine = b.squadrons.iter().filter(|x| x.power == t.power).count();
            let id = s.id.unwrap_or(b.power_base(&t.power)? * 100 + mine as u32 + 1);
            b.squadrons.push(SquadronSpec {
                id,
                power: t.power.clone(),
                kind: s.kind.clone(),
                base,
                name: Some(s.name.clone()),
            });
        }
    }
    // Arrivals stay off the map until their power enters the war; then the referee lands each on
    // the free land hex nearest its port (house rule, issue 12). The port must lie on the map:
    // land within 20 km.
    for t in tables {
        for d in t.arrivals.iter().filter(|d| inside(theatre, &d.at)) {
            let (port, r) = b.nearest(&d.at, |h| map.is_land(h))?;
            if r > 4 {
                return Err(format!(
                    "arrival {} ({}): {} lies {} km off the map's land",
                    d.name,
                    t.power,
                    d.at.0,
                    r * 5
                ));
            }
            let kind = b.kind(&t.power, &d.kind)?;
            let turn = match d.date {
                Some(date) => Some(turn_of_date(def, &format!("arrival {}", d.name), date)?),
                None => None,
            };
            let id = b.add_force_as(d.id, &t.power, &d.name, kind, None)?;
            if let Some(f) = b.forces.iter_mut().find(|f| f.id == id) {
                f.arrives = Some(Arrival { at: port, turn });
            }
        }
    }
    b.forces.sort_by_key(|f| f.id);
    // The powers: every power with forces here and every owner of a province of the map (the
    // referee wants each owner to be a power of the scenario).
    let present = |id: &str| {
        b.forces.iter().any(|f| f.power == id)
            || b.fleets.iter().any(|f| f.power == id)
            || map.provinces.iter().any(|p| p.owner == id)
    };
    let mut powers = Vec::new();
    let mut census = Census::default();
    for p in list.powers.iter().filter(|p| present(&p.id)) {
        let mine = |owner: &str| owner == p.id;
        let (gdp, manpower) = map.provinces.iter().filter(|q| mine(&q.owner)).fold(
            p.off_map.map_or((0u64, [0u64; 2]), |(g, m)| (u64::from(g), [u64::from(m[0]), u64::from(m[1])])),
            |(g, m), q| (g + u64::from(q.gdp), [m[0] + u64::from(q.manpower[0]), m[1] + u64::from(q.manpower[1])]),
        );
        let units = b.forces.iter().filter(|f| f.power == p.id).count() as u64;
        let fleets = b.fleets.iter().filter(|f| f.power == p.id).count() as u64;
        let e = &list.economy;
        let turns = |x: u64, t: u32| u32::try_from(x * u64::from(t)).unwrap_or(u32::MAX);
        powers.push(PowerSpec {
            id: p.id.clone(),
            name: p.name.clone(),
            alliance: p.alliance,
            group: p.group,
            money: i64::from(turns(gdp, e.money_turns)),
            ammo: i64::from(turns(units, e.ammo_per_unit)) + i64::from(turns(fleets, e.ammo_per_fleet)),
            chem_shells: 0,
            cylinders: 0,
            manpower: [turns(manpower[0], e.manpower_turns), turns(manpower[1], e.manpower_turns)],
            techs: Techs::default(),
            local_climates: p.local_climates.clone(),
            entry: entry_of(def, p)?,
            capital: p.capital.clone().filter(|c| map.province_index(c).is_some()),
        });
        let count =
            |pred: &dyn Fn(&KindSpec) -> bool| b.forces.iter().filter(|f| f.power == p.id && pred(&f.kind)).count();
        let base = b.power_base(&p.id)?;
        census.powers.push((
            p.id.clone(),
            [
                count(&|k| matches!(k, KindSpec::Infantry { .. })),
                count(&|k| matches!(k, KindSpec::Cavalry { .. })),
                count(&|k| matches!(k, KindSpec::Artillery(_))),
                fleets as usize,
                b.corps.iter().filter(|c| c.id / 1000 == 100 + base).count(),
                b.armies.iter().filter(|a| (a.id - 200_000) / 100 == base).count(),
            ],
        ));
    }
    let max_turns = max_turns_of(def)?;
    let names_ru = english_names(&mut b, names)?;
    let scenario = ScenarioFile {
        name: def.name.clone(),
        map: def.map.clone(),
        units: def.units.clone(),
        rules: def.rules.clone(),
        start_turn: def.start_turn,
        max_turns,
        powers,
        forces: b.forces,
        corps: b.corps,
        armies: b.armies,
        fortifications: Vec::new(),
        cylinders: Vec::new(),
        aviation: def.aviation.clone(),
        fleets: b.fleets,
        squadrons: b.squadrons,
        // Mines and sea lanes need the map's sea areas: those of areas the map lacks wait for them.
        mines: def.mines.iter().filter(|m| map.sea_areas.iter().any(|a| a.id == m.area)).cloned().collect(),
        sea_lanes: def.sea_lanes.iter().filter(|l| map.sea_areas.iter().any(|a| a.id == l.area)).cloned().collect(),
        calendar: def.calendar,
        victory: def.victory.clone(),
        names_ru,
    };
    check_entries_by_the_end(def, &scenario)?;
    let text = write(def, &scenario)?;
    Ok(Generated { file: def.file.clone(), text, orders: Vec::new(), scenario, census, nudged: b.nudged })
}

/// Names the units, corps and armies named in Russian in English, and returns the Russian by ID
/// (the scenario's `names_ru`).
fn english_names(b: &mut Builder, names: &crate::names::RussianNames) -> Result<Vec<(u32, String)>, String> {
    use crate::names::is_russian;
    let mut ru = Vec::new();
    for f in &mut b.forces {
        if let Some(name) = f.name.as_mut().filter(|n| is_russian(n)) {
            let en = names.english(name)?;
            ru.push((f.id, std::mem::replace(name, en)));
        }
    }
    for c in b.corps.iter_mut().filter(|c| is_russian(&c.name)) {
        let en = names.english(&c.name)?;
        ru.push((c.id, std::mem::replace(&mut c.name, en)));
    }
    for a in b.armies.iter_mut().filter(|a| is_russian(&a.name)) {
        let en = names.english(&a.name)?;
        ru.push((a.id, std::mem::replace(&mut a.name, en)));
    }
    ru.sort_by_key(|(id, _)| *id);
    Ok(ru)
}

/// How many turns the scenario lasts: its `max_turns`, or from its first turn to the turn of its
/// `ends` date by the calendar (August 1914 to November 1918: 52 turns of a month).
fn max_turns_of(def: &ScenarioDef) -> Result<u32, String> {
    match (def.max_turns, def.ends) {
        (Some(n), None) => Ok(n),
        (None, Some(end)) => {
            let last = turn_of_date(def, "its last turn", end)?;
            Ok(last - def.start_turn + 1)
        }
        _ => Err(format!("{}: give either max_turns or ends, not both or neither", def.file)),
    }
}

/// A scenario that ends on a date is the whole war: every power's entry and every arrival comes
/// by its last turn, or the generator refuses it (issue 27: the USA of turn 33 never arrived in
/// a scenario of 20).
fn check_entries_by_the_end(def: &ScenarioDef, scenario: &ScenarioFile) -> Result<(), String> {
    if def.ends.is_none() {
        return Ok(());
    }
    let last = scenario.start_turn + scenario.max_turns - 1;
    for p in &scenario.powers {
        if let Some(turn) = p.entry.and_then(|e| e.turn).filter(|t| *t > last) {
            return Err(format!("{}: {} enters in turn {turn}, after the last turn {last}", def.file, p.id));
        }
    }
    for f in &scenario.forces {
        if let Some(turn) = f.arrives.and_then(|a| a.turn).filter(|t| *t > last) {
            return Err(format!("{}: unit {} arrives in turn {turn}, after the last turn {last}", def.file, f.id));
        }
    }
    Ok(())
}

/// The turn of a (year, month) by the scenario's calendar: after its first turn.
fn turn_of_date(def: &ScenarioDef, what: &str, (year, month): (u32, u32)) -> Result<u32, String> {
    use rules::strategic::campaign::Date;
    let calendar = def
        .calendar
        .ok_or_else(|| format!("{}: {what} comes on a date, but the scenario has no calendar", def.file))?;
    let date = Date {
        year: i32::try_from(year).map_err(|e| format!("{}: {what}: year {year}: {e}", def.file))?,
        month: u8::try_from(month).map_err(|e| format!("{}: {what}: month {month}: {e}", def.file))?,
    };
    calendar
        .turn_of(def.start_turn, date)
        .filter(|t| *t > def.start_turn)
        .ok_or_else(|| format!("{}: {what} comes in {date}, not after the scenario's first turn", def.file))
}

/// A power's entry into the war in the scenario format: at war from the start (none), on the turn
/// of its historical declaration by the scenario's calendar, or only when invaded.
fn entry_of(def: &ScenarioDef, p: &PowerOob) -> Result<Option<rules::strategic::campaign::Entry>, String> {
    use rules::strategic::campaign::{Date, Entry as Joins};
    Ok(match p.entry {
        Entry::AtWar => None,
        Entry::WhenInvaded => Some(Joins { turn: None, when_invaded: true }),
        Entry::Historical(year, month) => {
            let calendar = def
                .calendar
                .ok_or_else(|| format!("{}: {} enters on a date, but the scenario has no calendar", def.file, p.id))?;
            let date = Date {
                year: i32::try_from(year).map_err(|e| format!("{}: {}: year {year}: {e}", def.file, p.id))?,
                month: u8::try_from(month).map_err(|e| format!("{}: {}: month {month}: {e}", def.file, p.id))?,
            };
            let turn = calendar
                .turn_of(def.start_turn, date)
                .ok_or_else(|| format!("{}: {} enters on {date}, before the scenario starts", def.file, p.id))?;
            Some(Joins { turn: Some(turn), when_invaded: false })
        }
    })
}

/// The scenario's text: the header comment, then the file with one unit to a line.
fn write(def: &ScenarioDef, scenario: &ScenarioFile) -> Result<String, String> {
    let config = ron::ser::PrettyConfig::new().depth_limit(2).indentor("  ".to_string()).struct_names(false);
    let body = ron::Options::default()
        .with_default_extension(ron::extensions::Extensions::IMPLICIT_SOME)
        .to_string_pretty(scenario, config)
        .map_err(|e| e.to_string())?;
    // Fields at their default values are left out (the format reads them back the same; a test checks).
    let mut body = body;
    for default in [
        ", mountain: false",
        ", elite: false",
        ", colonial: None",
        ", health: None",
        ", morale: None",
        ", chem_shells: 0",
        ", cylinders: 0",
        ", techs: (tanks: false, gas: false, infantry: false)",
        ", local_climates: []",
        ", reserves: []",
        ", attached: []",
        ", intercept: false",
        ", withdraw: true",
    ] {
        body = body.replace(default, "");
    }
    for class in ["1", "2"] {
        body = body.replace(&format!("Cavalry(class: {class}, model: M1914"), &format!("Cavalry(class: {class}"));
    }
    let mut text = String::new();
    text.push_str("// Generated by `mapgen scenarios` from scenarios/great_war/data/: do not edit by hand.\n");
    for line in &def.header {
        text.push_str("// ");
        text.push_str(line);
        text.push('\n');
    }
    // The header line `#![enable(implicit_some)]` that ron writes stays first after the comment.
    let body = match body.strip_prefix('(') {
        Some(rest) => format!("GreatWarScenario({rest}"),
        None => body.replacen("\n(", "\nGreatWarScenario(", 1),
    };
    text.push_str(&body);
    text.push('\n');
    Ok(text)
}

impl std::fmt::Display for Census {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut total = [0usize; 6];
        for (_, c) in &self.powers {
            for (t, n) in total.iter_mut().zip(c) {
                *t += n;
            }
        }
        write!(
            f,
            "{} infantry, {} cavalry, {} artillery, {} fleets, {} corps, {} armies",
            total[0], total[1], total[2], total[3], total[4], total[5]
        )?;
        for (p, c) in self.powers.iter().filter(|(_, c)| c.iter().any(|n| *n > 0)) {
            write!(
                f,
                "\n  {p}: {} inf, {} cav, {} art, {} fleets, {} corps, {} armies",
                c[0], c[1], c[2], c[3], c[4], c[5]
            )?;
        }
        Ok(())
    }
}

/// The shortest path over water from `from` to the nearest of `goals` (breadth first, neighbours
/// in side order: deterministic), without its start; None when no goal is reachable in `limit`.
fn sea_path(map: &HexMap, from: HexAt, goal: impl Fn(HexAt) -> bool, limit: u32) -> Option<Vec<HexAt>> {
    let water = |h: HexAt| map.cell(h).is_some_and(|c| c.terrain.is_water());
    let mut came: std::collections::BTreeMap<HexAt, HexAt> = std::collections::BTreeMap::new();
    let mut frontier = vec![from];
    came.insert(from, from);
    for _ in 0..limit {
        let mut next = Vec::new();
        for h in frontier {
            if h != from && goal(h) {
                let mut path = vec![h];
                let mut at = h;
                while let Some(&p) = came.get(&at) {
                    if p == from {
                        break;
                    }
                    path.push(p);
                    at = p;
                }
                path.reverse();
                return Some(path);
            }
            for n in h.neighbours() {
                if water(n) && !came.contains_key(&n) {
                    came.insert(n, h);
                    next.push(n);
                }
            }
        }
        frontier = next;
    }
    None
}

/// Whether a water hex opens on at least 200 hexes of water (breadth first).
fn open_water(map: &HexMap, from: HexAt) -> bool {
    let water = |h: HexAt| map.cell(h).is_some_and(|c| c.terrain.is_water());
    let mut seen = std::collections::BTreeSet::from([from]);
    let mut frontier = vec![from];
    while !frontier.is_empty() && seen.len() < 200 {
        let mut next = Vec::new();
        for h in frontier {
            for n in h.neighbours() {
                if water(n) && seen.insert(n) {
                    next.push(n);
                }
            }
        }
        frontier = next;
    }
    seen.len() >= 200
}

/// The nearest water hex to a hex, ring by ring, each ring by (row, column).
fn nearest_water(map: &HexMap, centre: HexAt) -> Option<HexAt> {
    let water = |h: HexAt| map.cell(h).is_some_and(|c| c.terrain.is_water()) && open_water(map, h);
    (0..=SEARCH_RADIUS).find_map(|r| {
        let mut ring: Vec<HexAt> = (centre.row - r..=centre.row + r)
            .flat_map(|row| (centre.col - r - 1..=centre.col + r + 1).map(move |col| HexAt::new(col, row)))
            .filter(|h| h.distance(centre) == r as u32)
            .collect();
        ring.sort_by_key(|h| (h.row, h.col));
        ring.into_iter().find(|h| water(*h))
    })
}

/// Writes an order script as a RON list of orders for this scenario, playing each order as it goes
/// (fleets sail from where the game has them, after any battle).
fn write_orders(script: &OrderScript, sc: &Scenario) -> Result<String, String> {
    use rules::strategic::state::ForceId;
    let map = &sc.map;
    let projection = map.projection.as_ref().ok_or("the map records no projection")?;
    let unit = |name: &str| {
        sc.forces
            .iter()
            .find(|f| f.name.as_deref() == Some(name))
            .map(|f| f.id)
            .ok_or(format!("orders: no unit `{name}`"))
    };
    let fleet_id = |name: &str| {
        sc.fleets.iter().find(|f| f.name.starts_with(name)).map(|f| f.id).ok_or(format!("orders: no fleet `{name}`"))
    };
    let squadron = |name: &str| {
        sc.squadrons
            .iter()
            .find(|q| q.name.as_deref() == Some(name))
            .map(|q| q.id)
            .ok_or(format!("orders: no squadron `{name}`"))
    };
    let power = |id: &str| sc.power_index(id).ok_or(format!("orders: no power `{id}`"));
    let mut game = GreatWar::new(sc, script.seed);
    let fleet_at = |game: &GreatWar, id: u32| {
        game.state().navy.fleets.iter().find(|f| f.id == id).map(|f| f.at).ok_or(format!("orders: fleet {id} is gone"))
    };
    // The first ship afloat of a type in a fleet.
    let ship = |game: &GreatWar, fleet: u32, kind: ShipType| {
        let st = game.state();
        st.navy
            .ships
            .iter()
            .find(|s| s.fleet == fleet && s.kind == kind && !s.sunk)
            .map(|s| s.id)
            .ok_or(format!("orders: fleet {fleet} has no {kind:?} afloat"))
    };
    let mut lines: Vec<(Order, String)> = Vec::new();
    let mut play = |game: &mut GreatWar, order: Order, note: String| -> Result<(), String> {
        game.apply(order.clone()).map_err(|e| format!("orders: {order:?}: {e}"))?;
        lines.push((order, note));
        Ok(())
    };
    for step in &script.steps {
        match step {
            ScriptStep::End(n) => {
                for _ in 0..*n {
                    play(&mut game, Order::EndPhase, String::new())?;
                }
            }
            ScriptStep::Until(p, phase) => {
                let p = power(p)?;
                let mut guard = 0;
                while !(game.clock().phase == *phase && usize::from(game.clock().active) == p) {
                    play(&mut game, Order::EndPhase, String::new())?;
                    guard += 1;
                    if guard > 10_000 || game.is_over() {
                        return Err(format!("orders: the game never reaches {phase:?} of power {p}"));
                    }
                }
            }
            ScriptStep::Turns(n) => {
                let last = game.clock().turn + n;
                while game.clock().turn < last && !game.is_over() {
                    play(&mut game, Order::EndPhase, String::new())?;
                }
            }
            ScriptStep::Embark { unit: u, fleet } => {
                play(&mut game, Order::Embark { unit: ForceId(unit(u)?), fleet: fleet_id(fleet)? }, String::new())?
            }
            ScriptStep::Sail { fleet, to, hexes } => {
                let id = fleet_id(fleet)?;
                let from = fleet_at(&game, id)?;
                let goal =
                    nearest_water(map, projection.hex_of(to.1, to.2)).ok_or(format!("orders: no sea near {}", to.0))?;
                let path = sea_path(map, from, |h| h == goal, 600)
                    .ok_or(format!("orders: no sea path from {from} to {} ({goal})", to.0))?;
                let path: Vec<HexAt> = path.into_iter().take(*hexes as usize).collect();
                play(&mut game, Order::MoveFleet { fleet: id, path }, format!("toward {}", to.0))?;
            }
            ScriptStep::SailNextTo { fleet, target, hexes } => {
                let (id, tid) = (fleet_id(fleet)?, fleet_id(target)?);
                let (from, t) = (fleet_at(&game, id)?, fleet_at(&game, tid)?);
                let path = sea_path(map, from, |h| h.distance(t) == 1, *hexes)
                    .ok_or(format!("orders: {fleet} cannot reach {target}"))?;
                play(&mut game, Order::MoveFleet { fleet: id, path }, format!("next to {target}"))?;
            }
            ScriptStep::SubmarineAttack { flotilla, target } => {
                let order = Order::SubmarineAttack { flotilla: fleet_id(flotilla)?, target: fleet_id(target)? };
                play(&mut game, order, String::new())?
            }
            ScriptStep::LayMine { fleet } => {
                let id = fleet_id(fleet)?;
                if map.sea_area_at(fleet_at(&game, id)?).is_some() {
                    play(&mut game, Order::LayMine { fleet: id }, String::new())?;
                }
            }
            ScriptStep::Reconnaissance { squadron: q } => {
                play(&mut game, Order::Reconnaissance { squadron: squadron(q)? }, String::new())?
            }
            ScriptStep::Bomb { squadrons, fleet, ship: kind } => {
                let ids = squadrons.iter().map(|q| squadron(q)).collect::<Result<Vec<_>, _>>()?;
                let target = ship(&game, fleet_id(fleet)?, *kind)?;
                play(&mut game, Order::Bomb { squadrons: ids, ship: target }, String::new())?
            }
            ScriptStep::CoastalFire { unit: u, fleet, ship: kind } => {
                let target = ship(&game, fleet_id(fleet)?, *kind)?;
                play(&mut game, Order::CoastalFire { unit: ForceId(unit(u)?), ship: target }, String::new())?
            }
            ScriptStep::Disembark { unit: u, fleet } => {
                let h = fleet_at(&game, fleet_id(fleet)?)?;
                let st = game.state();
                let taken = |x: HexAt| {
                    st.forces.iter().any(|f| matches!(f.place, rules::strategic::state::Place::Map(p) if p == x))
                };
                let to = h
                    .neighbours()
                    .into_iter()
                    .find(|n| map.is_land(*n) && !taken(*n))
                    .ok_or(format!("orders: no free land next to {fleet}"))?;
                play(&mut game, Order::Disembark { unit: ForceId(unit(u)?), to }, String::new())?;
            }
        }
    }
    let mut text = String::from(
        "// Generated by `mapgen scenarios` from scenarios/great_war/data/scenarios.ron: do not edit by hand.\n",
    );
    for l in &script.header {
        text.push_str("// ");
        text.push_str(l);
        text.push('\n');
    }
    text.push_str("[\n");
    let options = ron::Options::default().with_default_extension(ron::extensions::Extensions::IMPLICIT_SOME);
    for (order, note) in lines {
        let one = options.to_string(&order).map_err(|e| e.to_string())?;
        if note.is_empty() {
            text.push_str(&format!("  {one},\n"));
        } else {
            text.push_str(&format!("  {one}, // {note}\n"));
        }
    }
    text.push_str("]\n");
    Ok(text)
}
