//! The battle's state: ECS storage of record, and the plain working copy the rules act on.
//!
//! Units are entities with one component per concern; clock, command and dice are resources.
//! An order loads a [`Ctx`] (the units sorted by ID and the resources), the rules act on it
//! sequentially in unit-ID order, and it is stored back. The same copy, taken without the
//! storage, gives the canonical [`BattleState`] that is hashed and that previews start from.

pub use super::components::EndReason;
use super::components::*;
use super::config::RulesConfig;
use super::event::Event;
use super::grid::{Cell, Dir, GridMap, Terrain};
use super::order::Order;
use super::scenario::{BattleKind, Scenario};
use super::units::{Ability, Arm, UnitType};
use crate::dice::{Dice, DiceState};
use crate::hash::{StateHash, hash_of};
use bevy_ecs::prelude::*;
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// Everything about one unit, gathered from its components.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct UnitState {
    pub id: UnitId,
    pub side: Side,
    pub kind: TypeIndex,
    pub cell: Cell,
    pub facing: Dir,
    pub health: Health,
    pub status: Status,
    pub reactions: Reactions,
    pub skirmish: Option<Skirmishing>,
    pub concealed: bool,
    pub activity: TurnActivity,
    pub contact: Option<MeleeContact>,
    pub losses: Losses,
    pub formation: Option<u16>,
}

/// The end of a battle.
#[derive(Resource, Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Outcome {
    pub winner: Side,
    pub reason: EndReason,
    pub turn: u32,
    pub round: u32,
}

/// The canonical, hashable state of a battle (static data excluded: it is in the scenario hash).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BattleState {
    pub clock: Clock,
    pub sides: SideStates,
    pub command: CommandState,
    pub redoubts: Vec<Redoubt>,
    pub dice: DiceState,
    pub units: Vec<UnitState>,
    pub outcome: Option<Outcome>,
}

impl BattleState {
    pub fn hash(&self) -> StateHash {
        hash_of(self)
    }
}

/// What does not change during a battle, shared by every copy of it.
#[derive(Debug)]
pub struct StaticData {
    pub scenario: Scenario,
    /// Unit names in English and Russian, sorted by unit ID.
    pub names: Vec<(UnitId, String, String)>,
    /// Deployment zones (T-SETUP-2), per side index.
    pub zones: [Vec<Cell>; 2],
    /// Fortress cells (T-FORT-6), row-major; empty for field battles.
    pub fortress: Vec<bool>,
}

/// Shared handle to the static data.
#[derive(Resource, Clone, Debug)]
pub struct Statics(pub Arc<StaticData>);

impl StaticData {
    pub fn rules(&self) -> &RulesConfig {
        &self.scenario.rules
    }

    pub fn types(&self) -> &[UnitType] {
        &self.scenario.unit_types
    }

    pub fn unit_type(&self, kind: TypeIndex) -> &UnitType {
        &self.scenario.unit_types[usize::from(kind.0)]
    }

    pub fn attacker(&self) -> Side {
        self.scenario.attacker
    }

    pub fn is_fortress(&self) -> bool {
        self.scenario.kind == BattleKind::Fortress
    }

    pub fn in_fortress(&self, grid: &GridMap, cell: Cell) -> bool {
        grid.contains(cell) && self.fortress.get((cell.y * grid.width + cell.x) as usize).copied().unwrap_or(false)
    }

    pub fn zone(&self, side: Side) -> &[Cell] {
        &self.zones[side.index()]
    }
}

/// Orders applied so far (the replay log).
#[derive(Resource, Clone, Debug, Default)]
pub struct OrderLog(pub Vec<Order>);

/// Everything that happened, in plain language with every die (the event log).
#[derive(Resource, Clone, Debug, Default)]
pub struct EventLog(pub Vec<Event>);

/// The working copy an order acts on.
#[derive(Clone, Debug)]
pub struct Ctx {
    pub statics: Arc<StaticData>,
    /// Terrain with placed redoubts.
    pub grid: GridMap,
    pub clock: Clock,
    pub sides: SideStates,
    pub command: CommandState,
    pub redoubts: Vec<Redoubt>,
    pub dice: Dice,
    pub outcome: Option<Outcome>,
    /// Sorted by unit ID.
    pub units: Vec<UnitState>,
    /// Events of this order.
    pub events: Vec<Event>,
}

/// Builds the world of a new battle from a scenario.
pub fn spawn_battle(scenario: &Scenario, seed: u64) -> World {
    let mut world = World::new();
    let mut specs: Vec<_> = scenario.units.iter().collect();
    specs.sort_by_key(|u| u.id);
    let names = specs
        .iter()
        .map(|u| {
            let ty = scenario.unit_type(&u.unit);
            let name = u.name.clone().unwrap_or_else(|| ty.map_or_else(|| u.unit.clone(), |t| t.name.clone()));
            let name_ru = u.name_ru.clone().or_else(|| u.name.clone()).unwrap_or_else(|| {
                ty.map_or_else(
                    || u.unit.clone(),
                    |t| if t.name_ru.is_empty() { t.name.clone() } else { t.name_ru.clone() },
                )
            });
            (u.id, name, name_ru)
        })
        .collect();
    let fortress: Vec<bool> = if scenario.kind == BattleKind::Fortress {
        scenario.map.cells().map(|c| scenario.in_fortress(c)).collect()
    } else {
        Vec::new()
    };
    let statics = StaticData {
        scenario: scenario.clone(),
        names,
        zones: [scenario.zone(Side::Red), scenario.zone(Side::Blue)],
        fortress,
    };
    let all_placed = scenario.units.iter().all(|u| u.at.is_some() || u.reserve);
    let no_redoubts = scenario.red.redoubts == 0 && scenario.blue.redoubts == 0;
    let phase = if all_placed && no_redoubts {
        Phase::Battle
    } else if no_redoubts {
        Phase::Deployment
    } else {
        Phase::Redoubts
    };
    let defender = scenario.defender();
    let clock = Clock {
        turn: if phase == Phase::Battle { 1 } else { 0 },
        round: if phase == Phase::Battle { 1 } else { 0 },
        // T-SETUP-2: redoubts are placed by the defender first; T-SETUP-1/T-TURN-1: the attacker deploys and moves first.
        active: if phase == Phase::Redoubts && scenario.side(defender).redoubts > 0 {
            defender
        } else {
            scenario.attacker
        },
        phase,
        orders_this_turn: 0,
        setup_done: [false; 2],
    };
    let sides = SideStates {
        retreating: [false; 2],
        redoubts_left: [scenario.red.redoubts, scenario.blue.redoubts],
        capitulated: [false; 2],
        ask_terms: false,
        terms_asked: None,
    };
    let units: Vec<UnitState> = specs
        .iter()
        .map(|u| {
            let kind = scenario.unit_types.iter().position(|t| t.id == u.unit).unwrap_or(0);
            let ty = &scenario.unit_types[kind];
            let edge = scenario.side(u.side).edge;
            UnitState {
                id: u.id,
                side: u.side,
                kind: TypeIndex(kind as u16),
                cell: u.at.unwrap_or(Cell::new(-1, -1)),
                facing: u.facing.unwrap_or(edge.opposite()),
                health: Health { current: u.health.unwrap_or(ty.health), max: ty.health },
                status: if u.at.is_some() { Status::Active } else { Status::Undeployed },
                reactions: u.reactions.unwrap_or_default(),
                skirmish: u.skirmish.then_some(Skirmishing { disorganized: false }),
                concealed: false,
                activity: TurnActivity::default(),
                contact: None,
                losses: Losses::default(),
                formation: None,
            }
        })
        .collect();
    let mut ctx = Ctx {
        statics: Arc::new(statics),
        grid: scenario.map.clone(),
        clock,
        sides,
        command: CommandState::default(),
        redoubts: Vec::new(),
        dice: Dice::seeded(seed),
        outcome: None,
        units,
        events: Vec::new(),
    };
    ctx.form_default_command(scenario);
    if phase == Phase::Battle {
        ctx.begin_battle();
    }
    world.insert_resource(OrderLog::default());
    world.insert_resource(EventLog::default());
    ctx.store_new(&mut world);
    world
}

impl Ctx {
    /// Loads the working copy from the world.
    pub fn load(world: &World) -> Ctx {
        let statics = world.resource::<Statics>().0.clone();
        let index = world.resource::<UnitIndex>();
        let units = index.by_id.iter().filter_map(|(_, e)| read_unit(world, *e)).collect();
        let redoubts = {
            let mut v: Vec<Redoubt> = world.iter_entities().filter_map(|e| e.get::<Redoubt>().copied()).collect();
            v.sort_by_key(|r| (r.cell.y, r.cell.x));
            v
        };
        Ctx {
            grid: world.resource::<GridMap>().clone(),
            clock: *world.resource::<Clock>(),
            sides: *world.resource::<SideStates>(),
            command: world.resource::<CommandState>().clone(),
            redoubts,
            dice: world.resource::<Dice>().clone(),
            outcome: world.get_resource::<Outcome>().copied(),
            units,
            events: Vec::new(),
            statics,
        }
    }

    /// Writes the working copy back into the world it was loaded from.
    pub fn store(self, world: &mut World) -> Vec<Event> {
        let index = world.resource::<UnitIndex>().clone();
        for u in &self.units {
            if let Some(e) = index.get(u.id) {
                write_unit(world, e, u);
            }
        }
        let known: Vec<Cell> = world.iter_entities().filter_map(|e| e.get::<Redoubt>().map(|r| r.cell)).collect();
        for r in &self.redoubts {
            if !known.contains(&r.cell) {
                world.spawn((*r, Name::new(format!("Redoubt {}", r.cell))));
            }
        }
        self.store_resources(world);
        let mut events = self.events;
        world.resource_mut::<EventLog>().0.extend(events.iter().cloned());
        std::mem::take(&mut events)
    }

    fn store_resources(&self, world: &mut World) {
        world.insert_resource(self.grid.clone());
        world.insert_resource(self.clock);
        world.insert_resource(self.sides);
        world.insert_resource(self.command.clone());
        world.insert_resource(self.dice.clone());
        match self.outcome {
            Some(o) => world.insert_resource(o),
            None => {
                world.remove_resource::<Outcome>();
            }
        }
    }

    /// Spawns a fresh world's entities and resources from this copy.
    fn store_new(self, world: &mut World) {
        let mut by_id = Vec::with_capacity(self.units.len());
        for u in &self.units {
            let name = self.name(u.id);
            let e = world.spawn((u.id, Name::new(name))).id();
            write_unit(world, e, u);
            by_id.push((u.id, e));
        }
        for r in &self.redoubts {
            world.spawn((*r, Name::new(format!("Redoubt {}", r.cell))));
        }
        world.insert_resource(UnitIndex { by_id });
        world.insert_resource(Statics(self.statics.clone()));
        self.store_resources(world);
        if !self.events.is_empty() {
            world.resource_mut::<EventLog>().0.extend(self.events);
        }
    }

    /// A world holding this state alone (previews run on one).
    pub fn to_world(&self) -> World {
        let mut world = World::new();
        world.insert_resource(OrderLog::default());
        world.insert_resource(EventLog::default());
        let mut copy = self.clone();
        copy.events.clear();
        copy.store_new(&mut world);
        world
    }

    /// The canonical state.
    pub fn state(&self) -> BattleState {
        BattleState {
            clock: self.clock,
            sides: self.sides,
            command: self.command.clone(),
            redoubts: self.redoubts.clone(),
            dice: self.dice.state(),
            units: self.units.clone(),
            outcome: self.outcome,
        }
    }

    // ---- lookups -------------------------------------------------------------------------

    pub fn rules(&self) -> &RulesConfig {
        self.statics.rules()
    }

    pub fn ty(&self, u: &UnitState) -> &UnitType {
        self.statics.unit_type(u.kind)
    }

    pub fn idx(&self, id: UnitId) -> Option<usize> {
        self.units.binary_search_by_key(&id, |u| u.id).ok()
    }

    pub fn unit(&self, id: UnitId) -> Option<&UnitState> {
        self.idx(id).map(|i| &self.units[i])
    }

    pub fn unit_mut(&mut self, id: UnitId) -> Option<&mut UnitState> {
        self.idx(id).map(|i| &mut self.units[i])
    }

    pub fn name(&self, id: UnitId) -> String {
        self.name_in(id, false)
    }

    /// A unit's name in English, or in Russian.
    pub fn name_in(&self, id: UnitId, russian: bool) -> String {
        let names = &self.statics.names;
        names
            .binary_search_by_key(&id, |n| n.0)
            .map_or_else(|_| id.to_string(), |i| if russian { names[i].2.clone() } else { names[i].1.clone() })
    }

    /// The unit standing on a cell.
    pub fn at(&self, cell: Cell) -> Option<&UnitState> {
        self.units.iter().find(|u| u.status.on_field() && u.cell == cell)
    }

    pub fn terrain(&self, cell: Cell) -> Option<Terrain> {
        self.grid.terrain(cell)
    }

    pub fn arm(&self, u: &UnitState) -> Arm {
        self.ty(u).arm
    }

    pub fn has(&self, u: &UnitState, ability: Ability) -> bool {
        self.ty(u).has(ability)
    }

    /// IDs of the units on the field, in ID order.
    pub fn field_ids(&self) -> Vec<UnitId> {
        self.units.iter().filter(|u| u.status.on_field()).map(|u| u.id).collect()
    }

    /// Enemies orthogonally adjacent to a unit (T-MELEE-1), in ID order.
    pub fn adjacent_enemies(&self, u: &UnitState) -> Vec<UnitId> {
        let cells = u.cell.neighbours();
        self.units
            .iter()
            .filter(|e| e.status.on_field() && e.side != u.side && cells.contains(&e.cell))
            .map(|e| e.id)
            .collect()
    }

    pub fn in_contact(&self, u: &UnitState) -> bool {
        u.status.on_field() && !self.adjacent_enemies(u).is_empty()
    }

    /// Whether `viewer` can see the unit (T-TERR-2, see [`Ctx::hidden_from`]).
    pub fn visible_to(&self, u: &UnitState, viewer: Side) -> bool {
        !self.hidden_from(u, viewer)
    }

    /// A sum in English with this battle's unit names.
    pub fn sum_text(&self, sum: &super::event::Sum) -> String {
        sum.text_with(&crate::texts::Texts::english(), &|id| self.name(id))
    }

    pub fn push(&mut self, event: Event) {
        self.events.push(event);
    }

    /// Records a unit's change with the world-facing event list.
    pub fn set_status(&mut self, id: UnitId, status: Status) {
        if let Some(u) = self.unit_mut(id) {
            u.status = status;
            u.contact = None;
            u.concealed = false;
        }
    }
}

fn read_unit(world: &World, e: Entity) -> Option<UnitState> {
    let r = world.get_entity(e).ok()?;
    Some(UnitState {
        id: *r.get::<UnitId>()?,
        side: *r.get::<Side>()?,
        kind: *r.get::<TypeIndex>()?,
        cell: r.get::<Position>()?.0,
        facing: r.get::<Facing>()?.0,
        health: *r.get::<Health>()?,
        status: *r.get::<Status>()?,
        reactions: *r.get::<Reactions>()?,
        skirmish: r.get::<Skirmishing>().copied(),
        concealed: r.contains::<Concealed>(),
        activity: *r.get::<TurnActivity>()?,
        contact: r.get::<MeleeContact>().copied(),
        losses: *r.get::<Losses>()?,
        formation: r.get::<Member>().map(|m| m.0),
    })
}

fn write_unit(world: &mut World, e: Entity, u: &UnitState) {
    let mut ent = world.entity_mut(e);
    ent.insert((
        u.side,
        u.kind,
        Position(u.cell),
        Facing(u.facing),
        u.health,
        u.status,
        u.reactions,
        u.activity,
        u.losses,
    ));
    match u.skirmish {
        Some(s) => {
            ent.insert(s);
        }
        None => {
            ent.remove::<Skirmishing>();
        }
    }
    if u.concealed {
        ent.insert(Concealed);
    } else {
        ent.remove::<Concealed>();
    }
    match u.contact {
        Some(c) => {
            ent.insert(c);
        }
        None => {
            ent.remove::<MeleeContact>();
        }
    }
    match u.formation {
        Some(f) => {
            ent.insert(Member(f));
        }
        None => {
            ent.remove::<Member>();
        }
    }
}
