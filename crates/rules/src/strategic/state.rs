//! The Great War's state: ECS components of record, and the plain working copy the rules act on.
//!
//! As in the tactical module, an order loads a [`Ctx`] (forces sorted by ID, formations sorted by
//! ID, sparse hex state sorted by hex), the rules act on it in ID order, and it is stored back.
//! The same copy gives the canonical [`GameState`] that is hashed.

use super::event::Event;
use super::hexmap::{HexAt, HexMap, Terrain, flag};
pub use super::ids::{Clock, ForceId, FormationId, Phase, PowerId};
use super::scenario::Scenario;
use super::tables::{Model, Stats};
pub use super::tech::{Tech, Techs};
use crate::dice::{Dice, DiceState};
use crate::hash::{StateHash, hash_of};
use bevy_ecs::prelude::*;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::sync::Arc;

/// What a land unit is.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ForceKind {
    /// S-LAND-1…S-LAND-6. `group` after S-LAND-2.
    Infantry { group: u8, model: Model, class: u8, mountain: bool, elite: bool, colonial: bool },
    /// S-LAND-8; `model` M1916 = gas masks.
    Cavalry { class: u8, model: Model, elite: bool },
    /// S-LAND-9, index into the tank table.
    Tank { tank: u16 },
    /// S-ART-1, index into the gun table.
    Artillery { gun: u16 },
}

impl ForceKind {
    pub fn is_division(self) -> bool {
        matches!(self, ForceKind::Infantry { .. } | ForceKind::Cavalry { .. })
    }

    /// Infantry, cavalry and tanks: the units that fight in land combat (S-COMBAT-8 counts them).
    pub fn is_combatant(self) -> bool {
        !matches!(self, ForceKind::Artillery { .. })
    }

    pub fn is_artillery(self) -> bool {
        matches!(self, ForceKind::Artillery { .. })
    }

    pub fn is_elite(self) -> bool {
        matches!(self, ForceKind::Infantry { elite: true, .. } | ForceKind::Cavalry { elite: true, .. })
    }

    pub fn model(self) -> Option<Model> {
        match self {
            ForceKind::Infantry { model, .. } | ForceKind::Cavalry { model, .. } => Some(model),
            _ => None,
        }
    }
}

/// Where a unit is.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Place {
    Map(HexAt),
    /// Off-map reserve of an army (S-ARMY-6).
    Reserve(FormationId),
    /// Attached artillery of a corps or army: no counter (S-ARMY-5).
    Attached(FormationId),
    /// Aboard a transport (S-NAVAL-11), by ship ID.
    Embarked(u32),
    /// Left the map, to be restored (S-LOSS-1).
    Dispersed,
    /// Destroyed or captured (S-COMBAT-12).
    Destroyed,
    /// Not yet in the game: lands near this hex on its turn (house rule, issue 12). Last of the
    /// list, so the hashes of older games keep their numbers.
    Arriving(HexAt),
}

impl Place {
    pub fn hex(self) -> Option<HexAt> {
        match self {
            Place::Map(h) => Some(h),
            _ => None,
        }
    }
}

/// Health and Morale (heavy artillery has no Morale, S-COMBAT-10).
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Vitals {
    pub health: i32,
    pub max_health: i32,
    pub morale: Option<i32>,
    pub max_morale: Option<i32>,
}

/// Money and ammunition state of the unit this turn (S-SUP).
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SupplyState {
    /// Paid for in the last Upkeep (S-SUP-2).
    pub money: bool,
    /// Has ammunition for this turn's fighting (S-SUP-3).
    pub ammo: bool,
}

impl Default for SupplyState {
    fn default() -> Self {
        SupplyState { money: true, ammo: true }
    }
}

/// Front-line and encirclement counters (S-SUP-6, S-COMBAT-11).
#[derive(Component, Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct FrontLine {
    /// Consecutive Upkeeps ended on the front line.
    pub turns: u16,
    /// Consecutive Upkeeps ended encircled.
    pub encircled: u16,
    /// Hexside towards the first enemy that engaged the unit (S-COMBAT-7).
    pub front: Option<u8>,
    /// S-ARMY-9: the army the unit arrived at while it was fighting; the unit counts Attack for
    /// as long as that army fights and the unit stays next to it.
    #[serde(default)]
    pub attack_only: Option<FormationId>,
    /// S-ARMY-15: the hex an attacker began the turn of its attack on, kept while it stays in
    /// contact; it may withdraw there without penalty. `None` for a defender.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub attack_from: Option<HexAt>,
}

/// What a unit did this turn.
#[derive(Component, Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Activity {
    /// Movement points left this Movement phase.
    pub mp_left: u32,
    /// Moved this turn (S-COMBAT-2, "moved on its turn" of S-TURN-2).
    pub moved: bool,
    /// Fired a normal or gas shell this turn (S-ART-8).
    pub fired: bool,
    /// The hexsides (bit `1 << side`) across which it struck the flank or rear of an already
    /// engaged enemy this turn (S-COMBAT-6): the bonus is for the fight with the unit on that hex.
    #[serde(default)]
    pub flanks: u8,
    /// Built or improved a fortification this turn (S-FORT-1).
    pub fortified: bool,
    /// Hex where the unit began the turn (S-ARMY-15: an attacker may return there).
    pub start: Option<HexAt>,
    /// The enemy hex the unit's engagement is fought against this turn (S-COMBAT-8 resolution),
    /// named by an `Attack` order; `None` = the hex its front faces.
    #[serde(default)]
    pub target: Option<HexAt>,
}

/// Corps, army and battery membership.
#[derive(Component, Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Membership {
    pub corps: Option<FormationId>,
    /// Army of a corps member, or the army a reserve or attached unit belongs to.
    pub army: Option<FormationId>,
    /// Battery of three artillery divisions, named by its lowest member (S-ART-5).
    pub battery: Option<ForceId>,
}

/// Everything about one land unit, gathered from its components.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Force {
    pub id: ForceId,
    pub power: PowerId,
    pub kind: ForceKind,
    pub place: Place,
    pub vitals: Vitals,
    pub supply: SupplyState,
    pub front: FrontLine,
    pub activity: Activity,
    pub member: Membership,
}

impl Force {
    pub fn hex(&self) -> Option<HexAt> {
        self.place.hex()
    }

    pub fn on_map(&self) -> bool {
        matches!(self.place, Place::Map(_))
    }

    /// Still in the game (on the map, in reserve or attached).
    pub fn present(&self) -> bool {
        matches!(self.place, Place::Map(_) | Place::Reserve(_) | Place::Attached(_) | Place::Embarked(_))
    }
}

/// The owner of each unit.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct Owner(pub PowerId);

/// A corps (2–4 land units, one hex) or an army (2–4 corps), S-ARMY-2.
#[derive(Component, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Formation {
    pub id: FormationId,
    pub power: PowerId,
    pub kind: FormationKind,
    pub name: String,
    /// Corps: its land units (empty for an army).
    pub units: Vec<ForceId>,
    /// Army: its corps (empty for a corps).
    pub corps: Vec<FormationId>,
    /// The army fought in the last Combat phase (S-ARMY-10).
    pub engaged: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum FormationKind {
    Corps,
    Army,
}

/// A power's treasury and stocks.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PowerState {
    pub money: i64,
    pub ammo: i64,
    /// Chemical shells (S-CHEM-3).
    pub chem_shells: u32,
    /// Gas cylinders in store (S-CHEM-1).
    pub cylinders: u32,
    /// Manpower by class.
    pub manpower: [u32; 2],
    pub techs: Techs,
    /// Armies to leave without supply first when money is short (S-SUP-4).
    pub supply_last: Vec<FormationId>,
    /// Out of the game: it surrendered (issue 12, victory block).
    pub out: bool,
    /// Not yet at war (the scenario's `entry`): its units take no orders.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub neutral: bool,
    /// Powers it made peace with (S-CITY-4), sorted.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub peace: Vec<PowerId>,
    /// Its standing peace offer (S-CITY-4).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub offer: Option<super::treaty::PeaceOffer>,
}

/// A province's occupation (S-CITY).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ProvinceState {
    pub occupier: Option<PowerId>,
    pub devastated: bool,
    /// The sovereign a peace treaty gave it to, if not the map's owner (S-CITY-4).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ceded_to: Option<PowerId>,
}

/// Changing state of one hex (kept sparse).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct HexState {
    /// Fortification level 0–2 (S-FORT-1) and the alliance that built it (S-FORT-3).
    pub fort: u8,
    pub fort_alliance: u8,
    /// Turn the fortification reached its level (level 2 comes from the next turn on).
    pub fort_turn: u32,
    /// Damage taken in this Fire phase (S-TURN-3).
    pub damage: i32,
    /// City damage in this Fire phase (S-ART-4).
    pub city_damage: i32,
    pub city_destruction: u32,
    pub fortress_destroyed: bool,
    pub forest_destroyed: bool,
    /// A gas cylinder placed here (S-CHEM-1).
    pub cylinder: Option<PowerId>,
}

impl HexState {
    pub fn is_default(&self) -> bool {
        *self == HexState::default()
    }
}

/// Static data shared by every copy.
#[derive(Debug)]
pub struct StaticData {
    pub scenario: Scenario,
    pub names: Vec<(ForceId, String)>,
    /// The scenario's hash, taken once (a view names it; the map of Europe is large to hash).
    pub scenario_hash: StateHash,
}

impl StaticData {
    /// What every game of a scenario shares and never changes: the scenario (its map above all)
    /// and the names of its units.
    pub fn of(scenario: Scenario) -> Arc<StaticData> {
        let mut specs: Vec<_> = scenario.forces.iter().collect();
        specs.sort_by_key(|f| f.id);
        // Issue 27: a unit the scenario names keeps its name; one it does not is named as a
        // unit raised in the game (`Ctx::raised_msg`: its kind and its number among its power's
        // unnamed units of that kind), never by its ID.
        let names: Vec<(ForceId, String)> =
            specs.iter().filter_map(|f| Some((ForceId(f.id), f.name.clone()?))).collect();
        let scenario_hash = scenario.hash();
        Arc::new(StaticData { scenario, names, scenario_hash })
    }
}

#[derive(Resource, Clone, Debug)]
pub struct Statics(pub Arc<StaticData>);

/// The canonical, hashable state.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameState {
    pub clock: Clock,
    pub powers: Vec<PowerState>,
    pub provinces: Vec<ProvinceState>,
    pub hexes: Vec<(HexAt, HexState)>,
    pub forces: Vec<Force>,
    pub formations: Vec<Formation>,
    pub dice: DiceState,
    pub next_formation: u32,
    pub navy: super::naval::Navy,
}

impl GameState {
    pub fn hash(&self) -> StateHash {
        hash_of(self)
    }
}

/// Each power's treasury, stocks, research and standing, in the scenario's power order: a
/// resource of record, as the clock and the dice are (the forces and formations are entities).
#[derive(Resource, Clone, Debug, Default)]
pub struct Powers(pub Vec<PowerState>);

/// Each province's occupation, devastation and cession (S-CITY-1, S-CITY-4), in the map's
/// province order.
#[derive(Resource, Clone, Debug, Default)]
pub struct Provinces(pub Vec<ProvinceState>);

/// The hexes whose state is not the map's (trenches, fortification, gas, devastation: sparse).
#[derive(Resource, Clone, Debug, Default)]
pub struct HexStates(pub BTreeMap<HexAt, HexState>);

/// The ID the next formation raised in the game takes.
#[derive(Resource, Clone, Copy, Debug, Default)]
pub struct NextFormation(pub u32);

/// Maps force IDs to entities, sorted.
#[derive(Resource, Clone, Debug, Default)]
pub struct ForceIndex(pub Vec<(ForceId, Entity)>);

/// Orders applied so far.
#[derive(Resource, Clone, Debug, Default)]
pub struct OrderLog(pub Vec<super::order::Order>);

/// Everything that happened.
#[derive(Resource, Clone, Debug, Default)]
pub struct EventLog(pub Vec<Event>);

/// The working copy an order or phase acts on.
#[derive(Clone, Debug)]
pub struct Ctx {
    pub statics: Arc<StaticData>,
    pub clock: Clock,
    pub powers: Vec<PowerState>,
    pub provinces: Vec<ProvinceState>,
    pub hexes: BTreeMap<HexAt, HexState>,
    /// Sorted by ID.
    pub forces: Vec<Force>,
    /// Sorted by ID.
    pub formations: Vec<Formation>,
    pub next_formation: u32,
    pub dice: Dice,
    /// Fleets, ships, squadrons, mines and sea lanes.
    pub navy: super::naval::Navy,
    pub events: Vec<Event>,
    /// While a preview enumerates: battles are left pending in `deferred` for exact odds.
    pub defer_battles: bool,
    pub deferred: Option<super::naval::BattleRun>,
    /// Hex → forces standing there (rebuilt on load and after moves).
    pub occupancy: BTreeMap<HexAt, Vec<ForceId>>,
    /// Units a moderator's ruling keeps out of this Combat phase's engagements (S-COMBAT-3):
    /// set and cleared within the order that rules, never stored.
    pub withheld: Vec<ForceId>,
}

impl Ctx {
    pub fn map(&self) -> &HexMap {
        &self.statics.scenario.map
    }

    pub fn scenario(&self) -> &Scenario {
        &self.statics.scenario
    }

    pub fn force(&self, id: ForceId) -> Option<&Force> {
        self.forces.binary_search_by_key(&id, |f| f.id).ok().map(|i| &self.forces[i])
    }

    pub fn force_mut(&mut self, id: ForceId) -> Option<&mut Force> {
        self.forces.binary_search_by_key(&id, |f| f.id).ok().map(|i| &mut self.forces[i])
    }

    pub fn formation(&self, id: FormationId) -> Option<&Formation> {
        self.formations.binary_search_by_key(&id, |f| f.id).ok().map(|i| &self.formations[i])
    }

    pub fn formation_mut(&mut self, id: FormationId) -> Option<&mut Formation> {
        self.formations.binary_search_by_key(&id, |f| f.id).ok().map(|i| &mut self.formations[i])
    }

    pub fn name(&self, id: ForceId) -> String {
        self.statics
            .names
            .binary_search_by_key(&id, |(i, _)| *i)
            .ok()
            .map_or_else(|| self.raised_name(id), |i| self.statics.names[i].1.clone())
    }

    /// A unit's name as a line of text names it (issue 27): the scenario's name with its Russian
    /// beside where the scenario gives one (`names_ru`), a unit raised in the game by its kind and
    /// number in the reader's language. Its English is [`Ctx::name`].
    pub fn name_msg(&self, id: ForceId) -> crate::texts::Msg {
        use crate::texts::{Msg, NAME};
        // A unit's name from the data files (a proper name: its Russian where the scenario
        // gives one), under the tables' key for a lone name.
        match self.statics.names.binary_search_by_key(&id, |(i, _)| *i) {
            Ok(i) => {
                let en = &self.statics.names[i].1;
                match self.scenario().name_ru(id.0) {
                    Some(ru) => Msg::new(NAME).local("name", en.as_str(), ru),
                    None => Msg::new(NAME).arg("name", en),
                }
            }
            Err(_) => self.raised_msg(id),
        }
    }

    pub fn power_name(&self, p: PowerId) -> &str {
        self.scenario().powers.get(usize::from(p.0)).map_or("?", |s| s.name.as_str())
    }

    /// The power's key in the string tables (`gw.power.ID`), where the interface translates its name.
    pub fn power_key(&self, p: PowerId) -> String {
        self.scenario().powers.get(usize::from(p.0)).map_or_else(String::new, |s| format!("gw.power.{}", s.id))
    }

    pub fn alliance(&self, p: PowerId) -> u8 {
        self.scenario().powers.get(usize::from(p.0)).map_or(0, |s| s.alliance)
    }

    /// Enemies: of two alliances, and at war (neither neutral nor surrendered, no peace between them).
    pub fn hostile(&self, a: PowerId, b: PowerId) -> bool {
        self.alliance(a) != self.alliance(b) && self.at_war(a, b)
    }

    /// The power whose turn it is.
    pub fn active_power(&self) -> PowerId {
        PowerId(self.clock.active)
    }

    pub fn hex_state(&self, at: HexAt) -> HexState {
        self.hexes.get(&at).copied().unwrap_or_default()
    }

    pub fn hex_state_mut(&mut self, at: HexAt) -> &mut HexState {
        self.hexes.entry(at).or_default()
    }

    /// Forces on a hex, by ID.
    pub fn at(&self, at: HexAt) -> &[ForceId] {
        self.occupancy.get(&at).map_or(&[], Vec::as_slice)
    }

    pub fn rebuild_occupancy(&mut self) {
        self.occupancy.clear();
        for f in &self.forces {
            if let Place::Map(h) = f.place {
                self.occupancy.entry(h).or_default().push(f.id);
            }
        }
    }

    /// The power holding a hex (any land unit on it), if any.
    pub fn holder(&self, at: HexAt) -> Option<PowerId> {
        self.at(at).first().and_then(|id| self.force(*id)).map(|f| f.power)
    }

    /// Whether a hostile land unit of `p`'s enemies stands on `at`.
    pub fn enemy_on(&self, p: PowerId, at: HexAt) -> bool {
        self.holder(at).is_some_and(|q| self.hostile(p, q))
    }

    /// Whether a hex is next to a land unit hostile to `p` (S-COMBAT-4).
    pub fn next_to_enemy(&self, p: PowerId, at: HexAt) -> bool {
        at.neighbours().into_iter().any(|n| self.enemy_on(p, n))
    }

    /// Base stats of a unit from the tables (S-LAND-1, -5, -6, -8; tanks S-LAND-9; guns S-ART-1).
    pub fn stats(&self, kind: ForceKind) -> Stats {
        let t = &self.scenario().units;
        let none = Stats { attack: 0, defense: 0, f1: 0, f2: 0, health: 1, morale: 0 };
        match kind {
            ForceKind::Infantry { group, model, class, elite, mountain, .. } => {
                // S-LAND-5/6: mountain and elite units are class-1 units.
                let class = if elite || mountain { 1 } else { class };
                let s = t.infantry(group, model, class).unwrap_or(none);
                if elite { s.plus(ELITE_BONUS) } else { s }
            }
            ForceKind::Cavalry { class, elite, .. } => {
                let s = t.cavalry(if elite { 1 } else { class }).unwrap_or(none);
                if elite { s.plus(ELITE_BONUS) } else { s }
            }
            ForceKind::Tank { tank } => t.tanks.get(usize::from(tank)).map_or(none, |k| Stats {
                attack: k.attack,
                defense: 0,
                f1: 0,
                f2: 0,
                health: k.health,
                morale: k.morale,
            }),
            ForceKind::Artillery { gun } => t.guns.get(usize::from(gun)).map_or(none, |g| Stats {
                attack: g.attack,
                defense: 0,
                f1: 0,
                f2: 0,
                health: g.health,
                morale: 0,
            }),
        }
    }

    /// Movement allowance of a unit (S-LAND-3, S-LAND-8, MD-S3, MD-S4).
    pub fn speed(&self, kind: ForceKind) -> u32 {
        let t = &self.scenario().units;
        match kind {
            ForceKind::Infantry { .. } => t.infantry_speed,
            ForceKind::Cavalry { .. } => t.cavalry_speed,
            ForceKind::Tank { tank } => t.tanks.get(usize::from(tank)).map_or(0, |k| k.speed),
            ForceKind::Artillery { gun } => t.guns.get(usize::from(gun)).map_or(0, |g| g.speed),
        }
    }

    /// A unit's fortification column if it stands still there (S-FORT-4, S-FORT-6, S-TERR-1).
    pub fn defense_column(&self, f: &Force) -> DefenseColumn {
        let Some(at) = f.hex() else { return DefenseColumn::Open };
        let cell = self.map().cell(at).copied().unwrap_or_default();
        let hs = self.hex_state(at);
        let own_fort = hs.fort > 0 && hs.fort_alliance == self.alliance(f.power);
        if (cell.has(flag::FORTRESS) && !hs.fortress_destroyed)
            || (own_fort && hs.fort >= 2)
            || cell.terrain == Terrain::Mountains
        {
            DefenseColumn::F2
        } else if (own_fort && hs.fort == 1) || cell.has(flag::CITY) {
            DefenseColumn::F1
        } else {
            DefenseColumn::Open
        }
    }

    /// The corps or army a unit takes orders through (S-ARMY-3): its army, else its corps.
    pub fn commander(&self, f: &Force) -> Option<FormationId> {
        f.member.army.or(f.member.corps)
    }

    /// Ids of the on-map combat units of an army (through its corps) or a corps.
    pub fn formation_units(&self, id: FormationId) -> Vec<ForceId> {
        let Some(fm) = self.formation(id) else { return Vec::new() };
        let mut out: Vec<ForceId> = match fm.kind {
            FormationKind::Corps => fm.units.clone(),
            FormationKind::Army => {
                let mut v = fm.units.clone();
                for c in &fm.corps {
                    v.extend(self.formation(*c).map(|c| c.units.clone()).unwrap_or_default());
                }
                v
            }
        };
        out.sort();
        out.dedup();
        out
    }

    pub fn push(&mut self, event: Event) {
        self.events.push(event);
    }

    /// The canonical state.
    pub fn state(&self) -> GameState {
        GameState {
            clock: self.clock,
            powers: self.powers.clone(),
            provinces: self.provinces.clone(),
            hexes: self.hexes.iter().filter(|(_, s)| !s.is_default()).map(|(h, s)| (*h, *s)).collect(),
            forces: self.forces.clone(),
            formations: self.formations.clone(),
            dice: self.dice.state(),
            next_formation: self.next_formation,
            navy: self.navy.clone(),
        }
    }

    /// Loads the working copy from the world.
    /// The working copy of a game in `state`, on its static data.
    pub fn from_state(statics: Arc<StaticData>, state: &GameState) -> Ctx {
        let mut ctx = Ctx {
            statics,
            clock: state.clock,
            powers: state.powers.clone(),
            provinces: state.provinces.clone(),
            hexes: state.hexes.iter().copied().collect(),
            forces: state.forces.clone(),
            formations: state.formations.clone(),
            next_formation: state.next_formation,
            dice: crate::dice::Dice::from_state(&state.dice),
            navy: state.navy.clone(),
            events: Vec::new(),
            defer_battles: false,
            deferred: None,
            occupancy: BTreeMap::new(),
            withheld: Vec::new(),
        };
        ctx.rebuild_occupancy();
        ctx
    }

    pub fn load(world: &World) -> Ctx {
        let statics = world.resource::<Statics>().0.clone();
        let index = world.resource::<ForceIndex>();
        let forces: Vec<Force> = index.0.iter().filter_map(|(_, e)| read_force(world, *e)).collect();
        let mut formations: Vec<Formation> =
            world.iter_entities().filter_map(|e| e.get::<Formation>().cloned()).collect();
        formations.sort_by_key(|f| f.id);
        let mut ctx = Ctx {
            statics,
            clock: *world.resource::<Clock>(),
            powers: world.resource::<Powers>().0.clone(),
            provinces: world.resource::<Provinces>().0.clone(),
            hexes: world.resource::<HexStates>().0.clone(),
            forces,
            formations,
            next_formation: world.resource::<NextFormation>().0,
            dice: world.resource::<Dice>().clone(),
            navy: world.resource::<super::naval::Navy>().clone(),
            events: Vec::new(),
            defer_battles: false,
            deferred: None,
            occupancy: BTreeMap::new(),
            withheld: Vec::new(),
        };
        ctx.rebuild_occupancy();
        ctx
    }

    /// Writes the working copy back; returns its events (also appended to the event log).
    pub fn store(self, world: &mut World) -> Vec<Event> {
        let mut index = world.resource::<ForceIndex>().0.clone();
        let mut added = false;
        for f in &self.forces {
            match index.binary_search_by_key(&f.id, |(id, _)| *id) {
                Ok(i) => write_force(world, index[i].1, f),
                // Raised this order (issue 12 purchases): a new entity.
                Err(i) => {
                    index.insert(i, (f.id, spawn_force(world, f, self.name(f.id))));
                    added = true;
                }
            }
        }
        if added {
            world.insert_resource(ForceIndex(index));
        }
        let existing: Vec<(Entity, FormationId)> =
            world.iter_entities().filter_map(|e| e.get::<Formation>().map(|f| (e.id(), f.id))).collect();
        for (e, id) in &existing {
            match self.formation(*id) {
                Some(f) => {
                    world.entity_mut(*e).insert(f.clone());
                }
                None => {
                    world.despawn(*e);
                }
            }
        }
        for f in &self.formations {
            if !existing.iter().any(|(_, id)| *id == f.id) {
                world.spawn((f.clone(), Name::new(f.name.clone())));
            }
        }
        world.insert_resource(self.clock);
        world.insert_resource(self.dice.clone());
        world.insert_resource(self.navy.clone());
        world.insert_resource(Powers(self.powers.clone()));
        world.insert_resource(Provinces(self.provinces.clone()));
        world.insert_resource(HexStates(
            self.hexes.iter().filter(|(_, s)| !s.is_default()).map(|(h, s)| (*h, *s)).collect(),
        ));
        world.insert_resource(NextFormation(self.next_formation));
        let events = self.events;
        world.resource_mut::<EventLog>().0.extend(events.iter().cloned());
        events
    }

    /// Spawns a fresh world from this copy.
    pub fn store_new(self, world: &mut World) {
        let mut index = Vec::new();
        for f in &self.forces {
            index.push((f.id, spawn_force(world, f, self.name(f.id))));
        }
        world.insert_resource(ForceIndex(index));
        world.insert_resource(Statics(self.statics.clone()));
        world.insert_resource(self.statics.scenario.map.clone());
        self.store(world);
    }
}

/// Which Defense column a standing unit uses (S-FORT-4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum DefenseColumn {
    Open,
    F1,
    F2,
}

/// S-LAND-6, S-COMBAT-6: elite units are +10 on Attack and Defense values.
pub const ELITE_BONUS: i32 = 10;

fn read_force(world: &World, e: Entity) -> Option<Force> {
    let r = world.get_entity(e).ok()?;
    Some(Force {
        id: *r.get::<ForceId>()?,
        power: r.get::<Owner>()?.0,
        kind: *r.get::<ForceKind>()?,
        place: *r.get::<Place>()?,
        vitals: *r.get::<Vitals>()?,
        supply: *r.get::<SupplyState>()?,
        front: *r.get::<FrontLine>()?,
        activity: *r.get::<Activity>()?,
        member: *r.get::<Membership>()?,
    })
}

fn spawn_force(world: &mut World, f: &Force, name: String) -> Entity {
    world
        .spawn((
            f.id,
            Owner(f.power),
            f.kind,
            f.place,
            f.vitals,
            f.supply,
            f.front,
            f.activity,
            f.member,
            Name::new(name),
        ))
        .id()
}

fn write_force(world: &mut World, e: Entity, f: &Force) {
    world.entity_mut(e).insert((f.kind, f.place, f.vitals, f.supply, f.front, f.activity, f.member));
}
